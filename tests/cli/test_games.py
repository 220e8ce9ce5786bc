"""`yatzy games`: the list of saved games, its filters, exporting a game's record and
the errors of a shortened id, on a real database file, in English and other languages."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

import yatzy
from tests.app.playing import TickingClock, per_player, play_game, play_turns, same_dice
from tests.cli.tables import header, rows
from yatzy.app import Seat
from yatzy.bootstrap import DB_ENV, open_service
from yatzy.cli import main
from yatzy.core.game import Game

#: The ids of the fixture's games, in the order they are created.
ANN_BO = "aaaa1111" + "0" * 24
YAHTZEE = "aaaa2222" + "0" * 24
CY = "bbbb3333" + "0" * 24
HEADER = ["ID", "Last played", "Ruleset", "Players", "Status"]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """English unless a test asks for another language, whatever the tester's locale."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(autouse=True)
def central_european_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC+2 in summer (as in Stockholm), without needing tzdata."""
    monkeypatch.setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A finished Yatzy game (Ann 164 beats Bo 45), a finished Yahtzee game (Ann, 100)
    and an unfinished Yatzy game (Cy, 5 turns of 15), played in this order from
    2026-06-01 12:00 UTC, one second per action."""
    ids = iter([ANN_BO, YAHTZEE, CY])
    # The games' ids only (the store takes a uuid of its own when it opens).
    monkeypatch.setattr("yatzy.app.service.uuid",
                        SimpleNamespace(uuid4=lambda: SimpleNamespace(hex=next(ids))))
    path = tmp_path / "games.sqlite3"
    with open_service(path, clock=TickingClock()) as service:
        play_game(service, yatzy.ruleset("yatzy"), ["Ann", Seat("Bo", "greedy")], per_player({
            "Ann": same_dice([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
        play_game(service, yatzy.ruleset("yahtzee", joker="free"), ["Ann"],
                  same_dice([1, 2, 3, 4, 5]))
        cy = service.create(yatzy.ruleset("yatzy"), ["Cy"], dice_mode="manual")
        play_turns(service, cy, same_dice([2, 2, 2, 2, 2]), 5)
    return path


def test_list(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Saved games" in out and "★ marks the winner" in out
    assert header(out) == HEADER
    # One tick per game and per action: 12:00:00-12:01:00 UTC, to 12:01:27, to 12:01:38.
    assert rows(out) == [
        ["bbbb3333", "2026-06-01 14:01", "Yatzy", "Cy 10", "Round 6 of 15"],
        ["aaaa2222", "2026-06-01 14:01", "Yahtzee · free Joker", "Ann 100 ★", "Finished"],
        ["aaaa1111", "2026-06-01 14:01", "Yatzy", "Ann 164 ★, Bo 45", "Finished"],
    ]
    assert "listed" not in out  # all of them


def test_filters_and_limit(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def ids(*options: str) -> list[str]:
        assert main(["games", "--db", str(db), *options]) == 0
        return [row[0] for row in rows(capsys.readouterr().out)]

    assert ids("--all") == ["bbbb3333", "aaaa2222", "aaaa1111"]
    assert ids("--finished") == ["aaaa2222", "aaaa1111"]
    assert ids("--unfinished") == ["bbbb3333"]
    assert ids("--player", "Bo") == ["aaaa1111"]
    assert ids("--player", "Ann", "--finished", "-n", "1") == ["aaaa2222"]
    assert main(["games", "--db", str(db), "-n", "2"]) == 0
    out = capsys.readouterr().out
    assert [row[0] for row in rows(out)] == ["bbbb3333", "aaaa2222"]
    assert "Only the 2 most recently played games are listed; -n N lists more." in out
    assert main(["games", "--db", str(db), "--unfinished", "--player", "Ann"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "No saved games match the selection." and "★" not in out
    with pytest.raises(SystemExit):
        main(["games", "--db", str(db), "--finished", "--unfinished"])
    with pytest.raises(SystemExit):
        main(["games", "--db", str(db), "-n", "0"])
    assert main(["games", "--db", str(db), "-n", "1000000"]) == 0
    assert len(rows(capsys.readouterr().out)) == 3


@pytest.mark.parametrize("n", ["99999999999999999999", "9223372036854775807", "1000001"])
def test_a_huge_limit_is_refused_by_the_parser(db: Path, n: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """It raised OverflowError in SQLite ("bigint out of range" in PostgreSQL)."""
    with pytest.raises(SystemExit) as info:
        main(["games", "--db", str(db), "-n", n, "--lang", "sv"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "Traceback" not in err
    assert err.endswith(f"yatzy games: error: argument -n: måste vara ett heltal från 1 till "
                        f"1000000, inte {n}\n")


def test_json(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(db), "--json", "-n", "2", "--lang", "sv"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["more"] is True
    assert [g["id"] for g in data["games"]] == [CY, YAHTZEE]
    cy, yahtzee = data["games"]
    assert cy["finished"] is False and (cy["round"], cy["rounds"], cy["steps"]) == (6, 15, 10)
    assert cy["players"] == [{"name": "Cy", "bot": None, "total": 10, "place": None}]
    assert yahtzee["display"] == "yahtzee (joker=free)" and yahtzee["finished"] is True
    assert yahtzee["ruleset"]["options"]["joker"] == "free"
    assert yahtzee["updated_at"] == "2026-06-01T12:01:27+00:00"
    assert main(["games", "--db", str(db), "--json", "--player", "Bo"]) == 0
    (ann_bo,) = json.loads(capsys.readouterr().out)["games"]
    assert ann_bo["players"] == [
        {"name": "Ann", "bot": None, "total": 164, "place": 1},
        {"name": "Bo", "bot": "greedy", "total": 45, "place": 2},
    ]
    assert main(["games", "--db", str(tmp_path / "none.sqlite3"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"games": [], "more": False}


def test_export_round_trip(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_service(db) as service:
        stored = {game_id: service.load(game_id).game for game_id in (ANN_BO, CY)}
    assert main(["games", "--db", str(db), "--export", "aaaa1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("{\n  ") and Game.from_json(out) == stored[ANN_BO]
    assert json.loads(out) == stored[ANN_BO].to_record()
    assert main(["games", "--db", str(db), "--export", CY.upper()]) == 0  # any case
    # A game in play: its seed is left out (it tells every roll to come); the record
    # still replays, since it gives the dice of every roll.
    out = capsys.readouterr().out
    assert json.loads(out) == stored[CY].to_record(hide_seed=True)
    assert Game.from_json(out).cards == stored[CY].cards
    record = tmp_path / "out" / "cy.json"
    record.parent.mkdir()
    assert main(["games", "--db", str(db), "--export", "b", "-o", str(record)]) == 0
    assert capsys.readouterr().out.strip() == f"Wrote the record of game bbbb3333 to {record}."
    assert json.loads(record.read_text(encoding="utf-8")) == stored[CY].to_record(hide_seed=True)


def test_a_secret_seed_is_exported_once_the_game_is_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Whoever reads the export of a game in play must not predict its rolls."""
    db = tmp_path / "secret.sqlite3"
    secret = "0123456789abcdef" * 3
    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy", rolls=1), [Seat("Ann")], seed=secret)
        saved = service.apply(saved.id, yatzy.Roll(), player="Ann")
    assert main(["games", "--db", str(db), "--export", saved.id]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["seed"] is None and record["seed_hash"] == yatzy.seed_hash(secret)
    assert secret not in json.dumps(record)
    with open_service(db) as service:
        game = service.load(saved.id).game
        while not game.is_over:
            game = service.apply(saved.id, yatzy.Score(sorted(game.choices())[0]),
                                 player="Ann").game
            if not game.is_over:
                game = service.apply(saved.id, yatzy.Roll(), player="Ann").game
    assert main(["games", "--db", str(db), "--export", saved.id]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == secret


def test_the_row_of_a_game_in_play_that_no_longer_reads_has_no_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    db = tmp_path / "damaged.sqlite3"
    secret = "0123456789abcdef" * 3
    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=secret)
        service.apply(saved.id, yatzy.Roll(), player="Ann")
    with sqlite3.connect(db) as connection:
        connection.execute("""UPDATE games SET record = '{"format": 1}'""")
    assert main(["games", "--db", str(db), "--export", saved.id]) == 0
    captured = capsys.readouterr()
    assert "cannot be read" in captured.err
    row = json.loads(captured.out)
    assert row["seed"] is None and row["status"] == "playing"
    assert secret not in captured.out


def test_export_errors(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(db), "--export", "aaaa"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (
        f"yatzy: Several saved games have an id starting with aaaa: {ANN_BO}, {YAHTZEE}. "
        "Give more of the id.")
    assert main(["games", "--db", str(db), "--export", "c0ffee"]) == 2
    assert capsys.readouterr().err.strip() == (
        "yatzy: No saved game has an id starting with c0ffee")
    missing = tmp_path / "none.sqlite3"
    assert main(["games", "--db", str(missing), "--export", "aaaa1"]) == 2
    assert "No saved game has an id starting with aaaa1" in capsys.readouterr().err
    assert not missing.exists()
    assert main(["games", "--db", str(db), "--export", "aaaa1",
                 "-o", str(tmp_path / "no" / "such" / "dir.json")]) == 2
    assert capsys.readouterr().err.startswith("yatzy: Cannot write ")
    assert main(["games", "--db", str(db), "-o", str(tmp_path / "x.json")]) == 2
    assert "-o FILE goes with --export ID" in capsys.readouterr().err


def test_swedish_and_finnish(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(db), "--lang", "sv"]) == 0
    out = capsys.readouterr().out
    assert "Sparade spel" in out and "★ = vinnare" in out
    assert header(out) == ["ID", "Senast spelat", "Regler", "Spelare", "Läge"]
    assert [row[2:] for row in rows(out)] == [
        ["Yatzy", "Cy 10", "Omgång 6 av 15"],
        ["Yahtzee · fri joker", "Ann 100 ★", "Avslutat"],
        ["Yatzy", "Ann 164 ★, Bo 45", "Avslutat"],
    ]
    for english in ("Saved games", "Last played", "Status", "Finished", "Round"):
        assert english not in out
    assert main(["games", "--db", str(db), "--lang", "fi", "--export", "aaaa"]) == 2
    assert capsys.readouterr().err.startswith(
        "yatzy: Usean tallennetun pelin tunnus alkaa merkeillä aaaa: ")


def test_the_language_comes_from_lang(db: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "da_DK.UTF-8")
    assert main(["games", "--db", str(db), "-n", "1"]) == 0
    out = capsys.readouterr().out
    assert header(out)[1:] == ["Senest spillet", "Regler", "Spillere", "Status"]
    assert "Kun det senest spillede spil vises; -n N viser flere." in out


def test_no_database_and_no_games(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "none.sqlite3"
    assert main(["games", "--db", str(missing)]) == 0
    assert "No games yet: there is no game database at" in capsys.readouterr().out
    assert not missing.exists()  # looking does not create it
    empty = tmp_path / "empty.sqlite3"
    open_service(empty).close()
    monkeypatch.setenv(DB_ENV, str(empty))  # the default database
    assert main(["games"]) == 0
    assert capsys.readouterr().out.strip() == (
        "No saved games yet. Play one with `yatzy play`.")


def test_names_are_shown_as_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite3"
    with open_service(path) as service:
        service.create(yatzy.ruleset("yatzy"), ["[bold]Ann"], seed=1)
    assert main(["games", "--db", str(path)]) == 0
    assert rows(capsys.readouterr().out)[0][3] == "[bold]Ann 0"


def test_a_broken_database_is_a_clear_error(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database\n" * 100)
    assert main(["games", "--db", str(junk), "--lang", "nb"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yatzy: Kan ikke åpne spilldatabasen") and "Traceback" not in err



def test_a_reader_that_goes_away_is_no_error(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    """`yatzy games --json | head`: a closed pipe ends the command quietly."""
    import os

    import yatzy.cli.games as games_module

    def closed_pipe(*args: object, **kwargs: object) -> int:
        raise BrokenPipeError
    monkeypatch.setattr(games_module, "run", closed_pipe)
    redirected: list[int] = []
    monkeypatch.setattr(os, "dup2", lambda fd, fd2: redirected.append(fd2))
    assert main(["games", "--db", str(tmp_path / "x.db")]) == 141
    assert redirected == [sys.stdout.fileno()]


def damage(db: Path, game_id: str, change: str) -> None:
    """Change the stored row of ``game_id`` behind the program's back (``change`` is
    the SET clause of an UPDATE)."""
    import sqlite3

    with sqlite3.connect(db) as connection:
        connection.execute(f"UPDATE games SET {change} WHERE id = ?", (game_id,))
    connection.close()


@pytest.mark.parametrize("change", [
    "record = 'not json'",
    """record = '{"format": 1, "history": [1]}'""",   # valid JSON that does not replay
    "seats = '[1, 2]'",
    "updated_at = 'yesterday'",
])
def test_a_damaged_game_is_listed_marked_among_the_others(
        db: Path, change: str, capsys: pytest.CaptureFixture[str]) -> None:
    """One game that no longer reads used to stop the whole list with an error."""
    damage(db, YAHTZEE, change)
    assert main(["games", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    # The reason may wrap; a date that is no date sorts where the database puts it.
    listed = {row[0]: row[1:] for row in rows(out) if row[0]}
    assert sorted(listed) == ["aaaa1111", "aaaa2222", "bbbb3333"]
    assert listed["bbbb3333"] == ["2026-06-01 14:01", "Yatzy", "Cy 10", "Round 6 of 15"]
    assert listed["aaaa2222"][1:3] == ["?", "?"]
    assert listed["aaaa2222"][3].startswith("Damaged: ")
    assert "Game aaaa2222 cannot be read: `yatzy games --export aaaa2222`" in " ".join(
        out.split())
    assert main(["games", "--db", str(db), "--json"]) == 0
    [damaged] = [g for g in json.loads(capsys.readouterr().out)["games"] if "damaged" in g]
    assert damaged["id"] == YAHTZEE and damaged["damaged"] and damaged["finished"] is True


def test_a_damaged_game_exports_as_stored_and_deletes(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damage(db, YAHTZEE, "record = 'not json'")
    assert main(["games", "--db", str(db), "--export", "aaaa2"]) == 0
    captured = capsys.readouterr()
    stored = json.loads(captured.out)
    assert stored["id"] == YAHTZEE and stored["record"] == "not json"
    assert stored["seats"] == [{"name": "Ann", "bot": None}] and stored["steps"] == 26
    assert "Game aaaa2222 cannot be read (" in captured.err
    assert main(["games", "--db", str(db), "--delete", "aaaa2"]) == 0
    assert capsys.readouterr().out.strip() == "Deleted game aaaa2222."
    assert main(["games", "--db", str(db)]) == 0
    assert [row[0] for row in rows(capsys.readouterr().out)] == ["bbbb3333", "aaaa1111"]
    assert main(["games", "--db", str(db), "--delete", "aaaa2"]) == 2
    assert "No saved game has an id starting with aaaa2" in capsys.readouterr().err
    assert main(["games", "--db", str(db), "--delete", "b", "--export", "a"]) == 2
    assert "--delete ID and --export ID go one at a time" in capsys.readouterr().err
