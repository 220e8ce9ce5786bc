"""Quick match: a player asks to be paired for a rated two-player game of a ruleset
(its standard options) and gets a secret *ticket*; the next player who asks for the same
ruleset is paired with the waiting player whose rating is nearest (the oldest first
among equals), and the two get one game, seats named after them, server dice, rated.

Everything is decided in the store that every process of a site shares
(:class:`~yatzy.app.ports.MatchRepository`): the requests a process gets while it stores
others are stored together next, in one transaction that pairs each, in their order,
with the nearest ticket waiting by then (:func:`nearest`; the stored ones read locked,
each taken by an update that fails when it no longer waits) and stores the games of the
pairings; asking about a waiting ticket pairs it with the tickets stored by then by such
updates (both in one transaction). So two processes never pair one ticket twice. Only the
ticket's SHA-256 is stored; the seat token a ticket gives is made from the ticket
(:func:`seat_token`), so the database holds no working token either. A ticket is asked
about (polled) while its holder waits; one not asked about for :data:`STALE` seconds is
not paired (its holder left). After :data:`OFFER_AFTER` seconds without an opponent the
answer offers a computer of about the player's strength
(:func:`~yatzy.app.ratings.level_for`), for an unrated game.

When a rated game is over its result counts once for both players' Glicko-2 ratings
(:mod:`yatzy.app.ratings`): the process that stores the last action rates it, and
reading a player's profile rates any of their games over but not rated yet (a process
stopped in between); the store's conditional update makes it once, whoever comes first.

>>> len(seat_token("x" * 32)), seat_token("x" * 32) == seat_token("x" * 32)
(43, True)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from yatzy.app.access import player_key_hash, token_hash
from yatzy.app.errors import (
    AlreadyWaiting,
    GameNotFound,
    NameNeeded,
    StorageError,
    TicketClosed,
    TicketNotFound,
)
from yatzy.app.ports import GameRepository, NewGame
from yatzy.app.ratings import (
    DEFAULT_RATING,
    Rating,
    game_scores,
    level_for,
    ranked_totals,
    rate_pair,
)
from yatzy.app.saved import MATCHED, WAITING, Player, SavedGame, Seat, Ticket
from yatzy.app.skill import FEWEST_PLAYERS, MOST_PLAYERS, Skill, rate_field
from yatzy.bots import bot_names
from yatzy.core.errors import RecordError
from yatzy.core.names import name_key
from yatzy.core.rulesets import Ruleset, ruleset

if TYPE_CHECKING:
    from yatzy.app.service import GameService

#: Seconds without an opponent after which a computer is offered.
OFFER_AFTER = 20.0
#: Seconds after which a ticket not asked about is not paired (its holder left).
STALE = 30.0
#: Waiting tickets read per attempt to pair, nearest rating first.
CANDIDATES = 8
#: Rounds of reading candidates before a ticket is left waiting (to be tried again at
#: its holder's next question).
PAIR_TRIES = 3

#: A waiting ticket's ``seen_at`` is written at most this often (not at every question).
_SEEN_EVERY = timedelta(seconds=5)

#: How long after a pairing a holder's question still makes its game if it is missing
#: (its maker stopped first); later, a missing game was deleted (never played).
_RESTART = timedelta(seconds=60)

_TICKET = re.compile(r"[A-Za-z0-9_-]{32,64}")


def new_ticket() -> str:
    """A new ticket: 192 random bits, URL-safe text (32 characters)."""
    return secrets.token_urlsafe(24)


def seat_token(ticket: str) -> str:
    """The seat token a ticket gives once matched: HMAC-SHA256 of ``"seat"`` under the
    ticket, URL-safe base64 (43 characters, as :func:`~yatzy.app.access.new_token`)."""
    digest = hmac.new(ticket.encode(), b"seat", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


@dataclass(frozen=True)
class MatchStatus:
    """Where a ticket stands: ``"waiting"`` (``waited`` seconds so far; ``offer``, a
    computer level, once the wait is long) or ``"matched"`` (``game_id`` and the
    holder's ``seat_token``)."""

    status: str
    waited: float
    game_id: str | None = None
    seat_token: str | None = None
    offer: str | None = None


def nearest(waiting: Sequence[Ticket], mine: Ticket) -> Ticket | None:
    """The ticket among ``waiting`` that ``mine`` pairs with: of its ruleset and another
    player, the rating nearest first, then the oldest (then the lowest id); ``None``
    when there is none.

    >>> from datetime import UTC
    >>> def t(id, player, rating, minute, rules="yatzy"):
    ...     at = datetime(2026, 1, 1, 12, minute, tzinfo=UTC)
    ...     return Ticket(id, player, player, "k", "t", rules, rating, WAITING, at, at)
    >>> pool = [t("a", "ann", 1530, 2), t("b", "bo", 1470, 1), t("c", "cy", 1500, 0, "yahtzee")]
    >>> nearest(pool, t("d", "dee", 1500, 3)).id, nearest(pool, t("e", "bo", 1490, 3)).id
    ('b', 'a')
    >>> nearest(pool[:1], t("f", "ann", 1500, 3)) is None
    True
    """
    found = [t for t in waiting if t.rules == mine.rules and t.player_id != mine.player_id]
    if not found:
        return None
    return min(found, key=lambda t: (abs(t.rating - mine.rating), t.created_at, t.id))


@dataclass
class _Request:
    """A quick-match request waiting to be stored with others (:meth:`QuickMatch.request`)."""

    player_key: str
    rules: str
    ticket: str
    #: Set when the request is stored (``done``), or when it is to store the queue.
    ready: threading.Event = field(default_factory=threading.Event)
    done: bool = False
    error: Exception | None = None
    #: The game the ticket was paired into by its own batch, if it was.
    game_id: str | None = None


class QuickMatch:
    """Quick match and ratings over a :class:`~yatzy.app.ports.GameRepository` and the
    games of a :class:`~yatzy.app.service.GameService` (``service.matches``)."""

    def __init__(self, games: GameService, repository: GameRepository,
                 clock: Callable[[], datetime]) -> None:
        self._games = games
        self._repo = repository
        self._clock = clock
        #: Requests waiting to be stored, and whether one is storing a batch of them.
        self._queue: list[_Request] = []
        self._queued = threading.Lock()
        self._busy = False

    # --- Tickets --------------------------------------------------------------------

    def request(self, player_key: str, rules: object) -> str:
        """The ticket of :meth:`ask` (which see)."""
        return self.ask(player_key, rules)[0]

    def ask(self, player_key: str, rules: object) -> tuple[str, MatchStatus]:
        """Queue the player of ``player_key`` for a rated game of ``rules`` (a ruleset's
        name, its standard options) and pair them at once if someone waits: the ticket.
        The player needs a display name (:class:`~yatzy.app.errors.NameNeeded`) and
        waits with one ticket at most (:class:`~yatzy.app.errors.AlreadyWaiting`).

        The requests that come while others are stored are stored together next: one
        transaction stores their tickets, pairs them as one by one in their order, and
        stores the games of the pairings, so a crowd that asks at once costs a few
        commits, not two each.

        Also where the ticket stands at once, as :meth:`status` would say it: matched
        (with the game and the holder's seat token) when the same batch paired it,
        else waiting; so a crowd's every pairing costs one request, not a request and a
        question."""
        from yatzy.app.players import _standard

        mine = _Request(player_key, _standard(rules).name, new_ticket())
        with self._queued:
            self._queue.append(mine)
            leads, self._busy = not self._busy, True
        if not leads:
            mine.ready.wait()  # stored by another, or handed the lead
        if not mine.done:
            with self._queued:
                batch, self._queue = self._queue, []
            try:
                self._serve(batch)
            finally:
                for request in batch:
                    request.done = True
                    request.ready.set()
                with self._queued:
                    if self._queue:  # came meanwhile: the oldest stores them next
                        self._queue[0].ready.set()
                    else:
                        self._busy = False
        if mine.error is not None:
            raise mine.error
        if mine.game_id is not None:
            return mine.ticket, MatchStatus(MATCHED, 0.0, mine.game_id, seat_token(mine.ticket))
        return mine.ticket, MatchStatus(WAITING, 0.0)

    def _serve(self, batch: list[_Request]) -> None:
        """Store and pair the tickets of ``batch`` and store the games of its pairings,
        in one transaction (one batch at a time: :meth:`request`); each request's
        failure is kept on it, and a failure of the whole is every request's."""
        try:
            known = self._repo.players_of_keys(
                [player_key_hash(request.player_key) for request in batch])
            players: dict[str, Player] = {}
            for request in batch:
                player = known.get(player_key_hash(request.player_key))
                if player is None:  # a key seen the first time: a player without a name
                    player = self._games.players.me(request.player_key)
                if player.name is None:
                    request.error = NameNeeded()
                else:
                    players[request.player_key] = player
            for player_id in self._repo.players_unrated(
                    sorted({player.id for player in players.values()})):
                self.settle_player(player_id)  # their rating counts those games first
                for player_key, player in list(players.items()):
                    if player.id == player_id:
                        players[player_key] = self._games.players.me(player_key)
            now = self._clock()
            arrivals = [(self._new(request, players[request.player_key], now), request)
                        for request in batch if request.player_key in players]
            made: list[NewGame] = []

            def games(pairings: list[list[Ticket]]) -> list[NewGame]:
                made[:] = self._games.creations([self._game(p) for p in pairings])
                return made

            answers = self._repo.add_tickets(
                [(ticket, uuid.uuid4().hex) for ticket, _ in arrivals],
                stale_before=now - timedelta(seconds=STALE), nearest=nearest, games=games)
        except Exception as exc:  # nothing is stored: each request is told why
            for request in batch:
                request.error = request.error or exc
            return
        self._games.created(made)
        for (_, request), answer in zip(arrivals, answers, strict=True):
            if isinstance(answer, AlreadyWaiting):
                request.error = answer
            elif answer[0].status == MATCHED:
                request.game_id = answer[0].game_id

    @staticmethod
    def _new(request: _Request, player: Player, now: datetime) -> Ticket:
        """The waiting ticket of ``request`` by ``player`` (named)."""
        assert player.name is not None
        ticket = request.ticket
        return Ticket(token_hash(ticket), player.id, player.name,
                      player_key_hash(request.player_key), token_hash(seat_token(ticket)),
                      request.rules, DEFAULT_RATING if player.rating is None else player.rating,
                      WAITING, now, now)

    def _game(self, tickets: list[Ticket]) -> tuple[SavedGame, list[tuple[int, str]]]:
        """The new game of a pairing (its ``tickets`` in seat order) and its seats'
        claims."""
        assert tickets[0].game_id is not None
        saved = self._games.new_game(
            ruleset(tickets[0].rules),
            [Seat(t.name, token_hash=t.token_hash) for t in tickets],
            game_id=tickets[0].game_id, rated=True)
        return saved, [(t.seat, t.key_hash) for t in tickets if t.seat is not None]

    def _mine(self, player_key: str | None, ticket: object) -> tuple[Ticket, bool]:
        """The ticket (a secret, as a seat's token is: whoever holds it asks about it),
        with ``player_key`` only if it is that player's, and whether its game is
        stored."""
        if not isinstance(ticket, str) or _TICKET.fullmatch(ticket) is None:
            raise TicketNotFound()
        found = self._repo.ticket_and_game(token_hash(ticket))
        if found is None or (player_key is not None and not hmac.compare_digest(
                found[0].key_hash, player_key_hash(player_key))):
            raise TicketNotFound()  # another's ticket is none of this player's business
        return found

    def status(self, player_key: str | None, ticket: object,
               offered: Callable[[Ruleset], Sequence[str]] = lambda rules: ()
               ) -> MatchStatus:
        """Where the ticket of ``player_key`` stands (asking notes that its holder still
        waits, and tries to pair it again). After :data:`OFFER_AFTER` seconds the answer
        offers the level of about the player's strength among ``offered(rules)`` (the
        levels this server seats for the ruleset). A ticket
        cancelled or given up is :class:`~yatzy.app.errors.TicketClosed`; an unknown
        one, or another browser's, :class:`~yatzy.app.errors.TicketNotFound`."""
        found, stored = self._mine(player_key, ticket)
        now = self._clock()
        if found.status == WAITING:
            if now - found.seen_at >= _SEEN_EVERY:
                self._repo.see_ticket(found.id, now)
            if self._pair(found):
                found = self._repo.ticket(found.id) or found
                stored = False  # made by the pairing, or to be checked
        waited = max(0.0, (now - found.created_at).total_seconds())
        if found.status == MATCHED:
            assert found.game_id is not None and isinstance(ticket, str)
            if not stored and (found.matched_at is None or now - found.matched_at < _RESTART):
                self._start(found.game_id)
            return MatchStatus(MATCHED, waited, found.game_id, seat_token(ticket))
        if found.status != WAITING:
            raise TicketClosed(found.status)
        offer = (level_for(found.rating, offered(ruleset(found.rules)))
                 if waited >= OFFER_AFTER else None)
        return MatchStatus(WAITING, waited, offer=offer)

    def cancel(self, player_key: str | None, ticket: object) -> None:
        """Cancel the waiting ticket of ``player_key``; one matched (its game stands),
        cancelled or given up already is :class:`~yatzy.app.errors.TicketClosed` and
        nothing changes."""
        found, _ = self._mine(player_key, ticket)
        if found.status != WAITING or not self._repo.cancel_ticket(found.id):
            now = self._repo.ticket(found.id) or found
            raise TicketClosed(now.status)

    # --- Pairing --------------------------------------------------------------------

    def _pair(self, mine: Ticket) -> bool:
        """Pair ``mine`` with the waiting ticket of the nearest rating, if any: a ticket
        taken meanwhile (by another process) gives way to the next one. True when
        ``mine`` no longer waits (paired here or elsewhere, or cancelled)."""
        for _ in range(PAIR_TRIES):
            now = self._clock()
            found = self._repo.waiting_tickets(
                mine.rules, near=mine.rating, seen_since=now - timedelta(seconds=STALE),
                excluding=mine.player_id, limit=CANDIDATES)
            if not found:
                return False
            for other in found:
                first, second = sorted((mine, other), key=lambda t: (t.created_at, t.id))
                game_id = uuid.uuid4().hex
                if self._repo.pair_tickets([first.id, second.id], game_id, mine.rules, now):
                    self._start(game_id, [replace(first, seat=0), replace(second, seat=1)])
                    return True
                current = self._repo.ticket(mine.id)
                if current is None or current.status != WAITING:
                    return True  # paired by another request meanwhile, or cancelled
        return False

    def _start(self, game_id: str, paired: list[Ticket] | None = None) -> None:
        """Make sure the game of a pairing exists, its seats claimed by the players'
        browsers: made by whoever comes first, the request that paired (with the
        ``paired`` tickets, in seat order) or a holder asking about a pairing whose
        maker stopped before the game was stored."""
        if paired is None and self._repo.has_game(game_id):
            return
        tickets = paired or self._repo.match_of(game_id)
        try:
            self._games.add_games([self._game(
                [replace(t, game_id=game_id) for t in tickets])])
        except StorageError as exc:
            try:
                self._games.load(game_id)  # stored by the other at the same moment
            except GameNotFound:
                raise exc from None  # the store failed: the next question tries again

    # --- Ratings --------------------------------------------------------------------

    def settle(self, saved: SavedGame) -> bool:
        """Count the result of ``saved`` (a rated game that is over) for its players'
        ratings, once: Glicko-2 for a quick match, OpenSkill for a rated public table
        of 3 to 6 players (:mod:`yatzy.app.profiles`). False when it is not such a
        game or counted already."""
        if not saved.finished:
            return False
        totals = ranked_totals([card.total for card in saved.game.cards],
                               [seat.idle for seat in saved.seats])
        if FEWEST_PLAYERS <= len(totals) <= MOST_PLAYERS:
            def rate_all(before: list[tuple[float, float] | None]
                         ) -> list[tuple[float, float]]:
                skills = [Skill() if b is None else Skill(*b) for b in before]
                return [(s.mu, s.sigma) for s in rate_field(skills, totals)]

            return self._repo.rate_table(saved.id, len(totals), rate_all, self._clock())
        if not saved.rated or len(saved.seats) != 2:
            return False
        scores = game_scores(totals)

        def rate(before: list[Rating]) -> list[Rating]:
            return list(rate_pair(before[0], before[1], scores))

        return self._repo.rate_game(saved.id, rate, self._clock())

    def stand_in(self, saved: SavedGame, player: str) -> str:
        """The computer level that plays ``player``'s seat of ``saved`` once their clock
        runs out: the one a quick match offers a player of their rating
        (:func:`~yatzy.app.ratings.level_for`, a new player's rating when unknown) among
        the levels that play the game's rules."""
        rating = DEFAULT_RATING
        try:
            found = self._repo.player_named(name_key(player))
        except StorageError:
            found = None
        if found is not None and found.rating is not None:
            rating = found.rating
        levels = bot_names(saved.rules)
        return level_for(rating, levels) or levels[0]

    def pending(self, player_id: str) -> bool:
        """True when the player has rated games whose result has not counted yet."""
        return bool(self._repo.unrated_games(player_id))

    def settle_player(self, player_id: str) -> None:
        """Count the results of the player's rated games that are over and not counted
        yet (their last action's process stopped before it rated them)."""
        for game_id in self._repo.unrated_games(player_id):
            try:
                saved = self._games.load(game_id)
            except (GameNotFound, RecordError):
                continue
            self.settle(saved)


__all__ = ["CANDIDATES", "OFFER_AFTER", "STALE", "MatchStatus", "QuickMatch", "new_ticket",
           "seat_token"]
