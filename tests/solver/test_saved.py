"""Saved rolls (Maxi Yatzy): the layered solver (``yatzy.solver.saved``) on games cut
down to a few boxes, against a brute force that reads only the core, every start; its
caps (lower and upper bounds), its checkpoints (a stopped solve resumes to the same
values), its Dask workers, and games played by its strategy."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import yatzy
from tests.solver.bruteforce import expected_final_score_saved
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.solver.dp import solve
from yatzy.solver.model import build_model
from yatzy.solver.saved import (
    CheckpointMismatch,
    SavedSolution,
    play_saved,
    ruleset_of_spec,
    ruleset_spec,
    simulate_saved,
    solve_saved,
)


def reduced(boxes: tuple[str, ...], upper: int, threshold: int, dice: int = 6,
            **options: Any) -> Ruleset:
    """Maxi Yatzy with saved rolls cut down to ``boxes`` (the first ``upper`` the upper
    section, the bonus of 50 at ``threshold``) and ``dice`` dice."""
    return dataclasses.replace(
        yatzy.ruleset("maxi_yatzy", **options), boxes=boxes, upper_count=upper,
        upper_bonus_threshold=threshold, upper_bonus_points=50, dice_count=dice)


#: Two dice, three boxes: small enough for the brute force from every start.
TINY = reduced(("ones", "sixes", "chance"), 2, 8, dice=2)
#: Six dice, the upper box and two of Maxi Yatzy's own.
SIX = reduced(("sixes", "villa", "maxi_yatzy"), 1, 18)
#: Three upper boxes of six dice (the no-saved-rolls solver's too).
UPPER3 = reduced(("fours", "fives", "sixes"), 3, 40)


def solved(ruleset: Ruleset, folder: Path, **kw: Any) -> SavedSolution:
    return solve_saved(ruleset, folder, **kw)


def cards(ruleset: Ruleset) -> list[tuple[Scorecard, int, int]]:
    """Every card of ``ruleset`` but the full one, as ``(card, mask, upper sum)``: every
    combination of points in its filled boxes (the other boxes' points matter only as
    their total)."""
    out = []
    nb = len(ruleset.boxes)
    for mask in range((1 << nb) - 1):
        filled = [b for b in range(nb) if mask >> b & 1]
        options = [sorted(ruleset.possible_points(ruleset.boxes[b]))
                   if b < ruleset.upper_count else [7] for b in filled]
        for combo in itertools.product(*options):
            entries: list[int | None] = [None] * nb
            for b, p in zip(filled, combo, strict=True):
                entries[b] = p
            u = sum(p for b, p in zip(filled, combo, strict=True) if b < ruleset.upper_count)
            out.append((Scorecard(ruleset, tuple(entries)), mask,
                        min(u, ruleset.upper_bonus_threshold)))
    return out


@pytest.mark.parametrize("cap", [None, 1])
def test_every_start_of_a_tiny_game_agrees_with_brute_force(tmp_path: Path,
                                                           cap: int | None) -> None:
    sol = solved(TINY, tmp_path, cap=cap)
    brute = expected_final_score_saved(TINY, cap=cap)
    checked = 0
    for card, mask, u in cards(TINY):
        n = bin(mask).count("1")
        for s in range(min(2 * n, 99 if cap is None else cap) + 1):
            assert sol.value(mask, u, s) == pytest.approx(brute(card, s) - card.total,
                                                          abs=1e-4), (card, s)
            checked += 1
    assert checked >= 45
    # From float32 layers: within their rounding.
    assert sol.start_value == pytest.approx(brute(Scorecard.empty(TINY), 0), abs=1e-5)


@pytest.mark.parametrize(("entries", "u"), [((None, 30, 100), 0), ((None, 0, 0), 0),
                                           ((18, 0, None), 18), ((12, None, 100), 12)])
def test_six_dice_with_one_box_left_agree_with_brute_force(
        tmp_path: Path, entries: tuple[int | None, ...], u: int) -> None:
    sol = solved(SIX, tmp_path)
    brute = expected_final_score_saved(SIX)
    mask = sum(1 << b for b, p in enumerate(entries) if p is not None)
    card = Scorecard(SIX, entries)
    for s in (0, 1, 4):
        assert sol.value(mask, min(u, 18), s) == pytest.approx(
            brute(card, s) - card.total, abs=1e-4)


def test_no_saved_rolls_is_the_cap_of_none(tmp_path: Path) -> None:
    """Capped at 0, saved rolls are the game without them: the solver of that game."""
    sol = solved(UPPER3, tmp_path, cap=0)
    plain = dataclasses.replace(UPPER3, saved_rolls=False)
    model = build_model(plain)
    values = solve(model)
    for mask in range(7):
        for u in range(41):
            want = values[mask, 0, u]
            if want > -1e17:
                assert sol.value(mask, u, 0) == pytest.approx(want, abs=1e-4)
    assert sol.start_value == pytest.approx(values[0, 0, 0], abs=1e-5)


def test_caps_bound_the_exact_value(tmp_path: Path) -> None:
    exact = solved(UPPER3, tmp_path / "exact").start_value
    lows = [solved(UPPER3, tmp_path / f"l{k}", cap=k).start_value for k in range(5)]
    highs = [solved(UPPER3, tmp_path / f"u{k}", cap=k, bound="upper").start_value
             for k in range(5)]
    assert all(a <= b + 1e-9 for a, b in itertools.pairwise(lows))
    assert all(low <= exact + 1e-9 <= high + 2e-9 for low, high in zip(lows, highs, strict=True))
    assert lows[0] < exact - 0.1 < highs[0] - 0.2
    # Three turns save at most 4 rolls for the last: a cap of 4 is no cap.
    assert lows[4] == pytest.approx(exact, abs=1e-9)
    assert highs[4] == pytest.approx(exact, abs=1e-9)


def test_a_stopped_solve_resumes_to_the_same_values(tmp_path: Path) -> None:
    whole = solved(SIX, tmp_path / "whole", chunks_per_layer=3)
    folder = tmp_path / "stopped"
    with pytest.raises(InterruptedError):
        solved(SIX, folder, chunks_per_layer=3, stop_after=4)
    assert (folder / "layer-02.npy").exists() and not (folder / "layer-01.npy").exists()
    parts = list(folder.glob("layer-*.part/*.npy"))
    assert parts, "a chunk of the layer it stopped in is kept"
    again = solved(SIX, folder, chunks_per_layer=3)
    for a, b in zip(whole.values, again.values, strict=True):
        assert np.array_equal(a, b)
    assert again.start_value == whole.start_value
    stats = json.loads((folder / "stats.json").read_text())
    assert sorted(s["layer"] for s in stats) == [0, 1, 2]
    with pytest.raises(CheckpointMismatch):
        solved(SIX, folder, cap=1)


def test_a_ruleset_travels_as_plain_data() -> None:
    for r in (TINY, SIX, yatzy.ruleset("maxi_yatzy", bonus="50_at_75")):
        spec = ruleset_spec(r)
        assert ruleset_of_spec(json.loads(json.dumps(spec))) == r


def test_dask_workers_give_the_same_values(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    here = solved(UPPER3, tmp_path / "here")
    # Two workers in this process (quick to start); `yatzy solve --workers 2` starts
    # them as processes, with the same tasks.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        there = solved(UPPER3, tmp_path / "there", client=client)
    for a, b in zip(here.values, there.values, strict=True):
        assert np.array_equal(a, b)
    stats = json.loads((tmp_path / "there" / "stats.json").read_text())
    assert max(s["workers"] for s in stats) == 2


def test_games_of_the_strategy_score_the_solved_mean(tmp_path: Path) -> None:
    game = reduced(("twos", "fives", "chance"), 2, 12, dice=3)
    sol = solved(game, tmp_path)
    scores = play_saved(sol, 3000, seed=1)
    mean, se = scores.mean(), scores.std() / np.sqrt(len(scores))
    assert abs(mean - sol.start_value) < 4 * se
    capped = solved(game, tmp_path / "c0", cap=0)
    low = play_saved(capped, 3000, seed=1)
    assert abs(low.mean() - capped.start_value) < 4 * low.std() / np.sqrt(len(low))


def test_compiled_games_play_as_the_python_player(tmp_path: Path) -> None:
    """The compiled simulation plays the Python player's strategy: on other dice (each
    game its own stream), so the two agree in the mean over a few thousand games, and
    the compiled one, fast, within its standard error of the solved value over many."""
    game = reduced(("twos", "fives", "chance"), 2, 12, dice=3)
    sol = solved(game, tmp_path)
    python = play_saved(sol, 3000, seed=1)
    compiled = simulate_saved(sol, 3000, seed=1)
    se = np.hypot(python.std(), compiled.scores.std()) / np.sqrt(3000)
    assert abs(python.mean() - compiled.mean) < 4 * se
    many = simulate_saved(sol, 200_000, seed=2)
    assert abs(many.mean - sol.start_value) < 4 * many.standard_error
    # A capped lower bound plays its own game (rolls past the cap lost), as in Python.
    capped = solved(game, tmp_path / "c0", cap=0)
    low = simulate_saved(capped, 100_000, seed=3)
    assert abs(low.mean - capped.start_value) < 4 * low.standard_error
    assert low.mean < many.mean


def test_compiled_games_depend_on_the_seed_and_the_game_only(tmp_path: Path) -> None:
    """A seed gives the same games, however they are cut into batches and threads; the
    games of a state share their turn tables whatever saved rolls each holds."""
    sol = solved(SIX, tmp_path)
    one = simulate_saved(sol, 500, seed=7)
    again = simulate_saved(sol, 500, seed=7, batch=64, threads=1)
    assert np.array_equal(one.scores, again.scores)
    assert np.array_equal(one.upper_bonus, again.upper_bonus)
    assert not np.array_equal(one.scores, simulate_saved(sol, 500, seed=8).scores)
    assert np.array_equal(simulate_saved(sol, 100, seed=7).scores, one.scores[:100])


def test_the_compiled_player_refuses_what_it_cannot_play(tmp_path: Path) -> None:
    sol = solved(TINY, tmp_path, cap=1, bound="upper")
    with pytest.raises(ValueError, match="upper bound"):
        simulate_saved(sol, 10)
    exact = solved(TINY, tmp_path / "exact")
    with pytest.raises(ValueError, match="at least one"):
        simulate_saved(exact, 0)
    with pytest.raises(ValueError, match="seed"):
        simulate_saved(exact, 1, seed=-1)


@pytest.mark.parametrize("ruleset", [TINY, SIX, UPPER3], ids=["tiny", "six", "upper3"])
def test_a_saved_roll_never_hurts(tmp_path: Path, ruleset: Ruleset) -> None:
    """More saved rolls are worth at least as much (a player may leave them unused), in
    every state the tables hold."""
    sol = solved(ruleset, tmp_path)
    for layer in sol.values[:-1]:  # the full card: 0 whatever is saved
        reached = layer[:, :, 0] > -1e17
        steps = np.diff(layer, axis=2)[reached]
        assert (steps >= -1e-4).all()
        assert (steps > 1e-3).any() or layer.shape[2] == 1
