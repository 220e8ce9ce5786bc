"""What building a ruleset's big tables costs a process: time, memory, other threads' waits.

    python bench/solve_memory.py [--rules yatzy] [--step remaining|layers|all]

Each step runs in a fresh process with an empty table cache (a temporary folder), the
value table built first:

- ``remaining``: the table of the win chances, as a server's warm-up builds it on a
  thread (``winning.remaining_table(strategy, rebuild=True)``: built, rounded, saved
  and mapped);
- ``layers``: the exact layers of the score distributions (``distribution.build_layers``),
  as ``yatzy solve`` builds them (let go of before the memory afterwards is read).

For each: seconds, the process's peak memory (``VmHWM``) and what it holds afterwards
(``VmRSS``), both over what it held before the step, and the longest wait of another
thread of the process that asks to run every millisecond meanwhile (the interpreter's
lock held, or the machine busy). Then the whole ``yatzy solve`` from an empty cache as a
user starts it: wall time and peak memory. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from procstat import memory, run_command, run_json

HERE = Path(__file__).resolve().parent


def child(args: argparse.Namespace) -> None:
    import yatzy
    from yatzy.solver import distribution, kernels, winning
    from yatzy.solver.policy import table_strategy

    s = table_strategy(yatzy.ruleset(args.rules))
    before = memory()
    waits: list[float] = []
    done = threading.Event()

    def tick() -> None:
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            waits.append(now - last)
            last = now

    ticker = threading.Thread(target=tick)
    ticker.start()
    start = time.perf_counter()
    if args.step == "remaining":
        winning.remaining_table(s, rebuild=True)
    else:
        upto = distribution.layers_upto(s.model.boxes, s.model.y_count)
        arrays = distribution.build_layers(s, upto, kernels.threads())
        del arrays  # what the process holds after is then what the build kept
    seconds = time.perf_counter() - start
    done.set()
    ticker.join()
    after = memory()
    print(json.dumps({
        "seconds": seconds, "before_mb": before["VmRSS"] / 1024,
        "peak_mb": after["VmHWM"] / 1024, "after_mb": after["VmRSS"] / 1024,
        "longest_wait_ms": max(waits, default=0.0) * 1000,
    }))


def run_step(rules: str, step: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        return run_json([sys.executable, __file__, "--child", "--rules", rules, "--step", step],
                        {"YATZY_CACHE_DIR": cache})


def run_solve(rules: str) -> tuple[float, float]:
    """``yatzy solve --rules RULES`` from an empty cache: (wall seconds, peak MB)."""
    with tempfile.TemporaryDirectory() as cache:
        return run_command([str(Path(sys.executable).parent / "yatzy"), "solve", "--rules",
                            rules], {"YATZY_CACHE_DIR": cache})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--step", choices=["remaining", "layers", "all"], default="all")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return 0
    steps = ["remaining", "layers"] if args.step == "all" else [args.step]
    print(f"{args.rules}, load average {os.getloadavg()[0]:.2f}")
    print("| step | seconds | peak over before (MB) | held after over before (MB) "
          "| longest wait of another thread (ms) |")
    print("|---|---:|---:|---:|---:|")
    for step in steps:
        r = run_step(args.rules, step)
        print(f"| {step} | {r['seconds']:.1f} | {r['peak_mb'] - r['before_mb']:.0f} "
              f"| {r['after_mb'] - r['before_mb']:.0f} | {r['longest_wait_ms']:.0f} |")
    if args.step == "all":
        seconds, peak = run_solve(args.rules)
        print(f"\n`yatzy solve --rules {args.rules}` from an empty cache: {seconds:.1f} s, "
              f"peak {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
