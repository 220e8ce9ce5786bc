"""The end of a game: places (shared on equal totals) and the verdict."""

from __future__ import annotations

import yatzy
from yatzy.i18n import translator
from yatzy.tui.screens.end import ranking, verdict


def finished(players: list[str], dice: dict[str, list[int]]) -> yatzy.Game:
    """A one-roll game where each player rolls the same dice every turn."""
    game = yatzy.new_game(yatzy.ruleset("yatzy", rolls=1), players, seed=1)
    while not game.is_over:
        game = game.roll(dice[game.current_player])
        game = game.score(next(iter(game.choices())))
    return game


def test_equal_totals_share_the_place_and_the_win() -> None:
    game = finished(["Ann", "Bo", "Cy"], {"Ann": [6, 6, 6, 6, 6], "Bo": [6, 6, 6, 6, 6],
                                          "Cy": [1, 1, 2, 2, 3]})
    places = ranking(game)
    assert [p for p, _, _ in places] == [1, 1, 3]
    assert verdict(translator("en"), game, None) == "Ann, Bo share the win!"
    assert verdict(translator("sv"), game, None) == "Ann, Bo delar på segern!"


def test_one_winner() -> None:
    game = finished(["Ann", "Bo"], {"Ann": [1, 1, 2, 2, 3], "Bo": [6, 6, 6, 6, 6]})
    assert verdict(translator("da"), game, None) == "Bo vinder!"


def test_solitaire_against_the_best() -> None:
    game = finished(["Ann"], {"Ann": [6, 6, 6, 6, 6]})
    total = game.cards[0].total
    t = translator("en")
    assert verdict(t, game, None) == f"Ann scored {total}: your first game of these rules."
    assert verdict(t, game, total - 1) == f"{total}: a new best! Your best was {total - 1}."
    assert verdict(t, game, total) == f"{total}. Your best: {total}."
