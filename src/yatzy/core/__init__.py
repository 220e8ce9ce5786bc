"""The pure rules core: dice, rulesets, scoring, scorecards, actions and the game.

Standard library only: no I/O, no randomness (seeded dice are a pure function), no clock.
"""

from yatzy.core.actions import (
    Action,
    Reroll,
    Roll,
    Score,
    Undo,
    action_from_dict,
    parse_action,
)
from yatzy.core.dice import Dice
from yatzy.core.errors import (
    BadInput,
    ErrorCode,
    IllegalMove,
    InvalidDice,
    InvalidName,
    RecordError,
    RulesError,
    UnknownBox,
    YatzyError,
)
from yatzy.core.game import Game, RollOff, Step
from yatzy.core.rulesets import RULESET_NAMES, Ruleset, ruleset
from yatzy.core.scorecard import Scorecard

__all__ = [
    "RULESET_NAMES",
    "Action",
    "BadInput",
    "Dice",
    "ErrorCode",
    "Game",
    "IllegalMove",
    "InvalidDice",
    "InvalidName",
    "RecordError",
    "Reroll",
    "Roll",
    "RollOff",
    "RulesError",
    "Ruleset",
    "Score",
    "Scorecard",
    "Step",
    "Undo",
    "UnknownBox",
    "YatzyError",
    "action_from_dict",
    "parse_action",
    "ruleset",
]
