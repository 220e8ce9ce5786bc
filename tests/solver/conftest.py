"""Solver tests keep their tables in a temporary cache directory, shared by the session
(so each full table is built once per test run)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from yatzy.solver import artifacts


@pytest.fixture(scope="session", autouse=True)
def solver_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = str(tmp_path_factory.mktemp("yatzy-cache"))
    old = os.environ.get(artifacts.ENV_VAR)
    os.environ[artifacts.ENV_VAR] = path
    yield path
    if old is None:
        os.environ.pop(artifacts.ENV_VAR, None)
    else:
        os.environ[artifacts.ENV_VAR] = old
