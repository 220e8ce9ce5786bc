"""Dice multisets and kept dice as integer codes, with the tables the solver walks.

A *keep* is a multiset of 0 to ``n`` faces (the dice held before a reroll); the
multisets of exactly ``n`` faces are the *rolls* (the dice on the table). Keeps are
numbered by size, then lexicographically, so every roll is a keep too.

>>> t = keep_tables(5)
>>> t.keep_count, t.roll_count
(462, 252)
>>> t.faces(t.roll_index((3, 3, 3, 5, 5)))
(3, 3, 3, 5, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

FACES = 6

IntArray = npt.NDArray[np.int64]
#: Small integers (points of a box, ``-1`` for none), kept compact.
SmallIntArray = npt.NDArray[np.int8]
#: Indices and small counts for the compiled kernels.
IndexArray = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]
#: Rows of bits.
WordArray = npt.NDArray[np.uint64]


def _code(counts: tuple[int, ...], base: int) -> int:
    """A number for a tuple of six face counts (each below ``base``)."""
    code = 0
    for c in reversed(counts):
        code = code * base + c
    return code


@dataclass(frozen=True)
class KeepTables:
    """Every keep of up to ``dice`` dice, and how they connect.

    - ``keeps``: the faces of each keep (tuples, ascending).
    - ``counts[k, f]``: how many dice of face ``f + 1`` keep ``k`` holds.
    - ``size[k]``: how many dice keep ``k`` holds.
    - ``child[k, f]``: the keep with one more die of face ``f + 1`` (-1 at full size).
    - ``parent[k, f]``: the keep with one die of face ``f + 1`` less (-1 if none).
    - ``parents[k]``: the distinct keeps with one die less, padded with ``keep_count``.
    - ``first_roll``: the first index of the full-size keeps (the rolls); rolls are
      ``first_roll .. keep_count - 1``.
    - ``roll_prob[r]``: the probability of roll ``r`` (0-based among rolls) when all dice
      are thrown.
    - ``sub_keeps[r, i]``: the distinct proper sub-multisets of roll ``r`` (keeps of
      fewer dice), -1 padded; ``sub_count[r]`` how many.
    - ``code_to_keep``: keep index by :func:`_code` of its counts (for fast lookup).
    """

    dice: int
    keeps: tuple[tuple[int, ...], ...]
    counts: IntArray
    size: IntArray
    child: IntArray
    parent: IntArray
    parents: IntArray
    first_roll: int
    roll_prob: FloatArray
    sub_keeps: IntArray
    sub_count: IntArray
    code_to_keep: IntArray

    @property
    def keep_count(self) -> int:
        return len(self.keeps)

    @property
    def roll_count(self) -> int:
        return len(self.keeps) - self.first_roll

    def faces(self, roll: int) -> tuple[int, ...]:
        """The faces of roll number ``roll`` (0-based among rolls)."""
        return self.keeps[self.first_roll + roll]

    def keep_index(self, faces: tuple[int, ...] | list[int]) -> int:
        """The keep index of a multiset of faces."""
        counts = [0] * FACES
        for f in faces:
            counts[f - 1] += 1
        return int(self.code_to_keep[_code(tuple(counts), self.dice + 1)])

    def roll_index(self, faces: tuple[int, ...] | list[int]) -> int:
        """The roll number (0-based among rolls) of ``dice`` faces."""
        return self.keep_index(faces) - self.first_roll


@cache
def keep_tables(dice: int) -> KeepTables:
    """The keep tables for ``dice`` dice (cached)."""
    keeps = [
        combo
        for size in range(dice + 1)
        for combo in combinations_with_replacement(range(1, FACES + 1), size)
    ]
    n = len(keeps)
    counts = np.zeros((n, FACES), dtype=np.int64)
    for k, combo in enumerate(keeps):
        for f in combo:
            counts[k, f - 1] += 1
    size = counts.sum(axis=1)
    code_to_keep = np.full((dice + 1) ** FACES, -1, dtype=np.int64)
    for k in range(n):
        code_to_keep[_code(tuple(int(c) for c in counts[k]), dice + 1)] = k
    child = np.full((n, FACES), -1, dtype=np.int64)
    parent = np.full((n, FACES), -1, dtype=np.int64)
    for k in range(n):
        for f in range(FACES):
            c = [int(x) for x in counts[k]]
            if size[k] < dice:
                c[f] += 1
                child[k, f] = code_to_keep[_code(tuple(c), dice + 1)]
                c[f] -= 1
            if c[f] > 0:
                c[f] -= 1
                parent[k, f] = code_to_keep[_code(tuple(c), dice + 1)]
    parents = np.full((n, FACES), n, dtype=np.int64)
    for k in range(n):
        found_parents = [int(p) for p in parent[k] if p >= 0]
        parents[k, : len(found_parents)] = found_parents
    first_roll = int(np.argmax(size == dice))
    rolls = range(first_roll, n)
    roll_prob = np.zeros(n - first_roll)
    for r in rolls:
        ways = factorial(dice)
        for c in counts[r]:
            ways //= factorial(int(c))
        roll_prob[r - first_roll] = ways / FACES**dice
    subs: list[list[int]] = []
    for r in rolls:
        found: set[int] = set()
        stack = [r]
        while stack:
            k = stack.pop()
            for f in range(FACES):
                p = int(parent[k, f])
                if p >= 0 and p not in found:
                    found.add(p)
                    stack.append(p)
        subs.append(sorted(found))
    width = max(len(s) for s in subs)
    sub_keeps = np.full((len(subs), width), -1, dtype=np.int64)
    sub_count = np.zeros(len(subs), dtype=np.int64)
    for i, s in enumerate(subs):
        sub_keeps[i, : len(s)] = s
        sub_count[i] = len(s)
    return KeepTables(
        dice=dice,
        keeps=tuple(keeps),
        counts=counts,
        size=size,
        child=child,
        parent=parent,
        parents=parents,
        first_roll=first_roll,
        roll_prob=roll_prob,
        sub_keeps=sub_keeps,
        sub_count=sub_count,
        code_to_keep=code_to_keep,
    )
