"""Maxi Yatzy: six dice, twenty boxes, saved rolls (docs/rules.md, "Maxi Yatzy").

Every box is checked against a brute-force reading of its definition, written here
apart from the scorers: a pattern box (pairs, kinds, house, villa, tower) is the best
sum of dice picked out of the roll that form its groups of different faces."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yatzy
from yatzy import IllegalMove
from yatzy.core.game import Game
from yatzy.core.record import audit

MAXI = yatzy.ruleset("maxi_yatzy")
BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
         "three_pairs", "three_of_a_kind", "four_of_a_kind", "five_of_a_kind",
         "small_straight", "large_straight", "full_straight", "full_house", "villa",
         "tower", "chance", "maxi_yatzy")

#: The pattern boxes: how many dice of each (different) face they take.
PATTERNS = {
    "one_pair": (2,), "two_pairs": (2, 2), "three_pairs": (2, 2, 2),
    "three_of_a_kind": (3,), "four_of_a_kind": (4,), "five_of_a_kind": (5,),
    "full_house": (3, 2), "villa": (3, 3), "tower": (4, 2),
}


@cache
def picked_sums(roll: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """For every way of picking dice out of ``roll`` (by position), the shape of the
    picked dice (how many of each face, largest first) and the best sum with it."""
    best: dict[tuple[int, ...], int] = {}
    for mask in range(1, 1 << len(roll)):
        picked = [roll[i] for i in range(len(roll)) if mask >> i & 1]
        shape = tuple(sorted(Counter(picked).values(), reverse=True))
        best[shape] = max(best.get(shape, 0), sum(picked))
    return best


def brute(box: str, roll: tuple[int, ...]) -> int:
    """``box``'s points for ``roll``, read from its definition in docs/rules.md."""
    faces = set(roll)
    upper = ("ones", "twos", "threes", "fours", "fives", "sixes")
    if box in upper:
        face = upper.index(box) + 1
        return sum(d for d in roll if d == face)
    if box in PATTERNS:
        shape = tuple(sorted(PATTERNS[box], reverse=True))
        return picked_sums(tuple(sorted(roll))).get(shape, 0)
    return {
        "small_straight": 15 if {1, 2, 3, 4, 5} <= faces else 0,
        "large_straight": 20 if {2, 3, 4, 5, 6} <= faces else 0,
        "full_straight": 21 if faces == {1, 2, 3, 4, 5, 6} else 0,
        "chance": sum(roll),
        "maxi_yatzy": 100 if len(faces) == 1 else 0,
    }[box]


def test_the_ruleset() -> None:
    assert MAXI.boxes == BOXES and MAXI.upper_boxes == BOXES[:6]
    assert (MAXI.dice_count, MAXI.rolls, MAXI.saved_rolls) == (6, 3, True)
    assert (MAXI.upper_bonus_threshold, MAXI.upper_bonus_points) == (84, 100)
    assert MAXI.options == {"order": "free", "bonus": "100_at_84", "saved_rolls": True,
                            "rolls": 3}
    low = yatzy.ruleset("maxi_yatzy", bonus="50_at_75", saved_rolls="no", order="in_order")
    assert (low.upper_bonus_threshold, low.upper_bonus_points, low.saved_rolls,
            low.order) == (75, 50, False, "in_order")
    assert not yatzy.ruleset("yatzy").saved_rolls and not yatzy.ruleset("yahtzee").saved_rolls
    info = MAXI.describe()
    assert info.saved_rolls and info.to_dict()["saved_rolls"] is True
    assert info.yahtzee_points == 100 and info.joker_points == ()
    assert dict(info.labels)["villa"] == "Villa" and dict(info.labels)["tower"] == "Tower"
    with pytest.raises(yatzy.RulesError):
        yatzy.ruleset("maxi_yatzy", bonus="63")


@pytest.mark.parametrize(("dice", "expected"), [
    ("666555", {"full_house": 28, "villa": 33, "three_pairs": 0, "two_pairs": 22,
                "one_pair": 12, "three_of_a_kind": 18, "tower": 0, "chance": 33}),
    ("666655", {"tower": 34, "full_house": 28, "two_pairs": 22, "three_pairs": 0,
                "four_of_a_kind": 24, "villa": 0}),
    ("112233", {"three_pairs": 12, "two_pairs": 10, "full_house": 0}),
    ("123456", {"small_straight": 15, "large_straight": 20, "full_straight": 21,
                "one_pair": 0}),
    ("123455", {"small_straight": 15, "large_straight": 0, "full_straight": 0,
                "one_pair": 10}),
    ("234566", {"small_straight": 0, "large_straight": 20}),
    ("444444", {"maxi_yatzy": 100, "five_of_a_kind": 20, "four_of_a_kind": 16,
                "two_pairs": 0, "three_pairs": 0, "villa": 0, "tower": 0,
                "full_house": 0, "fours": 24}),
    ("222225", {"five_of_a_kind": 10, "tower": 0, "full_house": 0}),
    ("555113", {"full_house": 17, "villa": 0}),
])
def test_tricky_cases(dice: str, expected: dict[str, int]) -> None:
    scores = MAXI.scores(dice)
    assert {box: scores[box] for box in expected} == expected


def test_every_box_over_every_ordered_roll() -> None:
    """All 46,656 ordered rolls of six dice, every box: as its definition reads."""
    count = 0
    for roll in product(range(1, 7), repeat=6):
        scores = MAXI.scores(roll)
        for box in BOXES:
            assert scores[box] == brute(box, roll), (box, roll)
        count += 1
    assert count == 6**6 == 46_656


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=6, max_size=6), st.sampled_from(BOXES),
       st.randoms())
def test_a_box_is_its_definition_in_any_order(roll: list[int], box: str, rng) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(roll)
    rng.shuffle(shuffled)
    assert MAXI.score(box, roll) == MAXI.score(box, shuffled) == brute(box, tuple(roll))


# --- Saved rolls -----------------------------------------------------------------------


def new(players: list[str], **options: object) -> Game:
    return yatzy.new_game(yatzy.ruleset("maxi_yatzy", **options), players, seed=5)


def test_unused_rolls_are_saved_for_the_players_later_turns() -> None:
    g = new(["Ann", "Bo"])
    assert g.rolls_left == 3 and g.saved_rolls("Ann") == 0
    g = g.roll("666666").score("maxi_yatzy")  # Ann used 1 of her 3 rolls
    assert g.saved_rolls("Ann") == 2 and g.saved_rolls("Bo") == 0
    assert g.rolls_left == 3  # Bo's turn: his own three, none saved
    g = g.roll("123456").reroll([0, 1, 2, 3, 4]).score("chance")  # Bo used 2: saves 1
    assert (g.saved_rolls("Ann"), g.saved_rolls("Bo")) == (2, 1)
    assert g.rolls_left == 5  # Ann: three and her two saved
    g = g.roll("111111")
    assert g.rolls_left == 4 and g.saved_rolls() == 2
    g = g.reroll([]).reroll([])  # her own three used; the saved ones still there
    assert g.rolls_left == 2 and g.saved_rolls() == 2
    g = g.reroll([])  # the first saved roll
    assert g.rolls_left == 1 and g.saved_rolls() == 1
    g = g.reroll([]).score("chance")
    assert g.saved_rolls("Ann") == 0
    with pytest.raises(IllegalMove) as refused:
        new(["Ann"]).roll("123456").reroll([]).reroll([]).reroll([])
    assert refused.value.code == "no_rolls_left"


def test_a_turn_always_has_its_first_roll_and_saves_up() -> None:
    g = new(["Ann"])
    for box in BOXES[:5]:
        g = g.roll().score(box)
    assert g.saved_rolls("Ann") == 10 and g.rolls_left == 13
    g = g.roll()
    for _ in range(12):
        g = g.reroll([0])
    assert g.rolls_left == 0 and not g.can_roll and g.saved_rolls() == 0
    assert all(type(a).__name__ == "Score" for a in g.legal_actions())


def test_without_saved_rolls_a_turn_has_three() -> None:
    g = new(["Ann"], saved_rolls=False).roll().score("chance")
    assert g.saved_rolls("Ann") == 0 and g.rolls_left == 3
    assert g.saved == (0,)


def test_saved_rolls_are_left_unused_at_the_end() -> None:
    g = new(["Ann"])
    for box in BOXES:
        g = g.roll().score(box)
    assert g.is_over and g.rolls_left == 0 and g.saved_rolls("Ann") == 40
    card = g.scorecard("Ann")
    assert card.total == card.upper_sum + card.upper_bonus + card.lower_sum


def test_undo_gives_back_the_saved_rolls() -> None:
    g = new(["Ann", "Bo"]).roll("123456").score("full_straight")
    assert g.saved_rolls("Ann") == 2
    back = g.undo()
    assert back.saved_rolls("Ann") == 0 and back.rolls_left == 2
    used = g.roll().score("chance").roll().reroll([]).reroll([]).reroll([])
    assert used.saved_rolls() == 1
    back = used.score("chance" if "chance" in used.choices() else "ones").undo()
    assert back.saved_rolls("Ann") == 1 and back.rolls_left == used.rolls_left


def test_records_replay_and_audit_the_saved_rolls() -> None:
    g = yatzy.new_game(MAXI, ["Ann", "Bo"], seed="ab" * 16)
    g = g.roll().score("chance").roll().reroll([0]).score("ones")
    g = g.roll().reroll([]).reroll([]).reroll([]).reroll([])
    assert g.saved_rolls() == 0 and g.rolls_left == 0
    record = json.loads(json.dumps(g.to_record()))
    again = Game.from_record(record)
    assert again == g and again.saved == g.saved == (2, 1)
    assert audit(record) == g
    # A record with one roll more than the player had is refused where it is.
    record["actions"].append({"type": "reroll", "hold": [], "dice": [1] * 6,
                              "player": "Ann"})
    with pytest.raises(yatzy.RecordError, match="Step 11"):
        Game.from_record(record)


@pytest.mark.parametrize("order", ["upper_first", "in_order"])
def test_the_play_orders(order: str) -> None:
    g = new(["Ann"], order=order).roll("666666")
    assert "maxi_yatzy" not in g.choices()
    assert ("ones" in g.choices()) and (len(g.choices()) == (1 if order == "in_order" else 6))


# --- Random legal games ----------------------------------------------------------------

RULESETS = st.builds(lambda o, s, b: yatzy.ruleset("maxi_yatzy", order=o, saved_rolls=s,
                                                   bonus=b),
                     st.sampled_from(["free", "upper_first", "in_order"]), st.booleans(),
                     st.sampled_from(["100_at_84", "50_at_75"]))


@st.composite
def maxi_games(draw: st.DrawFn) -> Game:
    rules = draw(RULESETS)
    players = draw(st.sampled_from([["Ann"], ["Ann", "Bo"]]))
    g = yatzy.new_game(rules, players, seed=draw(st.integers(0, 2**53 - 1)))
    finish = draw(st.booleans())
    limit = None if finish else draw(st.integers(0, 80))
    steps = 0
    while not g.is_over and (limit is None or steps < limit):
        steps += 1
        if g.dice is None:
            g = g.roll()  # the seed's dice: the record is audited
        elif g.rolls_left and draw(st.integers(0, 9)) < 6:
            g = g.reroll(draw(st.lists(st.integers(0, 5), unique=True, max_size=5)))
        else:
            g = g.score(draw(st.sampled_from(sorted(g.choices()))))
    return g


@settings(max_examples=60, deadline=None)
@given(maxi_games())
def test_random_maxi_games_are_valid_and_replay(g: Game) -> None:
    rules = g.ruleset
    for seat, player in enumerate(g.players):
        card = g.scorecard(player)
        assert card.total == card.upper_sum + card.upper_bonus + card.lower_sum
        assert (card.upper_bonus > 0) == (card.upper_sum >= rules.upper_bonus_threshold)
        # Saved rolls: the rolls of the player's finished turns not used.
        turns = [s for s in g.history if s.player == player]
        finished = sum(1 for s in turns if type(s.action).__name__ == "Score")
        used = sum(1 for s in turns if type(s.action).__name__ != "Score")
        if seat == g.current_seat and g.dice is not None and not g.is_over:
            used -= g.rolls_used
        expected = finished * rules.rolls - used if rules.saved_rolls else 0
        assert g.saved[seat] == expected >= 0
    if g.is_over:
        assert all(card.is_complete for card in g.cards)
    record = json.loads(json.dumps(g.to_record()))
    assert Game.from_record(record) == g
    assert audit(record) == g
