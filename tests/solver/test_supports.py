"""Which rulesets the solver plays: not those with saved rolls, nor those whose table
would be too large (Maxi Yatzy), refused with one typed error before any work."""

from __future__ import annotations

import pytest

import yatzy
from yatzy import solver
from yatzy.i18n import LANGUAGES, translator
from yatzy.i18n.words import error_text


def test_the_rule_sheets_rulesets_are_supported() -> None:
    for name in ("yatzy", "yahtzee"):
        assert solver.supports(yatzy.ruleset(name))
    assert solver.state_count(yatzy.ruleset("yahtzee")) == (1 << 13) * 64 * 2


@pytest.mark.parametrize("options", [{}, {"saved_rolls": False},
                                     {"saved_rolls": False, "bonus": "50_at_75"}])
def test_maxi_yatzy_is_not(options: dict[str, object]) -> None:
    rules = yatzy.ruleset("maxi_yatzy", **options)
    assert not solver.supports(rules)
    assert solver.state_count(rules) > solver.MAX_STATES
    with pytest.raises(solver.UnsupportedRuleset) as refused:
        yatzy.strategy(rules)  # refused before any table is built
    assert refused.value.code == "unsupported_ruleset" and isinstance(refused.value,
                                                                       ValueError)
    for lang in LANGUAGES:
        text = error_text(translator(lang), refused.value)
        assert "Maxi Yatzy" in text and "{" not in text


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
