"""Keep tables: every multiset of kept dice and how they connect."""

from __future__ import annotations

from itertools import product

import pytest

from yatzy.solver.keeps import keep_tables


@pytest.mark.parametrize("dice", [1, 2, 5])
def test_counts_and_probabilities(dice: int) -> None:
    kt = keep_tables(dice)
    assert kt.roll_count == len({tuple(sorted(d)) for d in product(range(1, 7), repeat=dice)})
    assert kt.roll_prob.sum() == pytest.approx(1.0)
    counts: dict[int, int] = {}
    for d in product(range(1, 7), repeat=dice):
        r = kt.roll_index(d)
        counts[r] = counts.get(r, 0) + 1
    for r, n in counts.items():
        assert kt.roll_prob[r] == pytest.approx(n / 6**dice)


def test_links_between_keeps() -> None:
    kt = keep_tables(5)
    assert (kt.keep_count, kt.roll_count) == (462, 252)
    for k, faces in enumerate(kt.keeps):
        for f in range(6):
            if len(faces) < 5:
                assert kt.keeps[kt.child[k, f]] == tuple(sorted((*faces, f + 1)))
            if f + 1 in faces:
                smaller = list(faces)
                smaller.remove(f + 1)
                assert kt.keeps[kt.parent[k, f]] == tuple(smaller)
            else:
                assert kt.parent[k, f] == -1


def test_sub_keeps_are_every_proper_sub_multiset() -> None:
    kt = keep_tables(5)
    r = kt.roll_index((3, 3, 5, 6, 6))
    subs = {kt.keeps[k] for k in kt.sub_keeps[r, : kt.sub_count[r]]}
    assert len(subs) == 3 * 2 * 3 - 1
    assert () in subs and (3, 3, 5, 6) in subs and (3, 3, 5, 6, 6) not in subs
