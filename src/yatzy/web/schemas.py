"""The shapes of the web API's requests and answers (pydantic), for validation and for
the OpenAPI document at ``/docs``. Limits here bound sizes only; the rules (which
rulesets, options, names, dice and moves are allowed) are the core's, which answers
with a typed error that the web layer translates.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: A whole number of sane size (rules about its value are the core's).
SmallInt = Annotated[int, Field(ge=-(2**31), le=2**31)]
Name = Annotated[str, Field(max_length=64)]
OptionValue = str | bool | SmallInt


class SeatIn(BaseModel):
    """A seat: a person by name, or a computer by level (``{"bot": "hard"}``; a name is
    optional for a computer), or at a public table an open seat (``{"open": true}``)
    that anyone may take from the lobby."""

    model_config = ConfigDict(extra="forbid")
    name: Name | None = None
    bot: Annotated[str, Field(max_length=32)] | None = None
    open: bool = Field(default=False, description="A seat of a public table that waits "
                                                  "for a person to join")


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
    public: bool = Field(default=False, description="List the table in the lobby, where "
                                                    "anyone may take its open seats")


class SeatOut(BaseModel):
    """A person's seat in a new game: the secret token and the link that holds it."""

    name: str
    token: str
    url: str


class JoinIn(BaseModel):
    """``POST /api/games/{id}/join``: the name to sit under (by default the display name
    of the browser's ``X-Player-Key``)."""

    model_config = ConfigDict(extra="forbid")
    name: Name | None = None


class Joined(BaseModel):
    """The answer to a join: the seat taken, with its secret token and link."""

    id: str
    seat: SeatOut
    watch_url: str
    open_seats: int = Field(description="Seats still open (0: the game begins)")


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


class UndoIn(BaseModel):
    """``POST /api/games/{id}/undo``."""

    model_config = ConfigDict(extra="forbid")
    expected_version: Annotated[int, Field(ge=0, le=2**62)] | None = Field(
        default=None, description="The state's version the player saw; 409 if it moved on")


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    """Every error: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


class Health(BaseModel):
    status: Literal["ok"]


class Ready(BaseModel):
    """Ready: the game database answers. ``degraded`` while something the server can
    do without (``redis``, when it uses it) does not: it serves all the same."""

    status: Literal["ok", "degraded"]
    checks: dict[str, Literal["ok", "down"]]


class QrIn(BaseModel):
    """Text to draw as a QR code (an invite link)."""

    model_config = ConfigDict(extra="forbid")
    text: Annotated[str, Field(min_length=1, max_length=1000)]


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (403, 404, 409, 413, 422, 429, 503)
}


# --- The state of a game, and the websocket's messages -------------------------------


class RulesOut(BaseModel):
    """A ruleset: its name and every option's value."""

    name: str
    options: dict[str, Any]


class SeatState(BaseModel):
    name: str
    bot: str | None = Field(description="The computer's level; null for a person")
    connected: bool
    open: bool = Field(description="An open seat of a public table, waiting for a person "
                                   "to join (its name is a stand-in)")
    idle: bool = Field(default=False, description="A person's seat of a rated game whose "
                                                  "clock ran out: the computer of level "
                                                  "`bot` plays it, and the game counts "
                                                  "as lost for the person")


class RollOffOut(BaseModel):
    """One roll of the roll-off that decides who starts, and its sum."""

    player: str
    dice: list[int]
    total: int


class StepOut(BaseModel):
    """The last action played, with the dice it really used and what it scored."""

    model_config = ConfigDict(extra="allow")
    type: Literal["roll", "reroll", "score"]
    player: str
    points: int | None = None
    bonus: bool | None = None
    bonus_points: int | None = Field(
        default=None, description="Points of the extra-Yahtzee bonus it earned, if any")


class PlaceOut(BaseModel):
    """A player's place in the game (1 for the lead; tied players share it)."""

    place: int
    player: str
    total: int


class GameState(BaseModel):
    """A game as the web shows it: the same over HTTP and over the websocket, with no
    secret in it. Every value a page needs is worked out by the server (the core and
    the game's session); a page renders it and decides nothing."""

    id: str
    version: int = Field(description="Writes so far: send it back as expected_version")
    steps: int
    rules: RulesOut
    boxes: list[str]
    upper_boxes: list[str]
    dice_count: int
    players: list[str]
    seats: list[SeatState]
    dice_mode: Literal["server", "manual"]
    hints: bool
    seed_hash: str | None
    current_player: str | None = Field(description="null once the game is over")
    phase: Literal["person", "thinking", "showing", "dice", "over", "waiting"] = Field(
        description="What the game waits for: a person, a computer (choosing, or showing "
                    "the dice it keeps), a computer's real dice, nothing (over), players "
                    "to take the open seats of a public table (waiting)")
    dice: list[int] | None
    held: list[int] = Field(description="Positions of the dice kept: at the turn's last "
                                        "reroll, or a computer's keep while it shows it "
                                        "or waits for the real dice of its reroll")
    can_roll: bool = Field(description="The player to move may roll or reroll now")
    undo_by: str | None = Field(description="The player who may take back the box they "
                                            "just chose (POST …/undo), or null")
    rolls_left: int
    #: Each player's saved rolls (rolls earlier turns did not use; 0 unless the ruleset
    #: saves them); the player to move's are counted in ``rolls_left`` too.
    saved_rolls: dict[str, int]
    advice: bool = Field(description="The solver plays these rules and its table is ready: "
                                     "hints and the analysis are offered")
    chances: bool = Field(description="Win chances are offered too (not with saved rolls)")
    round: int
    rounds: int
    is_over: bool
    choices: dict[str, int] = Field(description="Each box that may be filled now, and its "
                                                "points")
    joker: bool
    bonus_pending: bool
    upper_par_delta: int | None
    upper_bonus_threshold: int
    upper_bonus_points: int
    extra_yahtzee_points: int
    scorecards: dict[str, dict[str, int | None]]
    winners: list[str]
    ranking: list[PlaceOut] = Field(description="Every player by total, highest first; "
                                                "tied players share their place")
    rematch: NewGame = Field(description="The body of POST /api/games that sets up this "
                                         "game again (rules, options, seats, dice, first "
                                         "player, hints)")
    last: StepOut | None
    pending: dict[str, Any] | None = Field(description="A computer's chosen step, not "
                                                       "played yet")
    waiting_for_dice: bool
    roll_off: list[RollOffOut]
    deadline: datetime | None = Field(
        default=None, description="A rated game's clock: when the person to move must "
                                  "have decided (roll, reroll or box; UTC), else null. "
                                  "Once it passes, a computer plays that seat")
    move_clock: float | None = Field(
        default=None, description="Seconds a person of this rated game has for each "
                                  "decision; null without a clock")
    texts: dict[str, str] | None = Field(
        default=None, description="What the rules say now, in the asked language")
    names: dict[str, str] | None = Field(
        default=None, description="How a page shows each player (by name), in the asked "
                                  "language: a computer named after its level by its level")


class ReplayPosition(BaseModel):
    step: int = Field(description="Actions shown")
    steps: int = Field(description="Actions in the game")


class ReplayState(GameState):
    """The game as it stood after some of its actions."""

    replay: ReplayPosition


class WelcomeMessage(BaseModel):
    """Sent first: the seat the token opens (null for a watcher)."""

    type: Literal["welcome"]
    seat: str | None


class StateMessage(BaseModel):
    """On connect and after every change."""

    type: Literal["state"]
    state: GameState


class ComputerMessage(BaseModel):
    """A computer shows the dice it keeps before it rerolls (``action`` is the reroll)."""

    type: Literal["computer"]
    player: str
    action: dict[str, Any]


class PresenceMessage(BaseModel):
    """A seat's connection came or went."""

    type: Literal["presence"]
    seat: str
    connected: bool


class ErrorMessage(BaseModel):
    """A message of this client was refused."""

    type: Literal["error"]
    error: ErrorDetail


class PongMessage(BaseModel):
    """The answer to ``{"type": "ping"}``."""

    type: Literal["pong"]


#: What the server sends over a game's websocket, tagged by ``type``.
ServerMessage = Annotated[
    WelcomeMessage | StateMessage | ComputerMessage | PresenceMessage | ErrorMessage
    | PongMessage, Field(discriminator="type")]


# --- Players and the daily challenge ---------------------------------------------------


class NameIn(BaseModel):
    """``PUT /api/me``: this browser's display name (the core checks it)."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=200)]


class MeOut(BaseModel):
    """This browser's player after ``PUT /api/me``."""

    name: str | None


class PlayerOut(BaseModel):
    """``GET /api/players/{name}``."""

    name: str
    rating: float | None = Field(
        description="Glicko-2 rating (1500 at first); null until a rated game counted")
    rating_deviation: float | None = Field(
        description="Glicko-2 rating deviation (350 at first); null until a rated game "
                    "counted")
    rated_games: int = Field(description="Rated games (quick match) that counted")
    provisional: bool = Field(description="True until 10 rated games")
    games: int = Field(description="Finished games this player's browsers sat in")
    points_lost_per_game: float | None = Field(
        description="Mean points lost against optimal play over the player's ranked daily "
                    "challenges (the games that are analysed); null before the first")
    streak: int = Field(description="Days in a row with a ranked daily challenge finished")
    multi_rating: float | None = Field(
        default=None, description="OpenSkill (Plackett-Luce) rating of rated tables of 3 "
                                  "to 6 players (25 at first); null until one counted")
    multi_rating_deviation: float | None = Field(
        default=None, description="Its uncertainty, sigma (8.33 at first)")
    multi_rated_games: int = Field(default=0, description="Rated tables that counted")
    multi_provisional: bool = Field(default=True, description="True until 10 counted")


class DailyOut(BaseModel):
    """One of today's challenges (``GET /api/daily``)."""

    rules: str
    date: str = Field(description="The UTC day, YYYY-MM-DD")
    seed_hash: str = Field(description="SHA-256 of the day's secret seed, revealed once "
                                       "the day is over")
    players: int = Field(description="Ranked attempts so far")


class DailyEntryOut(BaseModel):
    """A ranked attempt that counts (over before its day closed)."""

    player: str | None = Field(description="The player's display name; null for a player "
                                           "without one")
    total: int
    points_lost: float | None = Field(
        description="Points lost against optimal play; null where the solver does not "
                    "play the rules")
    rank: int = Field(description="By total, highest first (ties share a rank)")
    accuracy_rank: int | None = Field(description="By points lost, fewest first")
    game_id: str | None = Field(description="The attempt's game (for its replay), once "
                                            "the day is over")


class DailyMineOut(BaseModel):
    """The asking browser's own attempt (with ``X-Player-Key``)."""

    game_id: str
    total: int | None
    points_lost: float | None
    rank: int | None = Field(description="Null while the game is not over, or when it "
                                         "was over after the day closed")
    accuracy_rank: int | None
    of: int
    share: str | None = Field(description="The text to share, in the request's language, "
                                          "once the game is over")
    replay_url: str
    play_url: str | None = Field(description="The game's page, while it is not over")


class DailyResultsOut(BaseModel):
    """``GET /api/daily/{rules}/{date}``."""

    rules: str
    date: str
    seed_hash: str
    seed: str | None = Field(description="The secret seed, once the day is over: "
                                         "yatzy.audit_record checks every attempt with it")
    players: int
    par: int | None = Field(description="What optimal play scores on the day's dice; "
                                        "null where the solver does not play the rules")
    entries: list[DailyEntryOut]
    me: DailyMineOut | None = None
    streak: int | None = Field(default=None, description="The asking browser's streak")


class QuickMatchIn(BaseModel):
    """``POST /api/quick-match``: the ruleset to play (its standard options)."""

    model_config = ConfigDict(extra="forbid")
    rules: Annotated[str, Field(max_length=32, examples=["yatzy"])]


class TicketOut(BaseModel):
    """The answer to ``POST /api/quick-match``: the secret ticket to ask about, and
    where it stands at once (as ``GET /api/quick-match/{ticket}`` would say it)."""

    ticket: str
    status: Literal["waiting", "matched"] = Field(
        description="matched when an opponent was waiting (or asked at the same moment): "
                    "then game and seat_url are set and no question is needed")
    game: str | None = Field(description="The game's id once matched, else null")
    seat_url: str | None = Field(
        description="Once matched, this player's own seat link with its token, else null")


class QuickMatchOut(BaseModel):
    """``GET /api/quick-match/{ticket}``."""

    status: Literal["waiting", "matched"]
    game: str | None = Field(description="The game's id once matched, else null")
    seat_url: str | None = Field(
        description="Once matched, this player's own seat link with its token (as "
                    "POST /api/games gives), else null")
    waited: float = Field(description="Seconds since the ticket was made")
    offer: str | None = Field(
        description="After 20 s without an opponent: a computer level of about the "
                    "player's strength to play instead (an unrated game), else null")


# --- The lobby ------------------------------------------------------------------------


class LobbySeat(BaseModel):
    """A seat of a public table."""

    name: str | None = Field(description="As a page shows the player; null for an open seat")
    bot: str | None
    open: bool


class LobbyTable(BaseModel):
    """A public table waiting for players."""

    id: str
    rules: RulesOut
    title: str = Field(description="The ruleset's name, in the request's language")
    options_text: str = Field(description="Its options, in the request's language")
    seats: list[LobbySeat]
    taken: int
    free: int
    hints: bool
    created_at: str
    expires_at: str = Field(description="When the table closes unless someone joins")
    watch_url: str


class LobbyGame(BaseModel):
    """A public game in play, every seat taken: to watch."""

    id: str
    rules: RulesOut
    title: str
    options_text: str
    players: list[str] = Field(description="As a page shows them")
    round: int
    rounds: int
    rated: bool = Field(description="The result counts for the players' ratings (a "
                        "full table of named players; each person plays on the move clock)")
    created_at: str
    watch_url: str


class LobbyOut(BaseModel):
    """``GET /api/lobby``: newest first, a bounded number of each."""

    waiting: list[LobbyTable]
    live: list[LobbyGame]
    wait_minutes: int = Field(description="How long a table waits for its next player")


class LobbyMessage(BaseModel):
    """``/ws/lobby``: the lobby (as ``GET /api/lobby``), when the socket opens and
    whenever it changes."""

    type: Literal["lobby"]
    lobby: LobbyOut


#: What ``/ws/lobby`` sends.
LobbyServerMessage = Annotated[LobbyMessage | ErrorMessage | PongMessage,
                               Field(discriminator="type")]
