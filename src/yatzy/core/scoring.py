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


# --- Maxi Yatzy (six dice) ----------------------------------------------------------
# Its pairs, kinds, house, villa and tower take the best dice that fit: the groups of
# one face each, of different faces, with the highest sum.


def groups(*sizes: int) -> Scorer:
    """Groups of dice of different faces, of these ``sizes`` (``groups(3, 2)`` is a full
    house: three of one face and two of another), scoring the sum of those dice: the
    groups with the highest sum when the dice hold several.

    >>> groups(3, 2)(Dice([6, 6, 6, 5, 5, 5])), groups(3, 3)(Dice([6, 6, 6, 5, 5, 5]))
    (28, 33)
    >>> groups(2, 2, 2)(Dice([6, 6, 6, 5, 5, 5]))
    0
    """
    wanted = tuple(sorted(sizes, reverse=True))

    def best(counts: tuple[int, ...], left: tuple[int, ...], used: frozenset[int]) -> int:
        if not left:
            return 0
        most = -1
        for face in range(6, 0, -1):
            if face not in used and counts[face - 1] >= left[0]:
                rest = best(counts, left[1:], used | {face})
                if rest >= 0:
                    most = max(most, left[0] * face + rest)
        return most

    def score(dice: Dice) -> int:
        return max(best(dice.counts, wanted, frozenset()), 0)

    score.__name__ = "groups_" + "_".join(map(str, wanted))
    return score


def contains_straight(faces: tuple[int, ...], points: int) -> Scorer:
    """A straight the dice must contain (Maxi Yatzy's six dice: 1-5 = 15 with any sixth
    die, 2-6 = 20, 1-6 = 21)."""
    wanted = frozenset(faces)

    def score(dice: Dice) -> int:
        return points if wanted <= set(dice) else 0

    score.__name__ = f"contains_{''.join(map(str, sorted(wanted)))}"
    return score


def all_alike(points: int) -> Scorer:
    """Every die the same face: ``points`` (Maxi Yatzy's six of a kind, 100)."""

    def score(dice: Dice) -> int:
        return points if dice.is_n_of_a_kind else 0

    score.__name__ = f"all_alike_{points}"
    return score
