"""The shapes of the web API's requests and answers (pydantic), for validation and for
the OpenAPI document at ``/docs``. Limits here bound sizes only; the rules (which
rulesets, options, names, dice and moves are allowed) are the core's, which answers
with a typed error that the web layer translates.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: A whole number of sane size (rules about its value are the core's).
SmallInt = Annotated[int, Field(ge=-(2**31), le=2**31)]
Name = Annotated[str, Field(max_length=64)]
OptionValue = str | bool | SmallInt


class SeatIn(BaseModel):
    """A seat: a person by name, or a computer by level (``{"bot": "hard"}``; a name is
    optional for a computer)."""

    model_config = ConfigDict(extra="forbid")
    name: Name | None = None
    bot: Annotated[str, Field(max_length=32)] | None = None


class NewGame(BaseModel):
    """``POST /api/games``: only ``rules`` and ``seats`` are required."""

    model_config = ConfigDict(extra="forbid")
    rules: Annotated[str, Field(max_length=32, examples=["yatzy", "yahtzee"])]
    options: Annotated[dict[Annotated[str, Field(max_length=32)], OptionValue],
                       Field(max_length=16)] = {}
    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=16)]
    dice: Literal["server", "manual"] = "server"
    first_player: Annotated[str, Field(max_length=16)] = "seat"
    hints: bool = False


class SeatOut(BaseModel):
    """A person's seat in a new game: the secret token and the link that holds it."""

    name: str
    token: str
    url: str


class GameCreated(BaseModel):
    """The answer to ``POST /api/games``."""

    id: str
    seats: list[SeatOut]
    watch_url: str
    seed_hash: str | None = Field(
        description="SHA-256 of the secret seed's text (server dice); the record reveals "
                    "the seed once the game is over")


class ActionIn(BaseModel):
    """``POST /api/games/{id}/actions`` and a seat's websocket message."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["roll", "reroll", "score"]
    hold: Annotated[list[SmallInt], Field(max_length=16)] | None = None
    box: Annotated[str, Field(max_length=32)] | None = None
    dice: Annotated[list[SmallInt], Field(max_length=16)] | None = Field(
        default=None, description="Manual-dice games only: the dice thrown")
    expected_version: Annotated[int, Field(ge=0, le=2**62)] | None = Field(
        default=None, description="The state's version the player saw; 409 if it moved on")

    def action(self) -> dict[str, Any]:
        """The action as the core reads it (``action_from_dict``)."""
        return self.model_dump(exclude={"expected_version"}, exclude_none=True)


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    """Every error: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


class Health(BaseModel):
    status: Literal["ok"]


class QrIn(BaseModel):
    """Text to draw as a QR code (an invite link)."""

    model_config = ConfigDict(extra="forbid")
    text: Annotated[str, Field(min_length=1, max_length=1000)]


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (403, 404, 409, 413, 422, 429, 503)
}
