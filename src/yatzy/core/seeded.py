"""Dice derived from a seed: a pure function, so that a seeded game replays exactly.

The dice for a roll come from BLAKE2b over the seed's text form, a purpose tag and the
roll's index, turned into uniform faces by rejection sampling. No global state, no clock.

A seed is either a whole number from 0 to :data:`MAX_SEED` (easy to type, to replay a
game on purpose) or a *secret seed*: 32 to 64 lowercase hexadecimal digits (128 to 256
bits), for dice that must not be guessed. A server publishes :func:`seed_hash` of a
secret seed when a game starts and reveals the seed at its end; anyone can then check
the hash and every roll (:func:`yatzy.core.record.audit`). A 53-bit number would not do
as a secret: 2**53 hashes are within reach of brute force.

>>> seeded_dice(42, "turn", 0, 5) == seeded_dice(42, "turn", 0, 5)
True
>>> len(seeded_dice(42, "turn", 1, 3))
3
>>> seed_hash(42) == seed_hash("42")
True
>>> check_seed("ab" * 15)
Traceback (most recent call last):
...
yatzy.core.errors.IllegalMove: A secret seed must be 32 to 64 lowercase hexadecimal digits
"""

from __future__ import annotations

import hashlib
import re

from yatzy.core.dice import Dice
from yatzy.core.errors import ErrorCode, IllegalMove, shown

#: Numeric seeds are whole numbers in this range, so they survive JSON and JavaScript.
MAX_SEED = 2**53 - 1

#: The text form of a secret seed: 128 to 256 bits as lowercase hexadecimal digits.
SECRET_SEED = re.compile(r"[0-9a-f]{32,64}")

#: A game's seed: a whole number (0 to MAX_SEED) or a secret seed (hexadecimal text).
Seed = int | str


def check_seed(seed: object) -> Seed | None:
    """``seed`` if it is a seed (or ``None``); else :class:`IllegalMove`."""
    if seed is None:
        return None
    if isinstance(seed, str):
        if SECRET_SEED.fullmatch(seed) is None:
            raise IllegalMove("A secret seed must be 32 to 64 lowercase hexadecimal digits",
                              code=ErrorCode.BAD_SECRET_SEED)
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise IllegalMove(
            f"A seed must be a whole number from 0 to {MAX_SEED}, not {shown(seed)}",
            code=ErrorCode.BAD_SEED, most=MAX_SEED, seed=shown(seed),
        )
    return seed


def seed_hash(seed: Seed) -> str:
    """SHA-256 of the seed's text form, in hexadecimal: what a server publishes when a
    game starts, so that the seed it reveals at the end can be checked."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def seeded_dice(seed: Seed, purpose: str, index: int, count: int) -> Dice:
    """``count`` dice for roll number ``index`` of ``purpose`` in the game seeded ``seed``."""
    return Dice(seeded_faces(seed, purpose, index, count))


def seeded_faces(seed: Seed, purpose: str, index: int, count: int) -> list[int]:
    """The faces of :func:`seeded_dice`, as plain whole numbers (for a caller that needs
    many of them fast: no :class:`Dice` is made)."""
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hashlib.blake2b(
            f"{seed}:{purpose}:{index}:{block}".encode(), digest_size=32
        ).digest()
        for byte in digest:
            if byte < 252:  # 252 = 6 * 42: keeps the faces exactly uniform
                faces.append(byte % 6 + 1)
                if len(faces) == count:
                    break
        block += 1
    return faces
