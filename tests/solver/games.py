"""Games for the solver's tests."""

from __future__ import annotations

import random

from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset


def random_moves(game: Game, seed: int, steps: int) -> Game:
    """``game`` after up to ``steps`` random legal actions (fewer when it ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        actions = game.legal_actions()
        if not actions:
            break
        game = game.apply(rng.choice(actions))
    return game


def turn_starts(ruleset: Ruleset, count: int, seed: int) -> list[Game]:
    """One-player games of ``ruleset`` at the start of a random turn, each after random
    scores (``count`` games, the same for the same ``seed``)."""
    rng = random.Random(seed)
    games = []
    for i in range(count):
        game = Game.start(ruleset, ["Ann"], seed=seed * 1000 + i)
        for _ in range(rng.randrange(len(ruleset.boxes))):
            game = game.roll()
            game = game.score(rng.choice(sorted(game.choices())))
        games.append(game)
    return games
