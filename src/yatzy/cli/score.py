"""``yatzy score``: every box's points for some dice (for players with real dice)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from yatzy.cli.options import add_ruleset_arguments, ruleset_from_args
from yatzy.core.dice import Dice


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score",
        help="print every box's points for some dice",
        description="Print what every box gives for the dice, e.g. `yatzy score 3 3 3 5 5`.",
    )
    add_ruleset_arguments(parser)
    parser.add_argument("dice", nargs="+", help="the faces, e.g. 3 3 3 5 5 (or 33355)")
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules = ruleset_from_args(args)
    dice = Dice.parse(" ".join(args.dice))
    scores = rules.scores(dice)
    if args.json:
        print(json.dumps({"ruleset": rules.to_dict(), "dice": list(dice), "scores": scores}))
        return 0
    width = max(len(rules.label(b)) for b in rules.boxes)
    print(f"{rules} — dice {dice}")
    for box in rules.boxes:
        print(f"  {rules.label(box):<{width}}  {scores[box]:>3}")
    return 0
