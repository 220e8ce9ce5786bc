"""Project-wide pytest configuration.

Every test session keeps solver tables and game databases in temporary directories, so
that running the tests never reads or writes a player's own cache or saved games.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

collect_ignore_glob = ["src/yatzy/**/__main__.py", "bench/*"]


@pytest.fixture(scope="session", autouse=True)
def _private_user_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    values = {
        "YATZY_CACHE_DIR": str(tmp_path_factory.mktemp("yatzy-cache")),
        "YATZY_DB": str(tmp_path_factory.mktemp("yatzy-data") / "yatzy.sqlite3"),
    }
    old = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    yield
    for key, value in old.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "built_tables: checks tables too large to build in a test run; "
        "selected only when $YATZY_MAXI_TABLES names a folder of built ones")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out (deselect, not skip) the checks of tables that are not here."""
    if "YATZY_MAXI_TABLES" in os.environ:
        return
    left_out = [item for item in items if item.get_closest_marker("built_tables")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not item.get_closest_marker("built_tables")]
