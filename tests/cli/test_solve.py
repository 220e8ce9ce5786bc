"""`yatzy solve`, `advise`, `simulate` and `analyse`."""

from __future__ import annotations

import io
import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

import yatzy
from tests.app.playing import play_game, same_dice
from yatzy.bootstrap import DB_ENV, open_service
from yatzy.bots import make_bot, play_turn
from yatzy.cli import main
from yatzy.solver import artifacts


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read English output, whatever the tester's locale."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
              ) -> Iterator[None]:
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path_factory.getbasetemp() / "cli-cache"))
    yield


def test_solve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--order", "in_order"]) == 0
    out = capsys.readouterr().out
    assert "Yatzy · in order: expected score 122.5585274" in out
    assert "745 states" in out
    assert main(["solve", "--order", "in_order", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expected_score"] == pytest.approx(122.5585274, abs=1e-7)
    assert data["states"] == 745 and Path(data["table"]).exists()
    # The table of the win chances beside it, mapped by every later process.
    remaining = Path(data["remaining_table"])
    assert remaining.parent == Path(data["table"]).parent
    assert artifacts.open_remaining(yatzy.ruleset("yatzy", order="in_order"),
                                    remaining.parent) is not None


def test_advise_ranks_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["advise", "--card", "ones=3 fives=20", "--dice", "3", "3", "5", "6", "6",
            "--rolls-left", "2"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Yatzy — card: Ones=3, Fives=20 — dice 3 3 5 6 6, 2 rolls left"
    assert lines[1].split()[:6] == ["1.", "keep", "dice", "4", "5", "(6"]
    assert len(lines) == 1 + 17 + 13  # 17 distinct keeps, 13 open boxes
    assert main([*args, "--json", "--top", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [o["text"] for o in data["options"]] == [
        "keep dice 4 5 (6 6)", "keep dice 3 4 5 (5 6 6)", "keep dice 1 4 5 (3 6 6)"]
    assert data["options"][0]["action"] == {"type": "reroll", "hold": [3, 4]}
    assert data["options"][0]["loss"] == 0


def test_advise_a_joker_and_the_turn_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--rules", "yahtzee", "--card", "yahtzee=50 fives=25",
                 "--dice", "55555", "--rolls-left", "0"]) == 0
    out = capsys.readouterr().out
    assert "score Large straight (40 +bonus)" in out
    assert main(["advise", "--rules", "yatzy", "--order", "in_order"]) == 0
    assert "1. roll" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["--card", "ones=2 twos=3"], "Twos cannot hold 3 points"),
    (["--card", "twos=4"], "No game reaches this scorecard"),
    (["--card", "ones"], "Scorecard entries look like box=points, not 'ones'"),
    (["--dice", "1", "2"], "Dice must be 5 values"),
    (["--dice", "1", "2", "x"], "yatzy: Dice must be 5 values from 1 to 6\n"),
    (["--dice", "-1", "-2", "-3", "-4", "-5"], "yatzy: Dice must be 5 values from 1 to 6\n"),
    (["--dice", "12345", "--rolls-left", "3"],
     "yatzy: --rolls-left after a roll must be from 0 to 2, not 3\n"),
    (["--rolls-left", "1"], "--rolls-left needs --dice"),
])
def test_advise_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]
                       ) -> None:
    assert main(["advise", "--order", "in_order", *args]) == 2
    assert message in capsys.readouterr().err


def test_simulate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "scores.png"
    assert main(["simulate", "--order", "in_order", "-n", "2000", "--seed", "1",
                 "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "Yatzy · in order — optimal, 2,000 games (seed 1)" in out
    assert "exact expected score 122.5585274" in out
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["simulate", "--rules", "yahtzee", "--bot", "hard", "-n", "500", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 500 and data["bot"] == "hard"
    assert 0 <= data["upper_bonus_rate"] <= 1 and data["extra_yahtzees_per_game"] >= 0
    assert main(["simulate", "--bot", "wizard"]) == 2
    assert "Unknown computer player wizard; choose from " in capsys.readouterr().err


def test_analyse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = yatzy.ruleset("yatzy", order="in_order")
    game = yatzy.new_game(r, ["Ann", "Bo"], seed=6)
    bots = {"Ann": make_bot("optimal"), "Bo": make_bot("easy", random.Random(2))}
    while not game.is_over:
        game = play_turn(game, bots[game.current_player])
    record = tmp_path / "game.json"
    record.write_text(game.to_json())
    assert main(["analyse", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2].startswith(f"Ann: score {game.scorecard('Ann').total}, ")
    assert " 0 not best, 0.000 points lost" in out[-2]
    assert out[-1].startswith("Bo: ") and " 0.000 points lost" not in out[-1]
    assert main(["analyse", str(record), "--player", "Bo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {d["player"] for d in data["decisions"]} == {"Bo"}
    assert data["players"][0]["total_loss"] == pytest.approx(
        sum(d["loss"] for d in data["decisions"]))
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "Cannot read" in capsys.readouterr().err
    record.write_text("{")
    assert main(["analyse", str(record)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


@pytest.fixture
def stored_game(tmp_path: Path) -> tuple[Path, str, yatzy.Game]:
    """A finished two-player game (first open box, real dice) in a game database."""
    path = tmp_path / "games.sqlite3"
    with open_service(path) as service:
        saved = play_game(service, yatzy.ruleset("yatzy", order="in_order"), ["Ann", "Bo"],
                          same_dice([1, 2, 3, 4, 5]))
    return path, saved.id, saved.game


@pytest.fixture
def analysed_file(stored_game: tuple[Path, str, yatzy.Game], tmp_path: Path,
                  capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    """The JSON analysis of the stored game, read from a record file."""
    record = tmp_path / "game.json"
    record.write_text(stored_game[2].to_json())
    assert main(["analyse", str(record), "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_analyse_standard_input(stored_game: tuple[Path, str, yatzy.Game],
                                analysed_file: dict[str, object],
                                capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, game = stored_game
    from_file = analysed_file
    monkeypatch.setattr("sys.stdin", io.StringIO(game.to_json()))
    assert main(["analyse", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_file
    monkeypatch.setattr("sys.stdin", io.StringIO("{"))
    assert main(["analyse", "-"]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_analyse_a_stored_game(stored_game: tuple[Path, str, yatzy.Game],
                               analysed_file: dict[str, object],
                               capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    path, game_id, game = stored_game
    from_file = analysed_file
    assert main(["analyse", "--game", game_id[:6], "--db", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_file
    monkeypatch.setenv(DB_ENV, str(path))  # the default database
    assert main(["analyse", "--game", game_id, "--player", "Bo"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith(f"Bo: score {game.scorecard('Bo').total}, 15 decisions")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "Give a game record (a JSON file, or - for standard input) or --game ID"),
        (["game.json", "--game", "abc"], "Give a game record or --game ID, not both"),
        (["game.json", "--db", "games.sqlite3"], "--db goes with --game ID"),
        (["--game", "c0ffee"], "No saved game has an id starting with c0ffee"),
        (["--game", "abc", "--db", "missing.sqlite3"],
         "No saved games: there is no game database at "),
    ],
)
def test_analyse_input_errors(args: list[str], message: str,
                              stored_game: tuple[Path, str, yatzy.Game],
                              capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(DB_ENV, str(stored_game[0]))
    assert main(["analyse", *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "missing.sqlite3").exists()


def test_analyse_an_ambiguous_id(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ids = iter(["ab" + "1" * 30, "ab" + "2" * 30])
    # The games' ids only (the store takes a uuid of its own when it opens).
    monkeypatch.setattr("yatzy.app.service.uuid",
                        SimpleNamespace(uuid4=lambda: SimpleNamespace(hex=next(ids))))
    path = tmp_path / "games.sqlite3"
    with open_service(path) as service:
        for seed in (1, 2):
            service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=seed)
    assert main(["analyse", "--game", "ab", "--db", str(path)]) == 2
    assert "Several saved games have an id starting with ab: " in capsys.readouterr().err


@pytest.mark.parametrize(
    ("words", "message"),
    [(["advise", "--top", "0"], "argument --top: must be a whole number 1 or more, not 0"),
     (["simulate", "--seed", "-1", "-n", "5"],
      "argument --seed: must be a whole number from 0 to 9007199254740991, not -1"),
     (["simulate", "-n", "0"], "argument -n/--games: must be a whole number from 1 to 10000000"),
     (["simulate", "-n", "99999999999"], "from 1 to 10000000, not 99999999999"),
     (["advise", "--rolls-left", "two"],
      "argument --rolls-left: must be a whole number, not 'two'"),
     (["advise", "--lang", "sv", "--top", "0"], "måste vara ett heltal, minst 1, inte 0")],
)
def test_out_of_range_numbers_are_clear_errors(words: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(words)
    err = capsys.readouterr().err
    assert info.value.code == 2 and message in err and "Traceback" not in err


def test_simulating_a_simple_bot_builds_no_table(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["simulate", "--bot", "random", "--rules", "yahtzee", "--upper-first",
                 "-n", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("content", [
    b"\xff\xfe{\x00}",                                   # not UTF-8 (it raised UnicodeDecodeError)
    "{\"format\": \"yatzy-game\", \"players\": [\"Åsa\"]}".encode("latin-1"),
    b"[" * 100_000,                                      # nested too deep (RecursionError)
])
def test_analyse_a_file_that_is_no_record(content: bytes, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    record.write_bytes(content)
    assert main(["analyse", str(record)]) == 2
    assert capsys.readouterr().err == "yatzy: The game record is not valid JSON\n"


def test_analyse_refuses_what_is_not_a_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO with no writer hung the command for good: it is not a file."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        start = time.perf_counter()
        assert main(["analyse", str(path)]) == 2
        assert time.perf_counter() - start < 5
        assert capsys.readouterr().err == (
            f"yatzy: {path} is not a file: give a game record, or - for standard input\n")


def test_analyse_reads_no_more_than_a_record_can_be(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """/dev/zero was read without end (5 GB in 8 s); standard input too."""
    from yatzy.cli.analyse import MOST_RECORD_BYTES

    start = time.perf_counter()
    assert main(["analyse", "/dev/zero", "--lang", "fi"]) == 2
    assert time.perf_counter() - start < 5
    assert capsys.readouterr().err == (
        "yatzy: /dev/zero ei ole tiedosto: anna pelin pöytäkirja tai - vakiosyötettä "
        "varten\n")
    stdin = io.TextIOWrapper(io.BytesIO(b" " * (MOST_RECORD_BYTES + 1)))
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["analyse", "-"]) == 2
    assert capsys.readouterr().err == (
        "yatzy: The record is larger than 4 MB: no game record is that big\n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xff" * 10)))
    assert main(["analyse", "-"]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def _simulate_with_plot(plot: str) -> list[str]:
    return ["simulate", "--bot", "random", "-n", "3", "--plot", plot]


def test_plot_without_an_extension_is_a_png_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--plot noext` said "saved to noext" and wrote noext.png."""
    assert main(_simulate_with_plot(str(tmp_path / "noext"))) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"histogram saved to {tmp_path / 'noext.png'}"
    assert [p.name for p in tmp_path.iterdir()] == ["noext.png"]
    assert (tmp_path / "noext.png").read_bytes()[:4] == b"\x89PNG"
    assert main(_simulate_with_plot(str(tmp_path / "Scores.SVG"))) == 0
    assert (tmp_path / "Scores.SVG").read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(("plot", "message"), [
    ("x.txt", "yatzy: --plot cannot write .txt files; it writes .png, .svg, .pdf, "),
    ("plots", "yatzy: {tmp}/plots is a folder: give --plot a file name, such as scores.png"),
    ("plots/", "yatzy: {tmp}/plots/ is a folder: give --plot a file name"),
    ("missing/x.png",
     "yatzy: Cannot save the histogram to {tmp}/missing/x.png: there is no folder "),
])
def test_a_plot_file_that_cannot_be_is_refused_before_the_games(
        plot: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--plot x.txt` raised matplotlib's ValueError after the games, printing no
    statistics; `--plot plots` (a folder) wrote plots.png beside it."""
    (tmp_path / "plots").mkdir()
    assert main(_simulate_with_plot(f"{tmp_path}/{plot}")) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(message.format(tmp=tmp_path)) and not captured.out
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["plots"]


def test_the_statistics_come_before_a_plot_that_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from matplotlib.figure import Figure

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(Figure, "savefig", disk_full)
    assert main(_simulate_with_plot(str(tmp_path / "scores.png"))) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("Yatzy — random, 3 games (seed 0)")
    assert "histogram saved" not in captured.out
    assert captured.err == (f"yatzy: Cannot save the histogram to {tmp_path / 'scores.png'}: "
                            "No space left on device\n")


def test_solve_prints_the_distribution_of_the_score(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    s = yatzy.strategy(yatzy.ruleset("yatzy", order="in_order"))
    d = s.distribution(yatzy.Scorecard.empty(s.ruleset))
    chart = tmp_path / "dist"
    assert main(["solve", "--order", "in_order", "--distribution", "--at-least", "150",
                 "--plot", str(chart)]) == 0
    out = capsys.readouterr().out
    assert f"mean {d.mean:.2f}, standard deviation {d.sd:.2f}" in out
    assert f"50%: {d.percentile(50)}" in out and f"99%: {d.percentile(99)}" in out
    assert f"P(score ≥ 150) = {100 * d.at_least(150):.1f}%" in out
    assert (tmp_path / "dist.png").stat().st_size > 1000
    assert main(["solve", "--order", "in_order", "--distribution", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["distribution"]
    assert data["mean"] == pytest.approx(s.expected_score, abs=1e-9)
    assert data["percentiles"]["50"] == d.percentile(50)
    # The round scores between the 1st and 99th percentile.
    assert list(data["at_least"]) == [str(p) for p in range(100, d.percentile(99) + 1, 50)]
    assert sum(data["probabilities"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("args", [["--plot", "x.png"], ["--at-least", "100"]])
def test_distribution_options_need_the_distribution(args: list[str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--order", "in_order", *args]) == 2
    assert capsys.readouterr().err.strip() == (
        "yatzy: --plot and --at-least go with --distribution")


def played_record(path: Path, rules: yatzy.Ruleset, players: list[str], level: str
                  ) -> tuple[yatzy.Game, Path]:
    """A game of ``players`` played to its end by the computer ``level``, and its record
    written to ``path``."""
    game = yatzy.new_game(rules, players, seed=5)
    bot = make_bot(level)
    while not game.is_over:
        game = play_turn(game, bot)
    path.write_text(game.to_json())
    return game, path


def test_analyse_draws_the_win_chances_of_a_game(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    rules = yatzy.ruleset("yatzy", order="in_order")
    game, record = played_record(tmp_path / "g.json", rules, ["Ann", "Bo"], "optimal")
    assert main(["analyse", str(record), "--win-chances", "--plot", str(tmp_path / "w")]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "w.png").stat().st_size > 1000
    lines = out.splitlines()
    start = lines.index("Win chances at the start of every turn (everyone playing for the "
                        "highest expected score from there):")
    assert lines[start + 2].split() == ["1", "Ann", "50.0%", "50.0%"]
    winner = "Ann" if game.cards[0].total > game.cards[1].total else "Bo"
    assert lines[start + 2 + 30].split() == (
        ["end", "100.0%", "0.0%"] if winner == "Ann" else ["end", "0.0%", "100.0%"])
    assert main(["analyse", str(record), "--win-chances", "--json"]) == 0
    chances = json.loads(capsys.readouterr().out)["win_chances"]
    assert len(chances) == 31 and chances[0]["player"] == "Ann"
    s = yatzy.strategy(rules)
    assert chances[0]["chances"] == pytest.approx(s.win_chances(game.at_start()))
    assert all(sum(c["chances"].values()) == pytest.approx(1.0) for c in chances)


def test_names_that_look_like_mathematics_are_drawn_as_they_are(tmp_path: Path) -> None:
    """Matplotlib reads $...$ as mathematics: a name like this stopped the drawing."""
    _, record = played_record(tmp_path / "g.json", yatzy.ruleset("yatzy", order="in_order"),
                              ["$\\frac{$", "$x^2$"], "greedy")
    assert main(["analyse", str(record), "--win-chances", "--plot", str(tmp_path / "w")]) == 0
    assert (tmp_path / "w.png").stat().st_size > 1000


@pytest.mark.parametrize("args, message", [
    (["--plot", "x.png"], "--plot goes with --win-chances"),
    (["--win-chances"], "Win chances are for games of two players or more"),
])
def test_analyse_win_chances_refusals(args: list[str], message: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    game = yatzy.new_game(yatzy.ruleset("yatzy", order="in_order"), ["Ann"], seed=1)
    record = tmp_path / "g.json"
    record.write_text(game.roll().score("ones").to_json())
    assert main(["analyse", str(record), *args]) == 2
    assert capsys.readouterr().err.strip() == f"yatzy: {message}"


class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self) -> bool:
        return True


def test_analyse_shows_how_far_the_win_chances_are_on_a_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seconds a turn, 20 s and more for a game: nothing was shown meanwhile."""
    _, record = played_record(tmp_path / "g.json", yatzy.ruleset("yatzy", order="in_order"),
                              ["Ann", "Bo"], "greedy")
    assert main(["analyse", str(record), "--win-chances", "--json"]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: nothing
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["analyse", str(record), "--win-chances", "--json"]) == 0
    assert "Working out the win chances of every turn" in terminal.getvalue()
    assert json.loads(capsys.readouterr().out)["win_chances"]


def test_solve_maxi_yatzy_with_saved_rolls(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Saved rolls (Maxi Yatzy's default) are solved layer by layer; in order (one set of
    filled boxes a layer) it takes seconds. Capped, a bound; built once, then loaded."""
    rules = ["--rules", "maxi_yatzy", "--order", "in_order"]
    folder = tmp_path / "layers"
    assert main(["solve", *rules, "--json", "--checkpoint", str(folder)]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert exact["source"] == "built" and exact["bound"] == "exact"
    assert len(exact["layers"]) == 20 and (folder / "layer-00.npy").exists()
    # Saved rolls are worth much in order (183.76 without them: docs/solver.md).
    assert 250 < exact["expected_score"] < 400
    assert main(["solve", *rules, "--cap", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "saved rolls capped at 1: a lower bound"
    low = float(out[0].rsplit(" ", 1)[1])
    assert 183.75 < low < exact["expected_score"]
    assert main(["solve", *rules, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["source"] == "cache"
    assert again["expected_score"] == exact["expected_score"]
    assert main(["solve", *rules, "--checkpoint", str(folder), "--cap", "2", "--rebuild"]) == 2
    assert "holds another solve" in capsys.readouterr().err


def test_simulate_maxi_yatzy_with_saved_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    """The optimal player of saved rolls plays on the table `yatzy solve` built, and its
    games score the solved mean; before the table is built it is refused."""
    rules = ["--rules", "maxi_yatzy", "--order", "in_order", "--bonus", "50_at_75"]
    assert main(["simulate", *rules, "-n", "5"]) == 2
    assert "build it once with the command yatzy solve" in capsys.readouterr().err
    assert main(["solve", *rules, "--json"]) == 0
    capsys.readouterr()
    assert main(["simulate", *rules, "-n", "200", "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 200
    assert abs(result["mean"] - result["expected_score"]) < 4 * result["standard_error"]
