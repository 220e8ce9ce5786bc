"""`yatzy solve`, `advise`, `simulate` and `analyse`."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import yatzy
from yatzy.bots import make_bot, play_turn
from yatzy.cli import main
from yatzy.solver import artifacts


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
              ) -> Iterator[None]:
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path_factory.getbasetemp() / "cli-cache"))
    yield


def test_solve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--order", "in_order"]) == 0
    out = capsys.readouterr().out
    assert "yatzy (order=in_order): expected score 122.5585274" in out
    assert "745 states" in out
    assert main(["solve", "--order", "in_order", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expected_score"] == pytest.approx(122.5585274, abs=1e-7)
    assert data["states"] == 745 and Path(data["table"]).exists()


def test_advise_ranks_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["advise", "--card", "ones=3 fives=20", "--dice", "3", "3", "5", "6", "6",
            "--rolls-left", "2"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "yatzy — card: ones=3 fives=20 — dice 3 3 5 6 6, 2 rolls left"
    assert lines[1].split()[:4] == ["1.", "keep", "6", "6"]
    assert len(lines) == 1 + 17 + 13  # 17 distinct keeps, 13 open boxes
    assert main([*args, "--json", "--top", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [o["text"] for o in data["options"]] == ["keep 6 6", "keep 5 6 6", "keep 3 6 6"]
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
    (["--card", "twos=4"], "the play order forbids twos=4"),
    (["--card", "ones"], "Scorecard entries look like 'box=points'"),
    (["--dice", "1", "2"], "Dice must be 5 values"),
    (["--dice", "12345", "--rolls-left", "3"], "Rolls left after a roll must be 0 to 2"),
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
    assert "yatzy (order=in_order) — optimal, 2,000 games (seed 1)" in out
    assert "exact expected score 122.5585274" in out
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["simulate", "--rules", "yahtzee", "--bot", "hard", "-n", "500", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 500 and data["bot"] == "hard"
    assert 0 <= data["upper_bonus_rate"] <= 1 and data["extra_yahtzees_per_game"] >= 0
    assert main(["simulate", "--bot", "wizard"]) == 2
    assert "Unknown computer player 'wizard'" in capsys.readouterr().err


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
