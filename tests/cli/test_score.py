"""`yatzy score`: every box's points for some dice."""

import json

import pytest

from yatzy.cli import main


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read English output, whatever the tester's locale."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def test_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "3", "3", "3", "5", "5"]) == 0
    out = capsys.readouterr().out
    assert "dice 3 3 3 5 5" in out
    lines = {line.rsplit(None, 1)[0].strip(): int(line.rsplit(None, 1)[1])
             for line in out.splitlines()[1:]}
    assert lines["Two pairs"] == 16 and lines["Full house"] == 19 and lines["Yatzy"] == 0


def test_json_yahtzee(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rules", "yahtzee", "--json", "12334"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice"] == [1, 2, 3, 3, 4]
    assert data["scores"]["small_straight"] == 30
    assert data["ruleset"]["name"] == "yahtzee"


@pytest.mark.parametrize("dice", [["3", "3", "7"], ["1", "2", "3"], ["x"]])
def test_bad_dice_is_a_clear_error(dice: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *dice]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yatzy: Dice must be")
    assert "Traceback" not in err


@pytest.mark.parametrize("dice", [["--", "-6", "-6", "-6", "-6", "-6"], ["+1", "2", "3", "4", "5"],
                                  ["3-3-5-6-6"], ["１２３４５"]])
def test_signs_and_other_digits_are_no_dice(dice: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *dice]) == 2
    captured = capsys.readouterr()
    assert captured.err == "yatzy: Dice must be 5 values from 1 to 6\n" and not captured.out


def test_unknown_ruleset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--rules", "poker", "1", "2", "3", "4", "5"])
    assert "invalid choice" in capsys.readouterr().err


def test_options_without_a_command_go_to_play(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--players", "Ann", "--rules", "nope"])
    assert "yatzy play: error: argument --rules: invalid choice" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("yatzy ")


def test_in_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--lang", "sv", "3", "3", "3", "5", "5"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Yatzy · tärningar 3 3 3 5 5"
    assert "Kåk" in out and "Full house" not in out
    assert main(["score", "--lang", "fi", "3", "3", "7"]) == 2
    assert capsys.readouterr().err == "yatzy: Noppia pitää olla 5, arvoiltaan 1–6\n"


def test_an_option_of_the_other_ruleset_is_named_as_a_flag(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rules", "yatzy", "--upper-first", "1", "2", "3", "4", "5"]) == 2
    assert capsys.readouterr().err == "yatzy: --upper-first is not an option of Yatzy\n"
    assert main(["score", "--lang", "sv", "--rules", "yahtzee", "--order", "in_order",
                 "1", "2", "3", "4", "5"]) == 2
    assert capsys.readouterr().err == "yatzy: --order är inget val för Yahtzee\n"
