"""`yatzy stats`: the table, the filters, the histogram and the empty cases, on a real
database file, in English and in the player's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import yatzy
from tests.app.playing import per_player, play_game, same_dice, upper_kind_then
from tests.cli.tables import header, rows
from yatzy.app import Seat
from yatzy.bootstrap import DB_ENV, open_service
from yatzy.cli import main
from yatzy.cli.stats import bins


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """English unless a test asks for another language, whatever the tester's locale."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Two finished Yatzy games (Ann 289 beating Bo 45, then Ann 69 alone: a game, not a
    win) and one Yahtzee game alone."""
    path = tmp_path / "games.sqlite3"
    with open_service(path) as service:
        play_game(service, yatzy.ruleset("yatzy"), ["Ann", Seat("Bo", "greedy")], per_player({
            "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
        play_game(service, yatzy.ruleset("yatzy"), ["Ann"], same_dice([1, 1, 1, 1, 1]))
        play_game(service, yatzy.ruleset("yahtzee", joker="free"), ["Ann"],
                  same_dice([1, 2, 3, 4, 5]))
    return path


def header_of_histogram(out: str) -> list[str]:
    """The column names of the (borderless) histogram table: the line before its first
    bin."""
    lines = out.splitlines()
    first_bin = next(i for i, line in enumerate(lines)
                     if line.strip() and line.split()[0][0].isdigit())
    return lines[first_bin - 1].split()


def test_table(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Finished games" in out
    assert header(out) == ["Ruleset", "Player", "Games", "Wins", "Best", "Mean", "Bonus",
                           "Yatzy"]
    assert rows(out) == [
        ["Yahtzee · free Joker", "Ann", "1", "0", "100", "100.0", "0%", "0%"],
        ["Yatzy", "Ann", "2", "1", "289", "179.0", "50%", "100%"],
        ["", "Bo", "1", "0", "45", "45.0", "0%", "0%"],
    ]


def test_filters(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--rules", "yatzy", "--player", "Ann"]) == 0
    assert rows(capsys.readouterr().out) == [
        ["Yatzy", "Ann", "2", "1", "289", "179.0", "50%", "100%"]]
    assert main(["stats", "--db", str(db), "--player", "Zed"]) == 0
    assert capsys.readouterr().out.strip() == (
        "No finished games for Zed yet. Play one with `yatzy play`.")


def test_histogram(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--rules", "yatzy", "--histogram"]) == 0
    out = capsys.readouterr().out
    assert "Scores in Yatzy: 3 scores, mean 134.3, sd 109.8" in out
    assert header_of_histogram(out) == ["Score", "Count"]
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
        "No finished games of Yahtzee yet. Play one with `yatzy play`.")
    assert main(["stats", "--rules", "yahtzee", "--player", "Ann"]) == 0
    assert capsys.readouterr().out.strip() == (
        "No finished games of Yahtzee for Ann yet. Play one with `yatzy play`.")
    assert main(["stats"]) == 0
    assert capsys.readouterr().out.strip() == (
        "No finished games yet. Play one with `yatzy play`.")


def test_names_are_shown_as_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite3"
    with open_service(path) as service:
        play_game(service, yatzy.ruleset("yatzy"), ["[bold]Ann"], same_dice([1, 1, 1, 1, 1]))
    assert main(["stats", "--db", str(path), "--player", "[bold]Ann", "--histogram"]) == 0
    out = capsys.readouterr().out
    assert "[bold]Ann" in out and "Scores of [bold]Ann in Yatzy: 1 score," in out


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
        "bonus_rate": 0.5, "yahtzee_rate": 1.0, "wins": 1}
    assert [(s["display"], s["scores"]) for s in data["scores"]] == [
        ("yahtzee (joker=free)", [100]), ("yatzy", [289, 69])]
    assert data["scores"][1]["ruleset"] == {"name": "yatzy",
                                            "options": {"order": "free", "rolls": 3}}
    assert main(["stats", "--db", str(tmp_path / "none.sqlite3"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"stats": [], "scores": []}


def test_swedish(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--lang", "sv", "--histogram"]) == 0
    out = capsys.readouterr().out
    assert "Avslutade spel" in out
    assert header(out) == ["Regler", "Spelare", "Spel", "Vinster", "Bäst", "Medel", "Bonus",
                           "Yatzy"]
    assert rows(out) == [
        ["Yahtzee · fri joker", "Ann", "1", "0", "100", "100,0", "0\xa0%", "0\xa0%"],
        ["Yatzy", "Ann", "2", "1", "289", "179,0", "50\xa0%", "100\xa0%"],
        ["", "Bo", "1", "0", "45", "45,0", "0\xa0%", "0\xa0%"],
    ]
    assert "Slutpoäng i Yatzy: 3 resultat, medel 134,3, standardavvikelse 109,8" in out
    assert "Slutpoäng i Yahtzee · fri joker: 1 resultat, medel 100,0" in out
    assert header_of_histogram(out) == ["Poäng", "Antal"]
    for english in ("Finished games", "Player", "Scores", "Count", "mean"):
        assert english not in out


def test_yahtzee_column_and_player_in_finnish(db: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--lang", "fi", "--rules", "yahtzee",
                 "--player", "Ann", "--histogram"]) == 0
    out = capsys.readouterr().out
    assert header(out)[-1] == "Yahtzee" and header(out)[1] == "Pelaaja"
    assert "Pelaajan Ann loppupisteet – Yahtzee · vapaa jokeri: 1 tulos," in out


def test_the_language_comes_from_lang(db: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "nb_NO.UTF-8")
    assert main(["stats", "--db", str(db), "--player", "Zed"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Zed har ingen ferdige spill ennå. Spill et med `yatzy play`.")
    assert main(["stats", "--db", str(db), "--lang", "en", "--player", "Zed"]) == 0
    assert capsys.readouterr().out.strip().startswith("No finished games for Zed")
    assert main(["stats", "--db", str(tmp_path / "none.sqlite3")]) == 0
    assert capsys.readouterr().out.startswith("Ingen spill ennå: det finnes ingen spilldatabase")


def test_errors_and_json_in_another_language(db: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database\n" * 100)
    assert main(["stats", "--db", str(junk), "--lang", "da"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"yatzy: Kan ikke åbne spildatabasen {junk}") and "Traceback" not in err
    assert main(["stats", "--db", str(db), "--json", "--lang", "sv"]) == 0
    english = capsys.readouterr().out
    assert main(["stats", "--db", str(db), "--json"]) == 0
    assert english == capsys.readouterr().out  # JSON is for programs: never translated


@pytest.mark.parametrize("lang", ["sv", "nb", "da", "fi", "en", "pt", "et"])
def test_every_language_shows_the_table(db: Path, lang: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(db), "--lang", lang, "--histogram"]) == 0
    out = capsys.readouterr().out
    assert len(rows(out)) == 3 and "{" not in out


def test_names_are_printed_as_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rich reads [...] as markup and a backslash before it as an escape: names that
    look like either are printed as they are, in the tables and the messages."""
    names = ["[/b]", "Bo\\", "[red]x"]
    db = tmp_path / "g.sqlite3"
    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy", rolls=1), [Seat(n) for n in names],
                               seed=1)
        while not saved.finished:
            saved = service.apply(saved.id, yatzy.Roll())
            saved = service.apply(saved.id, yatzy.Score(next(iter(saved.game.choices()))))
    assert main(["stats", "--db", str(db), "--histogram", "--player", "Bo\\"]) == 0
    out = capsys.readouterr().out
    assert [row[1] for row in rows(out)[:1]] == ["Bo\\"]
    assert "Scores of Bo\\ in Yatzy · 1 roll:" in out
    assert main(["stats", "--db", str(db)]) == 0
    assert sorted(row[1] for row in rows(capsys.readouterr().out)) == sorted(names)
    assert main(["games", "--db", str(db)]) == 0
    players = " ".join(row[3] for row in rows(capsys.readouterr().out))
    assert all(f"{name} " in players for name in names), players
    assert main(["stats", "--db", str(db), "--player", "[/i]\\"]) == 0
    assert capsys.readouterr().out.startswith("No finished games for [/i]\\ yet.")


def test_maxi_yatzy_counts_its_six_of_a_kind(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Maxi Yatzy's box of six of a kind is worth 100, not Yatzy's 50: a game that filled
    it counts in the column of the n-of-a-kind box, and its variant has its own row."""
    path = tmp_path / "maxi.sqlite3"
    with open_service(path) as service:
        # Ann rolls six sixes every turn (36 + 12 + 18 + 24 + 30 + 36 + 100 = 256), Bo
        # a full straight (no six of a kind); then Ann alone without saved rolls.
        play_game(service, yatzy.ruleset("maxi_yatzy"), ["Ann", Seat("Bo", "greedy")],
                  per_player({"Ann": same_dice([6] * 6), "Bo": same_dice([1, 2, 3, 4, 5, 6])}))
        play_game(service, yatzy.ruleset("maxi_yatzy", saved_rolls=False, bonus="50_at_75"),
                  ["Ann"], same_dice([2, 2, 2, 5, 5, 5]))
    assert main(["stats", "--db", str(path)]) == 0
    assert rows(capsys.readouterr().out) == [
        ["Maxi Yatzy", "Ann", "1", "1", "256", "256.0", "0%", "100%"],
        ["", "Bo", "1", "0", "98", "98.0", "0%", "0%"],
        ["Maxi Yatzy · 75+ → 50 · no saved rolls", "Ann", "1", "0", "121", "121.0", "0%",
         "0%"],
    ]
