"""Command-line options shared by sub-commands: choosing a ruleset and its options."""

from __future__ import annotations

import argparse

from yatzy.core.errors import ErrorCode, RulesError
from yatzy.core.rulesets import JOKERS, ORDERS, RULESET_NAMES, Ruleset, ruleset


def add_ruleset_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules`` and the options of every ruleset."""
    group = parser.add_argument_group("rules")
    group.add_argument("--rules", choices=RULESET_NAMES, default="yatzy",
                       help="the ruleset (default: yatzy, Scandinavian)")
    group.add_argument("--order", choices=ORDERS, help="yatzy: play order (default free)")
    group.add_argument("--joker", choices=JOKERS, help="yahtzee: Joker rules (default forced)")
    group.add_argument("--no-yahtzee-bonus", dest="yahtzee_bonus", action="store_false",
                       default=None, help="yahtzee: no +100 for extra Yahtzees")
    group.add_argument("--upper-first", dest="upper_first", action="store_true", default=None,
                       help="yahtzee: fill the upper section before the lower")
    group.add_argument("--rolls", type=int, help="rolls per turn (default 3)")


#: The command-line flag of each ruleset option.
FLAGS = {
    "order": "--order",
    "joker": "--joker",
    "yahtzee_bonus": "--no-yahtzee-bonus",
    "upper_first": "--upper-first",
    "rolls": "--rolls",
}


def ruleset_from_args(args: argparse.Namespace) -> Ruleset:
    """The ruleset the options of :func:`add_ruleset_arguments` ask for."""
    options = {
        key: getattr(args, key) for key in FLAGS if getattr(args, key, None) is not None
    }
    known = ruleset(args.rules).options
    for key in options:
        if key not in known:
            raise RulesError(
                f"{FLAGS[key]} is not an option of {args.rules}",
                code=ErrorCode.FLAG_NOT_FOR_RULES, flag=FLAGS[key], rules=args.rules,
            )
    return ruleset(args.rules, **options)
