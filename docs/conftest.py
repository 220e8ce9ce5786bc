"""The examples in these documents keep solver tables in a temporary directory."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _solver_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get("YATZY_CACHE_DIR")
    os.environ["YATZY_CACHE_DIR"] = str(tmp_path_factory.mktemp("yatzy-docs-cache"))
    yield
    if old is None:
        os.environ.pop("YATZY_CACHE_DIR", None)
    else:
        os.environ["YATZY_CACHE_DIR"] = old
