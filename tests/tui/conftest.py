"""Fixtures for driving the real terminal game with Textual's pilot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.services import fresh_sqlite
from yatzy.app import GameService
from yatzy.bootstrap import open_service


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh game database file."""
    return fresh_sqlite(tmp_path / "games.sqlite3")


@pytest.fixture
def service(db: Path) -> Iterator[GameService]:
    """The real game service on a fresh database."""
    with open_service(db) as svc:
        yield svc
