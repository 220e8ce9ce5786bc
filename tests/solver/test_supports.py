"""Which rulesets the solver plays: not those with saved rolls (Maxi Yatzy's default),
refused with one typed error before any work; and which of its tables are built on
demand (not Maxi Yatzy's: built by ``yatzy solve``, then read from the disk)."""

from __future__ import annotations

from pathlib import Path

import pytest

import yatzy
from yatzy import solver
from yatzy.i18n import LANGUAGES, translator
from yatzy.i18n.words import error_text
from yatzy.solver import artifacts


def test_the_rule_sheets_rulesets_are_supported() -> None:
    for name in ("yatzy", "yahtzee"):
        assert solver.supports(yatzy.ruleset(name))
    assert solver.state_count(yatzy.ruleset("yahtzee")) == (1 << 13) * 64 * 2


def test_maxi_yatzy_with_saved_rolls_is_not() -> None:
    rules = yatzy.ruleset("maxi_yatzy")
    assert rules.saved_rolls and not solver.supports(rules)
    with pytest.raises(solver.UnsupportedRuleset) as refused:
        yatzy.strategy(rules)  # refused before any table is built
    assert refused.value.code == "unsupported_ruleset" and isinstance(refused.value,
                                                                       ValueError)
    for lang in LANGUAGES:
        text = error_text(translator(lang), refused.value)
        assert "Maxi Yatzy" in text and "{" not in text


@pytest.mark.parametrize("options", [{"saved_rolls": False},
                                     {"saved_rolls": False, "bonus": "50_at_75"},
                                     {"saved_rolls": False, "order": "in_order"}])
def test_maxi_yatzy_without_saved_rolls_is_played_from_a_table_built_before(
        options: dict[str, object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path))  # no table here
    rules = yatzy.ruleset("maxi_yatzy", **options)
    assert solver.supports(rules)
    assert solver.ON_DEMAND_STATES < solver.state_count(rules) <= solver.MAX_STATES
    assert not solver.builds_on_demand(rules)
    with pytest.raises(solver.TableNotBuilt) as refused:
        yatzy.strategy(rules)  # refused at once: no build of minutes on a request
    assert refused.value.code == "table_not_built"
    assert not isinstance(refused.value, ValueError)  # not the request's fault
    for lang in LANGUAGES:
        text = error_text(translator(lang), refused.value)
        assert "Maxi Yatzy" in text and "yatzy solve" in text and "{" not in text


def test_small_tables_are_built_on_demand() -> None:
    for name in ("yatzy", "yahtzee"):
        assert solver.builds_on_demand(yatzy.ruleset(name))


def test_saved_rolls_alone_are_not_supported() -> None:
    small = yatzy.RulesetDefinition(
        "small_saved", "Small", upper=("ones", "twos"),
        lower={"chance": yatzy.ruleset("yatzy")._scorers["chance"]}, dice_count=2,
        options={"saved_rolls": yatzy.Option(False, kind=bool, label="Saved rolls")})
    yatzy.define_ruleset(small)
    try:
        assert solver.supports(yatzy.ruleset("small_saved"))
        assert not solver.supports(yatzy.ruleset("small_saved", saved_rolls=True))
        assert yatzy.ruleset("small_saved", saved_rolls=True).saved_rolls
    finally:
        yatzy.forget_ruleset("small_saved")
