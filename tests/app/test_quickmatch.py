"""Quick match and ratings (yatzy.app.quickmatch) on SQLite and PostgreSQL: pairing by
rating, one waiting ticket a player, cancelling, the computer offered after a wait, and
a rated game's result counted once for both players, also with two services (two
processes) on one database."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.app.playing import START
from yatzy.app import GameService
from yatzy.app.access import player_key_hash, token_hash
from yatzy.app.errors import (
    AlreadyWaiting,
    NameNeeded,
    StorageError,
    TicketClosed,
    TicketNotFound,
)
from yatzy.app.quickmatch import (
    OFFER_AFTER,
    STALE,
    MatchStatus,
    QuickMatch,
    nearest,
    new_ticket,
    seat_token,
)
from yatzy.app.ratings import Rating, game_scores, rate_pair
from yatzy.app.saved import SavedGame, Ticket
from yatzy.bootstrap import open_service
from yatzy.core.actions import Roll, Score
from yatzy.core.rulesets import ruleset

LEVELS = ("random", "greedy", "easy", "medium", "hard", "optimal")


class Clock:
    """A clock that stands still until it is moved on."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def store_waiting(repo: Any, ticket: Ticket, *, stale_before: datetime) -> None:
    """Store ``ticket`` as waiting, paired with nobody (a batch of one arrival that
    pairs with no ticket), as if its player had asked before the others."""
    answer, = repo.add_tickets([(ticket, "")], stale_before=stale_before,
                               nearest=lambda waiting, mine: None)
    assert not isinstance(answer, AlreadyWaiting)


@pytest.fixture
def db(sql_db: str | Path) -> str | Path:
    """Each test on SQLite and on PostgreSQL."""
    return sql_db


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(db: str | Path, clock: Clock) -> Iterator[GameService]:
    with open_service(db, clock=clock) as service:
        yield service


def key(n: int) -> str:
    return f"player-key-{n:04d}-abcdefghijklmnop"


def named(service: GameService, n: int, name: str | None = None) -> str:
    service.players.set_name(key(n), name or f"P{n}")
    return key(n)


def play_out(service: GameService, saved: SavedGame) -> SavedGame:
    """Each player rolls once and fills the first open box, to the end."""
    while not saved.finished:
        game = saved.game
        if game.dice is None:
            saved = service.apply(saved.id, Roll())
        else:
            box = game.cards[game.current_seat].open_boxes[0]
            saved = service.apply(saved.id, Score(box))
    return saved


def test_two_players_are_paired_into_one_rated_game(service: GameService,
                                                    clock: Clock) -> None:
    ann, bo = named(service, 1, "Ann"), named(service, 2, "Bo")
    first = service.matches.request(ann, "yatzy")
    assert service.matches.status(ann, first).status == "waiting"
    clock.advance(1)
    second = service.matches.request(bo, "yatzy")
    a, b = service.matches.status(ann, first), service.matches.status(bo, second)
    assert a.status == b.status == "matched" and a.game_id == b.game_id
    assert a.seat_token == seat_token(first) and b.seat_token == seat_token(second)
    saved = service.load(a.game_id)
    assert saved.rated and saved.dice_mode == "auto"
    assert [s.name for s in saved.seats] == ["Ann", "Bo"]  # who waited longer sits first
    assert saved.rules == ruleset("yatzy")  # its standard options
    # Each seat answers to its own ticket's token, and is in its player's games.
    from yatzy.app.access import seat_for_token

    assert seat_for_token(saved.seats, a.seat_token) == saved.seats[0]
    assert seat_for_token(saved.seats, b.seat_token) == saved.seats[1]
    assert [g.saved.id for g in service.my_games(ann)] == [saved.id]
    assert [g.seat for g in service.my_games(bo)] == [1]


def test_other_rulesets_wait_apart_and_the_nearest_rating_comes_first(
        service: GameService, clock: Clock) -> None:
    players = [named(service, n) for n in range(5)]
    repo = service.matches._repo
    waiting = {}
    # Four players wait (stored as waiting, not paired): one for another ruleset.
    for n, rules, rating in ((0, "yahtzee", 1500.0), (1, "yatzy", 1900.0),
                             (2, "yatzy", 1530.0), (3, "yatzy", 1470.0)):
        clock.advance(1)
        ticket = new_ticket()
        player = service.players.me(players[n])
        store_waiting(repo, Ticket(token_hash(ticket), player.id, f"P{n}",
                               player_key_hash(players[n]), token_hash(seat_token(ticket)),
                               rules, rating, "waiting", clock(), clock()),
                        stale_before=clock() - timedelta(seconds=STALE))
        waiting[n] = ticket
    # A newcomer (1500) is paired with the nearest: 1470 and 1530 are as near, and
    # the one who waited longer goes first.
    clock.advance(1)
    newcomer = service.matches.request(players[4], "yatzy")
    paired = service.matches.status(players[4], newcomer)
    assert paired.status == "matched"
    assert service.matches.status(players[2], waiting[2]).game_id == paired.game_id
    for n in (0, 1, 3):
        assert repo.ticket(token_hash(waiting[n])).status == "waiting"


def waiting_ticket(service: GameService, clock: Clock, n: int, rules: str,
                   rating: float) -> Ticket:
    """A new waiting ticket of player ``n`` (named), not stored."""
    ticket = new_ticket()
    player = service.players.me(key(n))
    return Ticket(token_hash(ticket), player.id, f"P{n}", player_key_hash(key(n)),
                  token_hash(seat_token(ticket)), rules, rating, "waiting", clock(), clock())


def test_tickets_stored_together_pair_as_one_by_one_in_their_order(
        service: GameService, clock: Clock) -> None:
    """A batch of arrivals (one transaction) pairs each, in turn, with the nearest
    ticket waiting by then: stored before, or an earlier arrival of the batch."""
    for n in range(1, 7):
        named(service, n)
    repo = service.matches._repo
    stale_before = clock() - timedelta(seconds=STALE)
    # Stored before: P4 (1510) waits for yatzy, P5 for yahtzee.
    four, five = (waiting_ticket(service, clock, 4, "yatzy", 1510.0),
                  waiting_ticket(service, clock, 5, "yahtzee", 1500.0))
    for ticket in (four, five):
        store_waiting(repo, ticket, stale_before=stale_before)
    clock.advance(1)
    one, two, two_again, three = (
        waiting_ticket(service, clock, 1, "yatzy", 1500.0),
        waiting_ticket(service, clock, 2, "yatzy", 1900.0),
        waiting_ticket(service, clock, 2, "yahtzee", 1900.0),
        waiting_ticket(service, clock, 3, "yatzy", 1880.0))
    answers = repo.add_tickets(
        [(one, "g1"), (two, "g2"), (two_again, "g3"), (three, "g4")],
        stale_before=stale_before, nearest=nearest)
    # P1 takes the one waiting for yatzy (P4 sits first), P2 waits (nobody left), P2's
    # second ticket is refused (P2 waits already), and P3 takes P2's ticket.
    first, second, refused, last = answers
    assert not isinstance(first, AlreadyWaiting) and not isinstance(last, AlreadyWaiting)
    assert first[1] is not None and first[1].id == four.id and first[1].seat == 0
    assert (first[0].status, first[0].game_id, first[0].seat) == ("matched", "g1", 1)
    assert isinstance(refused, AlreadyWaiting)
    assert last[1] is not None and last[1].id == two.id
    assert not isinstance(second, AlreadyWaiting) and second[1] is None
    assert (second[0].status, second[0].game_id, second[0].seat) == ("matched", "g4", 0)
    stored = {t.id: repo.ticket(t.id) for t in (one, two, two_again, three, four, five)}
    assert [(stored[t.id].status, stored[t.id].game_id, stored[t.id].seat)
            for t in (four, one, two, three)] == [
        ("matched", "g1", 0), ("matched", "g1", 1), ("matched", "g4", 0),
        ("matched", "g4", 1)]
    assert stored[two_again.id] is None and stored[five.id].status == "waiting"
    assert sorted(t.id for t in repo.match_of("g4")) == sorted([two.id, three.id])
    assert repo.unrated_games(stored[one.id].player_id) == ["g1"]  # both rated


def test_requests_that_come_while_one_is_stored_are_stored_together(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixteen players ask at once: while the first request is stored, the others
    queue, and one transaction stores and pairs them all (then one stores their
    games); each player gets a ticket, every pair one game. Each request's answer says
    whether its own batch matched it: all of the second batch (one pairs with the
    first, who waits alone in the first batch), with the game the question then
    names."""
    keys = [named(service, n) for n in range(16)]
    repo = service.matches._repo
    batches: list[int] = []
    stored = repo.add_tickets

    def add_tickets(arrivals, **kwargs):  # type: ignore[no-untyped-def]
        batches.append(len(arrivals))
        if len(batches) == 1:  # the first holds on until the others wait behind it
            deadline = time.monotonic() + 30
            while len(service.matches._queue) < 16 - batches[0]:
                assert time.monotonic() < deadline, "the others never came"
                time.sleep(0.01)
        return stored(arrivals, **kwargs)

    monkeypatch.setattr(repo, "add_tickets", add_tickets)
    asked: dict[int, tuple[str, MatchStatus]] = {}
    threads = [threading.Thread(target=lambda n=n: asked.__setitem__(
        n, service.matches.ask(keys[n], "yatzy"))) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(batches) == 2 and sum(batches) == 16  # two transactions for sixteen
    assert sorted(at_once.status for _, at_once in asked.values()) == [
        "matched"] * 15 + ["waiting"]
    games: dict[str, list[str]] = {}
    for n, (ticket, at_once) in asked.items():
        found = service.matches.status(keys[n], ticket)
        assert found.status == "matched" and found.game_id is not None
        if at_once.status == "matched":
            assert (at_once.game_id, at_once.seat_token) == (found.game_id, found.seat_token)
        else:
            assert at_once.game_id is None and at_once.seat_token is None
        games.setdefault(found.game_id, []).append(f"P{n}")
    assert len(games) == 8
    for game_id, names in games.items():
        assert sorted(s.name for s in service.load(game_id).seats) == sorted(names)


def test_a_pairing_whose_game_fails_is_not_stored(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tickets, the pairing and its game are one transaction: when the game
    cannot be stored, nothing is, and the request is told so."""
    ann, bo = named(service, 1, "Ann"), named(service, 2, "Bo")
    waiting = service.matches.request(ann, "yatzy")

    def fails(new: object) -> list[object]:
        raise StorageError("The game database failed: full")

    monkeypatch.setattr(service, "creations", fails)
    with pytest.raises(StorageError):
        service.matches.request(bo, "yatzy")
    assert service.matches.status(ann, waiting).status == "waiting"
    monkeypatch.undo()
    again = service.matches.request(bo, "yatzy")  # not waiting with a ticket stored
    found = service.matches.status(bo, again)
    assert found.status == "matched" and found.game_id is not None
    assert [s.name for s in service.load(found.game_id).seats] == ["Ann", "Bo"]


def test_a_name_is_needed_and_one_ticket_waits_at_a_time(
        service: GameService, clock: Clock) -> None:
    with pytest.raises(NameNeeded):
        service.matches.request(key(1), "yatzy")
    ann = named(service, 1)
    ticket = service.matches.request(ann, "yatzy")
    with pytest.raises(AlreadyWaiting):
        service.matches.request(ann, "yahtzee")
    assert service.matches.status(ann, ticket).status == "waiting"
    # A ticket its holder stopped asking about is given up at the next request.
    clock.advance(STALE + 1)
    again = service.matches.request(ann, "yatzy")
    with pytest.raises(TicketClosed) as closed:
        service.matches.status(ann, ticket)
    assert closed.value.params["status"] == "expired"
    assert service.matches.status(ann, again).status == "waiting"


def test_a_ticket_not_asked_about_is_not_paired(service: GameService, clock: Clock) -> None:
    ann, bo = named(service, 1), named(service, 2)
    left = service.matches.request(ann, "yatzy")
    clock.advance(STALE + 1)
    mine = service.matches.request(bo, "yatzy")
    assert service.matches.status(bo, mine).status == "waiting"
    # Ann comes back: asking about the ticket pairs it.
    assert service.matches.status(ann, left).status == "matched"


def test_unknown_and_others_tickets(service: GameService) -> None:
    ann, bo = named(service, 1), named(service, 2)
    ticket = service.matches.request(ann, "yatzy")
    for bad in ("x" * 32, "short", 7, ticket + "!"):
        with pytest.raises(TicketNotFound):
            service.matches.status(ann, bad)
    with pytest.raises(TicketNotFound):
        service.matches.status(bo, ticket)
    with pytest.raises(TicketNotFound):
        service.matches.cancel(bo, ticket)
    assert service.matches.status(ann, ticket).status == "waiting"


def test_cancel(service: GameService) -> None:
    ann, bo, cy = named(service, 1), named(service, 2), named(service, 3)
    ticket = service.matches.request(ann, "yatzy")
    service.matches.cancel(ann, ticket)
    with pytest.raises(TicketClosed):
        service.matches.cancel(ann, ticket)
    with pytest.raises(TicketClosed):
        service.matches.status(ann, ticket)
    # Cancelled: nobody is paired with it, and its player may ask again.
    mine = service.matches.request(bo, "yatzy")
    assert service.matches.status(bo, mine).status == "waiting"
    again = service.matches.request(ann, "yatzy")
    assert service.matches.status(ann, again).status == "matched"
    # A matched ticket is not cancelled: its game stands.
    with pytest.raises(TicketClosed) as closed:
        service.matches.cancel(ann, again)
    assert closed.value.params["status"] == "matched"
    game_id = service.matches.status(bo, mine).game_id
    assert game_id is not None and service.load(game_id).rated
    with pytest.raises(TicketNotFound):
        service.matches.status(cy, mine)


def test_after_a_while_a_computer_of_about_the_players_strength_is_offered(
        service: GameService, clock: Clock) -> None:
    ann = named(service, 1)
    ticket = service.matches.request(ann, "yatzy")
    assert service.matches.status(ann, ticket, lambda rules: LEVELS).offer is None
    clock.advance(OFFER_AFTER)
    found = service.matches.status(ann, ticket, lambda rules: LEVELS)
    assert found.status == "waiting" and found.offer == "medium"  # 1500
    assert found.waited == OFFER_AFTER


def test_a_rated_game_counts_once_for_both_ratings(service: GameService) -> None:
    ann, bo = named(service, 1, "Ann"), named(service, 2, "Bo")
    first = service.matches.request(ann, "yatzy")
    service.matches.request(bo, "yatzy")
    game_id = service.matches.status(ann, first).game_id
    assert game_id is not None
    saved = play_out(service, service.load(game_id))
    expected = rate_pair(Rating(), Rating(), game_scores([c.total for c in saved.game.cards]))
    for seat, rating in zip(saved.seats, expected, strict=True):
        profile = service.players.profile(seat.name)
        assert (profile.rating, profile.rating_deviation) == (
            round(rating.rating, 1), round(rating.deviation, 1))
        assert profile.rated_games == 1 and profile.provisional and profile.games == 1
    a = service.players.profile("Ann")
    totals = [c.total for c in saved.game.cards]
    # The dice are the game's own (a random seed): a tie leaves equal ratings where they
    # were, but any result makes both surer.
    assert (a.rating == 1500) == (totals[0] == totals[1])
    assert a.rating_deviation is not None and a.rating_deviation < 350
    # Once: rating it again changes nothing.
    assert not service.matches.settle(service.load(game_id))
    assert service.players.profile("Ann") == a


def test_a_game_over_is_rated_when_its_players_are_read(
        db: str | Path, clock: Clock) -> None:
    """The process that stored the last action stopped before it rated the game: reading
    a profile rates it, once, whichever process reads first."""
    with open_service(db, clock=clock) as one, open_service(db, clock=clock) as two:
        ann, bo = named(one, 1, "Ann"), named(one, 2, "Bo")
        first = one.matches.request(ann, "yatzy")
        two.matches.request(bo, "yatzy")
        game_id = two.matches.status(ann, first).game_id
        assert game_id is not None
        saved = one.load(game_id)
        one.matches.settle = lambda saved: False  # type: ignore[method-assign]
        play_out(one, saved)
        results: list[bool] = []
        barrier = threading.Barrier(2)

        def settle(service: GameService) -> None:
            barrier.wait()
            results.append(QuickMatch.settle(service.matches, service.load(game_id)))

        threads = [threading.Thread(target=settle, args=(s,)) for s in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [False, True]
        assert two.players.profile("Bo").rated_games == 1
        assert two.players.profile("Ann").rated_games == 1


def test_two_processes_never_pair_a_ticket_twice(db: str | Path, clock: Clock) -> None:
    """Forty players ask at once through two services (two processes) on one database:
    every ticket ends in exactly one game of two, with its own seat."""
    count = 40
    with open_service(db, clock=clock) as one, open_service(db, clock=clock) as two:
        keys = [named(one, n) for n in range(count)]
        tickets: dict[int, str] = {}
        barrier = threading.Barrier(8)

        def ask(part: int) -> None:
            service = (one, two)[part % 2]
            barrier.wait()
            for n in range(part, count, 8):
                tickets[n] = service.matches.request(keys[n], "yatzy")

        threads = [threading.Thread(target=ask, args=(p,)) for p in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        games: dict[str, list[int]] = {}
        for n, ticket in tickets.items():
            found = one.matches.status(keys[n], ticket)
            if found.status == "matched":
                assert found.game_id is not None
                games.setdefault(found.game_id, []).append(n)
        assert all(len(seated) == 2 for seated in games.values())
        assert sum(len(seated) for seated in games.values()) == count
        for game_id, seated in games.items():
            saved = two.load(game_id)
            assert sorted(s.name for s in saved.seats) == sorted(f"P{n}" for n in seated)
