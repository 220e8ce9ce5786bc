"""Dice derived from a seed: a pure function, so that a seeded game replays exactly.

The dice for a roll come from BLAKE2b over the seed, a purpose tag and the roll's index,
turned into uniform faces by rejection sampling. No global state, no clock.

>>> seeded_dice(42, "turn", 0, 5) == seeded_dice(42, "turn", 0, 5)
True
>>> len(seeded_dice(42, "turn", 1, 3))
3
"""

from __future__ import annotations

import hashlib

from yatzy.core.dice import Dice

#: Seeds are whole numbers in this range, so they survive JSON and JavaScript intact.
MAX_SEED = 2**53 - 1


def seeded_dice(seed: int, purpose: str, index: int, count: int) -> Dice:
    """``count`` dice for roll number ``index`` of ``purpose`` in the game seeded ``seed``."""
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
    return Dice(faces)
