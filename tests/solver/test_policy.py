"""Advice: every legal option with its exact expected final score."""

from __future__ import annotations

import gc
import random
import sys
from dataclasses import replace
from itertools import product

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import yatzy
from tests.solver.games import random_moves, turn_starts
from yatzy.core import rules
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.scorecard import Scorecard
from yatzy.solver import Option, Strategy, UnreachableCard, kernels, turn


@pytest.fixture(scope="module")
def scandinavian() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yatzy"))


@pytest.fixture(scope="module")
def yahtzee() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yahtzee"))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def test_turn_start_is_one_roll_worth_the_expected_score(scandinavian: Strategy) -> None:
    game = yatzy.new_game(scandinavian.ruleset, ["Ann"], seed=1)
    [option] = scandinavian.advise(game)
    assert option.action == Roll()
    assert option.value == pytest.approx(scandinavian.expected_score, abs=1e-12)


def test_roll_value_is_the_mean_of_the_best_options_after_it(scandinavian: Strategy) -> None:
    card = Scorecard.parse(scandinavian.ruleset, "ones=3 sixes=24 chance=23 yatzy=50")
    start = scandinavian.advise_card(card)[0].value
    best = [scandinavian.advise_card(card, d, 2)[0].value
            for d in product(range(1, 7), repeat=5)]
    assert _mean(best) == pytest.approx(start, abs=1e-9)


def test_reroll_value_is_the_mean_over_the_new_dice(scandinavian: Strategy) -> None:
    card = Scorecard.parse(scandinavian.ruleset, "twos=6 one_pair=10")
    dice = (2, 6, 6, 3, 5)
    for option in scandinavian.advise_card(card, dice, 2):
        if not isinstance(option.action, Reroll):
            continue
        held = option.action.hold
        outcomes = []
        for new in product(range(1, 7), repeat=5 - len(held)):
            faces = iter(new)
            after = [dice[i] if i in held else next(faces) for i in range(5)]
            outcomes.append(scandinavian.advise_card(card, after, 1)[0].value)
        assert _mean(outcomes) == pytest.approx(option.value, abs=1e-9)


def test_score_value_is_the_total_plus_the_value_after(yahtzee: Strategy) -> None:
    card = Scorecard.parse(yahtzee.ruleset, "yahtzee=50 threes=9 fours=12")
    options = yahtzee.advise_card(card, (4, 4, 4, 4, 4), 0)
    # Forced Joker: fours are filled, so any open lower box, with the Joker points.
    assert {o.action.box for o in options if isinstance(o.action, Score)} == {
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
        "large_straight", "chance",
    }
    for option in options:
        assert isinstance(option.action, Score)
        box = option.action.box
        points = {"full_house": 25, "small_straight": 30, "large_straight": 40}.get(box, 20)
        after = card.fill(box, points, extra_yahtzee=True)
        assert option.value == pytest.approx(yahtzee.value(after), abs=1e-9)


def test_options_of_a_game_are_legal_distinct_and_ranked(scandinavian: Strategy) -> None:
    game = yatzy.new_game(scandinavian.ruleset, ["Ann", "Bo"], seed=5)
    for _ in range(12):
        game = game.roll()
        options = scandinavian.advise(game)
        values = [o.value for o in options]
        assert values == sorted(values, reverse=True)
        boxes = {o.action.box for o in options if isinstance(o.action, Score)}
        assert boxes == set(game.choices())
        kept = [tuple(sorted(game.dice[i] for i in o.action.hold))
                for o in options if isinstance(o.action, Reroll)]
        assert len(kept) == len(set(kept))
        assert len(kept) + 1 == len({tuple(sorted(s)) for s in _subsets(game.dice)})
        assert options == scandinavian.advise_card(game.card, game.dice, game.rolls_left)
        game = game.apply(options[0].action)
        while game.dice is not None:
            game = game.apply(scandinavian.advise(game)[0].action)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([["Ann"], ["Ann", "Bo"], ["Ann", "Bo", "Cy"]]), st.integers(0, 2**32),
       st.integers(0, 150))
def test_advice_on_a_game_is_advice_on_its_current_card(
        scandinavian: Strategy, players: list[str], seed: int, steps: int) -> None:
    """At a turn's start, mid-turn, between players' turns and after the game."""
    game = yatzy.new_game(scandinavian.ruleset, players, seed=seed, first_player="roll")
    game = random_moves(game, seed, steps)
    options = scandinavian.advise(game)
    if game.is_over:
        assert options == []
    else:
        assert options
        assert options == scandinavian.advise_card(game.card, game.dice, game.rolls_left)


def test_a_complete_card_has_no_advice_in_any_game(scandinavian: Strategy) -> None:
    game = yatzy.new_game(scandinavian.ruleset, ["Ann", "Bo"], seed=1)
    full = Scorecard.empty(scandinavian.ruleset)
    for box in full.ruleset.boxes:
        full = full.fill(box, 0)
    # No game reaches it: Ann's card is complete, Bo's is empty, and it is Ann's turn.
    odd = replace(game, cards=(full, game.cards[1]), starter=1)
    assert not odd.is_over and odd.card is full
    assert scandinavian.advise(odd) == scandinavian.advise_card(full) == []


def _subsets(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(d for i, d in enumerate(dice) if m >> i & 1) for m in range(32)]


def test_no_options_after_the_game(scandinavian: Strategy) -> None:
    card = Scorecard.empty(scandinavian.ruleset)
    for box in card.ruleset.boxes:
        card = card.fill(box, 0)
    assert scandinavian.advise_card(card, (1, 2, 3, 4, 5), 0) == []


def test_bad_situations_are_refused(scandinavian: Strategy) -> None:
    card = Scorecard.empty(scandinavian.ruleset)
    with pytest.raises(yatzy.IllegalMove, match="Rolls left after a roll must be 0 to 2"):
        scandinavian.advise_card(card, (1, 2, 3, 4, 5), 3)
    with pytest.raises(yatzy.InvalidDice):
        scandinavian.advise_card(card, (1, 2, 3), 1)
    with pytest.raises(UnreachableCard):
        scandinavian.advise_card(card.fill("threes", 4), (1, 2, 3, 4, 5))


@pytest.mark.parametrize("wrong", [None, "ones=3", 5, Scorecard, ["Ann"]])
def test_arguments_of_the_wrong_kind_are_told_with_our_errors(
    scandinavian: Strategy, wrong: object
) -> None:
    from yatzy.solver.winning import WinPlanner

    game_calls = [scandinavian.advise, scandinavian.win_chances, scandinavian.distribution,
                  WinPlanner(scandinavian).advise]
    for call in game_calls:
        with pytest.raises(yatzy.RulesError) as refused:
            call(wrong)
        assert refused.value.code == "not_a_game"
    card_calls = [scandinavian.advise_card, scandinavian.distribution_card,
                  scandinavian.value]
    for call in card_calls:
        with pytest.raises(yatzy.RulesError) as refused:
            call(wrong)
        assert refused.value.code == "not_a_scorecard"


def test_best_plays_a_sensible_move(scandinavian: Strategy) -> None:
    game = yatzy.new_game(scandinavian.ruleset, ["Ann"], seed=2).roll(dice=[6, 6, 6, 6, 6])
    assert scandinavian.best(game).action == Score("yatzy")


@pytest.mark.parametrize("options", [
    {"joker": "forced"}, {"joker": "gated"}, {"joker": "free"}, {"joker": "none"},
    {"yahtzee_bonus": False}, {"upper_first": True},
])
def test_every_score_option_is_its_points_plus_the_next_turns_value(options: dict[str, object]
                                                                    ) -> None:
    s = yatzy.strategy(yatzy.ruleset("yahtzee", **options))
    r = s.ruleset
    rng = random.Random(3)

    def roll() -> list[int]:
        dice = [rng.randint(1, 6) for _ in range(5)]
        return [dice[0]] * 5 if rng.random() < 0.4 else dice

    for _ in range(40):
        card = Scorecard.empty(r)
        for _ in range(rng.randrange(13)):
            dice = roll()
            choice = rules.choices(r, card, dice)
            box = rng.choice(sorted(choice))
            bonus = rules.earns_yahtzee_bonus(r, card, dice)
            card = card.fill(box, choice[box], extra_yahtzee=bonus)
        dice = roll()
        bonus = rules.earns_yahtzee_bonus(r, card, dice)
        expected = {box: s.value(card.fill(box, points, extra_yahtzee=bonus))
                    for box, points in rules.choices(r, card, dice).items()}
        got = {o.action.box: o.value for o in s.advise_card(card, dice, 0)}
        assert got == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("name, options", [("yahtzee", {}), ("yatzy", {"order": "in_order"})])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_advice_refuses_exactly_the_cards_no_game_reaches(
        name: str, options: dict[str, str], data: st.DataObject) -> None:
    """The compiled code reads a card's state itself: it must refuse the cards the model
    refuses (points a box cannot hold, boxes the play order cannot have filled) and
    value the others as the model does."""
    yahtzee = yatzy.strategy(yatzy.ruleset(name, **options))
    r = yahtzee.ruleset
    entries = [data.draw(st.one_of(st.none(), st.sampled_from(sorted(r.possible_points(b)))))
               for b in r.boxes]
    if data.draw(st.booleans()):  # one box with any number at all
        entries[data.draw(st.integers(0, len(entries) - 1))] = data.draw(st.integers(-2, 130))
    card = Scorecard(r, tuple(entries), data.draw(st.integers(0, 3)))
    dice = tuple(data.draw(st.lists(st.integers(1, 6), min_size=5, max_size=5)))
    try:
        state = yahtzee.model.state_of(card)
    except UnreachableCard:
        state = None
    if card.is_complete:
        assert yahtzee.advise_card(card, dice, 0) == []
    elif state is None:
        event("refused")
        with pytest.raises(UnreachableCard):
            yahtzee.advise_card(card, dice, 0)
    else:
        event("valued")
        options = yahtzee.advise_card(card, dice, 0)
        tables = yahtzee.turn_tables(card)
        roll = yahtzee.model.keeps.roll_index(tuple(sorted(dice)))
        by_box = {r.boxes[b]: card.total + v
                  for b, v in zip(tables.abox.tolist(), tables.vals[:, roll].tolist(),
                                  strict=True) if v > -1e17}
        assert {o.action.box: o.value for o in options} == pytest.approx(by_box, abs=1e-9)


def test_advice_on_the_same_state_adds_each_cards_own_total(scandinavian: Strategy) -> None:
    """Cards of one state share their turn values (kept from the last call), not totals."""
    r = scandinavian.ruleset
    low, high = Scorecard.parse(r, "chance=20"), Scorecard.parse(r, "chance=27")
    other = Scorecard.parse(r, "sixes=24")
    dice = (1, 2, 3, 4, 6)
    first = scandinavian.advise_card(low, dice, 1)
    scandinavian.advise_card(other, dice, 1)
    again = scandinavian.advise_card(high, dice, 1)
    assert [o.action for o in again] == [o.action for o in first]
    assert [o.value - 7 for o in again] == pytest.approx([o.value for o in first], abs=1e-9)
    scandinavian.forget()
    assert scandinavian.advise_card(low, dice, 1) == first


def _options_from_turn_tables(s: Strategy, game: yatzy.Game) -> list[Option]:
    """``advise(game)`` worked out in Python from the turn tables of ``Kernels.turn`` (the
    four-lane loops of the table build, not advice's own): the allowed boxes, then the
    kept multisets (the first dice of each face held) in the tables' order, best first."""
    card, dice = game.card, game.dice
    assert dice is not None
    mask, y, u = s.state_of(card)
    t = s.model.tables
    abox, values, keeps = turn.turn_tables(s.kernels, t, mask, y, u, s.ruleset.rolls - 1)
    vals = turn.box_matrix(t, abox, values)
    roll = s.model.keeps.roll_index(tuple(sorted(dice)))
    found: list[tuple[Action, float]] = [
        (Score(s.ruleset.boxes[b]), float(vals[i, roll])) for i, b in enumerate(abox.tolist())
        if vals[i, roll] > kernels.NEG / 2]
    left = game.rolls_left
    if left:
        for k in t.sub_keeps[roll, : t.sub_count[roll]].tolist():
            need = t.counts[k].tolist()
            held = []
            for pos, face in enumerate(dice):
                if need[face - 1]:
                    need[face - 1] -= 1
                    held.append(pos)
            found.append((Reroll(tuple(held)), float(keeps[left - 1, k])))
    found.sort(key=lambda o: -o[1])  # stable: equal values keep their order
    return [Option(a, v + card.total) for a, v in found]


@pytest.mark.parametrize("name, options", [
    ("yatzy", {}), ("yahtzee", {"joker": "gated"}), ("yahtzee", {"joker": "forced"}),
    ("yatzy", {"order": "in_order"})])
def test_advice_is_what_the_turn_tables_rank(name: str, options: dict[str, object]) -> None:
    """Advice's own loops (one state at a time, the passes only as far as the rolls left
    need them) rank every option of many random positions as the table build's loops
    value them, to the last bit, whatever the order the positions come in."""
    s = yatzy.strategy(yatzy.ruleset(name, **options))
    rng = random.Random(11)
    for i in range(150):
        game = yatzy.new_game(s.ruleset, ["Ann"], seed=i)
        for _ in range(rng.randrange(len(s.ruleset.boxes))):
            game = game.roll()
            game = game.score(rng.choice(sorted(game.choices())))
        game = game.roll()
        for _ in range(rng.randrange(s.ruleset.rolls)):
            game = game.reroll(rng.sample(range(s.ruleset.dice_count), rng.randrange(5)))
        if rng.random() < 0.5:
            s.forget()
        assert s.advise(game) == _options_from_turn_tables(s, game)
        if game.rolls_left:  # the same state with fewer rolls left, and back
            after = game.reroll([])
            assert s.advise(after) == _options_from_turn_tables(s, after)
            assert s.advise(game) == _options_from_turn_tables(s, game)


def _positions(s: Strategy, count: int, seed: int) -> list[yatzy.Game]:
    """Positions of random games of ``s``'s ruleset after a turn's first roll."""
    return [g.roll() for g in turn_starts(s.ruleset, count, seed)]


def _snapshot(options: list[Option]) -> list[tuple[Action, str]]:
    """The options as text that no later call can share: each action and its value's
    exact digits."""
    return [(o.action, o.value.hex()) for o in options]


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="options are not remade in place "
                    "from Python 3.14 on (tuples cache their hash)")
def test_advice_remakes_only_options_nobody_holds(scandinavian: Strategy) -> None:
    """Advice remakes the options of its last lists in place once nobody holds them
    (checked here through ``id``, so that the rest of the test is known to reach that
    path); a list, an option or a value the caller keeps never changes."""
    games = _positions(scandinavian, 60, seed=5)
    first = scandinavian.advise(games[0])
    ident = id(first[0])
    del first
    assert id(scandinavian.advise(games[1])[0]) == ident

    kept = [scandinavian.advise(g) for g in games[:20]]
    expected = [_snapshot(options) for options in kept]
    one = scandinavian.advise(games[20])[0]
    one_expected = (one.action, one.value.hex())
    value = scandinavian.advise(games[21])[1].value  # the option goes; its value stays
    value_expected = value.hex()
    for g in games:
        scandinavian.forget()
        scandinavian.advise(g)  # dropped at once: these are remade in place
        assert scandinavian.advise(g) == _options_from_turn_tables(scandinavian, g)
    assert [_snapshot(options) for options in kept] == expected
    assert (one.action, one.value.hex()) == one_expected
    assert value.hex() == value_expected
    assert [_snapshot(scandinavian.advise(g)) for g in games[:20]] == expected


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="options are not remade in place "
                    "from Python 3.14 on (tuples cache their hash)")
def test_an_option_remade_in_place_is_tracked_by_the_collector(
        scandinavian: Strategy) -> None:
    """The collector stops tracking a tuple that holds no containers. An option remade in
    place around an action that is a container is tracked again, so that cycles through
    it are still collected."""
    k, game = scandinavian.kernels, _positions(scandinavian, 1, seed=6)[0]
    card = game.card
    args = (card.entries, 0, game.dice, 2)
    n = len(scandinavian._actions)
    k.advise(*args, tuple(str(i) for i in range(n)), tuple)  # atoms: untracked below
    gc.collect()
    options = k.advise(*args, tuple([i] for i in range(n)), tuple)
    assert options and all(gc.is_tracked(o) for o in options)
