"""Dice faces."""

from __future__ import annotations

import pytest

from yatzy.tui.widgets.dice import PIP, face_lines


@pytest.mark.parametrize("face", range(1, 7))
def test_each_face_shows_its_pips(face: int) -> None:
    lines = face_lines(face)
    assert len(lines) == 3 and all(len(line) == 7 for line in lines)
    assert "".join(lines).count(PIP) == face


def test_a_die_before_the_roll_is_blank() -> None:
    assert PIP not in "".join(face_lines(None))
