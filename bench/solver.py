"""Benchmark of the exact solver, next to the PyPI package ``yatzy-solver`` 1.0.0.

    python bench/solver.py [--runs 5] [--games 100000] [--no-reference]

Prints, for Scandinavian Yatzy and Yahtzee: table build time (median of ``--runs``
builds in one process, and the first build in a fresh process, with and without the
numba compile cache), table load time, the median time of one advice (every option of a
situation with 2 rolls left, table loaded), optimal simulation speed and peak memory.
The same figures for ``yatzy-solver`` come from its own virtual environment
(``bench/.venv-ref``, created on first use), with the ratios of the same run.

Each figure is measured in a fresh child process so that peak memory and first calls
are honest. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REF_VENV = HERE / ".venv-ref"
REF_PACKAGE = "yatzy-solver==1.0.0"
SITUATIONS = 2000

# --- Our side (run in child processes) ------------------------------------------------

OURS = r'''
import json, os, random, resource, statistics, sys, time
args = json.loads(sys.argv[1])
t0 = time.perf_counter()
import yatzy
from yatzy.core import rules
from yatzy.core.scorecard import Scorecard
from yatzy.solver import policy
from yatzy.solver.simulate import simulate
import_seconds = time.perf_counter() - t0
out = {"import_seconds": import_seconds}
r = yatzy.ruleset(args["rules"], **args.get("options", {}))
what = args["what"]

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

if what == "first_build":
    t = time.perf_counter()
    s = policy.strategy(r, cache=False)
    out["seconds"] = time.perf_counter() - t
    out["expected_score"] = s.expected_score
    out["states"] = s.state_count
    out["peak_mb"] = peak_mb()
elif what == "builds":
    times = []
    for _ in range(args["runs"]):
        policy._STRATEGIES.clear()
        t = time.perf_counter()
        s = policy.strategy(r, cache=False)
        times.append(time.perf_counter() - t)
    out["times"] = times
    out["expected_score"] = s.expected_score
    out["peak_mb"] = peak_mb()
elif what == "load":
    policy.strategy(r)  # make sure a table is on disk
    policy._STRATEGIES.clear()
    t = time.perf_counter()
    s = policy.strategy(r)
    out["seconds"] = time.perf_counter() - t
    out["source"] = s.source
elif what == "advise":
    s = policy.strategy(r)
    rng = random.Random(1)
    situations = []
    for _ in range(args["situations"]):
        card = Scorecard.empty(r)
        for box in rng.sample(r.boxes, rng.randrange(len(r.boxes))):
            dice = [rng.randint(1, 6) for _ in range(5)]
            points = rules.choices(r, card, dice).get(box)
            if points is not None:
                card = card.fill(box, points,
                                 extra_yahtzee=rules.earns_yahtzee_bonus(r, card, dice))
        situations.append((card, yatzy.Dice(rng.randint(1, 6) for _ in range(5))))
    s.advise_card(*situations[0], 2)
    cold, warm = [], []
    for card, dice in situations:
        s._turns.clear()
        t = time.perf_counter_ns()
        s.advise_card(card, dice, 2)
        cold.append(time.perf_counter_ns() - t)
        t = time.perf_counter_ns()
        s.advise_card(card, dice, 2)
        warm.append(time.perf_counter_ns() - t)
    out["cold_us"] = statistics.median(cold) / 1000
    out["warm_us"] = statistics.median(warm) / 1000
elif what == "simulate":
    s = policy.strategy(r)
    simulate(s, 1000, seed=0)
    res = simulate(s, args["games"], seed=1)
    out["games_per_second"] = res.games_per_second
    out["mean"] = res.mean
    out["standard_error"] = res.standard_error
    out["peak_mb"] = peak_mb()
print(json.dumps(out))
'''

# --- yatzy-solver (run in its own virtual environment) --------------------------------

REFERENCE = r'''
import json, random, resource, statistics, sys, time
args = json.loads(sys.argv[1])
import yatzy_solver as ys
v = ys.Variant(args["variant"])
what = args["what"]
out = {"version": ys.__version__}
if what == "builds":
    times = []
    for _ in range(args["runs"]):
        t = time.perf_counter()
        solver = ys.Solver.build(v)
        times.append(time.perf_counter() - t)
    out["times"] = times
    out["expected_score"] = solver.state_value("upper 0 | filled -")
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
elif what == "first_build":
    t = time.perf_counter()
    solver = ys.Solver.build(v)
    out["seconds"] = time.perf_counter() - t
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
elif what == "advise":
    solver = ys.Solver.build(v)
    rng = random.Random(1)
    situations = []
    for _ in range(args["situations"]):
        state = "upper 0 | filled -"
        for cat in rng.sample(v.categories, rng.randrange(len(v.categories))):
            try:
                state, _ = v.apply_score(state, [rng.randint(1, 6) for _ in range(5)], cat)
            except ValueError:  # a Joker rule forbids this category for these dice
                pass
        situations.append(v.start_turn(state, [rng.randint(1, 6) for _ in range(5)]))
    solver.option_values(situations[0])
    times = []
    for sit in situations:
        t = time.perf_counter_ns()
        solver.option_values(sit)
        times.append(time.perf_counter_ns() - t)
    out["us"] = statistics.median(times) / 1000
elif what == "simulate":
    solver = ys.Solver.build(v)
    solver.simulate(1000, seed=0)
    t = time.perf_counter()
    res = solver.simulate(args["games"], seed=1)
    out["games_per_second"] = args["games"] / (time.perf_counter() - t)
    out["mean"] = res["mean"]
print(json.dumps(out))
'''


def run_child(python: str, code: str, args: dict[str, Any],
              env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``code`` in a fresh ``python`` with ``args``; returns its JSON output."""
    proc = subprocess.run(
        [python, "-c", code, json.dumps(args)], capture_output=True, text=True,
        env={**os.environ, **(env or {})}, check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"benchmark child failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def ensure_reference() -> str | None:
    """The Python of ``bench/.venv-ref`` with yatzy-solver installed (created if
    missing); ``None`` when it cannot be installed."""
    python = REF_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {REF_VENV} with {REF_PACKAGE} …", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(REF_VENV)], check=True)
    check = subprocess.run([str(python), "-c", "import yatzy_solver"], capture_output=True,
                           check=False)
    if check.returncode != 0:
        install = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", REF_PACKAGE], check=False)
        if install.returncode != 0:
            print("could not install the reference package; skipping it", file=sys.stderr)
            return None
    return str(python)


GAMES = {
    "Scandinavian Yatzy": ({"rules": "yatzy"}, "yatzy-scandinavian"),
    "Yahtzee (gated Joker)": ({"rules": "yahtzee", "options": {"joker": "gated"}}, "american"),
    "Yahtzee (forced Joker)": (
        {"rules": "yahtzee", "options": {"joker": "forced"}}, "american+forced-joker"),
}


def measure(runs: int, games: int, reference: bool) -> list[dict[str, Any]]:
    """Every figure, for every game."""
    ref_python = ensure_reference() if reference else None
    rows = []
    with tempfile.TemporaryDirectory() as tables:
        env = {"YATZY_CACHE_DIR": tables}
        for title, (ours_args, variant) in GAMES.items():
            print(f"measuring {title} …", file=sys.stderr)
            row: dict[str, Any] = {"game": title}
            jit = tempfile.mkdtemp(prefix="numba-")
            # First build in a fresh process: with an empty numba cache (compiling the
            # kernels), then with them cached on disk (the usual first call).
            cold = run_child(sys.executable, OURS, {**ours_args, "what": "first_build"},
                             {**env, "NUMBA_CACHE_DIR": jit})
            warm = run_child(sys.executable, OURS, {**ours_args, "what": "first_build"},
                             {**env, "NUMBA_CACHE_DIR": jit})
            builds = run_child(sys.executable, OURS,
                               {**ours_args, "what": "builds", "runs": runs}, env)
            load = run_child(sys.executable, OURS, {**ours_args, "what": "load"}, env)
            advise = run_child(sys.executable, OURS,
                               {**ours_args, "what": "advise", "situations": SITUATIONS}, env)
            sim = run_child(sys.executable, OURS,
                            {**ours_args, "what": "simulate", "games": games}, env)
            shutil.rmtree(jit, ignore_errors=True)
            row["ours"] = {
                "expected_score": builds["expected_score"],
                "states": cold["states"],
                "build_median": statistics.median(builds["times"]),
                "first_build_compiling": cold["seconds"],
                "first_build_cached_jit": warm["seconds"],
                "compile": cold["seconds"] - warm["seconds"],
                "load": load["seconds"],
                "advise_cold_us": advise["cold_us"],
                "advise_warm_us": advise["warm_us"],
                "games_per_second": sim["games_per_second"],
                "simulated_mean": sim["mean"],
                "peak_mb": max(cold["peak_mb"], builds["peak_mb"], sim["peak_mb"]),
                "import_seconds": warm["import_seconds"],
            }
            if ref_python:
                rb = run_child(ref_python, REFERENCE,
                               {"variant": variant, "what": "builds", "runs": runs})
                rf = run_child(ref_python, REFERENCE, {"variant": variant, "what": "first_build"})
                ra = run_child(ref_python, REFERENCE,
                               {"variant": variant, "what": "advise", "situations": SITUATIONS})
                rs = run_child(ref_python, REFERENCE,
                               {"variant": variant, "what": "simulate", "games": games})
                row["reference"] = {
                    "expected_score": rb["expected_score"],
                    "build_median": statistics.median(rb["times"]),
                    "first_build": rf["seconds"],
                    "advise_us": ra["us"],
                    "games_per_second": rs["games_per_second"],
                    "peak_mb": max(rb["peak_mb"], rf["peak_mb"]),
                }
            rows.append(row)
    return rows


def report(rows: list[dict[str, Any]], runs: int, games: int) -> str:
    """The figures as a Markdown table (ratio = reference / ours: above 1, we are
    faster or smaller)."""
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; builds: median of {runs}; advice: median of "
        f"{SITUATIONS} random situations with 2 rolls left; simulation: {games:,} games.",
        "",
        "| game | figure | yatzy (this) | yatzy-solver 1.0.0 | ratio |",
        "|---|---|---:|---:|---:|",
    ]

    def add(game: str, figure: str, ours: float, ref: float | None, fmt: str,
            higher_is_better: bool = False, compare: bool = True) -> None:
        ref_text = format(ref, fmt) if ref is not None else "–"
        ratio = "–" if compare else ""
        if compare and ref is not None and ours > 0 and ref > 0:
            ratio = f"{(ours / ref if higher_is_better else ref / ours):.1f}×"
        lines.append(f"| {game} | {figure} | {format(ours, fmt)} | {ref_text} | {ratio} |")

    for row in rows:
        o, r = row["ours"], row.get("reference")
        g = row["game"]
        add(g, "expected score", o["expected_score"], r and r["expected_score"], ".7f",
            compare=False)
        add(g, "build, median (s)", o["build_median"], r and r["build_median"], ".2f")
        add(g, "first build, fresh process (s)", o["first_build_cached_jit"],
            r and r["first_build"], ".2f")
        add(g, "… with numba compiling (s)", o["first_build_compiling"], None, ".2f")
        add(g, "load cached table (s)", o["load"], None, ".3f")
        add(g, "advice, new state (µs)", o["advise_cold_us"], r and r["advise_us"], ".1f")
        add(g, "advice, same state (µs)", o["advise_warm_us"], r and r["advise_us"], ".1f")
        add(g, "simulation (games/s)", o["games_per_second"], r and r["games_per_second"],
            ",.0f", higher_is_better=True)
        add(g, "peak memory (MB)", o["peak_mb"], r and r["peak_mb"], ".0f")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="builds per median (default 5)")
    parser.add_argument("--games", type=int, default=100_000,
                        help="games to simulate (default 100000)")
    parser.add_argument("--no-reference", dest="reference", action="store_false",
                        help="skip yatzy-solver")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args()
    start = time.perf_counter()
    rows = measure(args.runs, args.games, args.reference)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(report(rows, args.runs, args.games))
    print(f"(benchmark took {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
