"""``yatzy score``: every box's points for some dice (for players with real dice).

The table is in the player's language (``--lang``, else ``LANG``); ``--json`` is for
programs and stays as it is.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from yatzy.cli.options import (
    add_language_argument,
    add_ruleset_arguments,
    command_translator,
    ruleset_from_args,
)
from yatzy.core.dice import Dice
from yatzy.i18n import Translator
from yatzy.i18n.words import box_label, ruleset_title


def register(subparsers: Any, t: Translator) -> None:
    parser = subparsers.add_parser(
        "score",
        help="print every box's points for some dice",
        description="Print what every box gives for the dice, e.g. `yatzy score 3 3 3 5 5`.",
    )
    add_ruleset_arguments(parser, t)
    parser.add_argument("dice", nargs="+", help="the faces, e.g. 3 3 3 5 5 (or 33355)")
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    add_language_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    t = command_translator(args)
    rules = ruleset_from_args(args)
    dice = Dice.parse(" ".join(args.dice), rules.dice_count)
    scores = rules.scores(dice)
    if args.json:
        print(json.dumps({"ruleset": rules.to_dict(), "dice": list(dice), "scores": scores}))
        return 0
    labels = {box: box_label(t, box) for box in rules.boxes}
    width = max(len(label) for label in labels.values())
    print(t._("{rules} · dice {dice}", rules=ruleset_title(t, rules), dice=str(dice)))
    for box in rules.boxes:
        print(f"  {labels[box]:<{width}}  {scores[box]:>3}")
    return 0
