"""Property-based tests: random legal games, replay, illegal actions, choices."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yatzy
from yatzy import IllegalMove, Reroll, Roll, Score
from yatzy.core import rules
from yatzy.core.game import Game
from yatzy.core.rules import check_choice
from yatzy.core.scorecard import Scorecard

RULESETS = st.one_of(
    st.builds(lambda o: yatzy.ruleset("yatzy", order=o),
              st.sampled_from(["free", "upper_first", "in_order"])),
    st.builds(lambda j, b, u: yatzy.ruleset("yahtzee", joker=j, yahtzee_bonus=b, upper_first=u),
              st.sampled_from(["forced", "gated", "free", "none"]), st.booleans(), st.booleans()),
)
DICE = st.lists(st.integers(1, 6), min_size=5, max_size=5)
# Five of a kind often, so that Jokers and bonuses come up.
ROLL = st.one_of(DICE, st.integers(1, 6).map(lambda f: [f] * 5))


@st.composite
def games(draw: st.DrawFn, finish: bool = True) -> Game:
    rules = draw(RULESETS)
    players = draw(st.sampled_from([["Ann"], ["Ann", "Bo"], ["Ann", "Bo", "Cy"]]))
    mode = draw(st.sampled_from(["seat", "roll"]))
    g = yatzy.new_game(rules, players, seed=draw(st.integers(0, 2**53 - 1)),
                       first_player=mode)
    limit = None if finish else draw(st.integers(0, 60))
    steps = 0
    while not g.is_over and (limit is None or steps < limit):
        steps += 1
        if g.dice is None:
            g = g.roll(draw(st.one_of(st.none(), ROLL)))
            continue
        options = g.choices()
        assert options, "a rolled turn always has a box to fill"
        if g.rolls_left and draw(st.booleans()):
            hold = draw(st.lists(st.integers(0, 4), unique=True, max_size=4))
            dice = draw(st.one_of(st.none(), st.lists(st.integers(1, 6), min_size=5 - len(hold),
                                                      max_size=5 - len(hold))))
            g = g.reroll(hold, dice)
        else:
            g = g.score(draw(st.sampled_from(sorted(options))))
    return g


@settings(max_examples=60, deadline=None)
@given(games())
def test_random_legal_games_finish_with_valid_totals(g: Game) -> None:
    assert g.is_over
    for player in g.players:
        card = g.scorecard(player)
        assert card.is_complete
        assert card.total == card.upper_sum + card.upper_bonus + card.yahtzee_bonus + \
            card.lower_sum
        assert card.upper_bonus in (0, g.ruleset.upper_bonus_points)
        assert (card.upper_bonus > 0) == (card.upper_sum >= 63)
        if card[g.ruleset.yahtzee_box] != 50 or not g.ruleset.extra_yahtzee_points:
            assert card.yahtzee_bonus == 0
        assert all(v is not None and v >= 0 for v in card.values())
    assert set(g.winners()) <= set(g.players)
    best = max(g.scorecard(p).total for p in g.players)
    assert all(g.scorecard(p).total == best for p in g.winners())


@settings(max_examples=60, deadline=None)
@given(games(finish=False))
def test_record_replays_to_an_identical_game(g: Game) -> None:
    record = g.to_record()
    assert json.loads(json.dumps(record)) == record
    again = Game.from_record(json.loads(json.dumps(record)))
    assert again == g
    assert again.to_record() == record


@settings(max_examples=80, deadline=None)
@given(games(finish=False), st.data())
def test_illegal_actions_change_nothing(g: Game, data: st.DataObject) -> None:
    before = g.to_record()
    attempts = [
        lambda: g.score(data.draw(st.sampled_from([*g.ruleset.boxes, "nope"]))),
        lambda: g.roll(data.draw(st.one_of(st.none(), st.lists(st.integers(0, 7))))),
        lambda: g.reroll(data.draw(st.lists(st.integers(-1, 6), max_size=6))),
        lambda: g.roll(player=data.draw(st.sampled_from(["Ann", "Bo", "Cy", "Zed"]))),
    ]
    for attempt in attempts:
        try:
            after = attempt()
        except IllegalMove:
            assert g.to_record() == before
        else:
            assert after is not g
            assert g.to_record() == before


@settings(max_examples=80, deadline=None)
@given(games(finish=False), ROLL)
def test_choices_never_offer_an_illegal_box(g: Game, dice: list[int]) -> None:
    if g.is_over:
        assert g.choices() == {}
        return
    if g.dice is None:
        g = g.roll(dice)
    options = g.choices()
    assert options
    card = g.card
    for box, points in options.items():
        assert card.is_open(box)
        assert points >= 0
        assert check_choice(g.ruleset, card, g.dice, box) == points  # type: ignore[arg-type]
        assert g.score(box).scorecard(g.current_player)[box] == points
    for box in set(g.ruleset.boxes) - set(options):
        try:
            g.score(box)
        except IllegalMove:
            pass
        else:
            raise AssertionError(f"{box} was refused by choices() but accepted by score()")


@settings(max_examples=40, deadline=None)
@given(games(finish=False))
def test_legal_actions_are_all_legal(g: Game) -> None:
    for action in g.legal_actions():
        assert isinstance(action, Roll | Reroll | Score)
        g.apply(action)


@st.composite
def cards(draw: st.DrawFn) -> Scorecard:
    """Any scorecard of points its boxes can hold, reachable or not (a play order or the
    Joker rules may forbid it): the rules answer for every card."""
    r = draw(RULESETS)
    entries = tuple(
        draw(st.one_of(st.none(), st.sampled_from(sorted(r.possible_points(box)))))
        for box in r.boxes
    )
    return Scorecard(r, entries)


@settings(max_examples=200, deadline=None)
@given(cards())
def test_joker_choices_are_the_choices_of_five_of_a_kind_with_a_joker(card: Scorecard) -> None:
    r = card.ruleset
    got = rules.joker_choices(r, card)
    allowed = rules.allowed_by_order(r, card)
    assert list(got) == sorted(got)
    for face in range(1, 7):
        dice = [face] * r.dice_count
        if rules.is_joker(r, card, dice):
            assert got[face] == rules.choices(r, card, dice)
        else:
            # Left out: scored by the table in the boxes the order allows.
            assert face not in got
            assert rules.choices(r, card, dice) == {box: r.score(box, dice) for box in allowed}


@settings(max_examples=60, deadline=None)
@given(games(finish=False))
def test_turns_seat_and_rolls_left_follow_the_cards(g: Game) -> None:
    scores = [step for step in g.history if isinstance(step.action, Score)]
    assert g.turns_played == len(scores) == sum(len(c.filled_boxes) for c in g.cards)
    assert g.is_over == all(c.is_complete for c in g.cards)
    assert g.card is g.cards[(g.starter + len(scores)) % len(g.players)]
    assert g.rolls_left == (0 if g.is_over else g.ruleset.rolls - g.rolls_used)


@settings(max_examples=200, deadline=None)
@given(cards())
def test_the_rules_by_filled_bits_are_the_rules_of_the_card(card: Scorecard) -> None:
    """The solver reads the play order and whether Jokers apply by the set of filled
    boxes alone: they must be the card's own."""
    r = card.ruleset
    filled = card.filled_bits
    assert [b for i, b in enumerate(r.boxes) if filled >> i & 1] == list(card.filled_boxes)
    bits = rules.allowed_bits(r, filled)
    assert tuple(b for i, b in enumerate(r.boxes) if bits >> i & 1) == rules.allowed_by_order(
        r, card)
    jokers = rules.jokers_apply_bits(r, filled)
    assert jokers == any(rules.is_joker(r, card, [f] * r.dice_count) for f in range(1, 7))
    # The tables of every set of filled boxes say the same.
    assert rules.allowed_bits_table(r)[filled] == bits
    assert rules.jokers_apply_table(r)[filled] == jokers


@pytest.mark.parametrize("rules_set", [
    ("yatzy", {}), ("yatzy", {"order": "in_order"}), ("yatzy", {"order": "upper_first"}),
    ("yahtzee", {}), ("yahtzee", {"upper_first": True, "joker": "none"}),
    ("maxi_yatzy", {"order": "upper_first"})])
def test_the_tables_of_every_set_of_filled_boxes_are_the_rules_one_by_one(
        rules_set: tuple[str, dict[str, object]]) -> None:
    r = yatzy.ruleset(rules_set[0], **rules_set[1])  # type: ignore[arg-type]
    allowed, jokers = rules.allowed_bits_table(r), rules.jokers_apply_table(r)
    assert len(allowed) == len(jokers) == 1 << len(r.boxes)
    step = 1 if len(r.boxes) <= 15 else 97  # Maxi Yatzy's million: every 97th
    for filled in range(0, 1 << len(r.boxes), step):
        assert allowed[filled] == rules.allowed_bits(r, filled), filled
        assert jokers[filled] == rules.jokers_apply_bits(r, filled), filled


@st.composite
def games_with_undos(draw: st.DrawFn) -> Game:
    """A game in play, its dice from the seed or typed in (no seed), with an undo tried
    after any action: a legal random game as a player who changes their mind plays it."""
    rules = draw(RULESETS)
    players = draw(st.sampled_from([["Ann"], ["Ann", "Bo"], ["Ann", "Bo", "Cy"]]))
    seed = draw(st.one_of(st.none(), st.integers(0, 2**53 - 1), st.just("5a" * 16)))
    g = yatzy.Game.start(rules, players, seed=seed)

    def typed(count: int) -> list[int] | None:
        return None if seed is not None else draw(
            st.lists(st.integers(1, 6), min_size=count, max_size=count))
    for _ in range(draw(st.integers(0, 70))):
        if g.is_over:
            break
        if draw(st.integers(0, 3)) == 0:
            try:
                last = g.check_undo()
            except IllegalMove:
                pass
            else:
                g = g.undo(player=draw(st.sampled_from([None, last.player])))
                continue
        if g.dice is None:
            g = g.roll(typed(5))
        elif g.rolls_left and draw(st.booleans()):
            hold = draw(st.lists(st.integers(0, 4), unique=True, max_size=4))
            g = g.reroll(hold, typed(5 - len(hold)))
        else:
            g = g.score(draw(st.sampled_from(sorted(g.choices()))))
    return g


@settings(max_examples=60, deadline=None)
@given(games_with_undos())
def test_games_with_undos_replay_and_audit(g: Game) -> None:
    record = json.loads(json.dumps(g.to_record()))
    again = Game.from_record(record)
    assert again == g and again.to_record() == record
    undos = sum(isinstance(step.action, yatzy.Undo) for step in g.log)
    assert record["version"] == (3 if undos else 2 if isinstance(g.seed, str) else 1)
    assert len(g.log) == len(g.history) + 2 * undos  # each undo takes back one action
    # The game in effect is the game played without the actions taken back, its dice
    # drawn again from the seed: an undo changes no die that comes after it.
    straight = g.at_start()
    for step in g.history:
        action = step.action
        if g.seed is not None and isinstance(action, Roll):
            action = Roll()
        elif g.seed is not None and isinstance(action, Reroll):
            action = Reroll(action.hold)
        straight = straight.apply(action, player=step.player)
    assert replace(straight, log=()) == replace(g, log=())
    if g.seed is not None:
        assert yatzy.audit_record(record) == g
