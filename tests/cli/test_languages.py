"""Every command speaks the player's language (``--lang``, else ``LANG``), and
``advise --card`` takes box names in it; JSON output stays as it is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import yatzy
from yatzy.cli import build_parser, main
from yatzy.cli.solve import card_in_code_names
from yatzy.core.scorecard import Scorecard
from yatzy.i18n import LANGUAGES, translator
from yatzy.i18n.words import card_text
from yatzy.solver import artifacts


@pytest.fixture(autouse=True)
def _english_and_a_cache(tmp_path_factory: pytest.TempPathFactory,
                         monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path_factory.getbasetemp() / "cli-cache"))
    yield


@pytest.mark.parametrize("words", [["play"], ["score", "12345"], ["solve"], ["advise"],
                                   ["simulate"], ["analyse"], ["analyze"], ["stats"],
                                   ["games"], ["match", "random", "greedy"]])
def test_every_command_takes_lang(words: list[str]) -> None:
    assert build_parser().parse_args([*words, "--lang", "fi"]).lang == "fi"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_card_in_words_reads_back(lang: str) -> None:
    t = translator(lang)
    rules = yatzy.ruleset("yahtzee")
    card = Scorecard.parse(rules, "ones=5 three_of_a_kind=15 yahtzee=50 yahtzee_bonus=2")
    text = card_text(t, card)
    assert Scorecard.parse(rules, card_in_code_names(t, text)) == card


def test_advise_in_swedish_with_swedish_box_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--lang", "sv", "--order", "in_order", "--card", "ettor=2",
                 "--dice", "2", "2", "2", "5", "6", "--rolls-left", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Yatzy · i ordning — protokoll: Ettor=2 — tärningar 2 2 2 5 6, 0 slag kvar"
    assert out[1].split()[:4] == ["1.", "skriv", "i", "Tvåor"] and "(6)" in out[1]
    assert "," in out[1].split()[-1]  # a decimal comma


def test_advise_takes_english_names_in_any_language_and_lang_from_the_environment(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    assert main(["advise", "--order", "in_order", "--card", "Ones=2, twos=6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Yatzy · järjestyksessä — pöytäkirja: Ykköset=2, Kakkoset=6 — "
                          "ennen ensimmäistä heittoa\n")
    assert "  1. heitä " in out


def test_an_unknown_box_is_named_in_the_players_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--lang", "nb", "--card", "Enere=3 tull og tøys=5"]) == 2
    assert capsys.readouterr().err == (
        "yatzy: Ukjent rute 'tull_og_tøys'; rutene er: Enere, Toere, Treere, Firere, "
        "Femmere, Seksere, Ett par, To par, Tre like, Fire like, Liten straight, "
        "Stor straight, Hus, Sjanse, Yatzy\n")


def test_json_is_the_same_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    words = ["advise", "--order", "in_order", "--card", "ones=2", "--dice", "22256",
             "--json"]
    assert main(words) == 0
    english = json.loads(capsys.readouterr().out)
    assert main([*words, "--lang", "pt", "--card", "Uns=2"]) == 0
    assert json.loads(capsys.readouterr().out) == english
    assert english["options"][0]["text"].startswith("keep ")


def test_solve_and_simulate_in_danish_and_estonian(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--order", "in_order", "--lang", "da"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Yatzy · i rækkefølge: forventet slutscore 122,5585274"
    assert out[1].endswith("745 tilstande")
    assert main(["simulate", "--order", "in_order", "-n", "300", "--seed", "2",
                 "--lang", "et"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Yatzy · järjekorras — optimal, 300 mängu (seeme 2) ")
    assert out[1].startswith("keskmine ") and out[-1] == "täpne oodatav lõppskoor 122,5585274"


def test_analyse_in_portuguese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = yatzy.ruleset("yatzy", order="in_order")
    game = yatzy.new_game(rules, ["Ann"], seed=3).roll([1, 1, 1, 2, 3]).score("ones")
    record = tmp_path / "game.json"
    record.write_text(game.to_json())
    assert main(["analyse", str(record), "--lang", "pt"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Yatzy · por ordem — Ann — o jogo ótimo espera ")
    assert out[1].split() == ["vez", "dados", "escolhido", "melhor", "escolhido", "melhor",
                              "perda"]
    assert "Uns (3)" in out[2] and "guardar os dados 1 2 3 (1 1 1)" in out[2]
    assert out[-1].startswith("Ann: pontuação 3, 1 decisão, 1 não ótimas, ")
    assert main(["analyse", str(record), "--lang", "pt", "--player", "Bo"]) == 2
    assert capsys.readouterr().err == (
        "yatzy: Nenhum jogador se chama Bo; os jogadores são Ann\n")


def test_each_command_is_added_by_the_module_that_runs_it_alone() -> None:
    """Running one command builds a parser of its own module only: the map must name the
    module that adds each command, and every command."""
    import argparse

    from yatzy.cli import COMMAND_MODULES, COMMAND_OF

    def commands(parser: argparse.ArgumentParser) -> set[str]:
        [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return set(sub.choices)

    assert commands(build_parser()) == set(COMMAND_OF)
    assert set(COMMAND_OF.values()) == set(COMMAND_MODULES)
    for command, module in COMMAND_OF.items():
        alone = commands(build_parser(command=command))
        assert command in alone
        assert alone == {c for c, m in COMMAND_OF.items() if m == module}
