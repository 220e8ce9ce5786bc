"""The resource policy of a server that seats anyone: which computers a game may have,
how many, and how many games one client may start.

A computer level costs what its tables cost: ``winner`` needs a table of about 740 MB
per ruleset, built in 10 to 20 s, so a server seats it only where it is allowed and its
table is ready (the advice service prepares it in the background). The policy decides;
the web app only asks it and shows its refusal.

>>> from yatzy.app.saved import Seat
>>> policy = TablePolicy(max_computers=2)
>>> policy.check_seats([Seat("Ann"), Seat("cpu", bot="greedy")], ready=lambda level: True)
>>> policy.check_seats([Seat("a", bot="greedy"), Seat("b", bot="greedy")],
...                    ready=lambda level: True)
Traceback (most recent call last):
...
yatzy.app.policy.SeatsRefused: A game here needs at least one person
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from yatzy.app.codes import AppCode
from yatzy.app.errors import AppError
from yatzy.app.limits import SharedGuard
from yatzy.app.ports import SharedLimitsDown
from yatzy.app.saved import Seat
from yatzy.bots import bot_names, check_level
from yatzy.core.errors import BadInput
from yatzy.core.rulesets import Ruleset

#: Computer levels whose table a server builds only when told to (memory and minutes).
COSTLY_LEVELS = frozenset({"winner"})


class SeatsRefused(BadInput, AppError):
    """Seats this server does not offer (a level, too many computers, no person)."""

    code = AppCode.SEATS_REFUSED


class TooManyGames(AppError):
    """One client started more games than the policy allows in its window: ask again
    in ``retry_after`` seconds."""

    code = AppCode.TOO_MANY_GAMES

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many new games from here: wait {retry_after} seconds",
                         seconds=retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class TablePolicy:
    """What a game started by an anonymous client may hold."""

    #: Whether the costly levels (``winner``) may be seated at all; each only once its
    #: table is ready.
    costly: bool = False
    #: The most computer seats in one game.
    max_computers: int = 5
    #: Whether a game must have a person in it (no games of computers only).
    person_needed: bool = True
    #: Games one client may start per :attr:`window` seconds (0: no limit).
    games_per_window: int = 30
    window: float = 600.0

    def levels(self, ruleset: Ruleset | None = None) -> tuple[str, ...]:
        """The computer levels this server offers (a costly one only when allowed), and
        with ``ruleset`` those of them that play it (not the solver's levels where the
        solver does not play the ruleset: see :func:`yatzy.solver.supports`).

        >>> import yatzy
        >>> TablePolicy().levels(yatzy.ruleset("maxi_yatzy"))
        ('random', 'greedy')
        """
        return tuple(name for name in bot_names(ruleset)
                     if self.costly or name not in COSTLY_LEVELS)

    def check_seats(self, seats: Sequence[Seat], *, ready: Callable[[str], bool],
                    ruleset: Ruleset | None = None) -> None:
        """Refuse seats the policy does not allow; ``ready(level)`` says whether a costly
        level's table is ready (a level that is not is refused until it is). With
        ``ruleset``, a level that does not play it is refused with the error that says
        why (:class:`~yatzy.solver.UnsupportedRuleset`)."""
        computers = [seat.bot for seat in seats if seat.bot is not None]
        offered = self.levels()
        for level in computers:
            # A level nobody knows, or one that does not play the ruleset, is the bots'
            # refusal.
            check_level(level, ruleset)
            if level not in offered:
                raise SeatsRefused(
                    f"Computers of level {level} cannot be seated here; choose from "
                    f"{', '.join(offered)}", code=AppCode.LEVEL_NOT_OFFERED,
                    level=level, levels=", ".join(offered))
            if level in COSTLY_LEVELS and not ready(level):
                raise SeatsRefused(
                    f"The {level} computer is still being prepared: try again in a minute",
                    code=AppCode.LEVEL_NOT_READY, level=level)
        if len(computers) > self.max_computers:
            raise SeatsRefused(f"A game here can have at most {self.max_computers} "
                               "computers", code=AppCode.TOO_MANY_COMPUTERS,
                               most=self.max_computers)
        if self.person_needed and len(computers) == len(seats):
            raise SeatsRefused("A game here needs at least one person",
                               code=AppCode.PERSON_NEEDED)


class GameCounter:
    """How many games each client started within the policy's window: counted by the
    ``shared`` limits (Redis), for every server process of the site, while they answer,
    else in this process's memory."""

    def __init__(self, policy: TablePolicy, *,
                 clock: Callable[[], float] = time.monotonic,
                 shared: SharedGuard | None = None) -> None:
        self.policy = policy
        self.shared = shared or SharedGuard(None)
        self._clock = clock
        self._started: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def admit(self, client: str) -> None:
        """Count a new game of ``client``, or raise :class:`TooManyGames`. Blocks while
        the shared limits are asked (up to their timeout): for work on a thread; the
        event loop awaits :meth:`admit_async`."""
        limit, window = self.policy.games_per_window, self.policy.window
        if limit <= 0:
            return
        store = self.shared.store()
        if store is not None:
            try:
                wait = store.admit(f"games:{client}", limit, window)
            except SharedLimitsDown as exc:
                self.shared.failed(exc)
            else:
                self.shared.answered()
                _refuse_after(wait)
                return
        self._admit_here(client)

    async def admit_async(self, client: str) -> None:
        """:meth:`admit` on the event loop: the shared limits are asked off it."""
        limit, window = self.policy.games_per_window, self.policy.window
        if limit <= 0:
            return
        key = f"games:{client}"
        shared = await self.shared.ask(lambda store: store.admit(key, limit, window))
        if shared is not None:
            _refuse_after(shared.value)
            return
        self._admit_here(client)

    def _admit_here(self, client: str) -> None:
        """:meth:`admit` in this process's memory."""
        limit, window = self.policy.games_per_window, self.policy.window
        now = self._clock()
        with self._lock:
            started = self._started.setdefault(client, deque())
            while started and now - started[0] >= window:
                started.popleft()
            if len(started) >= limit:
                raise TooManyGames(max(1, int(window - (now - started[0])) + 1))
            started.append(now)
            if len(self._started) > 10_000:  # forget clients with nothing in the window
                for key in [k for k, v in self._started.items()
                            if not v or now - v[-1] >= window]:
                    del self._started[key]


def _refuse_after(wait: float | None) -> None:
    """:class:`TooManyGames` when the shared window says to ``wait`` seconds."""
    if wait is not None:
        raise TooManyGames(max(1, math.ceil(wait)))
