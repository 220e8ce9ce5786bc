"""Hints: moves in a player's words with the expected final score."""

from __future__ import annotations

from typing import NamedTuple

import yatzy
from yatzy.app.hints import describe_move, hint_text
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.i18n import LANGUAGES, translator


class Option(NamedTuple):
    action: Action
    value: float


def test_moves_in_words() -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
    t = translator("pt")
    assert describe_move(t, game, Roll()) == "lançar"
    game = game.roll([6, 6, 2, 6, 1])
    assert describe_move(t, game, Reroll((0, 1, 3))) == "guardar os dados 1 2 4 (6 6 6)"
    assert describe_move(t, game, Reroll((4,))) == "guardar o dado 5 (1)"
    assert describe_move(t, game, Reroll(())) == "relançar todos"
    assert describe_move(t, game, Score("full_house")) == "Full house"


def test_the_best_then_a_list() -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=1).roll([6, 6, 2, 6, 1])
    options = [Option(Reroll((0, 1, 3)), 250.25), Option(Score("sixes"), 248.0),
               Option(Score("chance"), 240.5)]
    t = translator("en")
    assert hint_text(t, game, options, 1) == (
        "Hint: keep dice 1 2 4 (6 6 6) (expected final score 250.2). Press h for more.")
    assert hint_text(t, game, options, 3).splitlines() == [
        "Best moves (expected final score):", "1. keep dice 1 2 4 (6 6 6) · 250.2",
        "2. Sixes · 248.0", "3. Chance · 240.5"]
    assert hint_text(translator("fi"), game, options[:1], 1).startswith(
        "Vihje: pidä nopat 1 2 4 (6 6 6) (odotettu loppupistemäärä 250,2)")
    assert hint_text(t, game, [], 1) == ""


def test_a_kept_die_is_named_by_its_key_in_every_language() -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=1).roll([2, 6, 5, 6, 1])
    for lang in LANGUAGES:
        text = describe_move(translator(lang), game, Reroll((1, 3)))
        assert text.endswith(" 2 4 (6 6)"), (lang, text)  # keys 2 and 4, faces 6 6
