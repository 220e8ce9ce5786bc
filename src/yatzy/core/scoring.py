"""Table scores of every box, as pure functions of the dice.

Each function takes the dice as a :class:`~yatzy.core.dice.Dice` and returns the points
the box's table gives, with no play-order, Joker or bonus context (that lives in
:mod:`yatzy.core.rules`). They are the single place where a box's requirement lives.
"""

from __future__ import annotations

from collections.abc import Callable

from yatzy.core.dice import Dice

Scorer = Callable[[Dice], int]


def upper(face: int) -> Scorer:
    """Ones … sixes: the face times how many dice show it."""

    def score(dice: Dice) -> int:
        return face * dice.counts[face - 1]

    score.__name__ = f"upper_{face}"
    return score


def chance(dice: Dice) -> int:
    """The sum of all dice."""
    return sum(dice)


def n_of_a_kind_faces(dice: Dice, n: int) -> list[int]:
    """The faces shown by at least ``n`` dice, highest first."""
    counts = dice.counts
    return [face for face in range(6, 0, -1) if counts[face - 1] >= n]


# --- Scandinavian Yatzy -------------------------------------------------------------


def one_pair(dice: Dice) -> int:
    """Two dice of the highest face shown at least twice."""
    faces = n_of_a_kind_faces(dice, 2)
    return 2 * faces[0] if faces else 0


def two_pairs(dice: Dice) -> int:
    """Two pairs of *different* faces: the two highest such pairs (five of a kind is not)."""
    faces = n_of_a_kind_faces(dice, 2)
    return 2 * (faces[0] + faces[1]) if len(faces) >= 2 else 0


def kind_of(n: int) -> Scorer:
    """Scandinavian n of a kind: n dice of the highest face shown at least n times."""

    def score(dice: Dice) -> int:
        faces = n_of_a_kind_faces(dice, n)
        return n * faces[0] if faces else 0

    score.__name__ = f"kind_of_{n}"
    return score


def exact_straight(faces: tuple[int, ...], points: int) -> Scorer:
    """A straight that must be exactly ``faces`` (Scandinavian: 1-5 = 15, 2-6 = 20)."""
    wanted = tuple(sorted(faces))

    def score(dice: Dice) -> int:
        return points if tuple(sorted(dice)) == wanted else 0

    score.__name__ = f"straight_{''.join(map(str, wanted))}"
    return score


def full_house_sum(dice: Dice) -> int:
    """Scandinavian full house: exactly three of one face and two of another, scores the sum."""
    shape = sorted(c for c in dice.counts if c)
    return sum(dice) if shape == [2, 3] else 0


def yatzy(dice: Dice) -> int:
    """All dice the same: 50."""
    return 50 if dice.is_n_of_a_kind else 0


# --- Yahtzee ------------------------------------------------------------------------


def kind_sum(n: int) -> Scorer:
    """Yahtzee n of a kind: at least n dice of one face, scores the sum of all dice."""

    def score(dice: Dice) -> int:
        return sum(dice) if max(dice.counts) >= n else 0

    score.__name__ = f"kind_sum_{n}"
    return score


def full_house_25(dice: Dice) -> int:
    """Yahtzee full house: exactly three of one face and two of another, 25."""
    shape = sorted(c for c in dice.counts if c)
    return 25 if shape == [2, 3] else 0


def has_run(dice: Dice, length: int) -> bool:
    """True when the dice contain ``length`` consecutive faces (duplicates allowed)."""
    present = set(dice)
    return any(all(f in present for f in range(lo, lo + length)) for lo in range(1, 8 - length))


def small_straight_30(dice: Dice) -> int:
    """Yahtzee small straight: contains four in a row, 30."""
    return 30 if has_run(dice, 4) else 0


def large_straight_40(dice: Dice) -> int:
    """Yahtzee large straight: five in a row, 40."""
    return 40 if has_run(dice, 5) else 0
