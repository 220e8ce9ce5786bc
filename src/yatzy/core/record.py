"""Game records: a versioned JSON form of a whole game, and its validating replay.

A record holds the ruleset with its options, the players in seat order, the seed, how
the first player was chosen (with the roll-off's dice), and every action with the dice
it used. Replaying applies each action with those dice, so a record replays exactly
whether its dice came from the seed or were typed in.

>>> from yatzy.core.rulesets import ruleset
>>> from yatzy.core.game import Game
>>> g = Game.start(ruleset("yatzy"), ["Ann"], seed=1).roll().score("chance")
>>> record = to_record(g)
>>> record["format"], record["version"], record["actions"][1]
('yatzy-game', 1, {'type': 'score', 'box': 'chance', 'player': 'Ann', 'points': ...})
>>> from_record(record) == g
True
"""

from __future__ import annotations

import json
from typing import Any

from yatzy.core.actions import Score, action_from_dict
from yatzy.core.errors import RecordError, YatzyError
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset

FORMAT = "yatzy-game"
VERSION = 1


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` (JSON-serialisable, plain dicts and lists)."""
    actions = []
    for step in game.history:
        entry = step.action.to_dict()
        entry["player"] = step.player
        if isinstance(step.action, Score):
            entry["points"] = step.points
            if step.bonus:
                entry["bonus"] = True
        actions.append(entry)
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": game.ruleset.to_dict(),
        "players": list(game.players),
        "seed": game.seed,
        "first_player": game.first_player,
        "roll_off": [{"player": r.player, "dice": list(r.dice)} for r in game.roll_offs],
        "actions": actions,
    }
    if game.is_over:
        record["totals"] = {p: game.scorecard(p).total for p in game.players}
    return record


def _header(record: Any) -> Game:
    if not isinstance(record, dict):
        raise RecordError(f"A game record must be a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"Not a yatzy game record: format is {record.get('format')!r}")
    if record.get("version") != VERSION:
        raise RecordError(
            f"Unsupported record version {record.get('version')!r}; this program reads {VERSION}"
        )
    for key in ("ruleset", "players", "actions"):
        if key not in record:
            raise RecordError(f"The record has no {key!r}")
    if not isinstance(record["actions"], list):
        raise RecordError("The record's actions must be a list")
    roll_off = record.get("roll_off", [])
    if not isinstance(roll_off, list) or not all(
        isinstance(r, dict) and isinstance(r.get("dice"), list) for r in roll_off
    ):
        raise RecordError("The record's roll_off must be a list of {player, dice}")
    if not isinstance(record["players"], list):
        raise RecordError("The record's players must be a list of names")
    try:
        rules = Ruleset.from_dict(record["ruleset"])
        game = Game.start(
            rules,
            record["players"],
            seed=record.get("seed"),
            first_player=record.get("first_player", "seat"),
            roll_off_dice=[r["dice"] for r in roll_off] or None,
        )
    except YatzyError as exc:
        raise RecordError(f"Bad record header: {exc}") from exc
    for given, made in zip(roll_off, game.roll_offs, strict=True):
        if given.get("player", made.player) != made.player:
            raise RecordError(
                f"The roll-off is out of order: {given.get('player')!r} rolled where"
                f" {made.player} should have"
            )
    return game


def from_record(record: Any) -> Game:
    """Replay ``record``, validating every step; raises :class:`RecordError` naming the
    bad step."""
    game = _header(record)
    for i, entry in enumerate(record["actions"]):
        where = f"Step {i + 1}"
        try:
            action = action_from_dict(entry)
            player = entry.get("player")
            if player is not None and not isinstance(player, str):
                raise RecordError(f"{where}: player must be a name, not {player!r}", step=i)
            if not isinstance(action, Score) and action.dice is None:
                raise RecordError(f"{where}: the record must give the dice of each roll",
                                  step=i)
            game = game.apply(action, player=player)
        except RecordError:
            raise
        except YatzyError as exc:
            raise RecordError(f"{where} ({_describe(entry)}): {exc}", step=i) from exc
        last = game.history[-1]
        if "points" in entry and entry["points"] != last.points:
            raise RecordError(
                f"{where} ({_describe(entry)}): the record says {entry['points']!r} points,"
                f" the rules give {last.points}",
                step=i,
            )
        if isinstance(action, Score) and bool(entry.get("bonus", False)) != last.bonus:
            earned = "earns" if last.bonus else "does not earn"
            raise RecordError(
                f"{where} ({_describe(entry)}): the record's Yahtzee bonus does not match;"
                f" this score {earned} one",
                step=i,
            )
    totals = record.get("totals")
    if totals is not None:
        actual = {p: game.scorecard(p).total for p in game.players}
        if totals != actual:
            raise RecordError(f"The record's totals {totals} differ from the replay's {actual}")
    return game


def _describe(entry: Any) -> str:
    if isinstance(entry, dict):
        return " ".join(
            str(entry[k]) for k in ("player", "type", "box", "hold", "dice") if k in entry
        )
    return repr(entry)


def to_json(game: Game, **kwargs: Any) -> str:
    """The record as JSON text (``kwargs`` go to :func:`json.dumps`)."""
    return json.dumps(to_record(game), **kwargs)


def from_json(text: str | bytes) -> Game:
    """Replay a record given as JSON text; malformed JSON raises :class:`RecordError`."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # ValueError: bad JSON, bytes that are no text, a number of 5,000 digits;
        # RecursionError: arrays or objects nested thousands deep ("[[[[...").
        raise RecordError(f"The record is not valid JSON: {exc}") from None
    return from_record(data)
