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
>>> box_named(translator("sv"), "ett PAR"), box_named(translator("sv"), "Full house")
('one_pair', 'full_house')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from yatzy.core import rules
from yatzy.core.errors import ErrorCode, YatzyError, error_param_names, error_texts
from yatzy.core.game import Game
from yatzy.core.rulesets import LABELS, ORDER_LABELS, UPPER_BOXES, Ruleset, RulesetInfo, ruleset
from yatzy.core.scorecard import BONUS_KEY, Scorecard
from yatzy.i18n import N_, Translator

#: The scorecard's count of extra Yahtzees, by the name the terminal game shows.
BONUS_LABEL = N_("Yahtzee bonus")





def default_player_name(t: Translator) -> str:
    """The name of a player who gave none, chosen per language so that it reads well
    wherever a name goes (``"{player}'s turn"`` is ``"{player}s tur"`` in Swedish:
    ``Spelarens tur``, not ``Players tur``).

    >>> from yatzy.i18n import translator
    >>> [default_player_name(translator(lang)) for lang in ("sv", "fi", "en")]
    ['Spelaren', 'Pelaaja', 'Player']
    """
    return t.pgettext("default name", "Player")


def answer_keys(t: Translator) -> tuple[str, str]:
    """The keys that answer yes and no in ``t``'s language (``j``/``n`` in Swedish):
    each a catalog entry of its own, which the buttons' labels show, so the key shown
    is always the key that works.

    >>> from yatzy.i18n import translator
    >>> answer_keys(translator("fi")), answer_keys(translator("en"))
    (('k', 'e'), ('y', 'n'))
    """
    return (t.pgettext("the key that answers yes", "y"),
            t.pgettext("the key that answers no", "n"))


#: What a ruleset's title says of a yes-or-no option turned off (on, its label).
OFF_LABELS: dict[str, str] = {"yahtzee_bonus": N_("no Yahtzee bonus"),
                              "saved_rolls": N_("no saved rolls")}
#: Options whose value the title shows through the rule they set (the play order).
_SHOWN_AS_RULE = frozenset({"order", "upper_first", "rolls"})


def ruleset_name(t: Translator, name: str) -> str:
    """The title of the ruleset called ``name`` in ``t``'s language (as its definition
    has it, for a ruleset the catalogs do not know).

    >>> from yatzy.i18n import translator
    >>> ruleset_name(translator("fi"), "yahtzee"), ruleset_name(translator("fi"), "poker")
    ('Yahtzee', 'poker')
    """
    try:
        return t._(ruleset(name).title)
    except YatzyError:
        return name


def ruleset_description(t: Translator, info: RulesetInfo) -> dict[str, Any]:
    """``info`` (:meth:`Ruleset.describe`) as JSON-ready data with every name in
    ``t``'s language: the ruleset's title, each box's and option's label, each choice's.
    A name the catalogs do not have is shown as it is in the rules."""
    data = info.to_dict()
    data["title"] = t._(info.title)
    data["box_labels"] = {box: box_label(t, box) for box in info.boxes}
    for option in data["options"]:
        option["label"] = t._(option["label"])
        if "choices" in option:
            option["choice_labels"] = {c: t._(label)
                                       for c, label in option["choice_labels"].items()}
    return data


def box_label(t: Translator, box: str) -> str:
    """The name of ``box`` in ``t``'s language (the English name its ruleset's
    definition gives, where the catalogs do not have it)."""
    return t._(LABELS.get(box, box))


def _name_key(name: str) -> str:
    return " ".join(name.replace("_", " ").split()).casefold()


def box_named(t: Translator, name: str) -> str | None:
    """The box (or :data:`~yatzy.core.scorecard.BONUS_KEY`) a player calls ``name``:
    its code name, its English name or its name in ``t``'s language, whatever the
    case, with spaces or underscores between words; ``None`` for no box."""
    key = _name_key(name)
    for box, label in (*LABELS.items(), (BONUS_KEY, BONUS_LABEL)):
        if key in (_name_key(box), _name_key(label), _name_key(t._(label))):
            return box
    return None


def rolls_text(t: Translator, game: Game) -> str:
    """The rolls the player to move has left, and their saved rolls where the ruleset
    saves them: ``"5 rolls left · 2 saved rolls"``.

    >>> from yatzy.i18n import translator
    >>> g = Game.start(ruleset("maxi_yatzy"), ["Ann"], seed=1).roll().score("chance")
    >>> rolls_text(translator("sv"), g), rolls_text(translator("en"), g.roll())
    ('5 slag kvar · 2 sparade slag', '4 rolls left · 2 saved rolls')
    """
    left = t.ngettext("{n} roll left", "{n} rolls left", game.rolls_left, n=game.rolls_left)
    if not game.ruleset.saved_rolls:
        return left
    saved = game.saved_rolls()
    return " · ".join((left, t.ngettext("{n} saved roll", "{n} saved rolls", saved, n=saved)))


def card_text(t: Translator, card: Scorecard) -> str:
    """The filled boxes of ``card`` as ``name=points`` in ``t``'s language, ``-`` for
    an empty card; :func:`box_named` reads the names back."""
    parts = [f"{box_label(t, box)}={card[box]}" for box in card.filled_boxes]
    if card.yahtzee_bonus_count:
        parts.append(f"{t._(BONUS_LABEL)}={card.yahtzee_bonus_count}")
    return ", ".join(parts) or "-"


def ruleset_title(t: Translator, ruleset: Ruleset) -> str:
    """A short title such as ``"Yahtzee · free Joker"``: the name and changed options."""
    parts = [t._(ruleset.title or ruleset.name)]
    if ruleset.order != "free":
        parts.append(t._(ORDER_LABELS[ruleset.order]))
    values = ruleset.options
    for option in ruleset.describe().options:
        value = values[option.name]
        if option.name in _SHOWN_AS_RULE or value == option.default:
            continue
        if option.kind == "choice":
            parts.append(t._(dict(option.choice_labels).get(value, value)))
        elif option.kind == "bool" and value:
            parts.append(t._(option.label))
        elif option.kind == "bool" and option.name in OFF_LABELS:
            parts.append(t._(OFF_LABELS[option.name]))
        elif option.kind == "bool":
            word = t._("off")
            parts.append(f"{t._(option.label)}: {word}")
        else:
            parts.append(f"{t._(option.label)}: {value}")
    if ruleset.rolls != 3:
        parts.append(t.ngettext("{n} roll", "{n} rolls", ruleset.rolls, n=ruleset.rolls))
    return " · ".join(parts)


def variant_text(t: Translator, ruleset: Ruleset) -> str:
    """Which game this is, every option said: ``"Yahtzee · Joker: forced Joker · Yahtzee
    bonus: yes · Upper section first: no · Rolls per turn: 3"``.

    >>> from yatzy.core.rulesets import ruleset
    >>> from yatzy.i18n import translator
    >>> variant_text(translator("en"), ruleset("yatzy", order="in_order"))
    'Yatzy · Play order: in order · Rolls per turn: 3'
    """
    return " · ".join([t._(ruleset.title or ruleset.name), *option_texts(t, ruleset)])


def option_texts(t: Translator, ruleset: Ruleset) -> list[str]:
    """Every option of ``ruleset`` said, in its description's order: ``["Play order: in
    order", "Rolls per turn: 3"]``.

    >>> from yatzy.core.rulesets import ruleset
    >>> from yatzy.i18n import translator
    >>> option_texts(translator("en"), ruleset("yahtzee"))[0]
    'Joker: forced Joker'
    """
    parts = []
    values = ruleset.options
    for option in ruleset.describe().options:  # labels as the ruleset's description has them
        label, value = t._(option.label), values[option.name]
        if isinstance(value, bool):
            parts.append(t._("{option}: yes", option=label) if value
                         else t._("{option}: no", option=label))
        else:
            shown = dict(option.choice_labels).get(value, str(value))
            parts.append(f"{label}: {t._(shown)}")
    return parts


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


#: The text of every error code, in English (each is translated in every catalog).
#: ``{placeholders}`` are filled from the error's ``params`` (renamed by
#: :data:`_PARAM_NAMES`), and ``{detail}`` with the error's English message: the base
#: classes' codes say what kind of thing went wrong and keep the core's words for what.
#: The English text of every error code, each layer's as it registered them.
ERROR_TEXTS = error_texts()

_PARAM_NAMES = error_param_names()

#: How the errors of some codes are told, beyond their text (see
#: :func:`register_error_formatter`).
_FORMATTERS: dict[str, Callable[[Translator, YatzyError], str | None]] = {}


def register_error_formatter(code: str,
                             formatter: Callable[[Translator, YatzyError], str | None]) -> None:
    """Have :func:`error_text` tell errors of ``code`` with ``formatter(t, error)``: a
    layer whose error needs more than its text filled in (its params translated, one of
    several texts) registers it beside its codes; ``None`` falls back to the text."""
    _FORMATTERS[str(code)] = formatter


def error_text(t: Translator, error: YatzyError, game: Game | None = None) -> str:
    """An error in ``t``'s language, chosen by its ``code`` (see :data:`ERROR_TEXTS`);
    an error whose code has no text, or lacks a value its text needs, keeps its English
    message."""
    code, params = error.code, error.params
    box = params.get("box")
    if code in (ErrorCode.BOX_FILLED, ErrorCode.BOX_NOT_ALLOWED) and game is not None and box:
        return refusal(t, game, str(box))
    if isinstance(box, str) and box in LABELS:
        params = {**params, "box": box_label(t, box)}
    if code == ErrorCode.INVALID_DICE and "count" in params:
        return t._("Dice must be {n} values from 1 to 6", n=params["count"])
    formatter = _FORMATTERS.get(code)
    if formatter is not None and (told := formatter(t, error)) is not None:
        return told
    text = ERROR_TEXTS.get(code)
    if text is None:
        return error.message
    values = {"detail": error.message, **params}
    values.update({name: params[key] for name, key in _PARAM_NAMES.get(code, {}).items()
                   if key in params})
    try:
        return t._(text, **values)
    except (KeyError, IndexError):
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
                "Joker: {box} is filled, so any open lower box takes its full value"
                " ({values}).", box=upper_name, values=_joker_values(t, ruleset))
        return t._("Joker: no lower box is open, so a zero goes in an upper box.")
    if ruleset.joker == "gated" and card.is_open(upper):
        return t._("Joker: the lower boxes score only by the table while {box} is open.",
                   box=upper_name)
    return t._("Joker: the lower boxes take Joker values ({values}).",
               values=_joker_values(t, ruleset))


def _joker_values(t: Translator, ruleset: Ruleset) -> str:
    """The boxes a Joker fills with a fixed value, and their values, as the ruleset's
    description gives them: ``"Full house 25, Small straight 30, Large straight 40"``."""
    return ", ".join(f"{box_label(t, box)} {points}"
                     for box, points in ruleset.describe().joker_points if points is not None)


def upper_bonus_progress(t: Translator, card: Scorecard) -> str:
    """How the upper section stands toward its bonus, as a player would say it: so many
    points ahead of or behind par (:attr:`Scorecard.upper_par_delta`: three of each face
    filled so far, when three of every face is exactly the bonus's 63), then the bonus
    once it is earned or out of reach.

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
