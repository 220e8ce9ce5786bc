"""The table of the points still to come as a shared file: within its bound of the
in-memory table and of the exact chances, mapped (not copied), and never trusted when
it does not match."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yatzy
from yatzy.solver import Strategy, artifacts, kernels, winning
from yatzy.solver.artifacts import RemainingDamaged
from yatzy.solver.remaining import QUANTUM, RemainingTable, SharedTable, quantise

#: The most a row's cumulative chance may be off (docs/solver.md): the rounding to the
#: grid, and the build's float32 rounding and cut tails.
BOUND = 1 / (2 * QUANTUM) + 2e-6


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    return yatzy.strategy(yatzy.ruleset("yatzy", order="in_order"))


@pytest.fixture(scope="module")
def shared(strategy: Strategy) -> SharedTable:
    winning._TABLES.pop(strategy.ruleset, None)
    return winning.remaining_table(strategy)


def test_the_table_is_mapped_from_its_file_beside_the_value_table(
        strategy: Strategy, shared: SharedTable) -> None:
    assert strategy.path is not None
    assert shared.path == artifacts.remaining_path(strategy.ruleset, strategy.path.parent)
    again = artifacts.open_remaining(strategy.ruleset, strategy.path.parent)
    assert again is not None
    for name, array in shared.arrays.items():
        # Read in place from the file, read-only: every process shares the page cache's
        # copy (nothing is copied into this process).
        assert isinstance(array, np.memmap), name
        assert not array.flags.writeable
        assert Path(array.filename) == shared.path
        assert isinstance(again[0][name], np.memmap)
        assert np.array_equal(again[0][name], array)
    assert shared.nbytes <= shared.path.stat().st_size
    # A second process (or this one, again) gets the same table without building it.
    assert winning.stored_remaining_table(strategy) is shared


def test_every_row_is_within_the_bound_of_the_in_memory_table(
        strategy: Strategy, shared: SharedTable) -> None:
    table = RemainingTable(strategy)
    assert shared.rows == table.rows
    worst = 0.0
    for row in range(table.rows):
        lo, chances = table.chances(row)
        lo2, chances2 = shared.chances(row)
        assert chances2.sum() == pytest.approx(1.0, abs=1e-12)
        assert (chances2 >= 0).all()
        start = min(lo, lo2)
        end = max(lo + len(chances), lo2 + len(chances2))
        a = np.zeros(end - start)
        b = np.zeros(end - start)
        a[lo - start:lo - start + len(chances)] = chances
        b[lo2 - start:lo2 - start + len(chances2)] = chances2
        worst = max(worst, float(np.abs(np.cumsum(a) - np.cumsum(b)).max()))
    assert worst <= BOUND
    assert worst > 1e-6  # it is rounded: the test can see a wrong grid


def test_quantise_rounds_each_rows_cumulative_chances(strategy: Strategy,
                                                     shared: SharedTable) -> None:
    """The compiled rounding against its definition, worked out row by row in numpy; the
    file holds what it makes."""
    table = RemainingTable(strategy)
    arrays = quantise(table)
    for name, array in arrays.items():
        assert np.array_equal(array, shared.arrays[name]), name
    assert table.rows > 100 and arrays["wide"].any() and not arrays["wide"].all()
    for row in range(table.rows):
        lo, chances = table.chances(row)
        cumulative = np.cumsum(chances, dtype=np.float64)
        steps = np.diff(np.rint(cumulative / cumulative[-1] * QUANTUM).astype(np.int64),
                        prepend=0)
        moves = np.flatnonzero(steps)
        first, last = int(moves[0]), int(moves[-1])
        assert arrays["lowest"][row] == lo + first
        assert arrays["length"][row] == last - first + 1
        wide = bool(steps.max() > 255)
        assert arrays["wide"][row] == wide
        pool, at = arrays["pool16" if wide else "pool8"], int(arrays["offset"][row])
        assert np.array_equal(pool[at:at + last - first + 1], steps[first:last + 1])


@pytest.mark.parametrize(("chances", "starts", "problem"), [
    ([0.5, -0.5, 1.0], [0, 2, 3], "add up"),  # a chance below 0
    ([0.0, 0.0, 1.0], [0, 2, 3], "add up"),  # a row of no chance
    ([0.5, float("nan"), 1.0], [0, 2, 3], "add up"),
    ([0.5, 0.5, 1.0], [0, 2, 2], "starts"),  # an empty row
    ([0.5, 0.5, 1.0], [0, 2, 4], "starts"),  # past the chances
    ([0.5, 0.5, 1.0], [1, 2, 3], "starts"),
])
def test_quantise_refuses_what_is_no_table(chances: list[float], starts: list[int],
                                           problem: str) -> None:
    rows = len(starts) - 1
    out = [np.zeros(rows, np.int32), np.zeros(rows, np.int32), np.zeros(rows, np.uint8),
           np.zeros(3, np.uint8), np.zeros(3, np.uint16)]
    with pytest.raises(ValueError, match=problem):
        kernels.quantise(np.array(chances, np.float32), np.array(starts, np.int64), QUANTUM,
                         *out)
    good = np.array([0.5, 0.5, 1.0], np.float32), np.array([0, 2, 3], np.int64)
    with pytest.raises(ValueError, match="items of the wrong type"):
        kernels.quantise(good[0].astype(np.float64), good[1], QUANTUM, *out)
    with pytest.raises(ValueError, match="overlap"):
        kernels.quantise(*good, QUANTUM, out[0], out[0], *out[2:])
    with pytest.raises(ValueError, match="room"):
        kernels.quantise(*good, QUANTUM, *out[:3], out[3][:2], out[4])
    with pytest.raises(ValueError, match="quantum"):
        kernels.quantise(*good, 0, *out)
    assert kernels.quantise(*good, 4, *out) == (3, 0)
    assert out[3].tolist() == [2, 2, 4] and out[0].tolist() == [0, 0]


def _positions(s: Strategy, seed: int, players: int) -> list[yatzy.Game]:
    rng = random.Random(seed)
    game = yatzy.new_game(s.ruleset, [f"p{i}" for i in range(players)], seed=seed)
    found = []
    while not game.is_over:
        found.append(game)
        options = s.advise(game)
        game = game.apply((options[0] if rng.random() < 0.7 else rng.choice(options)).action)
    found.append(game)
    return found


@pytest.mark.parametrize("players", [2, 3, 6])
def test_win_chances_are_within_the_bound_of_the_exact_ones(
        strategy: Strategy, shared: SharedTable, players: int) -> None:
    positions = _positions(strategy, players, players)
    rng = random.Random(players)
    sample = [positions[0], positions[1], positions[-1], *rng.sample(positions, 25)]
    mid_turn = 0
    for game in sample:
        fast = strategy.win_chances(game)
        exact = strategy.exact_win_chances(game)
        assert sum(fast.values()) == pytest.approx(1.0, abs=1e-9)
        for name in exact:
            assert fast[name] == pytest.approx(exact[name], abs=players * BOUND)
        mid_turn += game.dice is not None
    assert mid_turn > 5


def _copy(strategy: Strategy, tmp_path: Path) -> Path:
    assert strategy.path is not None
    source = artifacts.remaining_path(strategy.ruleset, strategy.path.parent)
    target = artifacts.remaining_path(strategy.ruleset, tmp_path)
    shutil.copyfile(source, target)
    return target


def _short(data: bytes) -> bytes:
    return data[:-1]


def _longer(data: bytes) -> bytes:
    return data + b"\0"


def _flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def _garbage(data: bytes) -> bytes:
    return b"not a table at all"


def _empty(data: bytes) -> bytes:
    return b""


def _no_header(data: bytes) -> bytes:
    return data[:20]


@pytest.mark.parametrize("damage", [_short, _longer, _flip_last, _garbage, _empty,
                                    _no_header])
def test_a_damaged_file_is_refused(strategy: Strategy, shared: SharedTable, tmp_path: Path,
                                   damage: object) -> None:
    path = _copy(strategy, tmp_path)
    assert artifacts.open_remaining(strategy.ruleset, tmp_path) is not None
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    with pytest.raises(RemainingDamaged) as caught:
        artifacts.open_remaining(strategy.ruleset, tmp_path)
    assert caught.value.code == "remaining_damaged"
    assert caught.value.params["path"] == str(path)


def test_another_rulesets_file_is_refused(strategy: Strategy, shared: SharedTable,
                                          tmp_path: Path) -> None:
    source = _copy(strategy, tmp_path)
    other = yatzy.ruleset("yatzy", order="upper_first")
    source.rename(artifacts.remaining_path(other, tmp_path))
    with pytest.raises(RemainingDamaged, match="another ruleset"):
        artifacts.open_remaining(other, tmp_path)
    assert artifacts.open_remaining(strategy.ruleset, tmp_path) is None  # no file


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(0, 1, exclude_max=True), bit=st.integers(0, 7))
def test_a_flipped_bit_is_refused_or_changes_nothing(
        strategy: Strategy, shared: SharedTable, tmp_path: Path, where: float, bit: int) -> None:
    path = _copy(strategy, tmp_path)
    data = bytearray(path.read_bytes())
    data[int(where * len(data))] ^= 1 << bit
    path.write_bytes(bytes(data))
    try:
        opened = artifacts.open_remaining(strategy.ruleset, tmp_path)
    except RemainingDamaged:
        return
    # Only the header's padding (spaces after the JSON) may change without harm.
    assert opened is not None
    for name, array in shared.arrays.items():
        assert np.array_equal(opened[0][name], array), name


def test_a_damaged_file_is_never_read_and_is_built_again(
        strategy: Strategy, shared: SharedTable, caplog: pytest.LogCaptureFixture) -> None:
    assert shared.path is not None
    good = shared.path.read_bytes()
    before = {name: np.array(array) for name, array in shared.arrays.items()}
    winning._TABLES.pop(strategy.ruleset, None)
    rebuilt = None
    try:
        # Damaged in place (the solver itself only ever replaces a file whole, by a
        # rename, so that the processes that map the old one keep reading it).
        shared.path.write_bytes(_flip_last(good))
        # A caller that must not build gets no table (win chances worked out instead)...
        assert winning.stored_remaining_table(strategy) is None
        assert "cannot be used" in caplog.text
        game = yatzy.new_game(strategy.ruleset, ["a", "b"], seed=5).roll()
        assert strategy.win_chances(game) == strategy.exact_win_chances(game)
        # ... and the next that may build replaces the file with a good one.
        rebuilt = winning.remaining_table(strategy)
        assert rebuilt is not shared and rebuilt.path == shared.path
        assert shared.path.read_bytes() == good
        for name, array in before.items():
            assert np.array_equal(rebuilt.arrays[name], array), name
    finally:
        if rebuilt is None:
            shared.path.write_bytes(good)
        winning._TABLES.pop(strategy.ruleset, None)


def test_a_state_the_table_lacks_is_worked_out(strategy: Strategy, shared: SharedTable,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game = yatzy.new_game(strategy.ruleset, ["a", "b", "c"], seed=9).roll()
    assert winning.stored_remaining_table(strategy) is not None

    def lacks(*args: object) -> int:
        raise KeyError(args)

    monkeypatch.setattr(SharedTable, "row", lacks)
    assert strategy.win_chances(game) == strategy.exact_win_chances(game)


def test_a_turns_outcomes_are_the_chances_of_its_ends(strategy: Strategy) -> None:
    k = strategy.kernels
    for roll, rerolls in ((-1, 2), (0, 2), (100, 1), (251, 0)):
        gains, keys, probs = (np.frombuffer(b, dtype=t) for b, t in zip(
            k.outcomes(0, 0, 0, roll, rerolls), (np.int32, np.int32, np.float64), strict=True))
        assert len(gains) == len(keys) == len(probs) > 0
        assert probs.sum() == pytest.approx(1.0, abs=1e-12) and (probs > 0).all()
        assert (gains >= 0).all()
    for bad in ((0, 0, 0, -2, 0), (0, 0, 0, 252, 0), (0, 0, 0, 0, 3), (0, 0, 0, 0, -1),
                ((1 << 15) - 1, 0, 0, 0, 0)):
        with pytest.raises(ValueError):
            k.outcomes(*bad)
