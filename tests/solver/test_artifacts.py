"""Value tables on disk: atomic writes, checked loads, keyed by ruleset and version."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import yatzy
from yatzy import solver
from yatzy.core.rulesets import Ruleset
from yatzy.solver import artifacts, dp, policy
from yatzy.solver.model import Model


def _arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    values = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    return values, np.array([3, 1]), np.full((2, 6, 3), -1, dtype=np.int64)


def test_round_trip(tmp_path: Path) -> None:
    r = yatzy.ruleset("yahtzee", joker="gated")
    values, allowed, five = _arrays()
    path = artifacts.save(r, values, allowed, five, {"states": 7}, tmp_path)
    assert path.name == "yahtzee-joker=gated-rolls=3-upper_first=false-yahtzee_bonus=true-v3.npz"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    stored = artifacts.load(r, tmp_path)
    assert stored is not None
    assert np.array_equal(stored.values, values) and np.array_equal(stored.five_points, five)
    assert stored.meta["states"] == 7
    assert artifacts.load(yatzy.ruleset("yahtzee"), tmp_path) is None


def _mapped(values: np.ndarray) -> bool:
    """Whether ``values`` are read from a file in place (a view of a mapping)."""
    base = values.base
    while base is not None and not isinstance(base, np.memmap):
        base = getattr(base, "base", None)
    return isinstance(base, np.memmap)


def test_a_loaded_tables_values_are_mapped_from_its_file(tmp_path: Path) -> None:
    """Mapped in place (the process holds only the pages it reads), writable without
    changing the file, and the same as what was saved; a file written by ``np.savez``
    (its values at no multiple of 8 bytes) is read as before."""
    r = yatzy.ruleset("yatzy")
    values, allowed, five = _arrays()
    path = artifacts.save(r, values, allowed, five.astype(np.int8), {}, tmp_path)
    stored = artifacts.load(r, tmp_path)
    assert stored is not None and _mapped(stored.values)
    assert type(stored.values) is np.ndarray and np.array_equal(stored.values, values)
    stored.values[0, 0, 0] = -1.0  # copy on write: the file keeps its value
    again = artifacts.load(r, tmp_path)
    assert again is not None and again.values[0, 0, 0] == 0.0
    with np.load(path) as data:
        contents = {name: data[name] for name in data.files}
    with open(path, "wb") as f:
        np.savez(f, **contents)
    old = artifacts.load(r, tmp_path)
    assert old is not None and not _mapped(old.values)
    assert np.array_equal(old.values, values)


def test_a_compact_table_keeps_float32_values_and_the_start_exactly(tmp_path: Path) -> None:
    r = yatzy.ruleset("yatzy")
    values, allowed, five = _arrays()
    values = values + 1 / 3  # not a float32
    path = artifacts.save(r, values, allowed, five, {}, tmp_path, compact=True)
    with np.load(path) as data:
        assert data["values"].dtype == np.float32
    stored = artifacts.load(r, tmp_path)
    assert stored is not None and stored.values.dtype == np.float64
    assert stored.values.shape == values.shape
    assert stored.values.flat[0] == values.flat[0]  # exact
    assert np.allclose(stored.values, values, rtol=2.0**-24, atol=0)
    assert not np.array_equal(stored.values, values)
    # A compact file whose values were damaged is ignored like any other.
    with np.load(path) as data:
        arrays = dict(data)
    arrays["values"] = arrays["values"] + np.float32(1)
    np.savez(path, **arrays)
    assert artifacts.load(r, tmp_path) is None


def test_saving_a_table_deletes_that_rulesets_older_versions(tmp_path: Path) -> None:
    r = yatzy.ruleset("yatzy")
    stem = artifacts.table_path(r, tmp_path).name.removesuffix(
        f"-v{artifacts.SOLVER_VERSION}.npz")
    old = [f"{stem}-v{v}{suffix}" for v in range(1, artifacts.SOLVER_VERSION)
           for suffix in (".npz", ".distribution.npz")]
    others = [artifacts.table_path(yatzy.ruleset("yahtzee"), tmp_path).name,  # another ruleset's
              "yatzy-order=in_order-rolls=3-v2.npz",  # another set of options'
              "notes.txt"]
    for name in old + others:
        (tmp_path / name).write_bytes(b"old")
    path = artifacts.save(r, *_arrays(), {}, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, *others])


def test_damaged_or_foreign_files_are_ignored(tmp_path: Path) -> None:
    r = yatzy.ruleset("yatzy")
    values, allowed, five = _arrays()
    path = artifacts.save(r, values, allowed, five, {}, tmp_path)
    with np.load(path) as data:
        arrays = dict(data)
    arrays["values"] = arrays["values"] + 1e-9
    np.savez(path, **arrays)
    assert artifacts.load(r, tmp_path) is None
    path.write_bytes(b"not a table")
    assert artifacts.load(r, tmp_path) is None


def test_any_unreadable_file_is_ignored(tmp_path: Path) -> None:
    """Every prefix of a table file (an empty one too) and random damage to its bytes:
    the load gives the table or nothing, and never raises (numpy and zipfile raised
    EOFError, NotImplementedError and RuntimeError here)."""
    r = yatzy.ruleset("yatzy")
    values, allowed, five = _arrays()
    path = artifacts.save(r, values, allowed, five, {}, tmp_path)
    good = path.read_bytes()
    rng = random.Random(8)
    damaged = [good[:n] for n in range(len(good))]
    for _ in range(1500):
        data = bytearray(good)
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        damaged.append(bytes(data))
    loaded = 0
    for data in damaged:
        path.write_bytes(data)
        stored = artifacts.load(r, tmp_path)
        if stored is not None:
            loaded += 1
            assert np.array_equal(stored.values, values) and np.array_equal(stored.allowed, allowed)
    assert loaded < len(damaged) // 5  # most damage is caught (the rest hit unused bytes)


def test_an_empty_table_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path))
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    r = yatzy.ruleset("yatzy", order="in_order")
    path = artifacts.table_path(r)
    path.write_bytes(b"")
    built = policy.strategy(r)
    assert built.source == "built" and built.path == path and path.stat().st_size > 0
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    assert policy.strategy(r).source == "cache"


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path / "here"))
    assert artifacts.table_path(yatzy.ruleset("yatzy")).parent == tmp_path / "here"
    monkeypatch.delenv(artifacts.ENV_VAR)
    assert "yatzy" in str(artifacts.cache_dir())


def test_strategy_is_built_once_then_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path))
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    r = yatzy.ruleset("yatzy", order="in_order")
    built = policy.strategy(r)
    assert built.source == "built" and built.build_seconds is not None
    assert policy.strategy(r) is built
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    loaded = policy.strategy(r)
    assert loaded.source == "cache"
    assert np.array_equal(loaded.values, built.values, equal_nan=True)
    assert loaded.expected_score == built.expected_score
    assert policy.strategy(r, rebuild=True).source == "built"


def test_a_table_too_large_to_build_on_demand_is_built_only_when_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As Maxi Yatzy's: ``yatzy solve`` builds it (compact on disk), every other caller
    reads it from there, and without it they are refused at once."""
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path))
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    monkeypatch.setattr(solver, "ON_DEMAND_STATES", 1000)  # every ruleset is "large"
    r = yatzy.ruleset("yatzy", order="in_order")
    assert not solver.builds_on_demand(r)
    with pytest.raises(solver.TableNotBuilt):
        policy.strategy(r)
    assert list(tmp_path.iterdir()) == []
    built = policy.strategy(r, build=True)
    assert built.source == "built" and built.path is not None
    with np.load(built.path) as data:
        assert data["values"].dtype == np.float32
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    loaded = policy.strategy(r)
    assert loaded.source == "cache" and loaded.values.dtype == np.float64
    assert loaded.expected_score == built.expected_score
    assert np.allclose(loaded.values, built.values, rtol=2.0**-24, atol=0)


def test_an_unwritable_cache_only_warns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(artifacts.ENV_VAR, str(blocker / "cache"))
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    r = yatzy.ruleset("yatzy", order="in_order")
    with pytest.warns(RuntimeWarning, match="The solver table was not cached"):
        built = policy.strategy(r)
    assert built.source == "built" and built.path is None
    assert round(built.expected_score, 7) == 122.5585274


def test_concurrent_callers_build_a_table_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads asking for the same ruleset at once (the web app's threads) get one
    strategy, built once: the others wait for it instead of building their own."""
    monkeypatch.setattr(policy, "_STRATEGIES", {})
    built: list[Ruleset] = []
    solve = dp.solve

    def slow_solve(model: Model, progress: dp.Progress | None = None) -> np.ndarray:
        built.append(model.ruleset)
        time.sleep(0.3)  # a wide window for a second build to start in
        return solve(model, progress)

    monkeypatch.setattr(dp, "solve", slow_solve)
    r = yatzy.ruleset("yatzy", order="in_order")
    start = threading.Barrier(4)
    got: list[policy.Strategy] = []

    def ask() -> None:
        start.wait()
        got.append(policy.strategy(r, cache=False))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built == [r]
    assert len(got) == 4 and all(s is got[0] for s in got)
    assert round(got[0].expected_score, 7) == 122.5585274


def test_an_added_rulesets_table_is_named_by_its_rules(tmp_path: Path) -> None:
    from yatzy.core import scoring

    def define(chance: scoring.Scorer) -> Path:
        yatzy.define_ruleset(yatzy.RulesetDefinition(
            "added", "Added", upper=("ones",), lower={"chance": chance}, dice_count=2))
        try:
            return artifacts.table_path(yatzy.ruleset("added"), tmp_path)
        finally:
            yatzy.forget_ruleset("added")

    first, again = define(scoring.chance), define(scoring.chance)
    other = define(lambda dice: 2 * scoring.chance(dice))  # the same names, other points
    assert first == again != other
    assert first.name.startswith("added-")
    assert artifacts.table_path(yatzy.ruleset("yatzy"), tmp_path).name.startswith("yatzy-order")
