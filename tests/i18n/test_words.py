"""Box names from the rule sheets, and the core's errors translated by their code."""

from __future__ import annotations

import pytest

import yatzy
from yatzy.core.errors import IllegalMove
from yatzy.core.rulesets import LABELS
from yatzy.i18n import LANGUAGES, translator
from yatzy.i18n.words import (
    bonus_explanation,
    box_label,
    box_named,
    error_text,
    joker_explanation,
    refusal,
    ruleset_title,
)

#: The seed sheets' own words (000: "Yatzy on the road").
SEED_WORDS = {
    "sv": ["Ettor", "Tvåor", "Treor", "Fyror", "Femmor", "Sexor", "Ett par", "Två par",
           "Tretal", "Fyrtal", "Liten straight", "Stor straight", "Kåk", "Chans", "Yatzy"],
    "nb": ["Enere", "Toere", "Treere", "Firere", "Femmere", "Seksere", "Ett par", "To par",
           "Tre like", "Fire like", "Liten straight", "Stor straight", "Hus", "Sjanse", "Yatzy"],
    "da": ["Enere", "Toere", "Treere", "Firere", "Femmere", "Seksere", "Et par", "To par",
           "Tre ens", "Fire ens", "Lille straight", "Stor straight", "Fuldt hus", "Chance",
           "Yatzy"],
    "fi": ["Ykköset", "Kakkoset", "Kolmoset", "Neloset", "Viitoset", "Kuutoset", "Yksi pari",
           "Kaksi paria", "Kolmoisluku", "Nelosluku", "Pieni suora", "Iso suora", "Täyskäsi",
           "Sattuma", "Yatzy"],
}


def test_the_core_s_box_names_are_marked_for_translation() -> None:
    from tests.i18n.test_catalogs import source_messages

    marked = source_messages()
    assert [label for label in LABELS.values() if label not in marked] == []


@pytest.mark.parametrize("lang", sorted(SEED_WORDS))
def test_box_names_are_the_seed_sheets_words(lang: str) -> None:
    t = translator(lang)
    boxes = yatzy.ruleset("yatzy").boxes
    assert [box_label(t, b) for b in boxes] == SEED_WORDS[lang]


#: The names of Maxi Yatzy's own boxes (three pairs, five of a kind, full straight, full
#: house, villa, tower, Maxi Yatzy): the Swedish ones as Swedish Maxi Yatzy pads print
#: them; the others keep their language's Yatzy pad words for the boxes both games have.
MAXI_WORDS = {
    "sv": ["Tre par", "Femtal", "Full straight", "Kåk", "Hus", "Torn", "Maxi Yatzy"],
    "nb": ["Tre par", "Fem like", "Full straight", "Hus", "Villa", "Tårn", "Maxi Yatzy"],
    "da": ["Tre par", "Fem ens", "Fuld straight", "Fuldt hus", "Villa", "Tårn", "Maxi Yatzy"],
}
MAXI_OWN = ["three_pairs", "five_of_a_kind", "full_straight", "full_house", "villa", "tower",
            "maxi_yatzy"]


@pytest.mark.parametrize("lang", sorted(MAXI_WORDS))
def test_maxi_yatzy_box_names_are_the_nordic_pads_words(lang: str) -> None:
    t = translator(lang)
    assert [box_label(t, b) for b in MAXI_OWN] == MAXI_WORDS[lang]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_maxi_yatzy_box_has_its_own_name(lang: str) -> None:
    """Twenty boxes, twenty names a player can tell apart (and type back)."""
    t = translator(lang)
    boxes = yatzy.ruleset("maxi_yatzy").boxes
    labels = [box_label(t, b) for b in boxes]
    assert len({label.casefold() for label in labels}) == len(boxes) == 20, labels
    assert [box_named(t, label) for label in labels] == list(boxes)


@pytest.mark.parametrize("lang", ["et", "pt"])
def test_box_names_differ_from_english(lang: str) -> None:
    t, en = translator(lang), translator("en")
    differing = [b for b in LABELS if box_label(t, b) != box_label(en, b)]
    assert len(differing) >= 10


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_box_is_found_by_any_of_its_names(lang: str) -> None:
    t = translator(lang)
    for box, label in LABELS.items():
        for name in (box, label, box_label(t, box), box_label(t, box).upper(),
                     "  " + box_label(t, box).replace(" ", "_").lower() + " "):
            assert box_named(t, name) == box, (lang, name)
    assert box_named(t, "yahtzee_bonus") == "yahtzee_bonus"
    assert box_named(t, t._("Yahtzee bonus")) == "yahtzee_bonus"
    assert box_named(t, "fivez") is None and box_named(t, "") is None


def test_ruleset_title() -> None:
    t = translator("en")
    assert ruleset_title(t, yatzy.ruleset("yatzy")) == "Yatzy"
    assert ruleset_title(t, yatzy.ruleset("yahtzee", joker="free", yahtzee_bonus=False,
                                          rolls=4)) == (
        "Yahtzee · free Joker · no Yahtzee bonus · 4 rolls")


def game_with_card(rules: yatzy.Ruleset, *filled: tuple[str, list[int]]) -> yatzy.Game:
    game = yatzy.new_game(rules, ["Ann"], seed=1)
    for box, dice in filled:
        game = game.roll(dice).score(box)
    return game


def test_refusal_by_play_order() -> None:
    t = translator("sv")
    game = yatzy.new_game(yatzy.ruleset("yatzy", order="in_order"), ["Ann"], seed=1)
    game = game.roll([1, 2, 3, 4, 5])
    assert refusal(t, game, "chance") == "Rutorna fylls uppifrån och ner: nästa är Ettor"
    with pytest.raises(IllegalMove) as caught:
        game.score("chance")
    assert error_text(t, caught.value, game) == refusal(t, game, "chance")


def test_refusal_by_forced_joker() -> None:
    t = translator("en")
    game = game_with_card(yatzy.ruleset("yahtzee"), ("yahtzee", [2, 2, 2, 2, 2]))
    game = game.roll([5, 5, 5, 5, 5])
    assert game.joker and game.bonus_pending
    assert refusal(t, game, "chance") == (
        "Joker rule: five 5s must go in Fives while it is open")
    assert joker_explanation(t, game) == "Joker: five 5s must go in Fives while it is open."
    assert bonus_explanation(t, game) == (
        "Yahtzee bonus: another Yahtzee earns +100 wherever it goes.")


def test_joker_with_the_upper_box_filled() -> None:
    t = translator("en")
    game = game_with_card(yatzy.ruleset("yahtzee"), ("yahtzee", [2, 2, 2, 2, 2]),
                          ("fives", [5, 5, 1, 2, 3]))
    game = game.roll([5, 5, 5, 5, 5])
    assert joker_explanation(t, game) == (
        "Joker: Fives is filled, so any open lower box takes its full value"
        " (Full house 25, Small straight 30, Large straight 40).")
    # The values are the ruleset's, in the player's language, never in the message id.
    swedish = joker_explanation(translator("sv"), game)
    assert "(Kåk 25, Liten straight 30, Stor straight 40)" in swedish
    free = game_with_card(yatzy.ruleset("yahtzee", joker="free"),
                          ("yahtzee", [2, 2, 2, 2, 2])).roll([5, 5, 5, 5, 5])
    assert joker_explanation(t, free) == (
        "Joker: the lower boxes take Joker values"
        " (Full house 25, Small straight 30, Large straight 40).")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_core_errors_are_translated_by_code(lang: str) -> None:
    t = translator(lang)
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann", "Bo"], seed=1)
    texts = []
    for attempt in (
        lambda: game.score("chance"),
        lambda: game.roll().roll(),
        lambda: game.roll().reroll([0, 1, 2, 3, 4]),
        lambda: game.roll(player="Bo"),
    ):
        with pytest.raises(IllegalMove) as caught:
            attempt()
        texts.append(error_text(t, caught.value, game))
    assert all(texts)
    if lang != "en":
        english = translator("en")
        assert texts[0] != english._("Roll the dice first")
    assert "Ann" in texts[3]


def test_unknown_codes_keep_the_core_message() -> None:
    error = IllegalMove("Something new", code="something_new")
    assert error_text(translator("fi"), error) == "Something new"


def test_the_upper_section_toward_its_bonus_as_a_player_says_it() -> None:
    from yatzy.core.scorecard import Scorecard
    from yatzy.i18n.words import upper_bonus_progress

    t = translator("en")
    card = Scorecard.empty(yatzy.ruleset("yatzy"))
    assert upper_bonus_progress(t, card) == "Upper section: on par for the bonus"
    behind = card.fill("fives", 10)  # par is 15
    assert upper_bonus_progress(t, behind) == (
        "Upper section: 5 points behind par for the bonus")
    assert upper_bonus_progress(t, card.fill("ones", 4)) == (
        "Upper section: 1 point ahead of par for the bonus")
    assert upper_bonus_progress(translator("fi"), behind) == (
        "Yläosa: 5 pistettä jäljessä bonustahdista")
    earned = card
    for box, points in zip(card.ruleset.upper_boxes, (3, 6, 9, 12, 15, 18), strict=True):
        earned = earned.fill(box, points)
    assert upper_bonus_progress(t, earned) == "Upper section: bonus earned"
    missed = card
    for box in card.ruleset.upper_boxes:
        missed = missed.fill(box, 0)
    assert upper_bonus_progress(translator("da"), missed) == "Øverste del: ingen bonus"
    for lang in LANGUAGES:
        said = upper_bonus_progress(translator(lang), behind)
        assert "5" in said and "-" not in said, (lang, said)  # no "-5 over par"
