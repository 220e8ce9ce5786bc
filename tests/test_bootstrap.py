"""The composition root: which database a service opens, and clear errors when it
cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

import yatzy
from yatzy.app import GameService, StorageError
from yatzy.bootstrap import DB_ENV, default_db, default_db_path, describe_db, open_service


def test_default_path_is_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "yatzy" / "yatzy.sqlite3"
    with open_service() as service:
        assert isinstance(service, GameService)
        service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
    assert default_db_path().is_file()


def test_env_overrides_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "elsewhere.sqlite3"
    monkeypatch.setenv(DB_ENV, str(target))
    assert default_db_path() == target and default_db() == str(target)
    with open_service() as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
    with open_service(target) as service:
        assert service.load(saved.id) == saved


def test_env_may_be_a_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv(DB_ENV, f"sqlite:///{tmp_path / 'url.sqlite3'}")
    assert default_db_path() == tmp_path / "data" / "yatzy" / "yatzy.sqlite3"
    with open_service() as service:
        service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
    assert (tmp_path / "url.sqlite3").is_file()


def test_describe_hides_passwords() -> None:
    assert describe_db("postgresql://me:secret@db.example/yatzy") == (
        "postgresql+psycopg://me:***@db.example/yatzy")
    assert describe_db("games.sqlite3") == "games.sqlite3"


def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="Cannot open the game database") as caught:
        open_service(tmp_path)
    assert caught.value.params["db"] == str(tmp_path)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("shopping list\n" * 100)
    with pytest.raises(StorageError, match="notes.txt"):
        open_service(junk)


def test_an_unreachable_server(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match=r"127\.0\.0\.1"):
        open_service("postgresql://nobody:pw@127.0.0.1:1/none")


def test_db_exists_never_creates_a_database(tmp_path: Path) -> None:
    from yatzy.bootstrap import db_exists

    missing = tmp_path / "none.sqlite3"
    assert not db_exists(missing)
    assert not missing.exists()
    assert db_exists("postgresql://user@127.0.0.1/nowhere")
    missing.write_bytes(b"")
    assert db_exists(str(missing))


def test_db_exists_reads_sqlite_urls_as_files(tmp_path: Path) -> None:
    from yatzy.bootstrap import db_exists

    url = f"sqlite:///{tmp_path}/deeper/none.sqlite3"
    assert not db_exists(url)
    assert not (tmp_path / "deeper").exists()
    assert db_exists("sqlite://")  # in memory: nothing to create on disk


@pytest.mark.parametrize("url", ["mysql://u@127.0.0.1/x", "nosuchdb://x"])
def test_an_unusable_url_is_a_storage_error_with_the_reason(url: str) -> None:
    from yatzy.app import StorageError
    from yatzy.bootstrap import open_service

    with pytest.raises(StorageError, match="Cannot open the game database") as caught:
        open_service(url)
    assert caught.value.params["reason"]


@pytest.mark.parametrize("named", ["path", "url", "env"])
def test_a_named_database_needs_its_folder(named: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the user's data folder is created: `--db /nonexistent/dir/x.sqlite3` made the
    whole tree (while `yatzy stats` refused the same path)."""
    missing = tmp_path / "nonexistent" / "dir"
    target = missing / "x.sqlite3"
    db: str | None = {"path": str(target), "url": f"sqlite:///{target}", "env": None}[named]
    monkeypatch.setenv(DB_ENV, str(target))
    with pytest.raises(StorageError) as info:
        open_service(db)
    assert info.value.params["folder"] == str(missing)
    assert str(info.value) == (f"Cannot open the game database {describe_db(db)}: there "
                               f"is no folder {missing}")
    assert not (tmp_path / "nonexistent").exists()
