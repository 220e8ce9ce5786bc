"""Advice with saved rolls (Maxi Yatzy): the optimal strategy read off the table that
``yatzy solve`` wrote (:mod:`yatzy.solver.saved`).

A turn that starts with ``s`` saved rolls has ``rolls + s`` rolls. The core counts them
in :attr:`~yatzy.core.game.Game.rolls_left`: a ``Reroll`` past the turn's own rolls uses
a saved roll, and a ``Score`` with rolls left saves them for the player's later turns.
So the options are the same actions as without saved rolls; what changes is their
value: after a roll with ``m`` rolls left, filling a box leaves ``m`` saved rolls, and
keeping dice is worth the mean of the rolls with ``m - 1`` left (see ``csrc/saved.c``).

>>> import yatzy
>>> s = saved_strategy(yatzy.ruleset("maxi_yatzy", order="in_order"))  # doctest: +SKIP
>>> round(s.expected_score, 3)  # doctest: +SKIP
286.691
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.errors import ErrorCode, IllegalMove, shown
from yatzy.core.game import Game, check_game
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard, check_card
from yatzy.solver import ChancesUnsupported, kernels
from yatzy.solver.codes import SolverCode
from yatzy.solver.policy import Option
from yatzy.solver.saved import (
    SavedSolution,
    SavedTurn,
    SolveContext,
    saved_count,
    saved_turn,
)

#: The states whose turn tables a strategy keeps (a turn's decisions read its state's
#: tables several times; with 40 levels they take about 3 MB).
KEPT_TURNS = 32


class SavedStrategy:
    """Expected-final-score-maximising play of a ruleset with saved rolls, from its
    exact table (:class:`~yatzy.solver.saved.SavedSolution`). Get one with
    :func:`yatzy.solver.strategy`, which reads the table from the disk (it is never
    built on demand: ``yatzy solve`` builds it)."""

    def __init__(self, solution: SavedSolution, context: SolveContext) -> None:
        if solution.cap is not None:
            raise ValueError("advice needs the exact table (no cap)")
        self.solution = solution
        self.context = context
        self.model = context.model
        self.ruleset: Ruleset = solution.ruleset
        #: As :class:`~yatzy.solver.policy.Strategy`'s: read from the disk.
        self.source = "cache"
        self.build_seconds: float | None = None
        self.path: Path | None = solution.path
        n = self.ruleset.dice_count
        self._score = tuple(Score(b) for b in self.ruleset.boxes)
        self._hold = tuple(Reroll(tuple(i for i in range(n) if m >> i & 1))
                           for m in range(1 << n))
        self._turns: dict[tuple[int, int], SavedTurn] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<SavedStrategy {self.ruleset!r} expected_score={self.expected_score:.7f}>"

    @property
    def expected_score(self) -> float:
        """The expected final score of optimal play from the start of a game."""
        return self.solution.start_value

    def _state(self, card: Scorecard) -> tuple[int, int, int]:
        """``card``'s ``(mask, u, filled boxes)`` (the model's refusal for a card no game
        reaches)."""
        if not isinstance(card, Scorecard):
            check_card(self.ruleset, card)
        mask, _, u = self.model.state_of(card)
        return mask, u, bin(mask).count("1")

    def _most_saved(self, filled: int) -> int:
        """The most saved rolls a player can hold with ``filled`` boxes filled (the
        table's layer holds them all: :func:`~yatzy.solver.saved.saved_count`)."""
        return saved_count(self.model, filled, None) - 1

    def _check_saved(self, saved: object, filled: int) -> int:
        most = self._most_saved(filled)
        if isinstance(saved, bool) or not isinstance(saved, int) or not 0 <= saved <= most:
            raise IllegalMove(
                f"Saved rolls here are 0 to {most}, not {shown(saved)}",
                code=SolverCode.BAD_ROLLS_LEFT, most=most, value=shown(saved))
        return saved

    def value(self, card: Scorecard, saved: int = 0) -> float:
        """The expected final score of ``card`` at the start of its next turn, with
        ``saved`` saved rolls."""
        mask, u, filled = self._state(card)
        if filled == self.model.boxes:
            return float(card.total)
        s = self._check_saved(saved, filled)
        return card.total + self.solution.value(mask, u, s)

    def turn(self, mask: int, u: int, levels: int) -> SavedTurn:
        """The turn tables of state ``(mask, u)`` with at least ``levels`` levels (kept
        for the last :data:`KEPT_TURNS` states: a few megabytes each late in the game)."""
        with self._lock:
            found = self._turns.get((mask, u))
        if found is not None and len(found.boxes) >= levels:
            return found
        made = saved_turn(self.context, self.solution.values, mask, u, levels, None, "lower")
        with self._lock:
            if len(self._turns) >= KEPT_TURNS:
                self._turns.clear()
            self._turns[mask, u] = made
        return made

    # --- Advice ---------------------------------------------------------------------

    def advise(self, game: Game) -> list[Option]:
        """Every legal option of the current player of ``game``, best first (equal
        values: boxes in scorecard order, then keeps), as
        :meth:`yatzy.solver.policy.Strategy.advise` lists them: ``Roll()`` at a turn's
        start; after a roll a ``Score`` per allowed box (with rolls left, the rolls not
        used are saved) and, while rolls are left, saved ones included, a ``Reroll`` per
        distinct set of kept faces (holding the first dice of each face). Empty when the
        game is over."""
        check_game(game)  # another ruleset's card is refused as the model refuses it
        if game.is_over:
            return []
        if game.dice is None:
            return self.advise_card(game.card, None, saved=game.saved_rolls())
        return self.advise_card(game.card, game.dice, game.rolls_left)

    def advise_card(self, card: Scorecard, dice: Sequence[int] | None = None,
                    rolls_left: int | None = None, *, saved: int = 0) -> list[Option]:
        """Like :meth:`advise` for a scorecard: before the turn's first roll (``dice``
        ``None``) with ``saved`` saved rolls; after a roll of ``dice`` with
        ``rolls_left`` rolls left, saved ones included (default: the turn's own rolls
        but the first)."""
        mask, u, filled = self._state(card)
        if filled == self.model.boxes:
            return []
        total = card.total
        if dice is None:
            s = self._check_saved(saved, filled)
            return [Option(Roll(), total + self.solution.value(mask, u, s))]
        faces = self.ruleset.check_dice(dice)
        rolls = self.model.rolls
        most = rolls - 1 + self._most_saved(filled)
        level = rolls - 1 if rolls_left is None else rolls_left
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= most:
            raise IllegalMove(
                f"Rolls left after a roll must be 0 to {most}, not {shown(rolls_left)}",
                code=SolverCode.BAD_ROLLS_LEFT, most=most, value=shown(rolls_left))
        return self._options(mask, u, total, tuple(faces), level)

    def _options(self, mask: int, u: int, total: int, faces: tuple[int, ...],
                 level: int) -> list[Option]:
        m = self.model
        t = m.tables
        tt = self.turn(mask, u, level + 1)
        r = m.keeps.roll_index(tuple(sorted(faces)))
        options: list[Option] = []
        boxes = tt.boxes[level][:, r]
        for i, b in enumerate(tt.abox.tolist()):
            v = float(boxes[i])
            if v > kernels.NEG / 2:
                options.append(Option(self._score[b], total + v))
        if level > 0:
            keeps = m.keeps.keeps
            kv = tt.keeps[level]
            for k in t.sub_keeps[r, : t.sub_count[r]].tolist():
                options.append(Option(self._hold[_hold_mask(faces, keeps[k])],
                                      total + float(kv[k])))
        options.sort(key=lambda o: -o.value)  # stable: boxes, then keeps, on a tie
        return options

    def best(self, game: Game) -> Option:
        """The best option now (the game must not be over)."""
        options = self.advise(game)
        if not options:
            raise IllegalMove("The game is over", code=ErrorCode.GAME_OVER)
        return options[0]

    # --- What saved rolls do not offer ------------------------------------------------

    def distribution(self, position: object) -> object:
        """Score distributions (so win chances) are not worked out with saved rolls:
        :class:`~yatzy.solver.ChancesUnsupported` (see
        :func:`~yatzy.solver.offers_chances`)."""
        raise ChancesUnsupported(self.ruleset)

    def win_chances(self, game: Game) -> dict[str, float]:
        """Not with saved rolls: see :meth:`distribution`."""
        raise ChancesUnsupported(self.ruleset)

    def forget(self) -> None:
        """Drop the turn tables this strategy remembers."""
        with self._lock:
            self._turns.clear()


def _hold_mask(faces: tuple[int, ...], kept: tuple[int, ...]) -> int:
    """The positions of ``faces`` that hold the multiset ``kept``: the first dice of each
    face, as a bit mask."""
    need = [0] * 7
    for f in kept:
        need[f] += 1
    hold = 0
    for i, f in enumerate(faces):
        if need[f]:
            need[f] -= 1
            hold |= 1 << i
    return hold


def load_saved_strategy(ruleset: Ruleset) -> SavedStrategy | None:
    """The strategy of ``ruleset`` (saved rolls) from its exact table on the disk, or
    ``None`` when there is none."""
    from yatzy.solver.saved import load_table

    solution = load_table(ruleset)
    if solution is None:
        return None
    # The solution's layers are the context's: keep it (SolveContext.of keeps one).
    return SavedStrategy(solution, SolveContext.of(ruleset))


__all__ = ["SavedStrategy", "load_saved_strategy"]
