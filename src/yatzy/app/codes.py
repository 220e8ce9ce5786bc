"""The error codes of this layer and their texts (registered with the core's
registry, which every front end translates from)."""

from __future__ import annotations

from enum import StrEnum

from yatzy.core.errors import N_, YatzyError, register_error_texts
from yatzy.i18n import Translator
from yatzy.i18n.words import register_error_formatter


class AppCode(StrEnum):
    """The error codes of :mod:`yatzy.app`."""

    NO_OPPONENTS = "no_opponents"
    APP = "app"
    GAME_NOT_FOUND = "game_not_found"
    AMBIGUOUS_GAME_ID = "ambiguous_game_id"
    GAME_CHANGED = "game_changed"
    GAME_NOT_OVER = "game_not_over"
    BAD_SEATS = "bad_seats"
    BAD_DICE_MODE = "bad_dice_mode"
    DICE_NOT_ALLOWED = "dice_not_allowed"
    COMPUTER_MOVE = "computer_move"
    ADVICE_BUSY = "advice_busy"
    SEATS_REFUSED = "seats_refused"
    LEVEL_NOT_OFFERED = "level_not_offered"
    LEVEL_NOT_READY = "level_not_ready"
    TOO_MANY_COMPUTERS = "too_many_computers"
    PERSON_NEEDED = "person_needed"
    TOO_MANY_GAMES = "too_many_games"
    NOT_COMPUTER_TURN = "not_computer_turn"
    BAD_PLAYER_KEY = "bad_player_key"
    BAD_QUERY = "bad_query"
    STORAGE = "storage"
    MATCH_LEVELS = "match_levels"
    MATCH_GAMES = "match_games"
    NAME_TAKEN = "name_taken"
    PLAYER_NOT_FOUND = "player_not_found"
    DAILY_PLAYED = "daily_played"
    BAD_DAY = "bad_day"
    DAY_NOT_OPEN = "day_not_open"
    DISPLAY_NAME_NEEDED = "display_name_needed"
    ALREADY_WAITING = "already_waiting"
    TICKET_NOT_FOUND = "ticket_not_found"
    TICKET_CLOSED = "ticket_closed"
    TABLE_WAITING = "table_waiting"
    TABLE_FULL = "table_full"
    TABLE_EXPIRED = "table_expired"
    NOT_PUBLIC = "not_public"
    NAME_AT_TABLE = "name_at_table"
    NAME_NEEDED = "name_needed"
    OPEN_SEAT = "open_seat"
    OPEN_SEATS_PRIVATE = "open_seats_private"
    PUBLIC_DICE = "public_dice"
    BAD_LINK_CODE = "bad_link_code"
    LINK_CODE_UNKNOWN = "link_code_unknown"
    LINK_CODE_USED = "link_code_used"
    LINK_CODE_EXPIRED = "link_code_expired"
    TOO_MANY_LINK_ATTEMPTS = "too_many_link_attempts"
    PASSKEY_NAME_NEEDED = "passkey_name_needed"
    BAD_PASSKEY = "bad_passkey"
    PASSKEY_CHALLENGE = "passkey_challenge"
    PASSKEY_UNKNOWN = "passkey_unknown"
    PASSKEY_REFUSED = "passkey_refused"


register_error_texts(AppCode, {
    AppCode.NO_OPPONENTS: N_("Win chances are for games of two players or more"),
    AppCode.APP: N_("The game service refused: {detail}"),
    AppCode.GAME_NOT_FOUND: N_("That game is no longer saved"),
    AppCode.AMBIGUOUS_GAME_ID: N_(
            "Several saved games have an id starting with {id}: {ids}. Give more of the id."),
    AppCode.GAME_CHANGED: N_("The game was changed elsewhere: here it is as it stands now"),
    AppCode.GAME_NOT_OVER: N_("The game is not over yet"),
    AppCode.BAD_SEATS: N_("The seats must be a list of players"),
    AppCode.BAD_DICE_MODE: N_(
            "The program rolls the dice (auto), or real dice are typed in (manual) and the game"
            " takes no seed"),
    AppCode.DICE_NOT_ALLOWED: N_("The program rolls the dice in this game"),
    AppCode.COMPUTER_MOVE: N_("A computer player's move cannot be taken back"),
    AppCode.ADVICE_BUSY: N_("The computer is busy working things out: ask again in a moment"),
    AppCode.SEATS_REFUSED: N_("These seats cannot be used here: {detail}"),
    AppCode.LEVEL_NOT_OFFERED: N_(
            "Computers of level {level} cannot be seated here; choose from {levels}"),
    AppCode.LEVEL_NOT_READY: N_(
            "The {level} computer is still being prepared: try again in a minute"),
    AppCode.TOO_MANY_COMPUTERS: N_("A game here can have at most {most} computers"),
    AppCode.PERSON_NEEDED: N_("A game here needs at least one person"),
    AppCode.TOO_MANY_GAMES: N_("Too many new games from here: wait {seconds} seconds"),
    AppCode.NOT_COMPUTER_TURN: N_("It is not a computer player's turn"),
    AppCode.BAD_PLAYER_KEY: N_("A player key is 22 to 64 letters, digits, '-' or '_'"),
    AppCode.BAD_QUERY: N_("The saved games cannot be looked up by {value}"),
    AppCode.STORAGE: (_STORAGE_TEXT := N_("The game database failed: {reason}")),
    AppCode.MATCH_LEVELS: N_("A match needs two or more computer players, not {count}"),
    AppCode.MATCH_GAMES: N_(
            "A match of {levels} computer players is played in deals of {levels} games: the"
            " number of games must be a multiple of {levels} from {levels} to {most}, not"
            " {games}"),
    AppCode.NAME_TAKEN: N_("The name {name} is taken: choose another"),
    AppCode.PLAYER_NOT_FOUND: N_("No player is called {name}"),
    AppCode.DAILY_PLAYED: N_(
            "You have played today's challenge already: one ranked attempt a day"),
    AppCode.BAD_DAY: N_("A day is written YYYY-MM-DD, not {value}"),
    AppCode.DAY_NOT_OPEN: N_("The challenge of {day} is not open yet"),
    AppCode.DISPLAY_NAME_NEEDED: N_("Choose a display name before you play a rated game"),
    AppCode.ALREADY_WAITING: N_(
            "You are already waiting for an opponent: cancel that first"),
    AppCode.TICKET_NOT_FOUND: N_("There is no such quick match"),
    AppCode.TICKET_CLOSED: N_("This quick match no longer waits"),
    AppCode.TABLE_WAITING: N_(
            "The table waits for players: nobody plays until every seat is taken"),
    AppCode.TABLE_FULL: N_("Every seat at this table is taken"),
    AppCode.TABLE_EXPIRED: N_(
            "Nobody joined this table for {minutes} minutes: it is closed"),
    AppCode.NOT_PUBLIC: N_("There is no public table with this id"),
    AppCode.NAME_AT_TABLE: N_("A player called {name} sits at this table already"),
    AppCode.NAME_NEEDED: N_("Give a name to join the table"),
    AppCode.OPEN_SEAT: N_("An open seat has no name and no computer"),
    AppCode.OPEN_SEATS_PRIVATE: N_("Only a public table has open seats"),
    AppCode.PUBLIC_DICE: N_("A public table plays with the program's dice"),
    AppCode.BAD_LINK_CODE: N_(
            "A link code is {length} letters and digits, as the other device shows it"),
    AppCode.LINK_CODE_UNKNOWN: N_("There is no such link code: check it on the other device"),
    AppCode.LINK_CODE_USED: N_("This link code was used already: ask the other device for a"
                               " new one"),
    AppCode.LINK_CODE_EXPIRED: N_("This link code has expired: ask the other device for a"
                                  " new one"),
    AppCode.TOO_MANY_LINK_ATTEMPTS: N_(
            "Too many wrong link codes from here: wait {seconds} seconds"),
    AppCode.PASSKEY_NAME_NEEDED: N_("Choose a display name before you add a passkey"),
    AppCode.BAD_PASSKEY: N_("The browser's passkey answer could not be read"),
    AppCode.PASSKEY_CHALLENGE: N_("This passkey request has expired or was used: try again"),
    AppCode.PASSKEY_UNKNOWN: N_("This passkey is not known here"),
    AppCode.PASSKEY_REFUSED: N_("The passkey was not accepted"),
}, {
    AppCode.AMBIGUOUS_GAME_ID: {"id": "game_id", "ids": "matches"},
})


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


def _storage(t: Translator, error: YatzyError) -> str:
    params = error.params
    if "folder" in params:
        return t._("Cannot open the game database {db}: there is no folder {folder}",
                   db=params.get("db", "?"), folder=params["folder"])
    if "db" in params:
        return t._("Cannot open the game database {db}: {reason}", db=params["db"],
                   reason=params.get("reason", "?"))
    if "revision" in params:
        return t._("The game database was made by a newer version of yatzy")
    return t._(_STORAGE_TEXT,
               reason=error.message.removeprefix("The game database failed: "))


def _game_changed(t: Translator, error: YatzyError) -> str | None:
    params = error.params
    if {"expected", "actual"} <= params.keys():
        return game_changed(t, params["expected"], params["actual"], params.get("what"))
    return None


def _ticket_closed(t: Translator, error: YatzyError) -> str | None:
    status = error.params.get("status")
    if status == "cancelled":
        return t._("This quick match was cancelled")
    if status == "matched":
        return t._("This quick match has found an opponent already: its game stands")
    if status == "expired":
        return t._("This quick match was given up: nobody asked about it for a while")
    return None


register_error_formatter(AppCode.STORAGE, _storage)
register_error_formatter(AppCode.TICKET_CLOSED, _ticket_closed)
register_error_formatter(AppCode.GAME_CHANGED, _game_changed)
