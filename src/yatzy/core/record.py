"""Game records: a versioned JSON form of a whole game, and its validating replay.

A record holds the ruleset with its options, the players in seat order, the seed, how
the first player was chosen (with the roll-off's dice), and every action with the dice
it used, as it was made: an action taken back stays, followed later by the ``undo`` that
took it back (:meth:`Game.undo <yatzy.core.game.Game.undo>`). Replaying applies each
action with those dice, so a record replays exactly whether its dice came from the seed
or were typed in.

>>> from yatzy.core.rulesets import ruleset
>>> from yatzy.core.game import Game, Step
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

from yatzy.core.actions import Score, Undo, action_from_dict
from yatzy.core.errors import ErrorCode, RecordError, YatzyError, shown
from yatzy.core.game import Game, Step
from yatzy.core.rulesets import Ruleset
from yatzy.core.seeded import check_seed, seed_hash, seeded_dice

FORMAT = "yatzy-game"
#: The newest record version: 2 adds secret seeds (text) and ``seed_hash``, 3 adds
#: ``undo`` actions. A record is written in the oldest version that holds it, so games
#: with numeric seeds and no undo still write version 1 and every reader of version 1
#: can read them.
VERSION = 3
VERSIONS = (1, 2, 3)


def to_record(game: Game, *, hide_seed: bool = False) -> dict[str, Any]:
    """The record of ``game`` (JSON-serialisable, plain dicts and lists).

    A game with a secret seed (text) gets a version-2 record with ``seed_hash``;
    ``hide_seed=True`` leaves the seed itself out (``null``), as a server does until the
    game is over: the record still replays, since it gives the dice of every roll.
    """
    return with_actions(record_header(game, hide_seed=hide_seed),
                        [step_entry(step) for step in game.log])


def step_entry(step: Step) -> dict[str, Any]:
    """One entry of a record's ``actions``: the action's dict form with the dice it
    used, the player, and for a score its points (and ``bonus``, an extra Yahtzee); an
    undo is ``{"type": "undo", "player": …}``, the player whose action it took back.

    >>> from yatzy.core.rulesets import ruleset
    >>> g = Game.start(ruleset("yatzy"), ["Ann"], seed=1).roll([6, 6, 6, 6, 6])
    >>> step_entry(g.score("yatzy").history[-1])
    {'type': 'score', 'box': 'yatzy', 'player': 'Ann', 'points': 50}
    """
    entry = step.action.to_dict()
    entry["player"] = step.player
    if isinstance(step.action, Score):
        entry["points"] = step.points
        if step.bonus:
            entry["bonus"] = True
    return entry


#: The keys a record writes after its actions.
_AFTER_ACTIONS = ("seed_hash", "totals")


def record_header(game: Game, *, hide_seed: bool = False) -> dict[str, Any]:
    """The record of ``game`` without its ``actions``: everything fixed when the game
    starts, and the ``totals`` once it is over. A store can keep it apart from the
    actions and put them back with :func:`with_actions`.

    >>> from yatzy.core.rulesets import ruleset
    >>> g = Game.start(ruleset("yatzy"), ["Ann"], seed=1).roll()
    >>> "actions" in record_header(g)
    False
    >>> with_actions(record_header(g), [step_entry(s) for s in g.log]) == to_record(g)
    True
    >>> record_header(g.score("chance").undo())["version"]  # an undo needs version 3
    3
    """
    secret = isinstance(game.seed, str)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": record_version(game),
        "ruleset": game.ruleset.to_dict(),
        "players": list(game.players),
        "seed": None if hide_seed else game.seed,
        "first_player": game.first_player,
        "roll_off": [{"player": r.player, "dice": list(r.dice)} for r in game.roll_offs],
    }
    if secret:
        assert game.seed is not None
        header["seed_hash"] = seed_hash(game.seed)
    if game.is_over:
        header["totals"] = {p: game.scorecard(p).total for p in game.players}
    return header


def record_version(game: Game) -> int:
    """The version of ``game``'s record: the oldest that holds it (3 once an action
    was taken back, else 2 with a secret seed, else 1). It changes only when an undo
    is made, so a store that keeps the header apart writes it again then."""
    if any(isinstance(step.action, Undo) for step in game.log):
        return 3
    return 2 if isinstance(game.seed, str) else 1


def with_actions(header: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
    """The record made of ``header`` (see :func:`record_header`) and ``actions``, its
    keys in the order :func:`to_record` writes them; ``header`` is left as it was."""
    record = {key: value for key, value in header.items() if key not in _AFTER_ACTIONS}
    record["actions"] = actions
    record.update((key, header[key]) for key in _AFTER_ACTIONS if key in header)
    return record


def _header(record: Any) -> Game:
    if not isinstance(record, dict):
        raise RecordError(f"A game record must be a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"Not a yatzy game record: format is {shown(record.get('format'))}")
    version = record.get("version")
    _check_whole(version, "The record's version")
    if version not in VERSIONS:
        raise RecordError(
            f"Unsupported record version {shown(version)}; this program reads"
            f" {' and '.join(map(str, VERSIONS))}"
        )
    seed, hashed = record.get("seed"), record.get("seed_hash")
    if version == 1 and (isinstance(seed, str) or "seed_hash" in record):
        raise RecordError("A secret seed or seed_hash needs a version 2 record")
    if hashed is not None:
        try:
            checked = check_seed(seed)
        except YatzyError as exc:
            raise RecordError(f"Bad record header: {exc}") from exc
        if not isinstance(hashed, str) or (checked is not None and seed_hash(checked) != hashed):
            raise RecordError("The record's seed does not match its seed_hash")
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
            if isinstance(action, Undo):
                if record["version"] < 3:
                    raise RecordError(f"{where}: an undo needs a version 3 record", step=i)
                if "points" in entry or "bonus" in entry:
                    raise RecordError(f"{where}: an undo scores no points", step=i)
                game = game.apply(action, player=player)
                continue
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


def audit(record: Any) -> Game:
    """Replay ``record`` (as :func:`from_record` does) and check that every die came from
    its seed: the roll-off and every roll and reroll, and the seed against its
    ``seed_hash`` when the record has one. This is how anyone checks a server's dice once
    it has revealed the seed. Raises :class:`RecordError` naming the first die that the
    seed does not give.

    A roll's dice are the seed's for the roll's place among the actions in effect when it
    was made (an undo takes one back): so a roll after an undo must have the very dice it
    would have had without the undo.

    >>> from yatzy.core.rulesets import ruleset
    >>> g = Game.start(ruleset("yatzy"), ["Ann"], seed="5" * 32).roll().reroll([0])
    >>> audit(to_record(g)) == g
    True
    >>> audit(to_record(g.score("chance").roll([6, 6, 6, 6, 6])))
    Traceback (most recent call last):
    ...
    yatzy.core.errors.RecordError: Step 4 (Ann roll): the dice 6 6 6 6 6 are not the seed's ...
    """
    game = from_record(record)
    if game.seed is None:
        raise RecordError("The record has no seed to check its dice against")
    count = game.ruleset.dice_count
    for k, roll in enumerate(game.roll_offs):
        if roll.dice != seeded_dice(game.seed, "roll-off", k, count):
            raise RecordError(f"Roll-off roll {k + 1} ({roll.player}): the dice {roll.dice}"
                              " are not the seed's")
    place = 0  # the actions in effect before this one
    for i, step in enumerate(game.log):
        if isinstance(step.action, Undo):
            place -= 1
            continue
        dice = step.action.to_dict().get("dice")
        if dice is not None and tuple(dice) != (
                seeded := seeded_dice(game.seed, "turn", place, len(dice))):
            raise RecordError(
                f"Step {i + 1} ({step.player} {step.action.to_dict()['type']}): the dice"
                f" {' '.join(map(str, dice))} are not the seed's ({seeded})", step=i)
        place += 1
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
