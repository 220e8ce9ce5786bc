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

from typing import Any

from yatzy.core import rules
from yatzy.core.errors import ErrorCode, YatzyError
from yatzy.core.game import Game
from yatzy.core.rulesets import UPPER_BOXES, Ruleset, RulesetInfo
from yatzy.core.scorecard import BONUS_KEY, Scorecard
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

#: The scorecard's count of extra Yahtzees, by the name the terminal game shows.
BONUS_LABEL = N_("Yahtzee bonus")

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


#: The name of each ruleset option, and of the choices of those that have them.
OPTION_LABELS: dict[str, str] = {
    "order": N_("Play order"),
    "joker": N_("Joker"),
    "yahtzee_bonus": N_("Yahtzee bonus"),
    "upper_first": N_("Upper section first"),
    "rolls": N_("Rolls per turn"),
}
CHOICE_LABELS: dict[str, dict[str, str]] = {"order": ORDER_NAMES, "joker": JOKER_NAMES}


def ruleset_description(t: Translator, info: RulesetInfo) -> dict[str, Any]:
    """``info`` (:meth:`Ruleset.describe`) as JSON-ready data with every name in
    ``t``'s language: the ruleset's title, each box's and option's label, each choice's.
    A name the catalogs do not have is shown as it is in the rules."""
    data = info.to_dict()
    data["title"] = t._(RULESET_NAMES[info.name]) if info.name in RULESET_NAMES \
        else info.name
    data["box_labels"] = {box: box_label(t, box) if box in BOX_LABELS else box
                          for box in info.boxes}
    for option in data["options"]:
        name = option["name"]
        option["label"] = t._(OPTION_LABELS[name]) if name in OPTION_LABELS else name
        if "choices" in option:
            names = CHOICE_LABELS.get(name, {})
            option["choice_labels"] = {c: t._(names[c]) if c in names else c
                                       for c in option["choices"]}
    return data


def box_label(t: Translator, box: str) -> str:
    """The name of ``box`` in ``t``'s language."""
    return t._(BOX_LABELS[box])


def _name_key(name: str) -> str:
    return " ".join(name.replace("_", " ").split()).casefold()


def box_named(t: Translator, name: str) -> str | None:
    """The box (or :data:`~yatzy.core.scorecard.BONUS_KEY`) a player calls ``name``:
    its code name, its English name or its name in ``t``'s language, whatever the
    case, with spaces or underscores between words; ``None`` for no box."""
    key = _name_key(name)
    for box, label in (*BOX_LABELS.items(), (BONUS_KEY, BONUS_LABEL)):
        if key in (_name_key(box), _name_key(label), _name_key(t._(label))):
            return box
    return None


def card_text(t: Translator, card: Scorecard) -> str:
    """The filled boxes of ``card`` as ``name=points`` in ``t``'s language, ``-`` for
    an empty card; :func:`box_named` reads the names back."""
    parts = [f"{box_label(t, box)}={card[box]}" for box in card.filled_boxes]
    if card.yahtzee_bonus_count:
        parts.append(f"{t._(BONUS_LABEL)}={card.yahtzee_bonus_count}")
    return ", ".join(parts) or "-"


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


def variant_text(t: Translator, ruleset: Ruleset) -> str:
    """Which game this is, every option said: ``"Yahtzee · Joker: forced Joker · Yahtzee
    bonus: yes · Upper section first: no · Rolls per turn: 3"``.

    >>> from yatzy.core.rulesets import ruleset
    >>> from yatzy.i18n import translator
    >>> variant_text(translator("en"), ruleset("yatzy", order="in_order"))
    'Yatzy · Play order: in order · Rolls per turn: 3'
    """
    parts = [t._(RULESET_NAMES[ruleset.name]) if ruleset.name in RULESET_NAMES
             else ruleset.name]
    for name, value in ruleset.to_dict()["options"].items():
        label = t._(OPTION_LABELS[name]) if name in OPTION_LABELS else name
        if isinstance(value, bool):
            parts.append(t._("{option}: yes", option=label) if value
                         else t._("{option}: no", option=label))
        else:
            names = CHOICE_LABELS.get(name, {})
            shown = t._(names[value]) if value in names else str(value)
            parts.append(f"{label}: {shown}")
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


#: The text of every error code, in English (each is translated in every catalog).
#: ``{placeholders}`` are filled from the error's ``params`` (renamed by
#: :data:`_PARAM_NAMES`), and ``{detail}`` with the error's English message: the base
#: classes' codes say what kind of thing went wrong and keep the core's words for what.
ERROR_TEXTS: dict[str, str] = {
    ErrorCode.ERROR: N_("That cannot be done: {detail}"),
    ErrorCode.RULES: N_("Those rules cannot be used: {detail}"),
    ErrorCode.ILLEGAL_MOVE: N_("That move is not allowed: {detail}"),
    ErrorCode.RECORD: N_("The game record does not replay: {detail}"),
    ErrorCode.NOT_A_RULESET: N_("A ruleset is needed here, not {value}"),
    ErrorCode.NOT_A_SCORECARD: N_("A scorecard of these rules is needed here, not {value}"),
    ErrorCode.NOT_A_GAME: N_("A game of these rules is needed here, not {value}"),
    ErrorCode.UNKNOWN_RULESET: N_("Unknown rules {name}; choose from {valid}"),
    ErrorCode.UNKNOWN_OPTION: N_("Unknown option {option}; the options are {valid}"),
    ErrorCode.BAD_OPTION: N_("The option {option} cannot be {value}; choose from {valid}"),
    ErrorCode.UNKNOWN_BOX: N_("There is no box called {box}"),
    ErrorCode.INVALID_DICE: N_("Dice are numbers from 1 to 6"),
    ErrorCode.BAD_POSITION: N_("That is not a die on the table"),
    ErrorCode.BAD_HOLD: N_("Held dice are given by their positions, not {hold}"),
    ErrorCode.HOLD_ALL: N_("Reroll at least one die: you are holding all of them"),
    ErrorCode.UNKNOWN_ACTION: N_("Unknown action {action}: roll, reroll or score"),
    ErrorCode.BAD_PLAYERS: N_("The players must be a list of names"),
    ErrorCode.NO_PLAYERS: N_("Name at least one player"),
    ErrorCode.TOO_MANY_PLAYERS: N_("At most {n} players"),
    ErrorCode.BAD_NAME: N_("A player's name must be text, not {name}"),
    ErrorCode.NAME_EMPTY: N_("A player's name must not be empty"),
    ErrorCode.NAME_SPACES: N_("A player's name must not start or end with spaces: {name}"),
    ErrorCode.NAME_CONTROL: N_(
        "A player's name must be printable text, without control characters or line"
        " breaks: {name}"),
    ErrorCode.NAME_TOO_LONG: N_("A player's name has at most {most} characters"),
    ErrorCode.DUPLICATE_PLAYER: N_("Two players are called {name}: names must differ"),
    ErrorCode.UNKNOWN_PLAYER: N_("No player is called {player}"),
    ErrorCode.BAD_SEED: N_("The seed must be a whole number from 0 to {most}"),
    ErrorCode.BAD_SECRET_SEED: N_(
        "A seed is a whole number or a secret seed of 32 to 64 hex digits"),
    ErrorCode.BAD_FIRST_PLAYER: N_("The first player is chosen by seat or by a roll-off"),
    ErrorCode.BAD_ROLL_OFF: N_("Roll-off dice go with a roll-off: one roll per player"),
    ErrorCode.ROLL_OFF_INCOMPLETE: N_("The roll-off is tied: roll again"),
    ErrorCode.ROLL_OFF_OVERLONG: N_(
        "The roll-off was decided after {used} rolls, but {given} were given"),
    ErrorCode.GAME_OVER: N_("The game is over"),
    ErrorCode.NOT_YOUR_TURN: N_("It is {player}'s turn"),
    ErrorCode.DICE_NEEDED: N_("Type in the dice that were rolled"),
    ErrorCode.ALREADY_ROLLED: N_("You have rolled already: reroll some dice or choose a box"),
    ErrorCode.NO_ROLL: N_("Roll the dice first"),
    ErrorCode.NO_ROLLS_LEFT: N_("No rolls left this turn: choose a box"),
    ErrorCode.BOX_FILLED: N_("{box} is already filled"),
    ErrorCode.BOX_NOT_ALLOWED: N_("{box} cannot be filled now"),
    ErrorCode.NOTHING_TO_UNDO: N_("Only the last box chosen can be taken back"),
    ErrorCode.BAD_CARD_TEXT: N_("Scorecard entries look like box=points, not {text}"),
    ErrorCode.BOX_TWICE: N_("{box} is given twice"),
    ErrorCode.BAD_POINTS: N_("{box} cannot hold {points} points"),
    ErrorCode.BAD_BONUS_COUNT: N_(
        "The number of Yahtzee bonuses must be a whole number, not {count}"),
    ErrorCode.TOO_MANY_BONUSES: N_("This scorecard has room for at most {most} Yahtzee bonuses"),
    ErrorCode.RECORD_NOT_JSON: N_("The game record is not valid JSON"),
    ErrorCode.UNREACHABLE_CARD: N_("No game reaches this scorecard"),
    ErrorCode.BAD_ROLLS_LEFT: N_("Rolls left after a roll must be 0 to {most}"),
    ErrorCode.BAD_PERCENTILE: N_("A percentile is a number from 0 to 100, not {value}"),
    ErrorCode.BAD_SCORE: N_("A score is a whole number, not {value}"),
    ErrorCode.NO_OPPONENTS: N_("Win chances are for games of two players or more"),
    ErrorCode.SOLVER_MISSING: N_(
        "The solver is not installed (its compiled part was not built): install yatzy from"
        " a wheel, or install a C compiler and reinstall yatzy"),
    ErrorCode.APP: N_("The game service refused: {detail}"),
    ErrorCode.GAME_NOT_FOUND: N_("That game is no longer saved"),
    ErrorCode.AMBIGUOUS_GAME_ID: N_(
        "Several saved games have an id starting with {id}: {ids}. Give more of the id."),
    ErrorCode.GAME_CHANGED: N_("The game was changed elsewhere: here it is as it stands now"),
    ErrorCode.GAME_NOT_OVER: N_("The game is not over yet"),
    ErrorCode.UNKNOWN_BOT: N_("Unknown computer player {level}; choose from {levels}"),
    ErrorCode.BAD_SEATS: N_("The seats must be a list of players"),
    ErrorCode.BAD_DICE_MODE: N_(
        "The program rolls the dice (auto), or real dice are typed in (manual) and the game"
        " takes no seed"),
    ErrorCode.DICE_NOT_ALLOWED: N_("The program rolls the dice in this game"),
    ErrorCode.NOT_YOUR_MOVE: N_("Only {player} can take back their move"),
    ErrorCode.COMPUTER_MOVE: N_("A computer player's move cannot be taken back"),
    ErrorCode.ADVICE_BUSY: N_("The computer is busy working things out: ask again in a moment"),
    ErrorCode.SEATS_REFUSED: N_("These seats cannot be used here: {detail}"),
    ErrorCode.LEVEL_NOT_OFFERED: N_(
        "Computers of level {level} cannot be seated here; choose from {levels}"),
    ErrorCode.LEVEL_NOT_READY: N_(
        "The {level} computer is still being prepared: try again in a minute"),
    ErrorCode.TOO_MANY_COMPUTERS: N_("A game here can have at most {most} computers"),
    ErrorCode.PERSON_NEEDED: N_("A game here needs at least one person"),
    ErrorCode.TOO_MANY_GAMES: N_("Too many new games from here: wait {seconds} seconds"),
    ErrorCode.NOT_COMPUTER_TURN: N_("It is not a computer player's turn"),
    ErrorCode.BAD_PLAYER_KEY: N_("A player key is 22 to 64 letters, digits, '-' or '_'"),
    ErrorCode.BAD_QUERY: N_("The saved games cannot be looked up by {value}"),
    ErrorCode.STORAGE: N_("The game database failed: {reason}"),
    ErrorCode.MATCH_LEVELS: N_("A match needs two or more computer players, not {count}"),
    ErrorCode.MATCH_GAMES: N_(
        "A match of {levels} computer players is played in deals of {levels} games: the"
        " number of games must be a multiple of {levels} from {levels} to {most}, not"
        " {games}"),
    ErrorCode.FLAG_NOT_FOR_RULES: N_("{flag} is not an option of {rules}"),
    ErrorCode.COMMAND: N_("The command cannot do that: {detail}"),
}

#: Placeholders of :data:`ERROR_TEXTS` whose value is a ``params`` entry of another name.
_PARAM_NAMES: dict[str, dict[str, str]] = {
    ErrorCode.TOO_MANY_PLAYERS: {"n": "most"},
    ErrorCode.UNKNOWN_BOT: {"level": "bot", "levels": "known"},
    ErrorCode.AMBIGUOUS_GAME_ID: {"id": "game_id", "ids": "matches"},
}


def game_changed(t: Translator, expected: object, actual: object, what: object) -> str:
    """What differs between a copy of a game and the game as stored: the number of
    actions or, when that is the same (an undo and a new action elsewhere), the version
    (each action or undo is one more).

    >>> from yatzy.i18n import translator
    >>> "(version 13, this copy version 12)" in game_changed(translator("en"), 12, 13, "version")
    True
    """
    if what == "version":
        return t._("The game was changed elsewhere (version {actual}, this copy version"
                   " {expected}): here it is as it stands now", actual=actual,
                   expected=expected)
    count = actual if isinstance(actual, int) else 0
    return t.ngettext(
        "The game was changed elsewhere ({actual} action played, {expected} in this copy):"
        " here it is as it stands now",
        "The game was changed elsewhere ({actual} actions played, {expected} in this copy):"
        " here it is as it stands now", count, actual=actual, expected=expected)


def error_text(t: Translator, error: YatzyError, game: Game | None = None) -> str:
    """An error in ``t``'s language, chosen by its ``code`` (see :data:`ERROR_TEXTS`);
    an error whose code has no text, or lacks a value its text needs, keeps its English
    message."""
    code, params = error.code, error.params
    box = params.get("box")
    if code in (ErrorCode.BOX_FILLED, ErrorCode.BOX_NOT_ALLOWED) and game is not None and box:
        return refusal(t, game, str(box))
    if isinstance(box, str) and box in BOX_LABELS:
        params = {**params, "box": box_label(t, box)}
    if code == ErrorCode.INVALID_DICE and "count" in params:
        return t._("Dice must be {n} values from 1 to 6", n=params["count"])
    if code == ErrorCode.FLAG_NOT_FOR_RULES:
        params = {**params, "rules": t._(RULESET_NAMES.get(str(params.get("rules")), "?"))}
    if code == ErrorCode.STORAGE:
        if "folder" in params:
            return t._("Cannot open the game database {db}: there is no folder {folder}",
                       db=params.get("db", "?"), folder=params["folder"])
        if "db" in params:
            return t._("Cannot open the game database {db}: {reason}", db=params["db"],
                       reason=params.get("reason", "?"))
        if "revision" in params:
            return t._("The game database was made by a newer version of yatzy")
        params = {"reason": error.message.removeprefix("The game database failed: ")}
    if code == ErrorCode.GAME_CHANGED and {"expected", "actual"} <= params.keys():
        return game_changed(t, params["expected"], params["actual"], params.get("what"))
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
