"""Saved rolls (Maxi Yatzy): the exact solver, layer by layer of filled boxes.

With saved rolls a turn-start state is ``(mask, u, s)``: the filled boxes, the upper sum
and the player's saved rolls ``s``. A turn with ``s`` saved has ``rolls + s`` rolls;
after a roll with ``m`` rolls still to use, filling a box leaves ``m`` saved. So within a
turn the future depends on ``(mask, u, m)`` only, and one pass per *level* ``m`` gives
every ``s`` at once (``csrc/saved.c``). Each turn saves at most ``rolls - 1``, so after
``n`` filled boxes ``s <= (rolls - 1) * n``: Maxi Yatzy's last turn may hold 38.

A *layer* is the states of one number ``n`` of filled boxes: ``values[n]`` is a
``float32`` array ``[masks of layer n, upper sums, saved rolls]`` (the masks a game
reaches, sorted; ``rank[mask]`` is a mask's row in its layer). A layer needs only the
next one, so the layers are solved from the full card back, each cut into chunks of
masks that are solved independently: on this process's threads, or as tasks of a Dask
cluster (:func:`solve_saved` with ``client``). Every chunk and every layer is written
atomically to a *checkpoint folder*, so a solve that is stopped resumes where it was.

A *cap* ``k`` keeps at most ``k`` saved rolls: with ``bound="lower"`` rolls beyond it
are lost (a game with fewer options: a lower bound of the true value), with
``bound="upper"`` a state beyond it is valued by :func:`optimistic` (the most points the
open boxes could still give: at least the true value, so the result is an upper bound,
the backward induction being monotone). Without a cap the solve is exact.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import resource
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from yatzy.core.rules import most_saved_rolls
from yatzy.core.rulesets import Ruleset
from yatzy.solver import kernels, turn
from yatzy.solver.dp import upper_masks
from yatzy.solver.keeps import IntArray
from yatzy.solver.model import Model, build_model

if TYPE_CHECKING:
    from yatzy.solver.simulate import SimulationResult

Bound = Literal["lower", "upper"]
F32 = npt.NDArray[np.float32]
I32 = npt.NDArray[np.int32]
#: ``progress(layer, done, total, stats)``: after each layer (``stats``: its figures).
LayerProgress = Callable[[int, int, int, dict[str, Any]], None]

#: Bump when the layout of the layer files changes.
SAVED_VERSION = 1


# --- Layers -------------------------------------------------------------------------------


def layer_masks(model: Model) -> tuple[list[I32], I32]:
    """The reachable masks of each number of filled boxes (sorted), and ``rank``:
    ``int32[2 ** boxes]``, each reachable mask's row in its layer (-1: unreachable)."""
    masks = np.asarray(model.masks, dtype=np.int64)
    sizes = np.array([bin(int(m)).count("1") for m in masks], dtype=np.int64)
    rank = np.full(1 << model.boxes, -1, dtype=np.int32)
    layers = []
    for n in range(model.boxes + 1):
        layer = np.sort(masks[sizes == n]).astype(np.int32)
        rank[layer] = np.arange(len(layer), dtype=np.int32)
        layers.append(layer)
    return layers, rank


def saved_count(model: Model, n: int, cap: int | None) -> int:
    """How many saved-roll counts layer ``n`` holds: 0 .. the most ``n`` turns can save
    (:func:`~yatzy.core.rules.most_saved_rolls`), or up to the cap."""
    most = most_saved_rolls(model.rolls, n)
    return (most if cap is None else min(cap, most)) + 1


def box_best(model: Model) -> npt.NDArray[np.float64]:
    """Each box's largest points (Joker points included)."""
    t = model.tables
    best: npt.NDArray[np.float64] = np.maximum(
        t.score.max(axis=0), t.five_points.max(axis=(0, 1))).astype(np.float64)
    return best


def optimistic(model: Model, masks: IntArray,
               best: npt.NDArray[np.float64] | None = None) -> F32:
    """``[masks, upper sums]``: the most points the open boxes of each mask could still
    give from each upper sum: each open box's largest points, and the upper bonus if the
    open upper boxes' largest points reach it. At least the value of any state of the
    mask, whatever its saved rolls. ``best``: :func:`box_best`, when known."""
    t = model.tables
    nb = model.boxes
    if best is None:
        best = box_best(model)
    bits = ((masks[:, None] >> np.arange(nb)) & 1) == 0  # open boxes
    total = (bits * best).sum(axis=1)
    upper = np.zeros(nb, dtype=bool)
    upper[list(model.upper)] = True
    reach = (bits * (best * upper)).sum(axis=1)
    u = np.arange(model.threshold + 1)
    bonus = (u[None, :] < model.threshold) & (u[None, :] + reach[:, None] >= model.threshold)
    out: F32 = (total[:, None] + bonus * t.bonus).astype(np.float32)
    return out


#: The last context made (see SolveContext.of), and its lock.
_CONTEXT: dict[Ruleset, SolveContext] = {}
_CONTEXT_LOCK = threading.Lock()


@dataclass
class SolveContext:
    """What solving a chunk needs, made once per process: the model, its compiled view
    (with an empty value table: saved rolls read the layers instead), the layers."""

    model: Model
    k: kernels.Kernels
    layers: list[I32]
    rank: I32
    optimistic: dict[int, F32] = field(default_factory=dict)
    best: npt.NDArray[np.float64] | None = None

    @classmethod
    def of(cls, ruleset: Ruleset) -> SolveContext:
        """The context of ``ruleset``: the last one made is kept (a worker solves one
        ruleset's chunks one after the other, a command asks several times)."""
        with _CONTEXT_LOCK:
            held = _CONTEXT.get(ruleset)
            if held is None:
                model = build_model(ruleset)
                layers, rank = layer_masks(model)
                held = cls(model, kernels.transition_kernels(model.tables), layers, rank)
                _CONTEXT.clear()
                _CONTEXT[ruleset] = held
            return held

    def optimistic_of(self, n: int) -> F32:
        if n not in self.optimistic:
            if self.best is None:
                self.best = box_best(self.model)
            self.optimistic = {n: optimistic(self.model, self.layers[n].astype(np.int64),
                                             self.best)}
        return self.optimistic[n]


def solve_chunk(ctx: SolveContext, n: int, jobs: I32, following: F32, cap: int | None,
                bound: Bound, threads: int = 1) -> F32:
    """The values ``[jobs, upper sums, saved]`` of masks ``jobs`` of layer ``n`` from the
    values of layer ``n + 1`` (``following``)."""
    m = ctx.model
    ns, ns_next = saved_count(m, n, cap), saved_count(m, n + 1, cap)
    opt = ctx.optimistic_of(n + 1) if bound == "upper" and cap is not None else None
    jobs = np.ascontiguousarray(jobs, dtype=np.int32)
    out = np.empty((len(jobs), m.threshold + 1, ns), dtype=np.float32)
    following = np.ascontiguousarray(following, dtype=np.float32)

    def work(i: int, parts: int) -> None:
        ctx.k.saved_layer(jobs, ctx.rank, following, ns_next, opt, out, ns, i, parts)

    kernels.run_parallel(work, max(1, min(threads, len(jobs))))
    return out


# --- Checkpoints ----------------------------------------------------------------------------


class CheckpointMismatch(ValueError):
    """The checkpoint folder holds the layers of another solve (ruleset, cap or bound)."""


def _save_npy(path: Path, array: npt.NDArray[Any]) -> None:
    """Write ``array`` to ``path`` atomically (a temporary name, then renamed)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.save(f, array)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _save_json(path: Path, data: Any) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _load_npy(path: Path, shape: tuple[int, ...]) -> F32 | None:
    """The layer or chunk at ``path`` (memory-mapped), or ``None`` when there is none or
    it is not what is expected."""
    try:
        a = np.load(path, mmap_mode="r")
    except (OSError, ValueError):
        return None
    if a.dtype != np.float32 or a.shape != shape:
        return None
    return a  # type: ignore[no-any-return]


def layer_file(folder: Path, n: int) -> Path:
    return folder / f"layer-{n:02d}.npy"


def chunk_file(folder: Path, n: int, lo: int) -> Path:
    return folder / f"layer-{n:02d}.part" / f"{lo:08d}.npy"


def _peak_memory() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


#: Ruleset fields a spec may change from its named ruleset (plain data: a reduced game of
#: the tests is the named ruleset with fewer boxes).
_PLAIN_FIELDS = ("boxes", "upper_count", "upper_bonus_threshold", "upper_bonus_points",
                 "rolls", "dice_count")


def ruleset_spec(ruleset: Ruleset) -> dict[str, Any]:
    """Plain data that :func:`ruleset_of_spec` turns back into ``ruleset`` (for a task on
    another process: a ruleset's scoring functions may not pickle); ``ValueError`` when
    it cannot."""
    named = Ruleset.from_dict(ruleset.to_dict())
    changed = {f: getattr(ruleset, f) for f in _PLAIN_FIELDS
               if getattr(ruleset, f) != getattr(named, f)}
    spec = {"rules": ruleset.to_dict(),
            "replace": {k: list(v) if isinstance(v, tuple) else v for k, v in changed.items()}}
    if ruleset_of_spec(spec) != ruleset:
        raise ValueError(f"{ruleset} cannot be sent to another process")
    return spec


def ruleset_of_spec(spec: dict[str, Any]) -> Ruleset:
    named = Ruleset.from_dict(spec["rules"])
    changes: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                               for k, v in spec["replace"].items()}
    return dataclasses.replace(named, **changes) if changes else named




def chunk_task(rules: dict[str, Any], cap: int | None, bound: Bound, folder: str, n: int,
               lo: int, hi: int, threads: int = 1) -> dict[str, Any]:
    """Solve masks ``lo .. hi - 1`` of layer ``n`` (``rules``: :func:`ruleset_spec`) from
    the next layer's file in ``folder``, and write them to their chunk file (atomically;
    a chunk already there is kept). A plain function of plain arguments: a Dask task, or
    called in-process. Returns its figures: seconds, the process's peak memory, the
    worker."""
    start = time.perf_counter()
    ctx = SolveContext.of(ruleset_of_spec(rules))
    m = ctx.model
    path = Path(folder)
    target = chunk_file(path, n, lo)
    shape = (hi - lo, m.threshold + 1, saved_count(m, n, cap))
    if _load_npy(target, shape) is None:
        nxt_shape = (len(ctx.layers[n + 1]), m.threshold + 1, saved_count(m, n + 1, cap))
        following = _load_npy(layer_file(path, n + 1), nxt_shape)
        if following is None:
            raise FileNotFoundError(f"layer {n + 1} is missing from {folder}")
        out = solve_chunk(ctx, n, ctx.layers[n][lo:hi], following, cap, bound, threads)
        target.parent.mkdir(exist_ok=True)
        _save_npy(target, out)
    return {"seconds": time.perf_counter() - start, "peak_memory_bytes": _peak_memory(),
            "worker": _worker_name(), "masks": hi - lo}


def _worker_name() -> str:
    """The Dask worker running this (its address), else this process."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"


# --- The solve ------------------------------------------------------------------------------


@dataclass
class SavedSolution:
    """A solved ruleset with saved rolls: the layers' values and how they were made."""

    ruleset: Ruleset
    cap: int | None
    bound: Bound
    layers: list[I32]
    rank: I32
    values: list[F32]
    #: The start of a game's value (float64, from the layer after it).
    start_value: float
    stats: list[dict[str, Any]]
    folder: Path
    #: The table's file, once written (:func:`save_table`) or when read from it.
    path: Path | None = None

    def value(self, mask: int, u: int, s: int) -> float:
        """The expected points still to come from state ``(mask, u, s)``."""
        n = bin(mask).count("1")
        return float(self.values[n][self.rank[mask], u, s])


def solve_saved(
    ruleset: Ruleset,
    folder: Path,
    *,
    cap: int | None = None,
    bound: Bound = "lower",
    client: Any = None,
    threads: int | None = None,
    chunks_per_layer: int = 16,
    progress: LayerProgress | None = None,
    stop_after: int | None = None,
) -> SavedSolution:
    """Solve ``ruleset`` (saved rolls) layer by layer into ``folder``, resuming from
    whatever layers and chunks are already there. ``client``: a ``dask.distributed``
    client whose workers see ``folder`` (else this process's threads). ``stop_after``:
    stop (raising :class:`InterruptedError`) after that many chunks, for tests of the
    resumption."""
    if cap is not None and cap < 0:
        raise ValueError("the cap is 0 or more")
    if cap is None:
        bound = "lower"  # exact: no state is past a cap
    rules = ruleset_spec(ruleset)
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"ruleset": rules, "cap": cap, "bound": bound if cap is not None else "exact",
            "version": SAVED_VERSION}
    meta_path = folder / "meta.json"
    if meta_path.exists():
        if json.loads(meta_path.read_text()) != meta:
            raise CheckpointMismatch(f"{folder} holds another solve")
    else:
        _save_json(meta_path, meta)
    ctx = SolveContext.of(ruleset)
    m = ctx.model
    nb = m.boxes
    stats_path = folder / "stats.json"
    stats: list[dict[str, Any]] = (json.loads(stats_path.read_text())
                                   if stats_path.exists() else [])
    full = (1, m.threshold + 1, saved_count(m, nb, cap))
    if _load_npy(layer_file(folder, nb), full) is None:
        _save_npy(layer_file(folder, nb), np.zeros(full, dtype=np.float32))
    threads = threads or kernels.threads()
    done_chunks = 0
    for step, n in enumerate(range(nb - 1, -1, -1)):
        count = len(ctx.layers[n])
        shape = (count, m.threshold + 1, saved_count(m, n, cap))
        if _load_npy(layer_file(folder, n), shape) is not None:
            continue
        start = time.perf_counter()
        parts = max(1, min(count, chunks_per_layer))
        bounds = [count * i // parts for i in range(parts + 1)]
        spans = [(lo, hi) for lo, hi in itertools.pairwise(bounds) if hi > lo]
        figures: list[dict[str, Any]] = []
        if client is not None:
            futures = [client.submit(chunk_task, rules, cap, bound, str(folder), n, lo, hi,
                                     1, pure=False) for lo, hi in spans]
            figures = client.gather(futures)
        else:
            for lo, hi in spans:
                if stop_after is not None and done_chunks >= stop_after:
                    raise InterruptedError(f"stopped in layer {n}")
                figures.append(chunk_task(rules, cap, bound, str(folder), n, lo, hi, threads))
                done_chunks += 1
        _merge(folder, n, shape, spans)
        record = {
            "layer": n, "masks": count,
            "states": int(count * (m.threshold + 1) * shape[2]),
            "saved_counts": shape[2], "seconds": time.perf_counter() - start,
            "chunks": len(spans),
            "workers": len({f["worker"] for f in figures}),
            "worker_peak_memory_bytes": max(f["peak_memory_bytes"] for f in figures),
            "driver_peak_memory_bytes": _peak_memory(),
        }
        stats = [s for s in stats if s["layer"] != n] + [record]
        _save_json(stats_path, stats)
        if progress is not None:
            progress(n, step + 1, nb, record)
    values = [_load_npy(layer_file(folder, n), (len(ctx.layers[n]), m.threshold + 1,
                                                saved_count(m, n, cap)))
              for n in range(nb + 1)]
    if any(v is None for v in values):
        raise FileNotFoundError(f"a layer is missing from {folder}")
    layers_v: list[F32] = [v for v in values if v is not None]
    return SavedSolution(ruleset, cap, bound, ctx.layers, ctx.rank, layers_v,
                         start_value(ctx, layers_v, cap, bound), stats, folder)


def _merge(folder: Path, n: int, shape: tuple[int, ...], spans: list[tuple[int, int]]) -> None:
    """Join the chunks of layer ``n`` into its layer file (atomically), then remove them."""
    target = layer_file(folder, n)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=target.name, suffix=".tmp")
    os.close(fd)
    try:
        out = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float32, shape=shape)
        for lo, hi in spans:
            part = _load_npy(chunk_file(folder, n, lo), (hi - lo, *shape[1:]))
            if part is None:
                raise FileNotFoundError(f"chunk {lo} of layer {n} is missing")
            out[lo:hi] = part
        out.flush()
        del out
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    shutil.rmtree(folder / f"layer-{n:02d}.part", ignore_errors=True)


# --- One state's turn: the start value, advice for the simulation ---------------------------


@dataclass(frozen=True)
class SavedTurn:
    """A turn's values in state ``(mask, u)`` for every level ``m`` (rolls still to use
    after a roll): ``boxes[m][i, r]``, the value of filling box ``abox[i]`` with roll
    ``r``, and ``keeps[m][k]``, of keeping ``k`` and rolling again (level 0: none)."""

    abox: IntArray
    boxes: list[npt.NDArray[np.float64]]
    keeps: npt.NDArray[np.float64]


def saved_turn(ctx: SolveContext, values: list[F32], mask: int, u: int, levels: int,
               cap: int | None, bound: Bound) -> SavedTurn:
    """The turn tables of state ``(mask, u)`` with ``levels`` levels (``rolls + s`` for
    ``s`` saved rolls)."""
    m = ctx.model
    t = m.tables
    n = bin(mask).count("1")
    ns_next = saved_count(m, n + 1, cap)
    opt = ctx.optimistic_of(n + 1) if bound == "upper" and cap is not None else None
    abox = np.zeros(m.boxes, dtype=np.int64)
    width = t.entry_box.shape[0] + 6 * m.boxes
    bv = np.zeros((levels, width))
    keeps = np.zeros((levels, t.child.shape[0]))
    following = np.ascontiguousarray(values[n + 1], dtype=np.float32)
    na = ctx.k.saved_turn(mask, u, levels, ctx.rank, following, ns_next, opt, abox, bv, keeps)
    allowed = abox[:na]
    return SavedTurn(allowed, [turn.box_matrix(t, allowed, bv[i]) for i in range(levels)],
                     keeps)


def roll_values(ctx: SolveContext, tt: SavedTurn, level: int) -> npt.NDArray[np.float64]:
    """The value of each roll at ``level``: the best of its boxes and its keeps."""
    t = ctx.model.tables
    best = tt.boxes[level].max(axis=0) if len(tt.abox) else np.full(t.roll_prob.shape[0],
                                                                    kernels.NEG)
    if level > 0:
        sub = np.where(t.sub_keeps >= 0, t.sub_keeps, 0)
        kv = np.where(t.sub_keeps >= 0, tt.keeps[level][sub], kernels.NEG)
        best = np.maximum(best, kv.max(axis=1))
    return best


def start_value(ctx: SolveContext, values: list[F32], cap: int | None, bound: Bound) -> float:
    """The start of a game's value, in float64 (the layers are float32)."""
    tt = saved_turn(ctx, values, 0, 0, ctx.model.rolls, cap, bound)
    return float(ctx.model.tables.roll_prob @ roll_values(ctx, tt, ctx.model.rolls - 1))


# --- Playing the strategy -------------------------------------------------------------------


def play_saved(sol: SavedSolution, games: int, seed: int = 0) -> npt.NDArray[np.int64]:
    """The final scores of ``games`` solitaire games of the solved strategy (the first
    best option, boxes before keeps on a tie), with dice from ``numpy``'s generator of
    ``seed``; a capped lower bound plays its own game (saved rolls beyond the cap lost).
    Plain Python, a decision at a time: for reduced games and samples, not for speed."""
    if sol.cap is not None and sol.bound == "upper":
        raise ValueError("an upper bound is no strategy to play")
    ctx = SolveContext.of(sol.ruleset)
    m = ctx.model
    t = m.tables
    kt = m.keeps
    rng = np.random.default_rng(seed)
    full = (1 << m.boxes) - 1
    turns: dict[tuple[int, int], SavedTurn] = {}
    scores = np.zeros(games, dtype=np.int64)
    for g in range(games):
        mask = u = s = total = 0
        while mask != full:
            n = bin(mask).count("1")
            if (mask, u) not in turns:
                turns[mask, u] = saved_turn(ctx, sol.values, mask, u,
                                            m.rolls + saved_count(m, n, sol.cap) - 1,
                                            sol.cap, sol.bound)
            tt = turns[mask, u]
            r = kt.roll_index(sorted(rng.integers(1, 7, size=m.ruleset.dice_count).tolist()))
            level = m.rolls - 1 + s
            while True:
                boxes = tt.boxes[level][:, r]
                i = int(np.argmax(boxes))
                if level > 0:
                    subs = t.sub_keeps[r, : t.sub_count[r]]
                    kv = tt.keeps[level][subs]
                    j = int(np.argmax(kv))
                    if kv[j] > boxes[i]:
                        kept = list(kt.keeps[int(subs[j])])
                        new = rng.integers(1, 7, size=m.ruleset.dice_count - len(kept))
                        r = kt.roll_index(sorted(kept + new.tolist()))
                        level -= 1
                        continue
                points, extra, bonus, mask, _, u = kernels.fill(ctx.k, mask, 0, u, r,
                                                                int(tt.abox[i]))
                total += points + extra + bonus
                s = min(level, saved_count(m, n + 1, sol.cap) - 1)
                break
        scores[g] = total
    return scores


def simulate_saved(sol: SavedSolution, games: int, *, seed: int = 0,
                   batch: int = 1_000_000, threads: int | None = None,
                   player: str = "optimal") -> SimulationResult:
    """``games`` solitaire games of the solved strategy with saved rolls, in compiled
    code: as :func:`play_saved` plays them (the first best option, boxes before keeps on
    a tie), but on the dice of :func:`yatzy.solver.simulate.simulate` (each game its own
    stream, from ``seed`` and the game's number: the same games however they are split
    into batches and threads). The games move in lockstep, a turn at a time; the games
    of one state ``(mask, u)`` share its turn tables (:func:`saved_turn`), worked out once
    with as many levels as the most saved rolls among them need, and are played by
    ``Kernels.saved_play`` on this process's threads."""
    from yatzy.solver.simulate import SimulationResult, check_run

    if sol.cap is not None and sol.bound == "upper":
        raise ValueError("an upper bound is no strategy to play")
    check_run(games, seed)
    ctx = SolveContext.of(sol.ruleset)
    m = ctx.model
    stride = m.threshold + 1
    threads = threads or kernels.threads()
    start = time.perf_counter()
    parts = []
    for lo in range(0, games, batch):
        n = min(batch, games - lo)
        rows = np.zeros((n, kernels.COLUMNS), dtype=np.int64)
        ctx.k.seed_games(rows, seed, lo)
        saved = np.zeros(n, dtype=np.int64)
        for turn_no in range(m.boxes):
            _play_turn(ctx, sol, turn_no, rows, saved, stride, threads)
        parts.append((rows[:, 3].copy(), rows[:, 2] >= m.threshold, rows[:, 4] > 0))
    return SimulationResult(
        player=player, ruleset_name=str(sol.ruleset), seed=seed,
        seconds=time.perf_counter() - start,
        scores=np.concatenate([p[0] for p in parts]),
        upper_bonus=np.concatenate([p[1] for p in parts]),
        yahtzee=np.concatenate([p[2] for p in parts]),
        extra_yahtzees=np.zeros(games, dtype=np.int64))


def _play_turn(ctx: SolveContext, sol: SavedSolution, n: int, rows: IntArray,
               saved: IntArray, stride: int, threads: int) -> None:
    """Turn ``n`` of every game of ``rows``: grouped by state, each group's turn played
    by ``Kernels.saved_play`` (which releases the GIL: the groups on ``threads``)."""
    m = ctx.model
    following = np.ascontiguousarray(sol.values[n + 1], dtype=np.float32)
    ns_next = following.shape[2]
    opt = None  # an exact table or a lower bound: rolls past a cap are lost
    # Upper sums of one lane share their values (and so their turn tables).
    t = m.tables
    um = upper_masks(m, rows[:, 0])
    key = rows[:, 0] * stride + t.lanes[um, t.lane_of[um, rows[:, 2]]]
    order = np.argsort(key, kind="stable")
    sk = key[order]
    starts = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
    ends = np.r_[starts[1:], len(sk)]
    most = np.maximum.reduceat(saved[order], starts)
    groups = [(int(sk[a]), np.ascontiguousarray(order[a:b]), m.rolls + int(top))
              for a, b, top in zip(starts, ends, most, strict=True)]
    # The largest groups first, spread over the threads.
    groups.sort(key=lambda g: -len(g[1]))

    def work(i: int, parts: int) -> None:
        for state, games, levels in groups[i::parts]:
            ctx.k.saved_play(state // stride, state % stride, levels, ctx.rank, following,
                             ns_next, opt, rows, saved, games)

    kernels.run_parallel(work, max(1, min(threads, len(groups))))


# --- The table on disk ----------------------------------------------------------------------


def state_count(model: Model, cap: int | None) -> int:
    """How many turn-start states (mask, upper sum that needs its own value, saved
    rolls) the table of saved rolls holds, the full card aside."""
    layers, _ = layer_masks(model)
    total = 0
    for n, masks in enumerate(layers[:-1]):
        um = upper_masks(model, masks.astype(np.int64))
        total += int(model.tables.lane_count[um].sum()) * saved_count(model, n, cap)
    return total


def save_table(sol: SavedSolution, meta: dict[str, Any], directory: Path | None = None
               ) -> Path:
    """Write ``sol`` as a table file in the cache directory (see
    :func:`~yatzy.solver.artifacts.save_saved`)."""
    from yatzy.solver import artifacts

    return artifacts.save_saved(sol.ruleset, sol.cap, sol.bound, sol.layers, sol.values,
                                sol.start_value, meta, directory)


def load_table(ruleset: Ruleset, cap: int | None = None, bound: Bound = "lower",
               directory: Path | None = None) -> SavedSolution | None:
    """The stored table of ``ruleset`` with saved rolls, or ``None``."""
    from yatzy.solver import artifacts

    found = artifacts.load_saved(ruleset, cap, bound, directory)
    if found is None:
        return None
    masks, values, header = found
    ctx = SolveContext.of(ruleset)
    if any(not np.array_equal(a, b) for a, b in zip(masks, ctx.layers, strict=True)):
        return None
    path = artifacts.saved_table_path(ruleset, cap, bound, directory)
    return SavedSolution(ruleset, cap, bound, ctx.layers, ctx.rank, values,
                         float(header["start_value"]), header.get("stats", []), path.parent,
                         path)
