"""Fuzzing the library's inputs: whatever a caller passes, only a ``YatzyError`` comes
out, and the values passed in are left as they were.

Records are valid ones mutated (keys dropped, replaced or duplicated, types swapped,
numbers of thousands of digits, odd Unicode, deep nesting) and random JSON; dice,
holds, players' names and scorecard texts are random objects and texts. Each property
runs a moderate number of examples (``EXAMPLES``) so that ``make test`` stays quick;
raise it locally to hunt longer (``YATZY_FUZZ_EXAMPLES=5000``).
"""

from __future__ import annotations

import copy
import json
import math
import os
import unicodedata
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import yatzy
from yatzy import Dice, Game, Scorecard, YatzyError
from yatzy.core.dice import check_dice
from yatzy.core.names import MAX_NAME_LENGTH, name_key

EXAMPLES = int(os.environ.get("YATZY_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

YATZY = yatzy.ruleset("yatzy")
YAHTZEE = yatzy.ruleset("yahtzee")

# --- Odd values ----------------------------------------------------------------------

# Built when drawn: Hypothesis shows its strategies, and repr() of 10**5000 raises.
HUGE = st.sampled_from([(10, 5000), (-10, 5000), (2, 63), (2, 64), (-1, 1), (0, 1), (2, 53)]).map(
    lambda b_e: b_e[0] ** b_e[1])
ODD_TEXT = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=12),  # controls, NUL, format
    st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3),  # lone surrogates
    st.sampled_from(["", " ", "²", "٣", "-6", "+1", "1e3", "0x10", "\u2028", "Ａｎｎ", "ann",
                     "\ud800bad", "a\x00b"]),
    # Built when drawn, so that Hypothesis's statistics do not print them.
    st.sampled_from(["", "ones=", "1 "]).map(lambda prefix: prefix + "9" * 5000),
)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), HUGE, st.floats(), ODD_TEXT, st.binary(max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.one_of(ODD_TEXT, st.integers()), inner, max_size=4),
        st.tuples(inner, inner),
        st.frozensets(st.integers(), max_size=4),
    ),
    max_leaves=12,
)


def nested(depth: int, leaf: object = 1) -> object:
    """A list ``depth`` deep around ``leaf`` (without recursion)."""
    value: object = leaf
    for _ in range(depth):
        value = [value]
    return value


ANYTHING = st.one_of(VALUES, st.integers(0, 120).map(nested))


def same(a: object, b: object) -> bool:
    """Deep equality in which NaN equals NaN (a value is the same as its copy)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)  # type: ignore[attr-defined,index]
    return bool(a == b)


def only_yatzy_errors(call: Callable[[], object]) -> object:
    """Run ``call``; a ``YatzyError`` (any other exception fails the test) gives None.
    The outcome is a Hypothesis event (``--hypothesis-show-statistics`` counts them)."""
    try:
        result = call()
    except YatzyError as error:
        assert error.message and isinstance(error.message, str)
        error.message.encode("utf-8")  # printable: no lone surrogates in a message
        assert len(error.message) < 2000, "a message quotes a value in full"
        event(f"refused: {error.code}")
        return None
    event("accepted")
    return result


def unchanged(value: object, call: Callable[[object], object]) -> object:
    """``call(value)`` with only ``YatzyError``s escaping and ``value`` as it was."""
    before = copy.deepcopy(value)
    result = only_yatzy_errors(lambda: call(value))
    assert same(value, before), "the input was changed"
    return result


# --- Records -------------------------------------------------------------------------


def _records() -> list[dict[str, Any]]:
    roll = yatzy.new_game(YATZY, ["Ann", "Bo"], seed=5, first_player="roll")
    roll = roll.roll().reroll([0, 1]).score("chance").roll([2, 2, 3, 3, 3])
    bonus = yatzy.new_game(YAHTZEE, ["Cy"], seed=None).roll([5] * 5).score("yahtzee")
    bonus = bonus.roll([5] * 5).score("fives").roll([1, 2, 3, 4, 5])
    done = yatzy.new_game(yatzy.ruleset("yatzy", rolls=1), ["Di"], seed=2)
    while not done.is_over:
        done = done.roll()
        done = done.score(next(iter(done.choices())))
    return [g.to_record() for g in (roll, bonus, done)]


RECORDS = _records()


def _paths(value: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


def _swap_type(value: object) -> object:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        if value.bit_length() > 53:
            return [value]
        return [float(value), str(value), value == 1, [value]][value % 4]
    if isinstance(value, str):
        return [value] if len(value) % 2 else value.encode("utf-8", "surrogatepass")
    if isinstance(value, list):
        return tuple(value) if value else {}
    if isinstance(value, dict):
        return list(value.items())
    return [value]  # (not str(): a tuple may hold a number of 5,000 digits)


@st.composite
def mutated_records(draw: st.DrawFn) -> object:
    record = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(record)
        path = draw(st.sampled_from(paths))
        if not path:
            if draw(st.booleans()):
                return draw(ANYTHING)
            continue
        parent: Any = record
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        kind = draw(st.sampled_from(["drop", "replace", "duplicate", "swap", "huge", "text",
                                     "deep"]))
        if kind == "drop":
            del parent[key]
        elif kind == "replace":
            parent[key] = draw(ANYTHING)
        elif kind == "duplicate":
            if isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
            else:  # under another key (a dict cannot hold one key twice)
                parent[draw(ODD_TEXT)] = copy.deepcopy(parent[key])
        elif kind == "swap":
            parent[key] = _swap_type(parent[key])
        elif kind == "huge":
            parent[key] = draw(HUGE)
        elif kind == "text":
            parent[key] = draw(ODD_TEXT)
        elif len(path) <= 6:  # (deeper still would only test the test's own recursion)
            parent[key] = nested(draw(st.integers(20, 120)), parent[key])
    return record


def test_the_seed_records_are_valid() -> None:
    for record in RECORDS:
        assert Game.from_record(record).to_record() == record


@FUZZ
@given(mutated_records())
def test_mutated_records_raise_only_record_errors(record: object) -> None:
    game = unchanged(record, Game.from_record)
    if game is not None:
        assert isinstance(game, Game)
        assert Game.from_record(game.to_record()) == game
    try:
        text = json.dumps(record)
    except (TypeError, ValueError):  # not JSON (bytes, tuples as keys, huge ints...)
        return
    unchanged(text, Game.from_json)


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), ODD_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(ODD_TEXT, inner, max_size=5)),
    max_leaves=15,
)


@FUZZ
@given(st.one_of(
    JSON.map(lambda v: json.dumps(v)),
    st.text(max_size=40),
    st.binary(max_size=40),
    st.integers(1, 200_000).map(lambda d: "[" * d + "]" * d),
    st.integers(1, 200_000).map(lambda d: '{"a":' * d + "1" + "}" * d),
    st.integers(4300, 6000).map(lambda d: '{"format": "yatzy-game", "version": ' + "9" * d + "}"),
    ANYTHING,
))
def test_random_json_raises_only_record_errors(text: object) -> None:
    unchanged(text, Game.from_json)


# --- Dice, holds, names, scorecards ---------------------------------------------------

DICE_LIKE = st.one_of(
    ANYTHING,
    st.lists(st.integers(-2, 8), max_size=7),
    st.text(st.sampled_from("123456 ,-+²٣x"), max_size=12),
    st.binary(max_size=8),
    st.lists(st.one_of(st.integers(1, 6), HUGE, st.floats(1, 6), st.booleans()), max_size=6),
)


@FUZZ
@given(DICE_LIKE)
def test_random_dice_raise_only_dice_errors(dice: object) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1)
    parsed = unchanged(dice, Dice.parse)  # type: ignore[arg-type]
    checked = unchanged(dice, lambda d: check_dice(d, 5))
    rolled = unchanged(dice, lambda d: game.roll(d))  # type: ignore[arg-type]
    scored = unchanged(dice, lambda d: YATZY.score("chance", d))  # type: ignore[arg-type]
    unchanged(dice, lambda d: yatzy.Dice(d))  # type: ignore[arg-type]
    # One form of dice everywhere: the game and the ruleset take the same inputs
    # (dice=None is no dice given: the game rolls them).
    assert dice is None or (checked is None) == (rolled is None) == (scored is None)
    if isinstance(dice, str) and parsed is not None and len(parsed) == 5:  # type: ignore[arg-type]
        assert checked == parsed
    if rolled is not None and dice is not None:
        assert isinstance(rolled, Game) and rolled.dice == checked
        assert scored == sum(checked)  # type: ignore[arg-type]


@FUZZ
@given(st.one_of(ANYTHING, st.lists(st.one_of(st.integers(-1, 6), HUGE, st.booleans()),
                                   max_size=7)))
def test_random_holds_raise_only_move_errors(hold: object) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1).roll()
    after = unchanged(hold, lambda h: game.reroll(h))  # type: ignore[arg-type]
    if after is not None:
        assert isinstance(after, Game) and after.rolls_used == 2


# Names people have, and the same name written differently.
PLAUSIBLE_NAMES = st.one_of(
    st.sampled_from(["Ann", "ann", "ANN", "Ａｎｎ", "Bo", "Straße", "STRASSE", "ǅ", "ǆ", "ﬁ",
                     "fi", "Zoë", "Zoe\u0308", "李", "👩‍👩‍👧", "A" * MAX_NAME_LENGTH]),
    st.text(st.characters(categories=["L", "M", "N", "P", "S"]), min_size=1, max_size=12),
)
NAMES = st.one_of(
    ODD_TEXT, st.text(max_size=MAX_NAME_LENGTH + 3), SCALARS, PLAUSIBLE_NAMES,
    st.text(st.characters(categories=["L", "M", "N", "P", "S", "Zs"]), min_size=1,
            max_size=12),
)


@FUZZ
@given(st.one_of(st.lists(PLAUSIBLE_NAMES, max_size=4), st.lists(NAMES, max_size=4),
                 ANYTHING))
def test_random_names_raise_only_name_errors(players: object) -> None:
    game = unchanged(players, lambda p: yatzy.new_game(YATZY, p, seed=1))  # type: ignore[arg-type]
    if game is None:
        return
    assert isinstance(game, Game)
    keys = {name_key(n) for n in game.players}
    assert len(keys) == len(game.players)
    for name in game.players:
        assert name == name.strip() and 0 < len(name) <= MAX_NAME_LENGTH
        assert not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in name)
    # What the game accepts, a store can keep: its record encodes and replays.
    text = game.roll().to_json(ensure_ascii=False).encode("utf-8")
    assert Game.from_json(text) == game.roll()


@st.composite
def card_texts(draw: st.DrawFn, rules: yatzy.Ruleset, odd: bool) -> str:
    """Well-formed cards (where a box given twice, points a box cannot hold and too many
    bonuses come up) and, when ``odd``, odd pieces in between."""
    parts = []
    boxes = [*rules.boxes, "yahtzee_bonus"] + (["one_pair", "x", ""] if odd else [])
    # A clean card names each box once: bonuses and impossible points get their turn.
    chosen = draw(st.lists(st.sampled_from(boxes), max_size=8, unique=not odd))
    for box in chosen:
        sep = draw(st.sampled_from(["=", "", "==", " = "])) if odd else "="
        good = sorted(rules.possible_points(box)) if box in rules.boxes else list(range(6))
        points = draw(st.one_of(
            st.sampled_from(good).map(str), st.sampled_from(good).map(str),
            st.integers(0, 120).map(str),
            st.sampled_from(["-1", "²", "٣", "1000000", "0" * 30]),
            st.just(5000).map(lambda n: "9" * n),
        ) if odd else st.sampled_from(good).map(str))
        parts.append(f"{box}{sep}{points}")
    return draw(st.sampled_from([" ", ",", ", "])).join(parts)


RULESETS = st.sampled_from([YATZY, YAHTZEE, yatzy.ruleset("yahtzee", joker="none")])


@FUZZ
@given(st.data())
def test_random_scorecard_texts_raise_only_rules_errors(data: st.DataObject) -> None:
    rules = data.draw(RULESETS)
    kind = data.draw(st.sampled_from(["clean", "clean", "clean", "odd", "text", "other"]))
    text = data.draw({"clean": card_texts(rules, odd=False), "odd": card_texts(rules, odd=True),
                      "text": ODD_TEXT, "other": SCALARS}[kind])
    card = unchanged(text, lambda t: Scorecard.parse(rules, t))  # type: ignore[arg-type]
    if card is None:
        return
    assert isinstance(card, Scorecard)
    assert Scorecard.parse(rules, str(card)) == card
    assert card.total >= 0
    bonus_room = [b for b in rules.boxes
                  if b != rules.yahtzee_box and card[b] is not None
                  and card[b] in rules.five_of_a_kind_points(b)]
    assert card.yahtzee_bonus_count <= len(bonus_room)


@FUZZ
@given(st.one_of(ODD_TEXT, SCALARS), st.dictionaries(st.one_of(ODD_TEXT, st.sampled_from(
    ["order", "rolls", "joker", "yahtzee_bonus", "upper_first", "name"])), VALUES, max_size=3))
def test_random_rulesets_raise_only_rules_errors(name: object, options: dict[Any, Any]) -> None:
    unchanged({"name": name, "options": options}, yatzy.Ruleset.from_dict)
    str_options = {k: v for k, v in options.items() if isinstance(k, str)}
    unchanged(str_options, lambda o: yatzy.ruleset("yahtzee", **o))  # type: ignore[arg-type]
