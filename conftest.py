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


#: The slowest files (the sum of their tests' durations, measured with ``--durations``),
#: longest first. ``make test`` hands whole files to its two workers in the order
#: collected (``--no-loadscope-reorder``: by default the files with the most tests go
#: first, which deals the few long browser and server tests out last), so these go
#: first: a long file dealt out last would leave one worker alone at the end.
SLOW_FIRST = (
    "tests/web/test_scale_out.py",
    "tests/web/test_table_a11y.py",
    "tests/web/test_scale_out_faults.py",
    "tests/web/test_front.py",
    "tests/tui/test_app.py",
    "tests/web/test_table_pass_and_play.py",
    "tests/web/test_schema.py",
    "tests/solver/test_distribution.py",
    "tests/web/test_workers.py",
    "docs/solver.md",
    "tests/web/test_ops.py",
    "tests/web/test_table_names.py",
    "tests/web/test_browser.py",
    "tests/web/test_lobby_page.py",
    "tests/web/test_table_undo.py",
    "tests/web/test_maxi_web.py",
    "tests/web/test_table_turn.py",
    "tests/web/test_table_phone.py",
    "tests/solver/test_maxi.py",
    "tests/web/test_table_end.py",
    "tests/test_maxi_yatzy.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out (deselect, not skip) the checks of tables that are not here, and run the
    slowest files first (:data:`SLOW_FIRST`; the others keep their order)."""
    if "YATZY_MAXI_TABLES" not in os.environ:
        left_out = [item for item in items if item.get_closest_marker("built_tables")]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items
                        if not item.get_closest_marker("built_tables")]
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
