"""The optimal strategy of a ruleset: its value table, and advice for any situation.

>>> import yatzy
>>> s = strategy(yatzy.ruleset("yatzy", order="in_order"), cache=False)  # no disk
>>> round(s.expected_score, 7)
122.5585274
>>> g = yatzy.new_game(s.ruleset, ["Ann"], seed=1)
>>> s.advise(g)
[Option(action=Roll(dice=None), value=122.558527...)]
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.game import Game, check_game
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard, check_card
from yatzy.solver import (
    _HELD,
    TableNotBuilt,
    artifacts,
    builds_on_demand,
    check_chances,
    check_supported,
    dp,
    kernels,
    turn,
)
from yatzy.solver.codes import SolverCode
from yatzy.solver.distribution import (
    DistributionTooLarge,
    ScoreDistribution,
    most_open_boxes,
    win_shares,
)
from yatzy.solver.keeps import FloatArray, IntArray
from yatzy.solver.model import Model, Tables, build_model, order_tables

if TYPE_CHECKING:
    from yatzy.solver.saved_strategy import SavedStrategy


class Option(NamedTuple):
    """One legal choice and its value: the expected final score (points already on the
    card, bonuses and what optimal play will add) after taking it."""

    action: Action
    value: float


class TurnTables(NamedTuple):
    """In-turn values of one turn-start state: the allowed boxes ``abox``, the value of
    filling them by entry (``values``, see :mod:`yatzy.solver.turn`) and ``keeps[s, k]``
    for keeping ``k`` with ``s`` rerolls left after the reroll."""

    abox: IntArray
    values: FloatArray
    keeps: FloatArray
    tables: Tables

    @property
    def vals(self) -> FloatArray:
        """``vals[i, r]``: the value of filling box ``abox[i]`` with roll ``r``
        (:data:`~yatzy.solver.kernels.NEG` where the Joker rules forbid it)."""
        return turn.box_matrix(self.tables, self.abox, self.values)


class Strategy:
    """Expected-final-score-maximising play for one ruleset.

    Get one with :func:`yatzy.strategy` (which caches tables on disk). ``values[mask, y,
    u]`` is the expected number of points still to come at the start of a turn
    (:data:`~yatzy.solver.kernels.NEG` for states no game reaches).
    """

    def __init__(self, model: Model, values: FloatArray, *, build_seconds: float | None,
                 source: str, path: Path | None = None) -> None:
        self.model = model
        self.ruleset: Ruleset = model.ruleset
        self.values = values
        #: Seconds the backward induction took (``None`` when loaded from disk).
        self.build_seconds = build_seconds
        #: ``"built"`` or ``"cache"``.
        self.source = source
        #: The table's file (``None`` when not on disk).
        self.path = path
        self._boxes = model.ruleset.boxes
        n = model.ruleset.dice_count
        #: The action of each option code of :func:`turn.rank_options`.
        self._actions: tuple[Action, ...] = (
            *(Score(b) for b in self._boxes),
            *(Reroll(tuple(i for i in range(n) if m >> i & 1)) for m in range(1 << n)),
        )
        #: The compiled view of the tables and values.
        self.kernels = kernels.compile_tables(model.tables, values)
        #: Its advice (``Kernels.advise``), looked up once: :meth:`advise` calls it.
        self._advise = self.kernels.advise
        #: The turn tables of a state (:func:`turn.turn_routine`).
        self._turn = turn.turn_routine(self.kernels, model.tables, model.rolls - 1)
        self._turns: dict[tuple[int, int, int], TurnTables] = {}
        self._states: dict[
            tuple[tuple[int | None, ...], int], tuple[tuple[int, int, int], int]
        ] = {}
        self._start: ScoreDistribution | None = None
        self._next: dict[tuple[int, int, int], ScoreDistribution] = {}
        self._start_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<Strategy {self.ruleset!r} expected_score={self.expected_score:.7f}>"

    @property
    def expected_score(self) -> float:
        """The expected final score of optimal play from the start of a game."""
        return float(self.values[0, 0, 0])

    @property
    def state_count(self) -> int:
        """How many turn-start states have a value."""
        return dp.state_count(self.model)

    # --- Values ---------------------------------------------------------------------

    def state_of(self, card: Scorecard) -> tuple[int, int, int]:
        """The ``(mask, y, u)`` state of ``card`` (see :mod:`yatzy.solver.model`);
        :class:`~yatzy.solver.model.UnreachableCard` when no game reaches it."""
        return self._lookup(card)[0]

    def _lookup(self, card: Scorecard) -> tuple[tuple[int, int, int], int]:
        """``card``'s state and total, remembered for the last few thousand cards."""
        if not isinstance(card, Scorecard):
            check_card(self.ruleset, card)
        key = (card.entries, card.yahtzee_bonus_count)
        found = self._states.get(key)
        if found is None or (card.ruleset is not self.ruleset and card.ruleset != self.ruleset):
            found = (self.model.state_of(card), card.total)
            if len(self._states) >= 4096:
                self._states.clear()
            self._states[key] = found
        return found

    def value(self, card: Scorecard) -> float:
        """The expected final score of ``card`` at the start of its next turn."""
        (mask, y, u), total = self._lookup(card)
        return total + float(self.values[mask, y, u])

    def turn_tables(self, card: Scorecard) -> TurnTables:
        """The in-turn values of ``card``'s state (kept for the last few states)."""
        return self._tables(self.state_of(card))

    def _tables(self, key: tuple[int, int, int]) -> TurnTables:
        tables = self._turns.get(key)
        if tables is None:
            abox, values, keeps = self._turn(*key)
            tables = tuple.__new__(TurnTables, (abox, values, keeps, self.model.tables))
            if len(self._turns) >= 256:
                self._turns.clear()
            self._turns[key] = tables
        return tables

    # --- Advice ---------------------------------------------------------------------

    def advise(self, game: Game) -> list[Option]:
        """Every legal option of the current player of ``game``, best first.

        At a turn's start the one option is ``Roll()``. After a roll: one ``Reroll``
        per distinct set of kept faces (holding the first dice of each face) while
        rolls are left, and a ``Score`` per allowed box. Empty when the game is over.
        """
        if not isinstance(game, Game):
            check_game(game)
        dice = game.dice
        if dice is not None:
            # One player's card is the current one; otherwise the game works it out.
            cards = game.cards
            card = cards[0] if len(cards) == 1 else game.card
            r = self.ruleset
            if card.ruleset is r or card.ruleset == r:
                # The game checked its dice and rolls; the compiled code reads the card.
                options = self._advise(
                    card.entries, card.yahtzee_bonus_count * r.extra_yahtzee_points, dice,
                    r.rolls - game.rolls_used, self._actions, Option,
                )
                if options is not None:
                    return options
        # Once the game is over the current player's card is complete: no options.
        return self.advise_card(game.card, dice, game.rolls_left)

    def advise_card(
        self, card: Scorecard, dice: Sequence[int] | None = None, rolls_left: int | None = None
    ) -> list[Option]:
        """Like :meth:`advise` for a scorecard, the dice on the table (``None`` before the
        turn's first roll) and the rolls left this turn (default: all but the first)."""
        if not isinstance(card, Scorecard):
            check_card(self.ruleset, card)
        if card.is_complete:
            return []
        state, total = self._lookup(card)
        if dice is None:
            mask, y, u = state
            return [Option(Roll(), total + float(self.values[mask, y, u]))]
        faces, left = self._roll(dice, rolls_left)
        options = self.kernels.advise(
            card.entries, card.yahtzee_bonus_count * self.ruleset.extra_yahtzee_points, faces,
            left, self._actions, Option,
        )
        if options is None:  # _lookup has refused every card the compiled code refuses
            raise self.model.refusal(card)
        return options

    def _roll(self, dice: Sequence[int], rolls_left: int | None) -> tuple[Dice, int]:
        """``dice`` checked, and the rolls left after them (default: all but the first)."""
        faces = dice if type(dice) is Dice else self.ruleset.check_dice(dice)
        if len(faces) != self.ruleset.dice_count:
            faces = self.ruleset.check_dice(faces)
        rolls = self.ruleset.rolls
        left = rolls - 1 if rolls_left is None else rolls_left
        if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left < rolls:
            raise IllegalMove(
                f"Rolls left after a roll must be 0 to {rolls - 1}, not {shown(rolls_left)}",
                code=SolverCode.BAD_ROLLS_LEFT, most=rolls - 1, value=shown(rolls_left),
            )
        return faces, left

    # --- Score distributions ----------------------------------------------------------

    def distribution(self, position: Game | Scorecard) -> ScoreDistribution:
        """The chance of every final score of the current player of a game (or of a
        scorecard at the start of its next turn) under optimal play, mid-turn included
        (the dice on the table and the rolls left).

        Exact: the turn's outcomes under the choices :meth:`advise` ranks first are
        carried forward to the end of the game. The start of a game's is computed once
        and kept beside the table on disk; from elsewhere it is computed on each call,
        in time that grows with the open boxes (see docs/solver.md).
        """
        if isinstance(position, Game):
            return self.distribution_card(position.card, position.dice, position.rolls_left
                                          if position.dice is not None else None)
        if not isinstance(position, Scorecard):
            raise RulesError(f"Expected a Game or a Scorecard, not {shown(position)}",
                             code=ErrorCode.NOT_A_GAME, value=shown(position))
        return self.distribution_card(position)

    def distribution_card(self, card: Scorecard, dice: Sequence[int] | None = None,
                          rolls_left: int | None = None) -> ScoreDistribution:
        """Like :meth:`distribution` for a scorecard, the dice on the table (``None``
        before the turn's first roll) and the rolls left (as :meth:`advise_card`)."""
        if not isinstance(card, Scorecard):
            check_card(self.ruleset, card)
        if card.is_complete:
            check_card(self.ruleset, card)
            return ScoreDistribution.certain(card.total)
        (mask, y, u), total = self._lookup(card)
        if dice is None:
            if mask == 0:
                return self._start_distribution().shifted(total)
            roll, rerolls = -1, self.ruleset.rolls - 1
        else:
            faces, rerolls = self._roll(dice, rolls_left)
            roll = self.model.keeps.roll_index(tuple(sorted(faces)))
        self._check_open(mask)
        looked_up = self._from_layers(mask, y, u, roll, rerolls)
        if looked_up is not None:
            return looked_up.shifted(total)
        lowest, chances = self.kernels.distribution(mask, y, u, roll, rerolls,
                                                   kernels.threads())
        return ScoreDistribution(lowest + total, np.frombuffer(chances))

    def _from_layers(self, mask: int, y: int, u: int, roll: int, rerolls: int
                     ) -> ScoreDistribution | None:
        """The distribution of the points still to come from a position early in a game,
        from the exact layers (:class:`~yatzy.solver.distribution.ExactLayers`); ``None``
        where they do not reach (or cannot be used)."""
        from yatzy.solver.distribution import LayersDamaged, exact_layers, forget_layers

        layers = exact_layers(self)
        if layers is None or not layers.covers(mask):
            return None
        try:
            return ScoreDistribution(*layers.distribution(mask, y, u, roll, rerolls))
        except LayersDamaged:
            forget_layers(self)
            return None

    def _check_open(self, mask: int) -> None:
        """:class:`DistributionTooLarge` when a distribution from ``mask`` has more open
        boxes than :func:`~yatzy.solver.distribution.most_open_boxes` (Maxi Yatzy
        early in the game): its layers would take gigabytes."""
        m = self.model
        most = most_open_boxes(m.threshold + 1, m.y_count)
        open_boxes = m.boxes - bin(mask).count("1")
        if open_boxes > most:
            raise DistributionTooLarge(self.ruleset.title or self.ruleset.name, most,
                                       open_boxes)

    def win_chances(self, game: Game) -> dict[str, float]:
        """Each player's chance of winning ``game`` from now on, a first place shared by
        ``k`` players counting ``1/k`` to each (the chances sum to 1), when everyone plays
        for the highest expected score: the players' games are then independent, and the
        chances exact from their score distributions (:meth:`distribution`; the current
        player's mid-turn, the others' from the start of their next turn). After the
        game, the winners share 1.

        When the table of the points still to come is on the disk (``yatzy solve``
        writes it, the ``winner`` level builds it) or in memory, the distributions are
        looked up there (milliseconds; each player's cumulative chances off by at most
        about 6.3e-5, the chances by that times the number of players: see
        docs/solver.md); otherwise worked out (seconds early in a game)."""
        check_game(game)
        from yatzy.solver import winning

        table = winning.stored_remaining_table(self)
        if table is not None:
            try:
                return dict(zip(game.players, winning.win_chances(table, game), strict=True))
            except KeyError:  # a state the table lacks (none a game reaches): worked out
                pass
        return self.exact_win_chances(game)

    def exact_win_chances(self, game: Game) -> dict[str, float]:
        """:meth:`win_chances` always worked out from the exact distributions, never
        looked up in the table (seconds early in a game)."""
        check_game(game)
        dists = []
        for seat, card in enumerate(game.cards):
            if seat == game.current_seat and game.dice is not None:
                dists.append(self.distribution(game))
            else:
                dists.append(self._next_turn(card))
        return dict(zip(game.players, win_shares(dists), strict=True))

    def _next_turn(self, card: Scorecard) -> ScoreDistribution:
        """:meth:`distribution_card` of ``card`` at its next turn, kept per state (the
        other players' cards stay as they are for a whole turn)."""
        if card.is_complete:
            return self.distribution_card(card)
        state, total = self._lookup(card)
        found = self._next.get(state)
        if found is None:
            found = self.distribution_card(card).shifted(-total)
            if len(self._next) >= 256:
                self._next.clear()
            self._next[state] = found
        return found.shifted(total)

    def _start_distribution(self) -> ScoreDistribution:
        """The start of a game's distribution: from memory, the disk (beside the table)
        or computed (and saved there)."""
        with self._start_lock:
            if self._start is None:
                # Beside the table's own file, wherever that was found.
                folder = self.path.parent if self.path is not None else None
                stored = artifacts.load_distribution(self.ruleset, folder) if folder else None
                if stored is not None:
                    self._start = ScoreDistribution(*stored)
                else:
                    self._check_open(0)
                    self._start = self._from_layers(0, 0, 0, -1, self.ruleset.rolls - 1)
                    if self._start is None:
                        lowest, raw = self.kernels.distribution(
                            0, 0, 0, -1, self.ruleset.rolls - 1, kernels.threads())
                        self._start = ScoreDistribution(lowest, np.frombuffer(raw))
                    if folder is not None:
                        try:
                            artifacts.save_distribution(self.ruleset, self._start.lowest,
                                                        self._start.chances, folder)
                        except OSError as exc:
                            warnings.warn(f"The score distribution was not cached: {exc}",
                                          RuntimeWarning, stacklevel=3)
            return self._start

    def forget(self) -> None:
        """Drop the states and turn values this strategy remembers (they speed up asking
        about one situation again), as a benchmark of new situations needs."""
        self._turns.clear()
        self._states.clear()
        self._next.clear()
        self.kernels.forget()

    def best(self, game: Game) -> Option:
        """The best option now (the game must not be over)."""
        options = self.advise(game)
        if not options:
            raise IllegalMove("The game is over", code=ErrorCode.GAME_OVER)
        return options[0]


_STRATEGIES: dict[Ruleset, Strategy] = {}
_SAVED: dict[Ruleset, SavedStrategy] = {}
#: One lock per ruleset: concurrent callers (the web app's threads) build or load a
#: table once, and callers of other rulesets do not wait for them.
_LOCKS: dict[Ruleset, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def _lock(ruleset: Ruleset) -> threading.Lock:
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(ruleset, threading.Lock())


def strategy(ruleset: Ruleset, *, progress: dp.Progress | None = None,
             rebuild: bool = False, cache: bool = True, build: bool | None = None
             ) -> Strategy | SavedStrategy:
    """The optimal strategy of ``ruleset``: from memory, else from the disk cache, else
    built (and saved). ``progress(done, total)`` reports a build's layers;
    ``rebuild=True`` builds even when a table is cached; ``cache=False`` neither reads
    nor writes the disk. ``build`` says whether a table that is not cached may be built:
    ``None`` (the default) when :func:`~yatzy.solver.builds_on_demand` (seconds), so
    that no request starts a build of minutes; ``True`` always (``yatzy solve``);
    ``False`` never. Safe to call from several threads: each table is built once.
    :class:`~yatzy.solver.UnsupportedRuleset` for a ruleset the solver does not play
    (:func:`~yatzy.solver.supports`), :class:`~yatzy.solver.TableNotBuilt` when the
    table would have to be built and may not be.

    With saved rolls (Maxi Yatzy) the strategy is a
    :class:`~yatzy.solver.saved_strategy.SavedStrategy`, read from the table ``yatzy
    solve`` wrote: it is never built here (:class:`~yatzy.solver.TableNotBuilt`)."""
    check_supported(ruleset)
    if ruleset.saved_rolls:
        return saved_strategy(ruleset)
    if build is None:
        build = builds_on_demand(ruleset)
    if not rebuild and (found := _STRATEGIES.get(ruleset)) is not None:
        return found
    with _lock(ruleset):
        # Another caller may have finished it while this one waited.
        if not rebuild and (found := _STRATEGIES.get(ruleset)) is not None:
            return found
        stored = None if rebuild or not cache else artifacts.load(ruleset)
        if stored is not None:
            model = build_model(ruleset, (stored.allowed, stored.five_points))
            result = Strategy(model, stored.values, build_seconds=None, source="cache",
                              path=artifacts.table_path(ruleset))
        else:
            if not build and not rebuild:
                raise TableNotBuilt(ruleset)
            start = time.perf_counter()
            order = order_tables(ruleset)
            model = build_model(ruleset, order)
            values = dp.solve(model, progress)
            seconds = time.perf_counter() - start
            result = Strategy(model, values, build_seconds=seconds, source="built")
            if cache:
                try:
                    result.path = artifacts.save(
                        ruleset, values, order[0], order[1],
                        {"build_seconds": seconds, "states": result.state_count},
                        compact=not builds_on_demand(ruleset),
                    )
                except OSError as exc:  # an unwritable cache costs a rebuild next time
                    warnings.warn(f"The solver table was not cached: {exc}",
                                  RuntimeWarning, stacklevel=2)
        _STRATEGIES[ruleset] = result
        _HELD.add(ruleset)
    return result


def saved_strategy(ruleset: Ruleset) -> SavedStrategy:
    """The strategy of ``ruleset`` with saved rolls (as :func:`strategy` gives it): from
    memory, else from its exact table on the disk (:class:`~yatzy.solver.TableNotBuilt`
    without one: it is never built here)."""
    check_supported(ruleset)
    if not ruleset.saved_rolls:
        raise ValueError(f"{ruleset} does not save rolls")
    if (found := _SAVED.get(ruleset)) is not None:
        return found
    with _lock(ruleset):
        if (found := _SAVED.get(ruleset)) is not None:
            return found
        from yatzy.solver.saved_strategy import load_saved_strategy

        loaded = load_saved_strategy(ruleset)
        if loaded is None:
            raise TableNotBuilt(ruleset)
        _SAVED[ruleset] = loaded
        _HELD.add(ruleset)
    return loaded


def table_strategy(ruleset: Ruleset) -> Strategy:
    """:func:`strategy` of a ruleset without saved rolls: the strategy of a value table
    per turn-start state, which score distributions, win chances, the ``winner`` level,
    the fast simulation of the softened levels and the vector environment read;
    :class:`~yatzy.solver.ChancesUnsupported` for one with saved rolls
    (:func:`~yatzy.solver.offers_chances`)."""
    check_chances(ruleset)
    found = strategy(ruleset)
    assert isinstance(found, Strategy)
    return found
