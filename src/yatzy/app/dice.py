"""The dice roller: where a game's dice come from.

- ``"auto"``: the program rolls. The game gets a seed (a random one unless given) and
  the core derives every roll from it, so a saved game replays exactly. Actions carry no
  dice: dice in an action would let a caller choose its own luck.
- ``"manual"`` ("scorepad mode", for real dice): the game has no seed and every roll's
  dice come with the action (``Roll(dice)``, ``Reroll(hold, dice)``).

>>> from yatzy.core.actions import Roll
>>> check_action_dice("manual", Roll())
Traceback (most recent call last):
...
yatzy.app.errors.DiceNeeded: Type in the dice you rolled: this game uses real dice
>>> starting_seed("auto", 42), starting_seed("manual", None)
(42, None)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from yatzy.app.errors import BadDiceMode, DiceNeeded, DiceNotAllowed
from yatzy.core.actions import Action, Reroll, Roll
from yatzy.core.game import roll_off
from yatzy.core.rulesets import Ruleset
from yatzy.core.seeded import MAX_SEED, Seed

DICE_MODES = ("auto", "manual")


def check_dice_mode(mode: object) -> str:
    """Return ``mode`` if it is a dice mode, else raise :class:`BadDiceMode`."""
    if mode not in DICE_MODES:
        raise BadDiceMode(
            f"Dice mode must be 'auto' or 'manual', not {mode!r}", mode=repr(mode)
        )
    assert isinstance(mode, str)
    return mode


def starting_seed(mode: str, seed: Seed | None) -> Seed | None:
    """The seed a new game gets: ``seed`` or a new secret one in auto mode, none in
    manual mode (a seed there is a mistake: the dice are real)."""
    if check_dice_mode(mode) == "manual":
        if seed is not None:
            raise BadDiceMode("A game with real dice (manual mode) takes no seed")
        return None
    return secret_seed() if seed is None else seed


def secret_seed() -> str:
    """A new secret seed: 256 random bits as hexadecimal text (see
    :mod:`yatzy.core.seeded`), far beyond brute force."""
    return secrets.token_hex(32)


def program_roll_off(rules: Ruleset, players: Sequence[str]) -> list[list[int]] | None:
    """Dice for a roll-off rolled by the program (a manual game whose players did not
    roll it with real dice): enough rolls to break every tie. ``None`` when there is
    no roll-off to roll (one player, or no ruleset: the core then says what is wrong)."""
    if len(players) < 2 or not isinstance(rules, Ruleset):
        return None
    _, rolls = roll_off(rules, players, seed=secrets.randbelow(MAX_SEED + 1))
    return [list(r.dice) for r in rolls]


def check_action_dice(mode: str, action: Action) -> None:
    """Raise unless ``action`` carries dice exactly when ``mode`` needs them."""
    if not isinstance(action, Roll | Reroll):
        return  # a score, or something the core will refuse
    if mode == "manual" and action.dice is None:
        raise DiceNeeded("Type in the dice you rolled: this game uses real dice")
    if mode == "auto" and action.dice is not None:
        raise DiceNotAllowed("The program rolls the dice in this game: give no dice")
