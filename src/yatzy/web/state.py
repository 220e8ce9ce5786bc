"""The state of a game as the web app shows it: one JSON-ready dict, the same for the
HTTP API and the websocket, with no secret in it (no token, no unrevealed seed).

>>> import yatzy
>>> from yatzy.app import SavedGame, Seat
>>> from datetime import datetime, timezone
>>> when = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=1).roll([6, 6, 6, 6, 6])
>>> s = game_state(SavedGame("g1", game, (Seat("Ann"),), "auto", when, when))
>>> s["current_player"], s["dice"], s["rolls_left"], s["choices"]["yatzy"]
('Ann', [6, 6, 6, 6, 6], 2, 50)
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta
from typing import Any

from yatzy.app.saved import SavedGame
from yatzy.app.service import undo_by
from yatzy.core.actions import Action
from yatzy.core.game import Game
from yatzy.core.scorecard import Scorecard
from yatzy.core.seeded import seed_hash
from yatzy.solver import offers_chances, table_ready

#: The hash of a game's secret seed, worked out once per game rather than for each of
#: its states (a SHA-256 of every state rendered shows in a server's profile).
_seed_hash = functools.lru_cache(maxsize=4096)(seed_hash)


def card_state(card: Scorecard) -> dict[str, int | None]:
    """A scorecard: every box (points, or ``None`` while open) and its sums."""
    # The entries are in the order of the ruleset's boxes: no look-up per box.
    state: dict[str, int | None] = dict(zip(card.ruleset.boxes, card.entries, strict=True))
    state.update(upper_sum=card.upper_sum, upper_bonus=card.upper_bonus,
                 yahtzee_bonus=card.yahtzee_bonus, total=card.total)
    return state


def last_step(game: Game) -> dict[str, Any] | None:
    """The last action played, as its dict with the player and the points it scored
    and the extra-Yahtzee bonus it earned (``None`` for a roll)."""
    if not game.history:
        return None
    step = game.history[-1]
    last: dict[str, Any] = step.action.to_dict() | {
        "player": step.player, "points": None, "bonus": None, "bonus_points": None}
    if step.points is not None:
        last["points"] = step.points
        last["bonus"] = step.bonus
        last["bonus_points"] = game.ruleset.extra_yahtzee_points if step.bonus else 0
    return last


def rematch(saved: SavedGame) -> dict[str, Any]:
    """The body of ``POST /api/games`` that sets up this game again: the same rules and
    options, the same seats (people by name, computers by level), dice, first player
    (a roll-off if this game had one) and hints."""
    return {
        "rules": saved.game.ruleset.name,
        "options": saved.game.ruleset.to_dict()["options"],
        "seats": [{"name": None, "bot": s.bot, "open": False} if s.bot
                  else {"name": s.name, "bot": None, "open": False}
                  for s in saved.seats],
        "dice": "server" if saved.dice_mode == "auto" else "manual",
        "first_player": "roll" if saved.game.roll_offs else "seat",
        "hints": saved.hints,
        "public": False,
    }


def game_state(
    saved: SavedGame,
    *,
    pending: Action | None = None,
    waiting_for_dice: bool = False,
    connected: frozenset[str] = frozenset(),
    hints: bool = False,
    phase: str | None = None,
    held: tuple[int, ...] = (),
    deadline: datetime | None = None,
    move_clock: timedelta | None = None,
) -> dict[str, Any]:
    """The state of ``saved`` (the shape of :class:`~yatzy.web.schemas.GameState`);
    ``pending`` is a computer's chosen step not played yet (``waiting_for_dice`` when
    its real dice must be typed in), ``connected`` the names of the seats with an open
    connection, ``phase`` what the game's session says it waits for (by default a
    person, or nothing once over) and ``held`` the dice kept; ``deadline`` when the
    person to move must have decided in a rated game (``move_clock`` for each
    decision)."""
    game = saved.game
    rules = game.ruleset
    over = game.is_over
    dice = game.dice
    seed = game.seed
    return {
        "id": saved.id,
        "version": saved.version,
        "steps": saved.steps,
        "rules": rules.to_dict(),
        "boxes": list(rules.boxes),
        "upper_boxes": list(rules.upper_boxes),
        "dice_count": rules.dice_count,
        "players": list(game.players),
        "seats": [{"name": s.name, "bot": s.bot, "connected": s.bot is not None
                   or s.name in connected, "open": s.open, "idle": s.idle}
                  for s in saved.seats],
        "dice_mode": "server" if saved.dice_mode == "auto" else "manual",
        "hints": hints,
        "seed_hash": _seed_hash(seed) if isinstance(seed, str) else None,
        "current_player": None if over else game.current_player,
        "phase": phase or ("over" if over else "person"),
        "dice": None if dice is None else list(dice),
        "held": list(held),
        "can_roll": game.can_roll and not saved.waiting,
        "undo_by": undo_by(saved),
        "rolls_left": game.rolls_left,
        "saved_rolls": {player: game.saved_rolls(player) for player in game.players},
        "advice": table_ready(rules),
        "chances": offers_chances(rules) and table_ready(rules),
        "round": game.round,
        "rounds": len(rules.boxes),
        "is_over": over,
        "choices": game.choices(),
        "joker": not over and game.joker,
        "bonus_pending": not over and game.bonus_pending,
        "upper_par_delta": None if over else game.card.upper_par_delta,
        "upper_bonus_threshold": rules.upper_bonus_threshold,
        "upper_bonus_points": rules.upper_bonus_points,
        "extra_yahtzee_points": rules.extra_yahtzee_points,
        "scorecards": {p: card_state(card) for p, card in zip(game.players, game.cards,
                                                               strict=True)},
        "winners": game.winners() if over else [],
        "ranking": [{"place": place, "player": name, "total": total}
                    for place, name, total in game.ranking()],
        "rematch": rematch(saved),
        "last": last_step(game),
        "pending": None if pending is None else pending.to_dict(),
        "waiting_for_dice": waiting_for_dice,
        "roll_off": [{"player": r.player, "dice": list(r.dice), "total": sum(r.dice)}
                     for r in game.roll_offs],
        "deadline": None if deadline is None
        else deadline.astimezone(UTC).isoformat(timespec="milliseconds"),
        "move_clock": None if move_clock is None or not saved.rated
        else move_clock.total_seconds(),
    }
