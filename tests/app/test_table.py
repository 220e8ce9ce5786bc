"""The table (app layer): every action goes through the service and is saved at once; it
plays the computers' turns for every front end."""

from __future__ import annotations

import pytest

import yatzy
from yatzy.app import GameService, Seat
from yatzy.app.table import Table


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


def test_a_computer_step_is_chosen_once_then_played(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("cpu", "hard")], seed=4)
    table = Table.open(service, saved, seed=1)
    assert table.computer_choice() is None and table.pending is None  # Ann's turn
    with pytest.raises(yatzy.IllegalMove):
        table.play_computer()
    table.act(yatzy.Roll())
    table.act(yatzy.Score("chance"))
    first = table.computer_choice()
    assert first == yatzy.Roll() and table.pending == first
    assert table.computer_choice() is first  # asked again: the same step
    while table.game.current_player == "cpu":
        chosen = table.computer_choice()
        before = table.game
        after = table.play_computer()
        assert after.history[-1].action.to_dict()["type"] == chosen.to_dict()["type"]
        assert after is not before and table.pending is None
        assert service.load(saved.id).game == after
    assert table.game.turns_played == 2


def test_a_computer_roll_waits_for_real_dice(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("cpu", "greedy")], dice_mode="manual")
    table = Table.open(service, saved, seed=1)
    assert table.computer_choice() == yatzy.Roll()
    assert table.waiting_for_dice
    with pytest.raises(yatzy.IllegalMove):
        table.play_computer()  # no dice typed in
    assert table.game.history == () and table.waiting_for_dice
    table.play_computer([6, 6, 6, 6, 6])
    assert table.game.dice == (6, 6, 6, 6, 6)
    box = table.computer_choice()
    assert isinstance(box, yatzy.Score) and not table.waiting_for_dice
    with pytest.raises(yatzy.IllegalMove):
        table.play_computer([1, 2, 3, 4, 5])  # a box takes no dice
    assert table.play_computer().turns_played == 1


def test_a_stale_table_reloads_and_says_so(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=2)
    one, two = Table.open(service, saved), Table.open(service, saved)
    one.act(yatzy.Roll())
    with pytest.raises(yatzy.app.GameChanged):
        two.act(yatzy.Roll())
    assert two.game == one.game  # reloaded as stored; nothing applied twice
