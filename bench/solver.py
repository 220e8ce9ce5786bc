"""Benchmark of the exact solver, next to the PyPI package ``yatzy-solver`` 1.0.0.

    python bench/solver.py [--runs 5] [--games 100000] [--rules yatzy] [--no-reference]

Prints, for Scandinavian Yatzy and Yahtzee, what a user meets: ``yatzy solve`` in a
fresh process with no table cached (wall time from spawn to exit, start-up included, and
its peak memory), the median of ``--runs`` builds in one process, loading a cached
table, the peak memory of a process that builds a table and of one that loads a table and
advises (each also as what it adds to the process with the library and its solver
imported), the median time of ``Strategy.advise(game)`` on positions of random games
after a first roll (a state not seen before; the same state again; and the new state's
work once more, forgotten, with the memory it reads already in the processor's caches:
the difference is the time of the first reads), optimal simulation speed, and ``yatzy
simulate -n 1000000`` from the command line. The same figures for ``yatzy-solver`` come
from its own virtual environment (``bench/.venv-ref``, created on first use), with the
ratios of the same run; also how long the C extension takes to compile (once, at
install), and the peak memory of a bare Python process, with numpy, and with the library
and its solver imported (each the child's own ``VmHWM``).

Each figure is measured in a fresh child process so that peak memory and first calls
are honest. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from procstat import run_command, run_json

HERE = Path(__file__).resolve().parent
REF_VENV = HERE / ".venv-ref"
REF_PACKAGE = "yatzy-solver==1.0.0"
SITUATIONS = 2000

# --- Our side (run in child processes) ------------------------------------------------

OURS = r"""
import json, os, random, resource, statistics, sys, time
args = json.loads(sys.argv[1])
t0 = time.perf_counter()
import yatzy
from yatzy.solver import policy
from yatzy.solver.simulate import simulate
out = {"import_seconds": time.perf_counter() - t0}
# The process with the library and its solver imported (numpy with it), before any
# table: what a loaded or built table adds is measured from here.
out["base_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
r = yatzy.ruleset(args["rules"], **args.get("options", {}))
what = args["what"]

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

def situations(n):
    # Random positions of real games, each after a turn's first roll (2 rolls left).
    rng = random.Random(1)
    games = []
    for i in range(n):
        g = yatzy.new_game(r, ["Ann"], seed=i)
        for _ in range(rng.randrange(len(r.boxes))):
            g = g.roll()
            g = g.score(rng.choice(sorted(g.choices())))
        games.append(g.roll())
    return games

if what == "builds":
    times = []
    for _ in range(args["runs"]):
        policy._STRATEGIES.clear()
        t = time.perf_counter()
        s = policy.strategy(r, cache=False)
        times.append(time.perf_counter() - t)
        if len(times) == 1:  # one build in a fresh process (later ones overlap the last)
            out["first_build_peak_mb"] = peak_mb()
    out["times"] = times
    out["expected_score"] = s.expected_score
    out["states"] = s.state_count
    out["peak_mb"] = peak_mb()
elif what == "load":
    yatzy.strategy(r)  # make sure a table is on disk
    policy._STRATEGIES.clear()
    t = time.perf_counter()
    s = yatzy.strategy(r)
    out["seconds"] = time.perf_counter() - t
    out["source"] = s.source
elif what == "loaded":
    # A player's process: the table loaded from disk, some advice given.
    s = yatzy.strategy(r)
    for g in situations(50):
        s.advise(g)
    out["peak_mb"] = peak_mb()
elif what == "advise":
    s = yatzy.strategy(r)
    games = situations(args["situations"])
    s.advise(games[0])
    cold, warm, again = [], [], []
    for g in games:
        s.forget()
        t = time.perf_counter_ns()
        s.advise(g)
        cold.append(time.perf_counter_ns() - t)
        t = time.perf_counter_ns()
        s.advise(g)
        warm.append(time.perf_counter_ns() - t)
        # The same work once more (the state forgotten), the memory it reads now in the
        # processor's caches: what is left of a new state's time without first reads.
        s.forget()
        t = time.perf_counter_ns()
        s.advise(g)
        again.append(time.perf_counter_ns() - t)
    out["cold_us"] = statistics.median(cold) / 1000
    out["warm_us"] = statistics.median(warm) / 1000
    out["recomputed_us"] = statistics.median(again) / 1000
elif what == "simulate":
    s = yatzy.strategy(r)
    simulate(s, 1000, seed=0)
    res = simulate(s, args["games"], seed=1)
    out["games_per_second"] = res.games_per_second
    out["mean"] = res.mean
    out["standard_error"] = res.standard_error
    out["peak_mb"] = peak_mb()
print(json.dumps(out))
"""

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
    return run_json([python, "-c", code, json.dumps(args)], env)


def median_command(argv: list[str], runs: int, env: dict[str, str] | None = None
                   ) -> tuple[float, float]:
    """Median wall time and largest peak memory of ``runs`` runs of ``argv``."""
    times, peaks = [], []
    for _ in range(runs):
        seconds, peak = run_command(argv, env)
        times.append(seconds)
        peaks.append(peak)
    return statistics.median(times), max(peaks)


#: What a process peaks at before any table, as ``python -c CODE`` (the floor under the
#: memory figures): Python alone, with numpy, with the library and its solver.
BASELINES = {"Python": "pass", "with numpy": "import numpy",
             "with the library and its solver": "import yatzy.solver.policy"}
#: A child's own peak: VmHWM, which starts afresh at exec (a child's ``ru_maxrss`` also
#: counts the parent's memory it was forked from).
OWN_PEAK = ("\nfor line in open('/proc/self/status'):\n"
            "    if line.startswith('VmHWM'): print('{\"kb\": %s}' % line.split()[1])")


def baselines() -> dict[str, float]:
    """The peak memory (MB) of a fresh process for each of :data:`BASELINES`."""
    return {name: run_json([sys.executable, "-c", code + OWN_PEAK])["kb"] / 1024
            for name, code in BASELINES.items()}


def compile_seconds() -> float:
    """How long compiling the solver's C extension takes (once, at install), with the
    flags of ``setup.py`` (its files one after the other, as setuptools compiles them)."""
    import sysconfig
    sources = sorted((HERE.parent / "src" / "yatzy" / "solver" / "csrc").glob("*.c"))
    with tempfile.TemporaryDirectory() as out:
        cc = sysconfig.get_config_var("CC") or "cc"
        argv = [*cc.split(), "-O3", "-fno-math-errno", "-ffp-contract=off", "-Wall",
                "-Wno-psabi", "-pthread",
                "-fPIC", "-shared",
                f"-I{sysconfig.get_paths()['include']}", *map(str, sources), "-o",
                str(Path(out) / "k.so")]
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        return time.perf_counter() - start


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


#: title: (our child's arguments, our command-line options, yatzy-solver's variant)
GAMES: dict[str, tuple[dict[str, Any], list[str], str]] = {
    "Scandinavian Yatzy": ({"rules": "yatzy"}, ["--rules", "yatzy"], "yatzy-scandinavian"),
    "Yahtzee (gated Joker)": ({"rules": "yahtzee", "options": {"joker": "gated"}},
                              ["--rules", "yahtzee", "--joker", "gated"], "american"),
    "Yahtzee (forced Joker)": ({"rules": "yahtzee", "options": {"joker": "forced"}},
                               ["--rules", "yahtzee", "--joker", "forced"],
                               "american+forced-joker"),
}

#: yatzy-solver in a fresh process, as a user would start it.
REFERENCE_BUILD = "import sys, yatzy_solver as ys; ys.Solver.build(ys.Variant(sys.argv[1]))"


def measure(runs: int, games: int, reference: bool, rules: str | None = None
            ) -> list[dict[str, Any]]:
    """Every figure, for every game (of ``rules`` only, when given)."""
    ref_python = ensure_reference() if reference else None
    yatzy_command = str(Path(sys.executable).parent / "yatzy")
    rows = []
    with tempfile.TemporaryDirectory() as tables:
        env = {"YATZY_CACHE_DIR": tables}

        def empty_cache() -> None:
            for f in Path(tables).iterdir():
                f.unlink()

        for title, (ours_args, options, variant) in GAMES.items():
            if rules is not None and ours_args["rules"] != rules:
                continue
            print(f"measuring {title} …", file=sys.stderr)
            row: dict[str, Any] = {"game": title}
            # What a user starts: the command, in a fresh process, with no table cached;
            # taken in turns with yatzy-solver's build in a fresh process, so that both
            # meet the same machine (a shared one changes speed from minute to minute).
            solve_runs, ref_runs = [], []
            for _ in range(runs):
                empty_cache()
                solve_runs.append(run_command([yatzy_command, "solve", *options], env))
                if ref_python:
                    ref_runs.append(run_command([ref_python, "-c", REFERENCE_BUILD, variant]))
            solve_s = statistics.median(r[0] for r in solve_runs)
            solve_mb = max(r[1] for r in solve_runs)
            builds = run_child(sys.executable, OURS,
                               {**ours_args, "what": "builds", "runs": runs}, env)
            load = run_child(sys.executable, OURS, {**ours_args, "what": "load"}, env)
            loaded = run_child(sys.executable, OURS, {**ours_args, "what": "loaded"}, env)
            advise = run_child(sys.executable, OURS,
                               {**ours_args, "what": "advise", "situations": SITUATIONS}, env)
            sim = run_child(sys.executable, OURS,
                            {**ours_args, "what": "simulate", "games": games}, env)
            million_s, million_mb = median_command(
                [yatzy_command, "simulate", *options, "-n", "1000000", "--seed", "1"],
                max(1, runs // 2), env)
            row["ours"] = {
                "expected_score": builds["expected_score"],
                "states": builds["states"],
                "build_median": statistics.median(builds["times"]),
                "solve_command": solve_s,
                "solve_peak_mb": solve_mb,
                "load": load["seconds"],
                "loaded_peak_mb": loaded["peak_mb"],
                "base_mb": loaded["base_mb"],
                "build_peak_mb": builds["first_build_peak_mb"],
                "advise_cold_us": advise["cold_us"],
                "advise_warm_us": advise["warm_us"],
                "advise_recomputed_us": advise["recomputed_us"],
                "games_per_second": sim["games_per_second"],
                "simulated_mean": sim["mean"],
                "million_command": million_s,
                "million_peak_mb": million_mb,
                "import_seconds": builds["import_seconds"],
            }
            if ref_python:
                rb = run_child(ref_python, REFERENCE,
                               {"variant": variant, "what": "builds", "runs": runs})
                rf_s = statistics.median(r[0] for r in ref_runs)
                rf_mb = max(r[1] for r in ref_runs)
                ra = run_child(ref_python, REFERENCE,
                               {"variant": variant, "what": "advise", "situations": SITUATIONS})
                rs = run_child(ref_python, REFERENCE,
                               {"variant": variant, "what": "simulate", "games": games})
                row["reference"] = {
                    "expected_score": rb["expected_score"],
                    "build_median": statistics.median(rb["times"]),
                    "fresh_build": rf_s,
                    "fresh_peak_mb": rf_mb,
                    "advise_us": ra["us"],
                    "games_per_second": rs["games_per_second"],
                    "peak_mb": max(rb["peak_mb"], rf_mb),
                }
            rows.append(row)
    return rows


def report(rows: list[dict[str, Any]], runs: int, games: int, compile_s: float,
           floor: dict[str, float]) -> str:
    """The figures as a Markdown table (ratio = reference / ours: above 1, we are
    faster or smaller)."""
    load = os.getloadavg()
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, load average {load[0]:.2f} / {load[1]:.2f} at the "
        f"end; builds: median of {runs}; advice: median of {SITUATIONS} positions of "
        f"random games after a first roll; simulation: {games:,} games. The C extension "
        f"compiles in {compile_s:.1f} s, once, at install. A fresh process peaks at "
        + ", ".join(f"{mb:.1f} MB {name}" for name, mb in floor.items()) + ".",
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
        add(g, "build in a process, median (s)", o["build_median"],
            r and r["build_median"], ".2f")
        # Not the same work: yatzy solve also builds the win-chance table and the exact
        # layers (seconds and a gigabyte), yatzy-solver only its value table. No ratio.
        add(g, "fresh process, empty cache (s): `yatzy solve` (ours: every table)",
            o["solve_command"], r and r["fresh_build"], ".2f", compare=False)
        add(g, "peak memory of that (MB)", o["solve_peak_mb"], r and r["fresh_peak_mb"],
            ".0f", compare=False)
        add(g, "peak memory, one build in a fresh process (MB)", o["build_peak_mb"],
            None, ".0f")
        add(g, "of which the build, over the library imported (MB)",
            o["build_peak_mb"] - o["base_mb"], None, ".0f")
        add(g, "load cached table (s)", o["load"], None, ".3f")
        add(g, "peak memory, table loaded and advising (MB)", o["loaded_peak_mb"], None,
            ".0f")
        add(g, "of which the loaded table, over the library imported (MB)",
            o["loaded_peak_mb"] - o["base_mb"], None, ".0f")
        add(g, "`advise(game)`, new state (µs)", o["advise_cold_us"], r and r["advise_us"],
            ".1f")
        add(g, "`advise(game)`, new state, its memory read once before (µs)",
            o["advise_recomputed_us"], None, ".1f")
        add(g, "`advise(game)`, same state (µs)", o["advise_warm_us"], r and r["advise_us"],
            ".1f")
        add(g, "simulation (games/s)", o["games_per_second"], r and r["games_per_second"],
            ",.0f", higher_is_better=True)
        add(g, "`yatzy simulate -n 1000000`, wall (s)", o["million_command"], None, ".2f")
        add(g, "peak memory of that (MB)", o["million_peak_mb"], None, ".0f")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="builds per median (default 5)")
    parser.add_argument("--games", type=int, default=100_000,
                        help="games to simulate (default 100000)")
    parser.add_argument("--no-reference", dest="reference", action="store_false",
                        help="skip yatzy-solver")
    parser.add_argument("--rules", choices=sorted({a["rules"] for a, _, _ in GAMES.values()}),
                        help="measure only this ruleset's games (default: all)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args()
    start = time.perf_counter()
    compile_s = compile_seconds()
    floor = baselines()
    rows = measure(args.runs, args.games, args.reference, args.rules)
    if args.json:
        print(json.dumps({"compile_seconds": compile_s, "baseline_mb": floor, "rows": rows},
                         indent=2))
    else:
        print(report(rows, args.runs, args.games, compile_s, floor))
    print(f"(benchmark took {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
