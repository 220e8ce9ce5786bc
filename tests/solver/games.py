"""Games for the solver's tests."""

from __future__ import annotations

import random

from yatzy.core.game import Game


def random_moves(game: Game, seed: int, steps: int) -> Game:
    """``game`` after up to ``steps`` random legal actions (fewer when it ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        actions = game.legal_actions()
        if not actions:
            break
        game = game.apply(rng.choice(actions))
    return game
