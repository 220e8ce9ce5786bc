"""Which rulesets the solver plays (with saved rolls too, Maxi Yatzy's default, but
without their win chances: refused with one typed error before any work); and which of
its tables are built on demand (not Maxi Yatzy's: built by ``yatzy solve``, then read
from the disk)."""

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


def test_maxi_yatzy_with_saved_rolls_is_played_without_win_chances(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(artifacts.ENV_VAR, str(tmp_path))  # no table here
    rules = yatzy.ruleset("maxi_yatzy")
    assert rules.saved_rolls and solver.supports(rules)
    assert not solver.builds_on_demand(rules) and not solver.table_ready(rules)
    with pytest.raises(solver.TableNotBuilt):
        yatzy.strategy(rules)  # refused at once: the free order's table takes 50 minutes
    assert not list(tmp_path.iterdir())
    assert not solver.offers_chances(rules)
    assert solver.offers_chances(yatzy.ruleset("maxi_yatzy", saved_rolls=False))
    with pytest.raises(solver.ChancesUnsupported) as refused:
        solver.check_chances(rules)  # refused before any table is loaded
    assert refused.value.code == "chances_unsupported" and isinstance(refused.value,
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


def test_saved_rolls_alone_are_played_from_a_table_built_before() -> None:
    small = yatzy.RulesetDefinition(
        "small_saved", "Small", upper=("ones", "twos"),
        lower={"chance": yatzy.ruleset("yatzy")._scorers["chance"]}, dice_count=2,
        options={"saved_rolls": yatzy.Option(False, kind=bool, label="Saved rolls")})
    yatzy.define_ruleset(small)
    try:
        assert solver.supports(yatzy.ruleset("small_saved"))
        assert solver.builds_on_demand(yatzy.ruleset("small_saved"))
        with_saved = yatzy.ruleset("small_saved", saved_rolls=True)
        assert with_saved.saved_rolls and solver.supports(with_saved)
        assert not solver.builds_on_demand(with_saved)
        assert not solver.offers_chances(with_saved)
    finally:
        yatzy.forget_ruleset("small_saved")
