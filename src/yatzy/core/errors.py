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
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class ErrorCode(StrEnum):
    """The error codes of the rules core. Each layer owns its codes (an enum of its
    own: ``SolverCode``, ``BotCode``, ``AppCode``, ``CliCode``, ``WebCode``) and
    registers their texts with :func:`register_error_texts`; every code has a text in
    every language (:func:`yatzy.i18n.words.error_text`), and a test holds the catalogs
    to it.

    Codes are strings (``ErrorCode.GAME_OVER == "game_over"``), unique across layers.
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
    NOTHING_TO_UNDO_TYPED = "nothing_to_undo_typed"
    NOT_YOUR_MOVE = "not_your_move"
    # Scorecards.
    BAD_CARD_TEXT = "bad_card_text"
    BOX_TWICE = "box_twice"
    BAD_POINTS = "bad_points"
    BAD_BONUS_COUNT = "bad_bonus_count"
    TOO_MANY_BONUSES = "too_many_bonuses"
    # Records.
    RECORD_NOT_JSON = "record_not_json"


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

    code: str = ErrorCode.RULES


class IllegalMove(BadInput):
    """An action that the rules do not allow now. The game is left unchanged."""

    code: str = ErrorCode.ILLEGAL_MOVE


class InvalidDice(IllegalMove):
    """Dice values that are not whole numbers from 1 to 6, or the wrong number of them."""

    code: str = ErrorCode.INVALID_DICE


class InvalidName(IllegalMove):
    """A player's name that cannot be: not text, empty, with control characters or lone
    surrogates, too long, or the same as another player's."""

    code: str = ErrorCode.BAD_NAME


class UnknownBox(RulesError, IllegalMove):
    """A box name the ruleset does not have (both a :class:`RulesError` and an
    :class:`IllegalMove`)."""

    code: str = ErrorCode.UNKNOWN_BOX


class RecordError(BadInput):
    """A game record that is malformed or does not replay.

    ``step`` is the 0-based index of the offending action, or ``None`` when the
    problem is in the record's header.
    """

    code: str = ErrorCode.RECORD

    def __init__(
        self, message: str, *, step: int | None = None, code: ErrorCode | None = None,
        **params: Any,
    ) -> None:
        super().__init__(message, code=code, step=step, **params)
        self.step = step



def N_(message: str) -> str:
    """Mark ``message`` (an English text) for translation without translating it: the
    catalogs' extraction finds it, :mod:`yatzy.i18n` translates it when shown."""
    return message


_TEXTS: dict[str, str] = {}
_PARAM_NAMES: dict[str, dict[str, str]] = {}
_CODE_SETS: list[type[StrEnum]] = []


def register_error_texts(codes: type[StrEnum], texts: Mapping[str, str],
                         param_names: Mapping[str, Mapping[str, str]] | None = None) -> None:
    """Register a layer's error ``codes`` and the English text of each (marked with
    :func:`N_`; placeholders name ``params`` entries, or other names through
    ``param_names``: ``{code: {placeholder: param}}``). Each layer calls it once, where
    its codes are defined; every code needs a text, and a code belongs to one layer."""
    missing = [code for code in codes if code not in texts]
    foreign = [code for code in texts if code not in codes.__members__.values()]
    taken = [code for code in codes if code in _TEXTS and codes not in _CODE_SETS]
    if missing or foreign or taken:
        raise YatzyError(f"Error codes of {codes.__name__}: missing texts {missing}, texts "
                         f"of other codes {foreign}, codes of another layer {taken}")
    if codes not in _CODE_SETS:
        _CODE_SETS.append(codes)
    _TEXTS.update((str(code), text) for code, text in texts.items())
    _PARAM_NAMES.update((str(code), dict(names)) for code, names in (param_names or {}).items())


def error_texts() -> Mapping[str, str]:
    """The English text of every registered error code (a live, read-only view)."""
    return MappingProxyType(_TEXTS)


def error_param_names() -> Mapping[str, Mapping[str, str]]:
    """Placeholders of :func:`error_texts` whose value is a ``params`` entry of
    another name (a live, read-only view)."""
    return MappingProxyType(_PARAM_NAMES)


def error_codes() -> tuple[type[StrEnum], ...]:
    """Every layer's registered enum of error codes (the layers imported so far)."""
    return tuple(_CODE_SETS)


register_error_texts(ErrorCode, {
    ErrorCode.ERROR: N_("That cannot be done: {detail}"),
    ErrorCode.RULES: N_("Those rules cannot be used: {detail}"),
    ErrorCode.ILLEGAL_MOVE: N_("That move is not allowed: {detail}"),
    ErrorCode.RECORD: N_("The game record does not replay: {detail}"),
    ErrorCode.NOT_A_RULESET: N_("A ruleset is needed here, not {value}"),
    ErrorCode.NOT_A_SCORECARD: N_("A scorecard of these rules is needed here, not {value}"),
    ErrorCode.NOT_A_GAME: N_("A game of these rules is needed here, not {value}"),
    ErrorCode.UNKNOWN_RULESET: N_("Unknown rules {name}; choose from {valid}"),
    ErrorCode.BAD_RULESET_DEFINITION: N_("The rules {name} cannot be added: {why}"),
    ErrorCode.UNKNOWN_OPTION: N_("Unknown option {option}; the options are {valid}"),
    ErrorCode.BAD_OPTION: N_("The option {option} cannot be {value}; choose from {valid}"),
    ErrorCode.UNKNOWN_BOX: N_("There is no box called {box}"),
    ErrorCode.INVALID_DICE: N_("Dice are numbers from 1 to 6"),
    ErrorCode.BAD_POSITION: N_("That is not a die on the table"),
    ErrorCode.BAD_HOLD: N_("Held dice are given by their positions, not {hold}"),
    ErrorCode.HOLD_ALL: N_("Reroll at least one die: you are holding all of them"),
    ErrorCode.UNKNOWN_ACTION: N_("Unknown action {action}: roll, reroll or score"),
    ErrorCode.BAD_PLAYERS: N_("The players must be a list of names"),
    ErrorCode.NO_PLAYERS: N_("Name at least one player"),
    ErrorCode.TOO_MANY_PLAYERS: N_("At most {n} players"),
    ErrorCode.BAD_NAME: N_("A player's name must be text, not {name}"),
    ErrorCode.NAME_EMPTY: N_("A player's name must not be empty"),
    ErrorCode.NAME_SPACES: N_("A player's name must not start or end with spaces: {name}"),
    ErrorCode.NAME_CONTROL: N_(
            "A player's name must be printable text, without control characters or line"
            " breaks: {name}"),
    ErrorCode.NAME_TOO_LONG: N_("A player's name has at most {most} characters"),
    ErrorCode.DUPLICATE_PLAYER: N_("Two players are called {name}: names must differ"),
    ErrorCode.UNKNOWN_PLAYER: N_("No player is called {player}"),
    ErrorCode.BAD_SEED: N_("The seed must be a whole number from 0 to {most}"),
    ErrorCode.BAD_SECRET_SEED: N_(
            "A seed is a whole number or a secret seed of 32 to 64 hex digits"),
    ErrorCode.BAD_FIRST_PLAYER: N_("The first player is chosen by seat or by a roll-off"),
    ErrorCode.BAD_ROLL_OFF: N_("Roll-off dice go with a roll-off: one roll per player"),
    ErrorCode.ROLL_OFF_INCOMPLETE: N_("The roll-off is tied: roll again"),
    ErrorCode.ROLL_OFF_OVERLONG: N_(
            "The roll-off was decided after {used} rolls, but {given} were given"),
    ErrorCode.GAME_OVER: N_("The game is over"),
    ErrorCode.NOT_YOUR_TURN: N_("It is {player}'s turn"),
    ErrorCode.DICE_NEEDED: N_("Type in the dice that were rolled"),
    ErrorCode.ALREADY_ROLLED: N_("You have rolled already: reroll some dice or choose a box"),
    ErrorCode.NO_ROLL: N_("Roll the dice first"),
    ErrorCode.NO_ROLLS_LEFT: N_("No rolls left this turn: choose a box"),
    ErrorCode.BOX_FILLED: N_("{box} is already filled"),
    ErrorCode.BOX_NOT_ALLOWED: N_("{box} cannot be filled now"),
    ErrorCode.NOTHING_TO_UNDO: N_("Only the last box chosen can be taken back"),
    ErrorCode.NOTHING_TO_UNDO_TYPED: N_(
            "Only the last box chosen or the dice just typed in can be taken back"),
    ErrorCode.NOT_YOUR_MOVE: N_("Only {player} can take back their move"),
    ErrorCode.BAD_CARD_TEXT: N_("Scorecard entries look like box=points, not {text}"),
    ErrorCode.BOX_TWICE: N_("{box} is given twice"),
    ErrorCode.BAD_POINTS: N_("{box} cannot hold {points} points"),
    ErrorCode.BAD_BONUS_COUNT: N_(
            "The number of Yahtzee bonuses must be a whole number, not {count}"),
    ErrorCode.TOO_MANY_BONUSES: N_("This scorecard has room for at most {most} Yahtzee bonuses"),
    ErrorCode.RECORD_NOT_JSON: N_("The game record is not valid JSON"),
}, {
    ErrorCode.TOO_MANY_PLAYERS: {"n": "most"},
})
