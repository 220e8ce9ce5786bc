"""`yatzy stats`: the table, the filters, the histogram and the empty cases, on a real
database file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import yatzy
from tests.app.playing import per_player, play_game, same_dice, upper_kind_then
from yatzy.app import Seat
from yatzy.bootstrap import DB_ENV, open_service
from yatzy.cli import main
from yatzy.cli.stats import bins


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Two finished Yatzy games (Ann 289 and 69, Bo 45) and one Yahtzee game."""
    path = tmp_path / "games.sqlite3"
    with open_service(path) as service:
        play_game(service, yatzy.ruleset("yatzy"), ["Ann", Seat("Bo", "greedy")], per_player({
            "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
        play_game(service, yatzy.ruleset("yatzy"), ["Ann"], same_dice([1, 1, 1, 1, 1]))
        play_game(service, yatzy.ruleset("yahtzee", joker="free"), ["Ann"],
                  same_dice([1, 2, 3, 4, 5]))
    return path


def rows(out: str) -> list[list[str]]:
    """The cells of each body row of a rich table."""
    return [[cell.strip() for cell in line.split("│")[1:-1]]
            for line in out.splitlines() if line.startswith("│")]


def test_table(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Finished games" in out
    assert rows(out) == [
        ["yahtzee (joker=free)", "Ann", "1", "1", "100", "100.0", "0%", "0%"],
        ["yatzy", "Ann", "2", "2", "289", "179.0", "50%", "100%"],
        ["", "Bo", "1", "0", "45", "45.0", "0%", "0%"],
    ]


def test_filters(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--rules", "yatzy", "--player", "Ann"]) == 0
    assert rows(capsys.readouterr().out) == [
        ["yatzy", "Ann", "2", "2", "289", "179.0", "50%", "100%"]]
    assert main(["stats", "--db", str(db), "--player", "Zed"]) == 0
    assert capsys.readouterr().out.strip() == (
        "No finished games for Zed yet. Play one with `yatzy play`.")


def test_histogram(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--rules", "yatzy", "--histogram"]) == 0
    out = capsys.readouterr().out
    assert "Scores in yatzy: 3 scores, mean 134.3" in out
    lines = {line.split()[0]: line for line in out.splitlines()
             if line.strip() and line.split()[0][0].isdigit()}
    # 45, 69 and 289 in bins of 20 from 40 to 299.
    assert lines["40–59"].split()[1] == "1" and lines["60–79"].split()[1] == "1"
    assert lines["280–299"].split()[1] == "1" and lines["100–119"].split()[1] == "0"
    assert "█" in lines["40–59"] and "█" not in lines["100–119"]
    assert len(lines) == 13


def test_no_database_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.sqlite3"
    assert main(["stats", "--db", str(missing)]) == 0
    assert "No games yet" in capsys.readouterr().out
    assert not missing.exists()  # looking does not create it


def test_empty_database(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "empty.sqlite3"
    with open_service(path) as service:
        service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)  # unfinished only
    monkeypatch.setenv(DB_ENV, str(path))  # the default database
    assert main(["stats", "--rules", "yahtzee"]) == 0
    assert capsys.readouterr().out.strip() == (
        "No finished games of yahtzee yet. Play one with `yatzy play`.")


def test_names_are_shown_as_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite3"
    with open_service(path) as service:
        play_game(service, yatzy.ruleset("yatzy"), ["[bold]Ann"], same_dice([1, 1, 1, 1, 1]))
    assert main(["stats", "--db", str(path), "--player", "[bold]Ann", "--histogram"]) == 0
    out = capsys.readouterr().out
    assert "[bold]Ann" in out and "Scores in yatzy, [bold]Ann: 1 scores" in out


def test_a_broken_database_is_a_clear_error(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database\n" * 100)
    assert main(["stats", "--db", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yatzy: Cannot open the game database") and "Traceback" not in err


def test_bins() -> None:
    assert bins([5]) == (5, 1, [1])
    start, width, counts = bins(list(range(0, 375)))
    assert (start, width) == (0, 25) and len(counts) == 15 and sum(counts) == 375
    start, width, counts = bins([0, 1575])
    assert width == 100 and counts[0] == counts[-1] == 1 and len(counts) == 16


def test_json(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--player", "Ann", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stats"][1] == {
        "ruleset": "yatzy", "player": "Ann", "games": 2, "best": 289, "mean": 179.0,
        "bonus_rate": 0.5, "yahtzee_rate": 1.0, "wins": 2}
    assert [(s["display"], s["scores"]) for s in data["scores"]] == [
        ("yahtzee (joker=free)", [100]), ("yatzy", [289, 69])]
    assert data["scores"][1]["ruleset"] == {"name": "yatzy",
                                            "options": {"order": "free", "rolls": 3}}
    assert main(["stats", "--db", str(tmp_path / "none.sqlite3"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"stats": [], "scores": []}
