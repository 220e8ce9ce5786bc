"""``yatzy score``: every box's points for some dice (for players with real dice).

The table is in the player's language (``--lang``, else ``LANG``); ``--json`` is for
programs and stays as it is.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from yatzy.cli.options import add_ruleset_arguments, ruleset_from_args
from yatzy.core.dice import Dice
from yatzy.core.errors import YatzyError
from yatzy.i18n import LANGUAGES, language_from_env, translator
from yatzy.i18n.words import box_label, error_text, ruleset_title


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score",
        help="print every box's points for some dice",
        description="Print what every box gives for the dice, e.g. `yatzy score 3 3 3 5 5`.",
    )
    add_ruleset_arguments(parser)
    parser.add_argument("dice", nargs="+", help="the faces, e.g. 3 3 3 5 5 (or 33355)")
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.add_argument("--lang", choices=tuple(LANGUAGES),
                        help="language (default: from LANG, else English)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    t = translator(args.lang or language_from_env(os.environ))
    try:
        rules = ruleset_from_args(args)
        dice = Dice.parse(" ".join(args.dice), rules.dice_count)
    except YatzyError as error:
        print(f"yatzy: {error_text(t, error)}", file=sys.stderr)
        return 2
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
