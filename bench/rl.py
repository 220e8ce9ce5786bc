"""Benchmark of the reinforcement-learning environments (yatzy.rl), and the mean scores
of a random and the optimal agent in them.

    python bench/rl.py [--runs 5] [--steps 20000] [--games 2000] [--rules yatzy]
                       [--regret-only]

Prints, for the ruleset, environment steps per second (the median of ``--runs`` runs of
about ``--steps`` steps each, recorded with uniform random legal actions and replayed
with nothing else in the loop; by the process's CPU time, which other programs on a
shared machine disturb less, and by wall time): ``YatzyEnv``
itself, what ``gymnasium.make`` gives (Gymnasium's checking wrappers around it), with
``regret=True``, the vector environment
``YatzyVectorEnv`` with 16, 256 and 1024 games (the last over four times the steps),
with 256 games and ``regret=True``, and with 4096 games without and with ``regret=True``
(over twenty times the steps; the regrets' ratio to the plain figure is printed), and
Gymnasium's ``SyncVectorEnv`` over 16 single environments for comparison. Then the mean
final score over ``--games`` games of three agents: uniform random legal actions (mostly
rerolls while any are left), a random allowed box at once (no rerolls), and the optimal
agent (``yatzy.rl.optimal_action``), next to the solver's expected score. With
``--regret-only``, only the 4096 games without and with ``regret=True`` (the runs of the
two alternate, so that both see the same load). Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import SyncVectorEnv

import yatzy
from yatzy.rl import YatzyEnv, YatzyVectorEnv, optimal_action
from yatzy.solver import kernels

Agent = Callable[[YatzyEnv, np.ndarray], int]


Rate = tuple[float, float]

FOUR_K = "YatzyVectorEnv, 4096 games"
FOUR_K_REGRET = "YatzyVectorEnv, 4096 games, regret=True"


def single_rate(make: Callable[[], gymnasium.Env[Any, Any]], steps: int, seed: int) -> Rate:
    """Steps per second of one environment, by CPU time and by wall time: ``steps``
    actions of uniform random legal play are recorded first, then replayed from the
    same seed with nothing else in the loop (the reset after a game's last step is
    timed with that step)."""
    env = make()
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    actions = []
    for _ in range(steps):
        actions.append(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        obs, _, terminated, _, _ = env.step(actions[-1])
        if terminated:
            obs, _ = env.reset()
    env.reset(seed=seed)
    cpu, wall = time.process_time(), time.perf_counter()
    for action in actions:
        if env.step(action)[2]:
            env.reset()
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - wall)


def vector_rate(make: Callable[[], gymnasium.vector.VectorEnv[Any, Any, Any]], steps: int,
                seed: int) -> Rate:
    """Steps per second (of all games together) of a vector environment, by CPU time
    and by wall time, recorded and replayed as in :func:`single_rate`."""
    envs = make()
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    n = envs.num_envs
    batches = []
    for _ in range(max(1, steps // n)):
        # A uniform legal action per game (0 where there is none: a restart).
        masks = obs["action_mask"]
        batches.append(np.argmax(rng.random(masks.shape) * masks, axis=1))
        obs, *_ = envs.step(batches[-1])
    envs.reset(seed=seed)
    cpu, wall = time.process_time(), time.perf_counter()
    for actions in batches:
        envs.step(actions)
    done = n * len(batches)
    return done / (time.process_time() - cpu), done / (time.perf_counter() - wall)


def random_action(env: YatzyEnv, obs_mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs_mask)))


def random_box(env: YatzyEnv, obs_mask: np.ndarray, rng: np.random.Generator) -> int:
    boxes = np.flatnonzero(obs_mask[env.layout.keep_count:])
    return env.layout.keep_count + int(rng.choice(boxes))


def optimal(env: YatzyEnv, obs_mask: np.ndarray, rng: np.random.Generator) -> int:
    return optimal_action(env.game, env.layout)


def mean_score(rules: str, agent: Callable[[YatzyEnv, np.ndarray, np.random.Generator], int],
               games: int, seed: int) -> tuple[float, float, float]:
    """Mean final score, its standard error, and the games per second."""
    env = YatzyEnv(rules)
    rng = np.random.default_rng(seed)
    scores = []
    start = time.perf_counter()
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        total, terminated = 0.0, False
        while not terminated:
            obs, reward, terminated, _, _ = env.step(agent(env, obs["action_mask"], rng))
            total += reward
        scores.append(total)
    seconds = time.perf_counter() - start
    return (statistics.fmean(scores), statistics.stdev(scores) / games**0.5,
            games / seconds)


def measure_regret(rules: str, runs: int, steps: int) -> dict[str, Any]:
    """Only the 4096 games without and with ``regret=True``, their runs alternating."""
    yatzy.strategy(yatzy.ruleset(rules))  # the table built or loaded before any timing
    measured: dict[str, list[Rate]] = {FOUR_K: [], FOUR_K_REGRET: []}
    for seed in range(runs):
        for name, regret in ((FOUR_K, False), (FOUR_K_REGRET, True)):
            print(f"measuring {name}, run {seed + 1} …", file=sys.stderr)
            measured[name].append(vector_rate(
                lambda regret=regret: YatzyVectorEnv(4096, rules, regret=regret),
                steps * 20, seed))
    rates = {name: (statistics.median(m[0] for m in ms), statistics.median(m[1] for m in ms))
             for name, ms in measured.items()}
    return {"rules": rules, "rates": rates, "scores": {},
            "expected_score": yatzy.strategy(yatzy.ruleset(rules)).expected_score}


def measure(rules: str, runs: int, steps: int, games: int) -> dict[str, Any]:
    yatzy.strategy(yatzy.ruleset(rules))  # the table built or loaded before any timing
    env_id = {"yatzy": "yatzy/Yatzy-v0", "yahtzee": "yatzy/Yahtzee-v0"}[rules]
    speeds: dict[str, Callable[[int], Rate]] = {
        "YatzyEnv": lambda s: single_rate(lambda: YatzyEnv(rules), steps, s),
        "gymnasium.make (checking wrappers)": lambda s: single_rate(
            lambda: gymnasium.make(env_id), steps, s),
        "YatzyEnv, regret=True": lambda s: single_rate(
            lambda: YatzyEnv(rules, regret=True), steps, s),
        "YatzyVectorEnv, 16 games": lambda s: vector_rate(
            lambda: YatzyVectorEnv(16, rules), steps, s),
        "YatzyVectorEnv, 256 games": lambda s: vector_rate(
            lambda: YatzyVectorEnv(256, rules), steps, s),
        "YatzyVectorEnv, 1024 games": lambda s: vector_rate(
            lambda: YatzyVectorEnv(1024, rules), steps * 4, s),
        "YatzyVectorEnv, 256 games, regret=True": lambda s: vector_rate(
            lambda: YatzyVectorEnv(256, rules, regret=True), steps, s),
        FOUR_K: lambda s: vector_rate(lambda: YatzyVectorEnv(4096, rules), steps * 20, s),
        FOUR_K_REGRET: lambda s: vector_rate(
            lambda: YatzyVectorEnv(4096, rules, regret=True), steps * 20, s),
        "SyncVectorEnv of 16 YatzyEnv": lambda s: vector_rate(
            lambda: SyncVectorEnv([lambda: YatzyEnv(rules) for _ in range(16)]), steps, s),
    }
    rates = {}
    for name, run in speeds.items():
        print(f"measuring {name} …", file=sys.stderr)
        measured = [run(seed) for seed in range(runs)]
        rates[name] = (statistics.median(m[0] for m in measured),
                       statistics.median(m[1] for m in measured))
    agents = {"uniform random legal action": random_action,
              "random box, no rerolls": random_box, "optimal": optimal}
    scores = {}
    for name, agent in agents.items():
        print(f"playing {games} games: {name} …", file=sys.stderr)
        scores[name] = mean_score(rules, agent, games, seed=1)
    return {"rules": rules, "rates": rates, "scores": scores,
            "expected_score": yatzy.strategy(yatzy.ruleset(rules)).expected_score}


def report(result: dict[str, Any], runs: int, steps: int, games: int) -> str:
    load = os.getloadavg()
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, load average {load[0]:.2f} / {load[1]:.2f} at the "
        f"end; {result['rules']}; speeds: median of {runs} runs of {steps:,} recorded "
        f"steps replayed (the environment's calls only), by the process's CPU time and by "
        f"wall time; scores: {games:,} games each.",
        "",
        "| environment | steps/s (CPU time) | steps/s (wall) |",
        "|---|---:|---:|",
    ]
    lines += [f"| {name} | {cpu:,.0f} | {wall:,.0f} |"
              for name, (cpu, wall) in result["rates"].items()]
    plain, with_regret = result["rates"][FOUR_K], result["rates"][FOUR_K_REGRET]
    lines += ["", f"regret=True with 4096 games: {with_regret[0]:,.0f} steps/s by CPU time "
              f"({with_regret[0] / plain[0]:.3f} of the same games without regret), "
              f"{with_regret[1]:,.0f} by wall time ({with_regret[1] / plain[1]:.3f}); the "
              f"regrets run on {kernels.threads()} threads."]
    if not result["scores"]:
        return "\n".join(lines)
    lines += ["", "| agent | mean score | standard error | games/s |", "|---|---:|---:|---:|"]
    for name, (mean, se, rate) in result["scores"].items():
        lines.append(f"| {name} | {mean:.2f} | {se:.2f} | {rate:,.0f} |")
    lines.append(f"| the solver's expected score | {result['expected_score']:.2f} | | |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per median (default 5)")
    parser.add_argument("--steps", type=int, default=20_000,
                        help="steps per run (default 20000)")
    parser.add_argument("--games", type=int, default=2000,
                        help="games per agent for the mean scores (default 2000)")
    parser.add_argument("--rules", choices=["yatzy", "yahtzee"], default="yatzy")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--regret-only", action="store_true",
                        help="only 4096 games without and with regret=True")
    args = parser.parse_args()
    start = time.perf_counter()
    result = (measure_regret(args.rules, args.runs, args.steps) if args.regret_only
              else measure(args.rules, args.runs, args.steps, args.games))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(report(result, args.runs, args.steps, args.games))
    print(f"(benchmark took {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
