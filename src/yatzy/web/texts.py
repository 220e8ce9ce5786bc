"""The texts a page's script shows, in the page's language, from the catalogs the
terminal game uses (most of them are the terminal game's own words)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from yatzy.app.saved import Seat
from yatzy.bots import level_label
from yatzy.i18n import N_, Translator
from yatzy.i18n.words import answer_keys

#: Key -> English text (a catalog msgid). Placeholders in braces are filled in by the
#: page's script.
TEXTS: dict[str, str] = {
    # Shared with the terminal game.
    "roll": N_("Roll (r)"),
    "reroll": N_("Reroll (r)"),
    "turn": N_("{player}'s turn"),
    "computer_plays": N_("{player} (computer) plays"),
    # A computer whose name says so already ("Computer (hard)").
    "plays": N_("{player} plays"),
    "round": N_("Round {round} of {rounds}"),
    "game_over": N_("The game is over"),
    "wins": N_("{player} wins!"),
    "share": N_("{players} share the win!"),
    "held": N_("held"),
    "put": N_("{player} put {points} in {box}."),
    "yahtzee_bonus_plus": N_("Yahtzee bonus +{points}!"),
    "upper_sum": N_("Upper sum"),
    "bonus": N_("Bonus"),
    "yahtzee_bonus": N_("Yahtzee bonus"),
    "total": N_("Total"),
    "put_zero": N_("Put 0 in {box}?"),
    "analysis": N_("Analysis"),
    "analysing": N_("Analysing the game…"),
    "thinking": N_("Thinking…"),
    "loss_line": N_("{player}: {loss} points lost · decisions {n} · mistakes {mistakes}"),
    "worst_line": N_("Round {round}, roll {roll} ({dice}): {chosen}; best: {best} · −{loss}"),
    "all_optimal": N_("Every decision was optimal."),
    "best_moves": N_("Best moves (expected final score):"),
    "type_roll": N_("{player}: type the {n} dice you rolled"),
    "dice": N_("Dice"),
    "new_game": N_("New game"),
    "roll_off": N_("Roll-off: the highest sum starts."),
    "starts": N_("{player} starts."),
    # The web app's own.
    "hint": N_("Hint (h)"),
    "win_chances": N_("Win chances (w)"),
    "working_chances": N_("Win chances: working them out…"),
    "invite": N_("Invite the players"),
    "invite_help": N_("Send each player their own link: it lets them play their seat."),
    "watch_link": N_("Watch (read only)"),
    "copy": N_("Copy"),
    "copied": N_("Copied"),
    "connected": N_("online"),
    "offline": N_("offline"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "watching": N_("You are watching this game."),
    "your_seat": N_("You play {player}."),
    "enter_dice": N_("Dice thrown"),
    "send_dice": N_("Enter dice"),
    "seed_check": N_("Dice seed, committed at the start: {hash}"),
    "key_help": N_("1-{dice} hold · Space or R roll · H hint"),
    "points_now": N_("Points if chosen now"),
    "computer_dice": N_("Type the dice {player} (computer) rolls."),
    "dice_of": N_("Type the dice {player} rolls."),
    "start_game": N_("Start a game"),
    "add_person": N_("Add a person"),
    "add_computer": N_("Add a computer"),
    "remove": N_("Remove"),
    "name": N_("Name"),
    "level": N_("Level"),
    "hints_on": N_("Hints: show the best move on request"),
    "start": N_("Start"),
    "rules": N_("Rules"),
    "play_order": N_("Play order"),
    "joker": N_("Joker"),
    "players": N_("Players"),
    "first_player": N_("First player"),
    "language": N_("Language"),
    "program_dice": N_("rolled by the program"),
    "real_dice": N_("real dice, typed in (scorepad)"),
    "by_seat": N_("the first in the list"),
    "by_roll": N_("roll-off (highest sum starts)"),
    "upper_first": N_("upper section first"),
    "api_docs": N_("API"),
    "history": N_("History"),
    "my_games": N_("My games"),
    "my_bests": N_("My best scores"),
    "leaderboards": N_("Leaderboards"),
    "no_games": N_("No games yet."),
    "step_of": N_("Step {step} of {steps}"),
    "previous": N_("Previous"),
    "next": N_("Next"),
    "replay": N_("Replay"),
    "best": N_("Best"),
    "games": N_("Games"),
    "rules_title": N_("Ruleset"),
    "nothing_here": N_("There is nothing here"),
    "unreachable": N_("The server cannot be reached: try again"),
    "copy_by_hand": N_("Copy it by hand"),
    "play_as": N_("Play as {player}"),
    "no_seat": N_("Name at least one player"),
    "undo": N_("Undo (u)"),
    "scorecard_of": N_("{player}'s scorecard"),
    "rolled": N_("{player} rolled {dice}."),
    "keeps": N_("{player} keeps {dice}."),
    "undone": N_("{player} took back the box just chosen."),
    "undone_dice": N_("{player} took back the dice just typed in."),
    "your_turn": N_("Your turn"),
    "remove_seat": N_("Remove player {n}"),
    "play_again": N_("Play again with the same players"),
    "download_record": N_("Download the game record"),
    "place": N_("Place"),
    "player": N_("Player"),
    "notify": N_("Tell me when it is my turn"),
    "sound": N_("Play a sound when it is my turn"),
    "pass_and_play": N_("Pass and play: everyone plays on this device"),
    "hand_over": N_("{player}'s turn: hand the device over"),
    "take_over": N_("I am {player}: play"),
    "offline_title": N_("The server cannot be reached"),
    "offline_help": N_("This device is offline, or the game's server is not running. Your "
                       "games are kept on the server: nothing is lost."),
    "try_again": N_("Try again"),
    "app_description": N_("Yatzy and Yahtzee: alone, against the computer, or with friends."),
    "seed_line": N_("These dice can be checked after the game: how"),
    "seed_how": N_("At the start the server chose a secret seed that gives every die, and "
                   "showed only its SHA-256 hash. Once the game is over, the game record "
                   "reveals the seed: anyone can check that it has this hash and gave these "
                   "dice (yatzy.audit_record)."),
    # The daily challenge.
    "daily": N_("Daily challenge"),
    "daily_help": N_("Every day the same dice for everyone: one ranked attempt a day."),
    "daily_play": N_("Play today's challenge"),
    "daily_continue": N_("Continue your game"),
    "daily_players": N_("Players today: {n}"),
    "daily_par": N_("Par (optimal play on these dice): {par}"),
    "daily_score": N_("Your score: {total}"),
    "daily_lost": N_("{points} points lost against optimal play"),
    "daily_rank": N_("#{rank} of {players} by score"),
    "daily_accuracy": N_("#{rank} by accuracy"),
    "daily_streak": N_("Days in a row: {n}"),
    "daily_share": N_("Copy the text to share"),
    "daily_replay": N_("Watch your game again"),
    # Quick match.
    "quick_match": N_("Quick match"),
    "quick_match_help": N_(
        "A rated game against the next person who wants to play the same rules."),
    "quick_match_play": N_("Play a rated game"),
    "quick_match_waiting": N_("Waiting for an opponent…"),
    "quick_match_cancel": N_("Cancel"),
    "quick_match_offer": N_(
        "Nobody is free yet. Play the computer ({level}) instead? That game is not rated."),
    "quick_match_computer": N_("Play the computer"),
    "quick_match_found": N_("Opponent found: to the game!"),
    "quick_match_rating": N_("Your rating: {rating} ± {deviation} ({games} rated games)"),
    "quick_match_provisional": N_("provisional"),
    "points_lost": N_("Points lost"),
    "your_name": N_("Your name on the leaderboards"),
    "save": N_("Save"),
    "saved": N_("Saved"),
    "anonymous": N_("(no name)"),
    # The lobby.
    "lobby": N_("Lobby"),
    "lobby_help": N_("Public tables: take a free seat, or watch a game in play."),
    "waiting_tables": N_("Tables waiting for players"),
    "live_games": N_("Games in play"),
    "no_tables": N_("No table is waiting: open one."),
    "no_live": N_("No public game is in play."),
    "join": N_("Join"),
    "watch": N_("Watch"),
    "rated_game": N_("Rated: the result counts for the players' ratings"),
    "open_table": N_("Open a public table"),
    "open_table_help": N_("Anyone can take its free seats from the lobby; the game begins "
                          "when every seat is taken."),
    "seats_count": N_("Seats"),
    "seats_free": N_("{taken} of {seats} seats taken"),
    "open_seat": N_("Open seat"),
    "expires": N_("Closes at {time} unless someone joins"),
    "join_as": N_("Your name at the table"),
    "table_waiting": N_("Waiting for players: the game begins when every seat is taken."),
    "share_lobby": N_("Your table is in the lobby: anyone can join it there."),
    # A rated game's clock.
    "clock_mine": N_("Your move: {seconds} s left"),
    "clock_other": N_("{player} has {seconds} s left to move"),
    "clock_out": N_("{player} let the clock run out: the computer plays on for them, and "
                    "the rated game counts as lost for {player}."),
    "clock_out_mine": N_("Your clock ran out: the computer plays on for you, and the rated "
                         "game counts as lost for you ({player})."),
}


def page_texts(t: Translator) -> dict[str, str]:
    """Every text of :data:`TEXTS` in ``t``'s language."""
    texts = {key: t._(message) for key, message in TEXTS.items()}
    yes, no = answer_keys(t)
    texts.update(yes_key=yes, no_key=no, yes=t._("Yes ({key})", key=yes),
                 no=t._("No ({key})", key=no))
    texts["rolls_left_one"] = t.ngettext("{n} roll left", "{n} rolls left", 1)
    texts["rolls_left_many"] = t.ngettext("{n} roll left", "{n} rolls left", 2)
    return texts


def level_name(t: Translator, level: str) -> str:
    """A computer's level as people read it, in ``t``'s language.

    >>> from yatzy.i18n import translator
    >>> level_name(translator("sv"), "hard"), level_name(translator("en"), "greedy")
    ('Svår', 'Greedy')
    """
    return t._(level_label(level))


def seat_label(t: Translator, name: str, level: str | None) -> str:
    """How a page shows the player called ``name`` (``level``: a computer's, ``None``
    for a person), in ``t``'s language. A computer named after its level when the game
    was set up (``CPU hard`` on the web, ``Hard`` in the terminal, with a number when
    several share a level) is shown by its level in the page's language; every other
    name as it was given. Only the showing changes: the stored name, which identifies
    the seat in the record and the API, stays as it is.

    >>> from yatzy.i18n import translator
    >>> sv = translator("sv")
    >>> seat_label(sv, "CPU hard", "hard"), seat_label(sv, "Greedy 2", "greedy")
    ('Dator (svår)', 'Dator (girig) 2')
    >>> seat_label(sv, "Robo", "hard"), seat_label(sv, "CPU hard", None)
    ('Robo', 'CPU hard')
    """
    if level is None:
        return name
    default = re.fullmatch(
        rf"(?:CPU {re.escape(level)}|{re.escape(level.capitalize())})(?: ([0-9]+))?", name)
    if default is None:
        return name
    shown = t._("Computer ({level})", level=level_name(t, level).lower())
    return shown if default[1] is None else f"{shown} {default[1]}"


def seat_labels(t: Translator, seats: Iterable[Seat]) -> dict[str, str]:
    """:func:`seat_label` of every seat, by its stored name (an open seat of a public
    table, whose name is a stand-in, as an open seat)."""
    return {seat.name: t._("Open seat") if seat.open else seat_label(t, seat.name, seat.bot)
            for seat in seats}
