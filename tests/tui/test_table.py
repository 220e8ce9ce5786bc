"""The table: every action goes through the service and is saved at once."""

from __future__ import annotations

import pytest

import yatzy
from yatzy.app import GameService, Seat
from yatzy.tui.table import Table


def test_actions_are_saved_at_once(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("cpu", "greedy")], seed=2)
    table = Table.open(service, saved, seed=1)
    assert table.bot_to_play is None
    table.act(yatzy.Roll())
    table.act(yatzy.Reroll((0, 1)))
    assert service.load(saved.id).game == table.game
    table.act(yatzy.Score("chance"))
    assert table.bot_to_play is table.bot_for("cpu") is not None
    assert service.load(saved.id).game.current_player == "cpu"


def test_illegal_moves_change_nothing(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=2)
    table = Table.open(service, saved)
    with pytest.raises(yatzy.IllegalMove):
        table.act(yatzy.Score("chance"))
    assert service.load(saved.id).game.history == ()


def test_manual_dice(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], dice_mode="manual")
    table = Table.open(service, saved)
    assert table.manual
    table.act(yatzy.Roll(yatzy.Dice([6, 6, 6, 6, 1])))
    table.act(yatzy.Reroll((0, 1, 2, 3), yatzy.Dice([6])))
    assert table.game.dice == (6, 6, 6, 6, 6)


def test_solitaire_knows_the_best_before_this_game(service: GameService) -> None:
    rules = yatzy.ruleset("yatzy", rolls=1)
    saved = service.create(rules, [Seat("Ann")], seed=5)
    while not saved.finished:
        saved = service.apply(saved.id, yatzy.Roll())
        saved = service.apply(saved.id, yatzy.Score(next(iter(saved.game.choices()))))
    again = service.create(rules, [Seat("Ann")], seed=6)
    assert Table.open(service, again).best_before == saved.game.cards[0].total
    assert Table.open(service, saved).best_before is None
