"""Typed errors of the rules core, the one list of error codes, and a safe short repr.

Every error of :mod:`yatzy` is a :class:`YatzyError` with a message a player
understands, a machine-readable ``code`` (an :class:`ErrorCode`) and the data behind the
message in ``params``, so that an interface can translate it. One hierarchy serves every
layer, from the core to the web: an error about bad input (a rule broken, an argument
that cannot be) is a :class:`BadInput`, and so a :class:`ValueError`; the others (the
store failing, the solver missing, too much work at once) are not, so that code catching
bad input never swallows an outage.

Messages quote bad input with :func:`shown`, never with a bare ``repr``: a value handed
to the library can be anything (a number of 5,000 digits, a list nested 100,000 deep, a
text with lone surrogates), and building the message must not fail on it.

>>> shown("a" * 100)
"'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'"
>>> shown(10**5000)
'<a whole number of about 5001 digits>'
>>> shown([[[[[1]]]]])
'[[[[...]]]]'
"""

from __future__ import annotations

import reprlib
from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every error code of :mod:`yatzy`, in one place: each has a text in every
    language (:func:`yatzy.i18n.words.error_text`), and a test holds the catalogs to it.

    Codes are strings (``ErrorCode.GAME_OVER == "game_over"``). The core raises most of
    them; the groups below say which layer raises the others.
    """

    # The base classes' codes, for an error raised without a more precise one.
    ERROR = "error"
    RULES = "rules"
    ILLEGAL_MOVE = "illegal_move"
    RECORD = "record"
    # Arguments of the wrong kind.
    NOT_A_RULESET = "not_a_ruleset"
    NOT_A_SCORECARD = "not_a_scorecard"
    NOT_A_GAME = "not_a_game"
    # Rulesets and boxes.
    UNKNOWN_RULESET = "unknown_ruleset"
    BAD_RULESET_DEFINITION = "bad_ruleset_definition"
    UNKNOWN_OPTION = "unknown_option"
    BAD_OPTION = "bad_option"
    UNKNOWN_BOX = "unknown_box"
    # Dice and actions.
    INVALID_DICE = "invalid_dice"
    BAD_POSITION = "bad_position"
    BAD_HOLD = "bad_hold"
    HOLD_ALL = "hold_all"
    UNKNOWN_ACTION = "unknown_action"
    # Players and the start of a game.
    BAD_PLAYERS = "bad_players"
    NO_PLAYERS = "no_players"
    TOO_MANY_PLAYERS = "too_many_players"
    BAD_NAME = "bad_name"
    NAME_EMPTY = "name_empty"
    NAME_SPACES = "name_spaces"
    NAME_CONTROL = "name_control"
    NAME_TOO_LONG = "name_too_long"
    DUPLICATE_PLAYER = "duplicate_player"
    UNKNOWN_PLAYER = "unknown_player"
    BAD_SEED = "bad_seed"
    BAD_SECRET_SEED = "bad_secret_seed"
    BAD_FIRST_PLAYER = "bad_first_player"
    BAD_ROLL_OFF = "bad_roll_off"
    ROLL_OFF_INCOMPLETE = "roll_off_incomplete"
    ROLL_OFF_OVERLONG = "roll_off_overlong"
    # A turn.
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    DICE_NEEDED = "dice_needed"
    ALREADY_ROLLED = "already_rolled"
    NO_ROLL = "no_roll"
    NO_ROLLS_LEFT = "no_rolls_left"
    BOX_FILLED = "box_filled"
    BOX_NOT_ALLOWED = "box_not_allowed"
    NOTHING_TO_UNDO = "nothing_to_undo"
    # Scorecards.
    BAD_CARD_TEXT = "bad_card_text"
    BOX_TWICE = "box_twice"
    BAD_POINTS = "bad_points"
    BAD_BONUS_COUNT = "bad_bonus_count"
    TOO_MANY_BONUSES = "too_many_bonuses"
    # Records.
    RECORD_NOT_JSON = "record_not_json"
    # The solver (yatzy.solver).
    UNREACHABLE_CARD = "unreachable_card"
    BAD_ROLLS_LEFT = "bad_rolls_left"
    BAD_PERCENTILE = "bad_percentile"
    BAD_SCORE = "bad_score"
    NO_OPPONENTS = "no_opponents"
    SOLVER_MISSING = "solver_missing"
    # The game service and its store (yatzy.app, yatzy.storage).
    APP = "app"
    GAME_NOT_FOUND = "game_not_found"
    AMBIGUOUS_GAME_ID = "ambiguous_game_id"
    GAME_CHANGED = "game_changed"
    GAME_NOT_OVER = "game_not_over"
    UNKNOWN_BOT = "unknown_bot"
    BAD_SEATS = "bad_seats"
    BAD_DICE_MODE = "bad_dice_mode"
    DICE_NOT_ALLOWED = "dice_not_allowed"
    NOT_YOUR_MOVE = "not_your_move"
    COMPUTER_MOVE = "computer_move"
    ADVICE_BUSY = "advice_busy"
    SEATS_REFUSED = "seats_refused"
    LEVEL_NOT_OFFERED = "level_not_offered"
    LEVEL_NOT_READY = "level_not_ready"
    TOO_MANY_COMPUTERS = "too_many_computers"
    PERSON_NEEDED = "person_needed"
    TOO_MANY_GAMES = "too_many_games"
    NOT_COMPUTER_TURN = "not_computer_turn"
    BAD_PLAYER_KEY = "bad_player_key"
    BAD_QUERY = "bad_query"
    STORAGE = "storage"
    # Matches between computer players (yatzy.app.match).
    MATCH_LEVELS = "match_levels"
    MATCH_GAMES = "match_games"
    # The command line (yatzy.cli).
    FLAG_NOT_FOR_RULES = "flag_not_for_rules"
    COMMAND = "command"


class _Shown(reprlib.Repr):
    """:mod:`reprlib` with limits for messages, and whole numbers of any size."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxstring = self.maxother = 80
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        # repr() of a number past the interpreter's digit limit raises; its size is
        # what a person needs to see anyway.
        if x.bit_length() > 128:
            sign = "negative " if x < 0 else ""
            digits = int(x.bit_length() * 0.30103) + 1
            return f"<a {sign}whole number of about {digits} digits>"
        return super().repr_int(x, level)


_shown = _Shown()

#: The longest text :func:`shown` gives: reprlib's limits apply per level, so a few
#: nested containers of long texts would still add up to thousands of characters.
SHOWN_LENGTH = 100


def shown(value: object) -> str:
    """A short ``repr`` of ``value`` for a message: any value, of any size or depth."""
    try:
        text = _shown.repr(value)
    except Exception:  # a value that fools reprlib's dispatch by type name, say
        return f"<{type(value).__name__}>"
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 3] + "..."


class YatzyError(Exception):
    """Base class of every error raised by :mod:`yatzy` (see the module)."""

    code: str = ErrorCode.ERROR

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = params


class BadInput(YatzyError, ValueError):
    """An error about bad input: what was asked cannot be, and asking again the same way
    will not help. Every :class:`BadInput` is a :class:`ValueError`."""


class RulesError(BadInput):
    """An unknown ruleset, an unknown or invalid option, an unknown box, or a scorecard
    that cannot be."""

    code = ErrorCode.RULES


class IllegalMove(BadInput):
    """An action that the rules do not allow now. The game is left unchanged."""

    code = ErrorCode.ILLEGAL_MOVE


class InvalidDice(IllegalMove):
    """Dice values that are not whole numbers from 1 to 6, or the wrong number of them."""

    code = ErrorCode.INVALID_DICE


class InvalidName(IllegalMove):
    """A player's name that cannot be: not text, empty, with control characters or lone
    surrogates, too long, or the same as another player's."""

    code = ErrorCode.BAD_NAME


class UnknownBox(RulesError, IllegalMove):
    """A box name the ruleset does not have (both a :class:`RulesError` and an
    :class:`IllegalMove`)."""

    code = ErrorCode.UNKNOWN_BOX


class RecordError(BadInput):
    """A game record that is malformed or does not replay.

    ``step`` is the 0-based index of the offending action, or ``None`` when the
    problem is in the record's header.
    """

    code = ErrorCode.RECORD

    def __init__(
        self, message: str, *, step: int | None = None, code: ErrorCode | None = None,
        **params: Any,
    ) -> None:
        super().__init__(message, code=code, step=step, **params)
        self.step = step
