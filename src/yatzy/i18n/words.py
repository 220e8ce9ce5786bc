"""The game's own words in every language: box names, rulesets, options and the
messages of the core's typed errors (translated by their ``code``).

>>> from yatzy.i18n import translator
>>> from yatzy.core.rulesets import ruleset
>>> box_label(translator("fi"), "full_house")
'Täyskäsi'
>>> box_label(translator("sv"), "one_pair")
'Ett par'
>>> ruleset_title(translator("da"), ruleset("yatzy", order="in_order"))
'Yatzy · i rækkefølge'
"""

from __future__ import annotations

from yatzy.core import rules
from yatzy.core.errors import YatzyError
from yatzy.core.game import Game
from yatzy.core.rulesets import UPPER_BOXES, Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.i18n import N_, Translator

#: The English box names of the core, marked for translation (the core owns them).
BOX_LABELS: dict[str, str] = {
    "ones": N_("Ones"),
    "twos": N_("Twos"),
    "threes": N_("Threes"),
    "fours": N_("Fours"),
    "fives": N_("Fives"),
    "sixes": N_("Sixes"),
    "one_pair": N_("One pair"),
    "two_pairs": N_("Two pairs"),
    "three_of_a_kind": N_("Three of a kind"),
    "four_of_a_kind": N_("Four of a kind"),
    "small_straight": N_("Small straight"),
    "large_straight": N_("Large straight"),
    "full_house": N_("Full house"),
    "chance": N_("Chance"),
    "yatzy": N_("Yatzy"),
    "yahtzee": N_("Yahtzee"),
}

RULESET_NAMES: dict[str, str] = {
    "yatzy": N_("Yatzy"),
    "yahtzee": N_("Yahtzee"),
}

ORDER_NAMES: dict[str, str] = {
    "free": N_("any order"),
    "upper_first": N_("upper section first"),
    "in_order": N_("in order"),
}

JOKER_NAMES: dict[str, str] = {
    "forced": N_("forced Joker"),
    "gated": N_("gated Joker"),
    "free": N_("free Joker"),
    "none": N_("no Joker"),
}


def default_player_name(t: Translator) -> str:
    """The name of a player who gave none, chosen per language so that it reads well
    wherever a name goes (``"{player}'s turn"`` is ``"{player}s tur"`` in Swedish:
    ``Spelarens tur``, not ``Players tur``).

    >>> from yatzy.i18n import translator
    >>> [default_player_name(translator(lang)) for lang in ("sv", "fi", "en")]
    ['Spelaren', 'Pelaaja', 'Player']
    """
    return t.pgettext("default name", "Player")


def box_label(t: Translator, box: str) -> str:
    """The name of ``box`` in ``t``'s language."""
    return t._(BOX_LABELS[box])


def ruleset_title(t: Translator, ruleset: Ruleset) -> str:
    """A short title such as ``"Yahtzee · free Joker"``: the name and changed options."""
    parts = [t._(RULESET_NAMES[ruleset.name])]
    if ruleset.order != "free":
        parts.append(t._(ORDER_NAMES[ruleset.order]))
    if ruleset.name == "yahtzee":
        if ruleset.joker != "forced":
            parts.append(t._(JOKER_NAMES[ruleset.joker]))
        if not ruleset.extra_yahtzee_points:
            parts.append(t._("no Yahtzee bonus"))
    if ruleset.rolls != 3:
        parts.append(t.ngettext("{n} roll", "{n} rolls", ruleset.rolls, n=ruleset.rolls))
    return " · ".join(parts)


def refusal(t: Translator, game: Game, box: str) -> str:
    """Why the current player may not fill ``box`` with the dice on the table."""
    refused = rules.refusal(game.ruleset, game.card, game.dice, box)
    if refused is None:
        return t._("Roll the dice first")
    if refused.reason == "filled":
        return t._("{box} is already filled", box=box_label(t, box))
    if refused.reason == "in_order":
        return t._(
            "The boxes are filled from top to bottom: next is {box}",
            box=box_label(t, str(refused.next_box)),
        )
    if refused.reason == "upper_first":
        return t._("Fill the upper section before {box}", box=box_label(t, box))
    upper = box_label(t, str(refused.upper_box))
    if refused.reason == "joker_upper":
        return t._(
            "Joker rule: five {face}s must go in {box} while it is open",
            face=refused.face, box=upper,
        )
    return t._(
        "Joker rule: {box} is filled, so five {face}s go in an open lower box",
        face=refused.face, box=upper,
    )


def error_text(t: Translator, error: YatzyError, game: Game | None = None) -> str:
    """A core error in ``t``'s language, chosen by its ``code``; unknown codes keep the
    core's English message."""
    code, params = error.code, error.params
    if code in ("box_filled", "box_not_allowed") and game is not None and "box" in params:
        return refusal(t, game, str(params["box"]))
    simple = {
        "game_over": N_("The game is over"),
        "nothing_to_undo": N_("Only the last box chosen can be taken back"),
        "computer_move": N_("A computer player's move cannot be taken back"),
        "already_rolled": N_("You have rolled already: reroll some dice or choose a box"),
        "no_roll": N_("Roll the dice first"),
        "no_rolls_left": N_("No rolls left this turn: choose a box"),
        "hold_all": N_("Reroll at least one die: you are holding all of them"),
        "bad_position": N_("That is not a die on the table"),
        "dice_needed": N_("Type in the dice that were rolled"),
        "invalid_dice": N_("Dice are numbers from 1 to 6"),
        "roll_off_incomplete": N_("The roll-off is tied: roll again"),
        "dice_not_allowed": N_("The program rolls the dice in this game"),
        "no_players": N_("Name at least one player"),
        "game_not_found": N_("That game is no longer saved"),
        "game_changed": N_("The game was changed elsewhere: here it is as it stands now"),
        "not_over": N_("The analysis comes when the game is over"),
        "not_computer_turn": N_("It is not a computer player's turn"),
        "bad_seed": N_("A seed is a whole number or a secret seed of 32 to 64 hex digits"),
    }
    if code == "invalid_dice" and "count" in params:
        return t._("Dice must be {n} values from 1 to 6", n=params["count"])
    if code in simple:
        return t._(simple[code])
    if code == "flag_not_for_rules":
        return t._("{flag} is not an option of {rules}", flag=params.get("flag", "?"),
                   rules=t._(RULESET_NAMES.get(str(params.get("rules")), "?")))
    if code == "not_your_turn":
        return t._("It is {player}'s turn", player=params.get("player", "?"))
    if code == "too_many_players":
        return t._("At most {n} players", n=params.get("most", "?"))
    if code in ("same_name", "duplicate_player"):
        return t._("Two players are called {name}: names must differ",
                   name=params.get("name", "?"))
    if code == "unknown_bot":
        return t._("Unknown computer player {level}; choose from {levels}",
                   level=params.get("bot", "?"), levels=params.get("known", ""))
    if code == "storage":
        if "db" in params:
            return t._("Cannot open the game database {db}: {reason}", db=params["db"],
                       reason=params.get("reason", "?"))
        if "revision" in params:
            return t._("The game database was made by a newer version of yatzy")
        return t._("The game database failed: {reason}",
                   reason=error.message.removeprefix("The game database failed: "))
    return error.message


def joker_explanation(t: Translator, game: Game) -> str:
    """What the Joker rule means for the five of a kind on the table now."""
    if game.dice is None:
        return ""
    ruleset, card = game.ruleset, game.card
    face = game.dice[0]
    upper = UPPER_BOXES[face - 1]
    upper_name = box_label(t, upper)
    allowed = set(rules.allowed_by_order(ruleset, card))
    if ruleset.joker == "forced":
        if upper in allowed:
            return t._("Joker: five {face}s must go in {box} while it is open.",
                       face=face, box=upper_name)
        if any(b in allowed for b in ruleset.lower_boxes):
            return t._(
                "Joker: {box} is filled, so any open lower box takes full value"
                " (full house 25, straights 30 and 40).", box=upper_name)
        return t._("Joker: no lower box is open, so a zero goes in an upper box.")
    if ruleset.joker == "gated" and card.is_open(upper):
        return t._("Joker: the lower boxes score only by the table while {box} is open.",
                   box=upper_name)
    return t._("Joker: the lower boxes take Joker values"
               " (full house 25, straights 30 and 40).")


def upper_bonus_progress(t: Translator, card: Scorecard) -> str:
    """How the upper section stands toward its bonus, as a player would say it: so many
    points ahead of or behind par (three of each face filled so far: three of every face
    is exactly 63), then the bonus once it is earned or out of reach.

    >>> from yatzy.i18n import translator
    >>> from yatzy.core.rulesets import ruleset
    >>> card = Scorecard.empty(ruleset("yatzy")).fill("ones", 1).fill("twos", 2)
    >>> upper_bonus_progress(translator("en"), card)
    'Upper section: 6 points behind par for the bonus'
    >>> upper_bonus_progress(translator("sv"), card.fill("sixes", 30))
    'Övre delen: 6 poäng före bonustakten'
    """
    if card.upper_bonus:
        return t._("Upper section: bonus earned")
    if all(card[box] is not None for box in card.ruleset.upper_boxes):
        return t._("Upper section: no bonus")
    delta = card.upper_par_delta
    if delta > 0:
        return t.ngettext("Upper section: {n} point ahead of par for the bonus",
                          "Upper section: {n} points ahead of par for the bonus",
                          delta, n=delta)
    if delta < 0:
        return t.ngettext("Upper section: {n} point behind par for the bonus",
                          "Upper section: {n} points behind par for the bonus",
                          -delta, n=-delta)
    return t._("Upper section: on par for the bonus")


def bonus_explanation(t: Translator, game: Game) -> str:
    """The extra-Yahtzee bonus earned by the dice on the table."""
    return t._("Yahtzee bonus: another Yahtzee earns +{points} wherever it goes.",
               points=game.ruleset.extra_yahtzee_points)
