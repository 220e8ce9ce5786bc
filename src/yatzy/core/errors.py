"""Typed errors of the rules core.

Every error is a :class:`ValueError` with a message a player understands. Each also
carries a machine-readable ``code`` and the data behind the message in ``params``, so
that an interface can translate it.
"""

from __future__ import annotations

from typing import Any


class YatzyError(ValueError):
    """Base class of every error raised by :mod:`yatzy`."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = params


class RulesError(YatzyError):
    """An unknown ruleset, an unknown or invalid option, or an unknown box."""

    code = "rules"


class IllegalMove(YatzyError):
    """An action that the rules do not allow now. The game is left unchanged."""

    code = "illegal_move"


class InvalidDice(IllegalMove):
    """Dice values that are not whole numbers from 1 to 6, or the wrong number of them."""

    code = "invalid_dice"


class UnknownBox(RulesError, IllegalMove):
    """A box name the ruleset does not have (both a :class:`RulesError` and an
    :class:`IllegalMove`)."""

    code = "unknown_box"


class RecordError(YatzyError):
    """A game record that is malformed or does not replay.

    ``step`` is the 0-based index of the offending action, or ``None`` when the
    problem is in the record's header.
    """

    code = "record"

    def __init__(self, message: str, *, step: int | None = None, **params: Any) -> None:
        super().__init__(message, step=step, **params)
        self.step = step
