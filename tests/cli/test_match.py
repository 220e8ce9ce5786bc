"""`yatzy match`: computer levels against each other, as text and as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from rich.console import Console

import yatzy
from yatzy.app.match import MatchResult, Tally, play_match
from yatzy.cli import main
from yatzy.cli.match import standings_table
from yatzy.i18n import translator
from yatzy.solver import artifacts

#: The small solver table the CLI tests share (in_order: 745 states).
RULES = ["--order", "in_order"]


@pytest.fixture(autouse=True)
def _english_and_a_cache(tmp_path_factory: pytest.TempPathFactory,
                         monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path_factory.getbasetemp() / "cli-cache"))
    yield


def test_the_standings_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "optimal", "random", "-n", "20", "--seed", "3", *RULES]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Yatzy · in order — 20 games (seed 3) in ")
    assert lines[0].endswith(" games/s)")
    assert lines[1].split() == ["Level", "Wins", "Share", "of", "wins", "Against", "a", "fair",
                                "share", "Mean", "score"]
    expected = play_match(["optimal", "random"], 20, yatzy.ruleset("yatzy", order="in_order"),
                          3, workers=1)
    for line, standing in zip(lines[2:4], expected.standings, strict=True):
        cells = line.split()
        assert cells[:2] == [f"{standing.entrant + 1}.", standing.level]
        assert cells[2] == f"{standing.wins:.0f}"
        assert cells[3:6] == [f"{100 * standing.share:.2f}%", "±",
                              f"{100 * standing.share_error:.2f}%"]
        assert cells[6] == f"{100 * (standing.share - 0.5):+.2f}%"
        assert cells[7:] == [f"{standing.mean_score:.2f}", "±", f"{standing.score_error:.2f}"]
    assert lines[4] == ("10 deals of 2 games: each level sat once in every seat of a deal, "
                        "with the same dice in each seat. Fair share 50.00%.")
    assert lines[5] == "± is one standard error, taken over the deals."
    assert lines[6].startswith(f"First place was shared in {expected.shared_firsts} game")
    assert len(lines) == 7


def test_json_for_programs(capsys: pytest.CaptureFixture[str]) -> None:
    words = ["match", "optimal", "random", "optimal", "-n", "6", "--seed", "9", *RULES,
             "--json"]
    assert main(words) == 0
    data = json.loads(capsys.readouterr().out)
    assert data.pop("seconds") > 0
    expected = play_match(["optimal", "random", "optimal"], 6,
                          yatzy.ruleset("yatzy", order="in_order"), 9, workers=1)
    assert data == json.loads(json.dumps(expected.to_dict()))
    assert data["ruleset"] == {"name": "yatzy", "options": {"order": "in_order", "rolls": 3}}
    assert (data["games"], data["deals"], data["levels"]) == (6, 2, ["optimal", "random",
                                                                    "optimal"])
    assert sum(s["share"] for s in data["standings"]) == pytest.approx(1)
    assert main([*words, "--lang", "fi"]) == 0
    finnish = json.loads(capsys.readouterr().out)
    finnish.pop("seconds")
    assert finnish == data


def test_a_level_against_itself_and_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "optimal", "optimal", "-n", "2", *RULES]) == 0
    out = capsys.readouterr().out
    assert "50.00%" in out and "+0.00%" in out and "±" not in out.splitlines()[2]
    assert "One deal gives no standard error: play two deals or more." in out


def test_yahtzee_with_its_options_in_swedish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "random", "greedy", "-n", "2", "--rules", "yahtzee", "--joker",
                 "free", "--upper-first", "--no-yahtzee-bonus", "--lang", "sv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Yahtzee · övre delen först · fri joker · ingen Yahtzee-bonus "
                               "— 2 spel (frö 0) på ")
    assert lines[1].split()[:3] == ["Nivå", "Vinster", "Andel"]
    assert "," in lines[2].split()[-1] and "%" in lines[2]  # a decimal comma
    assert lines[3].split()[:2] == ["2.", "greedy"]
    assert lines[4].startswith("1 serie om 2 spel: ")


@pytest.mark.parametrize(("words", "message"), [
    (["wizard", "optimal"], "Unknown computer player wizard; choose from random, greedy, "),
    (["optimal"], "A match needs two or more computer players, not 1"),
    (["optimal", "random", "-n", "3"],
     "A match of 2 computer players is played in deals of 2 games: the number of games "
     "must be a multiple of 2 from 2 to 1000000, not 3"),
    (["optimal", "random", "greedy", "-n", "1000"],
     "A match of 3 computer players is played in deals of 3 games: the number of games "
     "must be a multiple of 3 from 3 to 999999, not 1000"),
    (["optimal", "random", "--joker", "free"], "--joker is not an option of Yatzy"),
])
def test_what_cannot_be_played_is_refused_in_one_line(
        words: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", *words, *RULES]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("yatzy: " + message) and captured.err.count("\n") == 1


class _Played(Exception):
    """Stands for the games, which the test does not need."""


def test_the_default_is_a_thousand_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def play(levels: object, games: int, *args: object, **kwargs: object) -> None:
        asked.append(games)
        raise _Played

    monkeypatch.setattr("yatzy.cli.match.play_match", play)
    with pytest.raises(_Played):
        main(["match", "random", "greedy", "random", *RULES])
    assert asked == [3000]


@pytest.mark.parametrize("games", ["0", "-4", "1000002", "99999999999999999999", "x", "2.0"])
def test_a_number_of_games_out_of_range_is_an_usage_error(
        games: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["match", "optimal", "random", "-n", games])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument -n/--games: must be a whole number" in err and "Traceback" not in err


def test_shares_are_rounded_exactly() -> None:
    """52.595% and 47.405% (halves of a game in 10,000 games) are 52.60% and 47.40%,
    +2.60% and -2.60% against the fair share; their floats would round 2.59 on one side."""
    tally = Tally(entrants=2, deals=5000, wins=(10519, 9481), wins_squared=(30000, 30000),
                  scores=(2_500_000, 2_400_000), scores_squared=(10**12, 10**12),
                  shared_firsts=1)
    result = MatchResult.of(yatzy.ruleset("yatzy"), ["optimal", "hard"], 0, tally)
    assert result.standings[1].share - 0.5 != -(result.standings[0].share - 0.5)
    console = Console(width=120, record=True)
    console.print(standings_table(translator("en"), result))
    rows = [line.split() for line in console.export_text().splitlines()[1:]]
    assert rows[0][:6] == ["1.", "optimal", "5,259.50", "52.60%", "±", rows[0][5]]
    assert rows[0][6] == "+2.60%" and rows[1][3] == "47.40%" and rows[1][6] == "-2.60%"


def test_winner_s_table_is_prepared_with_a_line_on_a_terminal(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """winner's first move builds a table for 7 to 14 s: it is built before the games,
    under a line that says so (on a terminal only)."""
    import io

    from yatzy.bots import solver_bots
    from yatzy.cli import match

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    prepared: list[str] = []

    class Stop(Exception):
        pass

    def stop(*args: object, **kwargs: object) -> None:
        raise Stop

    monkeypatch.setattr(solver_bots, "prepare", lambda name, rules: prepared.append(name))
    monkeypatch.setattr(match, "play_match", stop)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with pytest.raises(Stop):
        main(["match", "winner", "greedy", "-n", "2", "--order", "in_order"])
    assert prepared == ["winner"]
    assert "Preparing winner: the table of the points still to come" in terminal.getvalue()
