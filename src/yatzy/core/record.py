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
from yatzy.core.errors import ErrorCode, RecordError, YatzyError, shown
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
        raise RecordError(f"Not a yatzy game record: format is {shown(record.get('format'))}")
    _check_whole(record.get("version"), "The record's version")
    if record.get("version") != VERSION:
        raise RecordError(
            f"Unsupported record version {shown(record.get('version'))}; this program reads"
            f" {VERSION}"
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
    if len(roll_off) != len(game.roll_offs):
        raise RecordError(
            f"The record's roll-off has {len(roll_off)} rolls, but deciding who starts took"
            f" {len(game.roll_offs)}"
        )
    for given, made in zip(roll_off, game.roll_offs, strict=True):
        if given.get("player", made.player) != made.player:
            raise RecordError(
                f"The roll-off is out of order: {shown(given.get('player'))} rolled where"
                f" {made.player} should have"
            )
    return game


def _check_whole(value: object, what: str, step: int | None = None) -> None:
    """Refuse ``value`` unless it is a whole number: JSON's ``1.0`` and ``true`` equal
    1 in Python, but a record that says them is not one this program wrote."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{what} must be a whole number, not {shown(value)}", step=step)


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
                raise RecordError(f"{where}: player must be a name, not {shown(player)}",
                                  step=i)
            if not isinstance(action, Score) and action.dice is None:
                raise RecordError(f"{where}: the record must give the dice of each roll",
                                  step=i)
            game = game.apply(action, player=player)
        except RecordError:
            raise
        except YatzyError as exc:
            raise RecordError(f"{where} ({_describe(entry)}): {exc}", step=i) from exc
        last = game.history[-1]
        if "points" in entry:
            _check_whole(entry["points"], f"{where} ({_describe(entry)}): points", step=i)
        if "points" in entry and entry["points"] != last.points:
            raise RecordError(
                f"{where} ({_describe(entry)}): the record says {shown(entry['points'])}"
                f" points, the rules give {last.points}",
                step=i,
            )
        if not isinstance(entry.get("bonus", False), bool):
            raise RecordError(
                f"{where} ({_describe(entry)}): bonus must be true or false, not"
                f" {shown(entry['bonus'])}",
                step=i,
            )
        if isinstance(action, Score) and entry.get("bonus", False) != last.bonus:
            earned = "earns" if last.bonus else "does not earn"
            raise RecordError(
                f"{where} ({_describe(entry)}): the record's Yahtzee bonus does not match;"
                f" this score {earned} one",
                step=i,
            )
    totals = record.get("totals")
    if totals is not None:
        actual = {p: game.scorecard(p).total for p in game.players}
        if not isinstance(totals, dict) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in totals.values()
        ):
            raise RecordError(
                f"The record's totals must map each player to a whole number, not"
                f" {shown(totals)}"
            )
        if totals != actual:
            raise RecordError(
                f"The record's totals {shown(totals)} differ from the replay's {actual}"
            )
    return game


def _describe(entry: Any) -> str:
    if isinstance(entry, dict):
        return " ".join(
            _word(entry[k]) for k in ("player", "type", "box", "hold", "dice") if k in entry
        )
    return shown(entry)


def _word(value: object) -> str:
    """``value`` as a word of a step's description: a short printable text as it is,
    anything else by :func:`shown`."""
    if isinstance(value, str) and value.isprintable() and len(value) <= 40:
        return value
    return shown(value)


def to_json(game: Game, **kwargs: Any) -> str:
    """The record as JSON text (``kwargs`` go to :func:`json.dumps`)."""
    return json.dumps(to_record(game), **kwargs)


def from_json(text: str | bytes) -> Game:
    """Replay a record given as JSON text; malformed JSON raises :class:`RecordError`."""
    if not isinstance(text, str | bytes | bytearray):
        raise RecordError(
            f"A record's JSON must be text, not {type(text).__name__}",
            code=ErrorCode.RECORD_NOT_JSON, reason=type(text).__name__,
        )
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError(
            "The record is not valid JSON: it is nested too deeply",
            code=ErrorCode.RECORD_NOT_JSON, reason="nested too deeply",
        ) from None
    except ValueError as exc:
        # Malformed JSON, bytes that are not UTF-8, or a number past the interpreter's
        # limit of digits: all ValueErrors.
        raise RecordError(
            f"The record is not valid JSON: {exc}", code=ErrorCode.RECORD_NOT_JSON,
            reason=str(exc),
        ) from None
    return from_record(data)
