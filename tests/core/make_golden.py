"""Write the golden game records (run by hand only when the record format changes):

    python -m tests.core.make_golden
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import yatzy
from yatzy.bots import make_bot, play_turn

GOLDEN = Path(__file__).with_name("golden")

CASES = {
    "yatzy_free_solo": (yatzy.ruleset("yatzy"), ["Solo"], 2024, "seat"),
    "yatzy_in_order_duo": (yatzy.ruleset("yatzy", order="in_order"), ["Ann", "Bo"], 7, "seat"),
    "yatzy_upper_first": (yatzy.ruleset("yatzy", order="upper_first"), ["Ann"], 31, "seat"),
    "yahtzee_forced_trio": (yatzy.ruleset("yahtzee"), ["Ann", "Bo", "Cy"], 5, "roll"),
    "yahtzee_gated_upper_first": (
        yatzy.ruleset("yahtzee", joker="gated", upper_first=True), ["Ann", "Bo"], 77, "roll"),
}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (rules, players, seed, mode) in CASES.items():
        g = yatzy.new_game(rules, players, seed=seed, first_player=mode)
        bot = make_bot("greedy", random.Random(seed))
        while not g.is_over:
            g = play_turn(g, bot)
        (GOLDEN / f"{name}.json").write_text(json.dumps(g.to_record(), indent=1) + "\n")


if __name__ == "__main__":
    main()
