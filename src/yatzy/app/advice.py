"""The advice service: hints, win chances and analyses, worked out once per game and
version, on a pool of CPU threads of its own.

Every front end asks here (the web API, the terminal game); none of them runs the
solver itself. A request names the game (its id), the version it has seen, and the
game; the answer is a :class:`concurrent.futures.Future`:

- asked again for the same version, the same work is answered (worked out once);
- asked for a newer version while an older one waits its turn, the older one is
  superseded: it is never worked out, and whoever waited for it gets the newer answer
  (:meth:`Advice.latest`);
- more waiting work than :attr:`AdviceService.queue_limit` is refused at once with
  :class:`AdviceBusy`, which says when to ask again: a burst of requests costs a queue
  slot each, not a thread or a table each.

The pool is the only place where solver tables are built or loaded in a process that
serves games (:meth:`prepare` warms them at start-up; never the database threads, the
event loop or a screen's thread), and computers' choices can run on it too
(:meth:`think`).

>>> import yatzy
>>> service = AdviceService(workers=1)
>>> game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=1).roll([6, 6, 6, 6, 6])
>>> service.hint("g1", 2, game).result()[0].action
Score(box='yatzy')
>>> service.close()
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from yatzy.app.codes import AppCode
from yatzy.app.errors import AppError
from yatzy.app.limits import SharedGuard
from yatzy.app.ports import SharedLimitsDown
from yatzy.core.errors import ErrorCode, IllegalMove
from yatzy.core.game import Game, check_game
from yatzy.core.rulesets import Ruleset

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Threads of the pool: the solver's own kernels use every core for one table, so one
#: or two are enough.
WORKERS = 2
#: Pieces of work that may wait for a thread before new ones are refused.
QUEUE_LIMIT = 16
#: Seconds a server process may hold a game's turn to work out a kind of advice (see
#: :class:`AdviceService`): longer than any piece of work takes; a process that died
#: holding it holds it no longer than this.
SHARED_TURN = 120.0


def check_hint(game: Game, player: str) -> None:
    """A hint is for the player whose turn it is, in a game not over
    (:class:`~yatzy.core.errors.IllegalMove` else)."""
    if game.is_over or game.current_player != player:
        raise IllegalMove("Hints are for the player whose turn it is",
                          code=ErrorCode.NOT_YOUR_TURN,
                          player=game.current_player if not game.is_over else "?")


def check_chances(game: Game) -> None:
    """Win chances are for games of two players or more
    (:class:`~yatzy.core.errors.IllegalMove` else), of rules the solver works them out
    for (:func:`yatzy.solver.check_chances`: not with saved rolls)."""
    if len(game.players) < 2:
        raise IllegalMove("Win chances are for games of two players or more",
                          code=AppCode.NO_OPPONENTS)
    from yatzy.solver import check_chances as solver_chances

    solver_chances(game.ruleset)


def check_analysis(game: Game) -> None:
    """The analysis comes when the game is over (:class:`~yatzy.core.errors.IllegalMove`
    else)."""
    if not game.is_over:
        raise IllegalMove("The analysis comes when the game is over",
                          code=AppCode.GAME_NOT_OVER)


class AdviceBusy(AppError):
    """Too much advice is being worked out: ask again in ``retry_after`` seconds (the
    web answers 503 with ``Retry-After``)."""

    code = AppCode.ADVICE_BUSY

    def __init__(self, retry_after: int) -> None:
        super().__init__("The computer is busy working things out: ask again in a moment",
                         retry_after=retry_after)
        self.retry_after = retry_after


class Superseded(Exception):
    """The work was passed over for a newer version of its game."""


class Answer(Future[T]):
    """The future answer of a piece of advice, for the version of the game it is for."""

    def __init__(self, version: int) -> None:
        super().__init__()
        self.version = version


@dataclass
class _Job:
    """One piece of work for a (kind, game) pair, for one version."""

    version: int
    future: Answer[Any]
    work: Callable[[], Any]


class AdviceService:
    """Advice worked out once per (kind, game id, version) on a pool of its own.

    With ``shared`` limits (Redis), one kind of advice for one game is worked out by
    one server process of the site at a time: a piece of work whose turn another
    process holds is not started, and whoever asked for it gets :class:`AdviceBusy`
    (ask again in a second). While the shared limits do not answer, and without them,
    one at a time holds in this process only."""

    def __init__(self, *, workers: int = WORKERS, queue_limit: int = QUEUE_LIMIT,
                 shared: SharedGuard | None = None) -> None:
        self.queue_limit = queue_limit
        self.shared = shared or SharedGuard(None)
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="yatzy-advice")
        self._lock = threading.Lock()
        #: The newest work asked for each (kind, game id), the work in the pool for it,
        #: and the work that waits for that one to finish (one version at a time).
        self._latest: dict[tuple[str, str], _Job] = {}
        self._running: dict[tuple[str, str], _Job] = {}
        self._queued: dict[tuple[str, str], _Job] = {}
        self._waiting = 0
        #: Tables being warmed by :meth:`prepare`, and those ready.
        self._preparing: dict[str, Future[None]] = {}

    # --- Kinds of advice ----------------------------------------------------------------

    def hint(self, game_id: str, version: int, game: Game) -> Answer[list[Any]]:
        """The optimal strategy's options for ``game``, best first
        (:meth:`yatzy.solver.policy.Strategy.advise`)."""
        return self._ask("hint", game_id, version, functools.partial(_advise, game))

    def chances(self, game_id: str, version: int, game: Game) -> Answer[dict[str, float]]:
        """Every player's chance of winning ``game`` from now on
        (:meth:`yatzy.solver.policy.Strategy.win_chances`); :func:`check_chances`
        first."""
        check_chances(check_game(game))
        return self._ask("chances", game_id, version, functools.partial(_chances, game))

    def analysis(self, game_id: str, version: int, game: Game) -> Answer[Any]:
        """What each decision of a finished ``game`` cost
        (:func:`yatzy.solver.analysis.analyse`); :func:`check_analysis` first."""
        check_analysis(check_game(game))
        return self._ask("analysis", game_id, version, functools.partial(_analyse, game))

    async def latest(self, kind: str, game_id: str, asked: Answer[T]) -> tuple[int, T]:
        """Await ``asked`` (from one of the methods above); when it was superseded,
        the newest work of that kind for the game instead. Returns the version worked
        out and its answer. Leaving early does not stop the work others wait for."""
        future: Answer[Any] = asked
        while True:
            try:
                return future.version, await asyncio.shield(asyncio.wrap_future(future))
            except Superseded:
                future = self._successor(kind, game_id, future)

    def wait(self, kind: str, game_id: str, asked: Answer[T],
             timeout: float | None = None) -> tuple[int, T]:
        """:meth:`latest` for a thread that may block (a screen's worker thread)."""
        future: Answer[Any] = asked
        while True:
            try:
                return future.version, future.result(timeout)
            except Superseded:
                future = self._successor(kind, game_id, future)

    def _successor(self, kind: str, game_id: str, passed_over: Answer[Any]) -> Answer[Any]:
        """The newest work of ``kind`` for the game, which ``passed_over`` gave way to."""
        with self._lock:
            job = self._latest.get((kind, game_id))
        if job is None or job.future is passed_over:
            raise Superseded()
        return job.future

    # --- Computers and tables ---------------------------------------------------------------

    async def think(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on the pool: a computer's choice, which may need a table."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(work, *args))

    def background(self, work: Callable[[], object]) -> None:
        """Run ``work`` on the pool when a thread is free, and forget it (a finished
        game's analysis, say): its failure is logged, never raised. Refused (logged,
        not run) while more than :attr:`queue_limit` pieces of work wait."""
        with self._lock:
            if self._waiting >= self.queue_limit:
                log.warning("background work dropped: %d pieces of work wait", self._waiting)
                return
            self._waiting += 1

        def run() -> None:
            with self._lock:
                self._waiting -= 1
            try:
                work()
            except Exception:
                log.exception("background work failed")

        try:
            self._pool.submit(run)
        except RuntimeError:  # the pool is shut down: the server is stopping
            with self._lock:
                self._waiting -= 1

    def prepare(self, rules: Ruleset, *, winner: bool = False) -> Future[None]:
        """Load (or build) the optimal strategy of ``rules`` on the pool, and with
        ``winner`` the table the ``winner`` level needs too, once; logs when each is
        ready. Returns the work, to wait for or not."""
        key = f"{rules!r}:{winner}"
        with self._lock:
            found = self._preparing.get(key)
            if found is None:
                found = self._preparing[key] = self._pool.submit(_prepare, rules, winner)
        return found

    def ready(self, rules: Ruleset, *, winner: bool = False) -> bool:
        """True when :meth:`prepare` has finished for ``rules`` (successfully)."""
        with self._lock:
            found = self._preparing.get(f"{rules!r}:{winner}")
        return found is not None and found.done() and found.exception() is None

    # --- The queue ---------------------------------------------------------------------

    def _ask(self, kind: str, game_id: str, version: int,
             work: Callable[[], T]) -> Answer[T]:
        key = (kind, game_id)
        passed_over = None
        with self._lock:
            job = self._latest.get(key)
            if job is not None and job.version == version and not (
                    job.future.done() and job.future.exception() is not None):
                return job.future  # worked out (or being worked out) already
            if self._waiting >= self.queue_limit:
                raise AdviceBusy(retry_after=2)
            new = _Job(version, Answer(version), work)
            self._latest[key] = new
            self._waiting += 1
            if key in self._running:  # one version of a game at a time: wait
                passed_over = self._queued.get(key)
                self._queued[key] = new
                if passed_over is not None:
                    self._waiting -= 1
            else:
                self._running[key] = new
                self._pool.submit(self._work, key, new)
            if len(self._latest) > 4 * self.queue_limit + 256:
                self._forget_done()
        if passed_over is not None:
            passed_over.future.set_exception(Superseded())
        return new.future

    def _work(self, key: tuple[str, str], job: _Job) -> None:
        with self._lock:
            self._waiting -= 1
        release = None
        try:
            release = self._take_turn(key)
            answer = job.work()
        except BaseException as exc:  # the waiters see it; the next request tries again
            self._give_turn_back(release)
            job.future.set_exception(exc)
        else:  # the turn is given back before the answer is out: a waiter that asks
            self._give_turn_back(release)  # again at once is not told "busy"
            job.future.set_result(answer)
        finally:
            with self._lock:
                self._running.pop(key, None)
                following = self._queued.pop(key, None)
                if following is not None:
                    self._running[key] = following
                    self._pool.submit(self._work, key, following)

    def _take_turn(self, key: tuple[str, str]) -> Callable[[], None] | None:
        """The site's turn to work out ``key`` (kind, game id), taken: the function
        that gives it back (``None`` without shared limits, or while they do not
        answer); :class:`AdviceBusy` when another process holds it."""
        store = self.shared.store()
        if store is None:
            return None
        try:
            release = store.lock(f"advice:{key[0]}:{key[1]}", SHARED_TURN)
        except SharedLimitsDown as exc:
            self.shared.failed(exc)
            return None
        self.shared.answered()
        if release is None:
            raise AdviceBusy(retry_after=1)
        return release

    def _give_turn_back(self, release: Callable[[], None] | None) -> None:
        if release is None:
            return
        try:
            release()
        except SharedLimitsDown as exc:  # the turn ends by itself after SHARED_TURN
            self.shared.failed(exc)

    def _forget_done(self) -> None:
        """Drop finished work from the memory of latest versions (under the lock)."""
        for key in [k for k, job in self._latest.items()
                    if job.future.done() and k not in self._queued]:
            del self._latest[key]

    def close(self) -> None:
        """Stop the pool (what is running finishes)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _advise(game: Game) -> list[Any]:
    from yatzy.solver import strategy

    return list(strategy(check_game(game).ruleset).advise(game))


def _chances(game: Game) -> dict[str, float]:
    from yatzy.solver import strategy

    return strategy(check_game(game).ruleset).win_chances(game)


def _analyse(game: Game) -> Any:
    from yatzy.solver.analysis import analyse

    return analyse(game)


def _prepare(rules: Ruleset, winner: bool) -> None:
    from yatzy.solver import strategy

    start = time.perf_counter()
    strategy(rules)
    log.info("The optimal strategy of %s is ready (%.1f s)", rules, time.perf_counter() - start)
    if winner:
        from yatzy.solver.policy import table_strategy
        from yatzy.solver.winning import remaining_table

        start = time.perf_counter()
        remaining_table(table_strategy(rules))
        log.info("The winner level's table of %s is ready (%.1f s)", rules,
                 time.perf_counter() - start)
