"""The ports of the game service: what it needs from a store, as protocols.

:mod:`yatzy.storage` implements :class:`GameRepository` and :class:`LeaseStore` with
SQLAlchemy; the service never imports it (the composition root :mod:`yatzy.bootstrap`
plugs them together).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from yatzy.app.devices import Passkey
from yatzy.app.errors import AlreadyWaiting
from yatzy.app.events import Event
from yatzy.app.feed import ChangeLog
from yatzy.app.profiles import ProfileRepository
from yatzy.app.ratings import Rating
from yatzy.app.saved import (
    BestScore,
    DailyEntry,
    LeaderEntry,
    ListedGame,
    Player,
    SavedGame,
    SeatedGame,
    StatsRow,
    Ticket,
)
from yatzy.core.rulesets import Ruleset

#: A ruleset filter: a :class:`Ruleset` (that name with exactly those options), a
#: ruleset name (every variant of it) or ``None`` (every ruleset).
RulesFilter = Ruleset | str | None

#: What :meth:`MatchRepository.add_tickets` answers for an arrival: the ticket as stored
#: (waiting, or matched) and, when its arrival made the pairing, the ticket it took (seat
#: 0; the arrival has seat 1); or :class:`~yatzy.app.errors.AlreadyWaiting`.
Arrived = tuple[Ticket, Ticket | None] | AlreadyWaiting

#: A new game to store: the game, its events and its claims (``(seat, key_hash)``).
NewGame = tuple[SavedGame, Sequence[Event], Sequence[tuple[int, str]]]


class PlayerRepository(Protocol):
    """Where players, the server's settings and the daily challenges' entries live.

    Writes commit before they return; failures are
    :class:`~yatzy.app.errors.StorageError`.
    """

    def setting(self, key: str, default: str) -> str:
        """The setting ``key``; when there is none yet, ``default`` is stored and
        returned (the first writer wins: every caller gets the same value)."""
        ...

    def player_of_key(self, key_hash: str, *, create_at: datetime | None = None
                      ) -> Player | None:
        """The player whose browser has the key ``key_hash``; with ``create_at``, a new
        player without a name is made for a key no player has."""
        ...

    def players_of_keys(self, key_hashes: Sequence[str]) -> dict[str, Player]:
        """The players of the browsers with the keys ``key_hashes`` (by key hash; a key
        no player has is left out), in one read."""
        ...

    def player_named(self, name_key: str) -> Player | None:
        """The player whose name's key (:func:`yatzy.core.names.name_key`) is
        ``name_key``."""
        ...

    def rename_player(self, player_id: str, name: str, name_key: str, when: datetime
                      ) -> None:
        """Give the player a display name; :class:`~yatzy.app.errors.NameTaken` when
        another player has one with the same key."""
        ...

    def player_games(self, player_id: str) -> int:
        """How many finished games the player's browsers sat in."""
        ...

    def add_daily_entry(self, entry: DailyEntry) -> None:
        """Note a ranked attempt; :class:`~yatzy.app.errors.DailyPlayed` when the
        player has one for that ruleset and day."""
        ...

    def finish_daily_entry(self, entry: DailyEntry) -> None:
        """Note the total, points lost and end time of an attempt."""
        ...

    def daily_entries(self, rules: str, day: date) -> list[DailyEntry]:
        """Every ranked attempt at the challenge of ``rules`` on ``day``."""
        ...

    def daily_counts(self, day: date) -> dict[str, int]:
        """The number of ranked attempts on ``day``, by ruleset."""
        ...

    def player_entries(self, player_id: str) -> list[DailyEntry]:
        """Every ranked attempt of the player, newest day first."""
        ...

    def daily_par(self, rules: str, day: date) -> int | None:
        """The par noted for the challenge of ``rules`` on ``day``."""
        ...

    def set_daily_par(self, rules: str, day: date, par: int) -> None:
        """Note the par of a challenge (a second note of the same par is no change)."""
        ...


class MatchRepository(Protocol):
    """Where the quick-match tickets and the rated games live, shared by every process
    of a site: a pairing is decided by the store (one transaction), never in one
    process's memory.

    Writes commit before they return; failures are
    :class:`~yatzy.app.errors.StorageError`.
    """

    def add_tickets(self, arrivals: Sequence[tuple[Ticket, str]], *, stale_before: datetime,
                    nearest: Callable[[Sequence[Ticket], Ticket], Ticket | None],
                    games: Callable[[list[list[Ticket]]], Sequence[NewGame]] | None = None,
                    pool: int = 1000) -> list[Arrived]:
        """Store new tickets (with the id of the game each would make) in one
        transaction, as one by one in their order: each pairs with ``nearest(waiting,
        ticket)`` among the tickets waiting by then (up to ``pool`` stored ones asked
        about since ``stale_before``, the oldest first, and the earlier arrivals left
        waiting), or waits. A stored ticket another process's
        pairing holds at that moment is left to it. ``games(pairings)`` (each pairing's
        tickets in seat order) gives the games of the pairings, stored in the same
        transaction (as :meth:`add_many`). The answer of each, in their order."""
        ...

    def ticket(self, ticket_id: str) -> Ticket | None:
        """The ticket whose id (the SHA-256 of the ticket) is ``ticket_id``."""
        ...

    def ticket_and_game(self, ticket_id: str) -> tuple[Ticket, bool] | None:
        """The ticket whose id is ``ticket_id`` and whether the game it is matched to
        is stored (False while it waits), in one read."""
        ...

    def see_ticket(self, ticket_id: str, when: datetime) -> None:
        """Note that the holder of a waiting ticket asked about it at ``when``."""
        ...

    def cancel_ticket(self, ticket_id: str) -> bool:
        """Cancel the ticket if it still waits; False (no change) when it does not."""
        ...

    def waiting_tickets(self, rules: str, *, near: float, seen_since: datetime,
                        excluding: str, limit: int) -> list[Ticket]:
        """Up to ``limit`` waiting tickets for ``rules`` asked about since
        ``seen_since``, of players other than ``excluding``: the rating nearest ``near``
        first, then the oldest."""
        ...

    def pair_tickets(self, seats: Sequence[str], game_id: str, rules: str,
                     when: datetime) -> bool:
        """Match the two tickets ``seats`` (their ids, in seat order) to the game
        ``game_id`` and note the game as rated, in one transaction, if both still wait;
        False, changing nothing, when one does not (paired or cancelled elsewhere)."""
        ...

    def match_of(self, game_id: str) -> list[Ticket]:
        """The tickets matched to ``game_id``, in seat order."""
        ...

    def unrated_games(self, player_id: str) -> list[str]:
        """The player's rated games whose result has not counted yet."""
        ...

    def players_unrated(self, player_ids: Sequence[str]) -> set[str]:
        """Those of ``player_ids`` who have rated games whose result has not counted
        yet (:meth:`unrated_games`), in one read."""
        ...

    def overdue_rated(self, before: datetime, limit: int) -> list[str]:
        """Up to ``limit`` rated games in play (their result not counted) that nobody
        has moved in since ``before``, the longest unmoved first: games whose player to
        move may have let the clock run out while no process held them."""
        ...

    def rate_game(self, game_id: str, rate: Callable[[list[Rating]], list[Rating]],
                  when: datetime) -> bool:
        """Count the result of the rated game ``game_id`` once: in one transaction, its
        players' ratings (in seat order) become ``rate(ratings)``. False, changing
        nothing, when it counted already (here or in another process)."""
        ...


class DeviceRepository(PlayerRepository, Protocol):
    """Where link codes, passkeys and their challenges live (:mod:`yatzy.app.devices`).
    Every method that writes commits before it returns; methods raise
    :class:`~yatzy.app.errors.StorageError` when the store fails."""

    def add_link_code(self, code_hash: str, player_id: str, when: datetime,
                      expires_at: datetime) -> None:
        """Store a new link code of the player (its hash), which replaces the player's
        unused ones (they expire)."""
        ...

    def use_link_code(self, code_hash: str, key_hash: str, when: datetime) -> str:
        """Use the link code once: tie the browser ``key_hash`` to its player (whose id
        is the answer), in one transaction. :class:`~yatzy.app.devices.LinkCodeUnknown`,
        :class:`~yatzy.app.devices.LinkCodeUsed` or
        :class:`~yatzy.app.devices.LinkCodeExpired`, changing nothing, when it cannot."""
        ...

    def link_failures(self, subjects: Sequence[str], *, since: datetime,
                      limit: int) -> datetime | None:
        """When the oldest failure since ``since`` of a subject with ``limit`` failures
        or more since then happened (``None``: no subject has that many)."""
        ...

    def add_link_failure(self, subjects: Sequence[str], when: datetime) -> None:
        """Note a refused link code against each of ``subjects``."""
        ...

    def add_challenge(self, challenge_hash: str, purpose: str, player_id: str | None,
                      expires_at: datetime, when: datetime) -> None:
        """Store a passkey challenge (its hash) for ``purpose``, asked for by the player
        (``None``: anyone)."""
        ...

    def take_challenge(self, challenge_hash: str, purpose: str, player_id: str | None,
                       when: datetime) -> bool:
        """Use the challenge once: True when it was waiting, for ``purpose`` and the
        player, and had not expired by ``when``; it is gone either way."""
        ...

    def add_passkey(self, passkey: Passkey) -> None:
        """Store a new passkey (:class:`~yatzy.app.devices.PasskeyRefused` when its
        credential is registered already)."""
        ...

    def passkey(self, passkey_id: str) -> Passkey | None:
        """The passkey with this credential id, or ``None``."""
        ...

    def passkeys_of(self, player_id: str) -> list[Passkey]:
        """The player's passkeys, oldest first."""
        ...

    def delete_passkey(self, passkey_id: str, player_id: str) -> bool:
        """Forget the player's passkey; False when the player has none with that id."""
        ...

    def use_passkey(self, passkey_id: str, sign_count: int, key_hash: str,
                    when: datetime) -> None:
        """Note a sign-in with the passkey (its new counter) and tie the browser
        ``key_hash`` to its player, in one transaction."""
        ...


class GameRepository(DeviceRepository, MatchRepository, ProfileRepository, ChangeLog,
                     Protocol):
    """Where saved games and the history of finished games live.

    Every method that writes commits before it returns, so a crash loses nothing that a
    method call has returned from. Methods raise :class:`~yatzy.app.errors.StorageError`
    when the store fails. A write's ``events`` go into the store's change log
    (:class:`~yatzy.app.feed.ChangeLog`) in the same transaction.
    """

    def add(self, saved: SavedGame, *, events: Sequence[Event] = (),
            claims: Sequence[tuple[int, str]] = ()) -> None:
        """Store a new game; ``claims`` are ``(seat, key_hash)``: browsers that sit in
        its seats from the start (as :meth:`claim`), in the same transaction."""
        ...

    def add_many(self, new: Sequence[NewGame]) -> None:
        """Store new games, each with its events and claims (as :meth:`add`), in one
        transaction."""
        ...

    def save(self, saved: SavedGame, *, expected_version: int,
             events: Sequence[Event] = ()) -> None:
        """Replace the stored game ``saved.id``, which must still be at
        ``expected_version`` (else :class:`~yatzy.app.errors.GameChanged`); a finished
        game's results go into the history in the same transaction."""
        ...

    def reseat(self, saved: SavedGame, *, expected_version: int,
               events: Sequence[Event] = ()) -> None:
        """Replace the stored game ``saved.id``, which nobody has moved in, with the
        same game at other seats (a person took an open seat): one conditional write of
        the game still at ``expected_version`` (else
        :class:`~yatzy.app.errors.GameChanged`, nothing written)."""
        ...

    def lobby(self, *, waiting_since: datetime, live_since: datetime, limit: int,
              known: Mapping[str, SavedGame] | None = None
              ) -> tuple[list[SavedGame], list[SavedGame]]:
        """The public tables not over, up to ``limit`` of each kind, newest first: with
        open seats, joined or opened since ``waiting_since``; full, played since
        ``live_since``. A game of ``known`` still at its version may be answered as
        that copy, without reading it back."""
        ...

    def get(self, game_id: str, *, known: SavedGame | None = None) -> SavedGame:
        """The game ``game_id``, or :class:`~yatzy.app.errors.GameNotFound`. ``known``
        is a copy of it read or written before: while the stored game is still at its
        version, the store may answer that copy without reading the game back."""
        ...

    def unfinished(self) -> list[ListedGame]:
        """The games not over yet, most recently played first; a game that cannot be
        read is listed as a :class:`~yatzy.app.saved.DamagedGame`, not raised."""
        ...

    def recent(
        self, limit: int = 20, *, finished: bool | None = None, player: str | None = None,
        seed: str | None = None,
    ) -> list[ListedGame]:
        """Up to ``limit`` games, most recently played first: finished ones
        (``finished=True``), unfinished ones (``False``) or both (``None``); with
        ``player``, only games in which a player of that name has a seat (and damaged
        games whose seats cannot be read); with ``seed`` (a seed's text form), only
        games dealt from that seed. A game that cannot be read is listed as a
        :class:`~yatzy.app.saved.DamagedGame`."""
        ...

    def stored(self, game_id: str) -> dict[str, Any]:
        """The row of game ``game_id`` as stored, JSON-ready (columns that do not
        decode stay text), or :class:`~yatzy.app.errors.GameNotFound`: the way out for
        a game that no longer reads. The seed of a game not finished is left out."""
        ...

    def has_game(self, game_id: str) -> bool:
        """True when the game ``game_id`` is stored (without reading it)."""
        ...

    def ids_starting_with(self, prefix: str) -> list[str]:
        """The ids of the stored games that start with ``prefix`` (ignoring case),
        sorted."""
        ...

    def delete(self, game_id: str, *, events: Sequence[Event] = ()) -> None:
        """Remove a game and its results, or :class:`~yatzy.app.errors.GameNotFound`."""
        ...

    def delete_unmoved(self, before: datetime, *, online: bool = False) -> list[str]:
        """Delete the unfinished games nobody has moved in (no action) last changed
        before ``before``, and return their ids; games with a seat token or a claimed
        seat (web games, joined later) only when ``online``."""
        ...

    def best(self, rules: Ruleset, player: str, *, excluding: str | None = None) -> int | None:
        """The best finished total of ``player`` under exactly ``rules``, leaving out
        game ``excluding``; ``None`` when there is none."""
        ...

    def stats(self, rules: RulesFilter = None, player: str | None = None) -> list[StatsRow]:
        """Statistics per ruleset variant and player over finished games."""
        ...

    def scores(self, rules: RulesFilter = None, player: str | None = None) -> list[int]:
        """Finished totals (every player's, or ``player``'s), oldest game first."""
        ...

    def rulesets(self, rules: RulesFilter = None) -> list[Ruleset]:
        """The ruleset variants that have finished games, in display order."""
        ...

    def claim(self, game_id: str, seat: int, key_hash: str, when: datetime) -> None:
        """Record that the browser whose player key hashes to ``key_hash`` sits in seat
        ``seat`` of game ``game_id`` (again: no change)."""
        ...

    def seated_games(self, key_hash: str, limit: int) -> list[SeatedGame]:
        """Up to ``limit`` games in which ``key_hash`` has a seat, most recently played
        first."""
        ...

    def bests(self, key_hash: str) -> list[BestScore]:
        """``key_hash``'s best finished total per ruleset variant."""
        ...

    def leaderboard(self, rules: Ruleset, limit: int) -> list[LeaderEntry]:
        """The ``limit`` best totals of people (not computers) under exactly ``rules``,
        the earliest first among equal totals."""
        ...

    def ping(self) -> None:
        """Ask the database one cheap question about its games (is it there, does it
        answer); :class:`~yatzy.app.errors.StorageError` when it does not."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


@dataclass(frozen=True)
class Lease:
    """A lease as the store holds it right after an attempt to take it: who holds it
    (``holder``, a :attr:`LeaseStore.holder`), whether that is the one who asked
    (``mine``), and the seconds it has left, by the store's clock (so that the clocks of
    the machines that share the store need not agree)."""

    name: str
    holder: str
    mine: bool
    remaining: float


class LeaseStore(Protocol):
    """Leases in a store that several processes share: a lease names something that
    one process at a time may do (play a game's computer turns), is held until it is
    released or runs out, and is renewed by taking it again before it does.

    Methods raise :class:`~yatzy.app.errors.StorageError` when the store fails; each
    commits before it returns.
    """

    #: Who takes leases through this store (one id per process).
    holder: str

    def take(self, name: str, seconds: float) -> Lease:
        """Take the lease ``name`` for ``seconds`` from now when nobody holds it or its
        holder let it run out, or renew it when this holder has it; otherwise leave it
        to its holder. Returns the lease as it stands then."""
        ...

    def release(self, name: str, *, events: Sequence[Event] = ()) -> bool:
        """Let go of the lease ``name`` if this holder has it, writing ``events`` to the
        change log in the same transaction; True when it was held."""
        ...

    def release_all(self) -> list[str]:
        """Let go of every lease of this holder (it stops); their names."""
        ...

    def expired(self, limit: int = 100) -> list[str]:
        """The names of up to ``limit`` leases that ran out without being released (their
        holder stopped without letting go: killed, or its machine lost)."""
        ...


class SharedLimitsDown(Exception):
    """The store of the shared limits did not answer (in time)."""


class SharedLimits(Protocol):
    """Counts and locks shared by every server process of a site, so that the limits
    on one client or one game hold however many processes serve it (a site of one
    process has none: its limits are in its memory).

    Keys name what is counted (``rate:203.0.113.9``); the store keeps them apart from
    everything else it holds. Every method raises :class:`SharedLimitsDown` when the
    store does not answer: the caller then counts in its own memory
    (:class:`~yatzy.app.limits.SharedGuard`).
    """

    def take(self, key: str, rate: float, burst: int) -> bool:
        """Take one from the token bucket ``key``, which fills with ``rate`` tokens a
        second up to ``burst`` (and starts full); False, taking nothing, when it holds
        less than one."""
        ...

    def admit(self, key: str, limit: int, window: float) -> float | None:
        """Count one event in ``key`` unless ``limit`` events are counted in the last
        ``window`` seconds: ``None`` when counted, else the seconds until the oldest of
        them leaves the window."""
        ...

    def lock(self, key: str, seconds: float) -> Callable[[], None] | None:
        """Take the lock ``key`` unless it is held: the function that gives it back,
        or ``None`` when it is held. A lock not given back within ``seconds`` (its
        holder died) is free again."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...
