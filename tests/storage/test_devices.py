"""Link codes, passkeys and their challenges in the store, on SQLite and PostgreSQL: a
code ties a browser's key to its player once (two browsers at once: one of them), a
refused code changes nothing, failures are counted per subject within a window, a
challenge is taken once, a passkey's counter only grows, and a browser's games are
those of every browser of its player."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

import yatzy
from yatzy.app import GameService, Seat
from yatzy.app.devices import (
    LinkCodeExpired,
    LinkCodeUnknown,
    LinkCodeUsed,
    Passkey,
    PasskeyRefused,
)
from yatzy.storage.repository import SqlGameRepository

WHEN = datetime(2026, 12, 2, 10, tzinfo=UTC)
LATER = WHEN + timedelta(minutes=10)
A, B, C = "a" * 64, "b" * 64, "c" * 64


def player(repo: SqlGameRepository, key_hash: str) -> str:
    found = repo.player_of_key(key_hash, create_at=WHEN)
    assert found is not None
    return found.id


def test_a_code_ties_a_key_to_its_player_once(repo: SqlGameRepository) -> None:
    ann, bo = player(repo, A), player(repo, B)
    repo.add_link_code("1" * 64, ann, WHEN, LATER)
    with pytest.raises(LinkCodeUnknown):
        repo.use_link_code("2" * 64, B, WHEN)
    assert repo.use_link_code("1" * 64, B, WHEN) == ann
    assert repo.player_of_key(B) == repo.player_of_key(A)
    with pytest.raises(LinkCodeUsed):
        repo.use_link_code("1" * 64, C, WHEN)
    assert repo.player_of_key(C) is None
    # A key never seen gets a row; the player left behind stays.
    repo.add_link_code("3" * 64, ann, WHEN, LATER)
    assert repo.use_link_code("3" * 64, C, WHEN) == ann
    found = repo.player_of_key(C)
    assert found is not None and found.id == ann
    assert bo != ann


def test_an_expired_or_replaced_code_links_nothing(repo: SqlGameRepository) -> None:
    ann = player(repo, A)
    player(repo, B)
    repo.add_link_code("1" * 64, ann, WHEN, LATER)
    with pytest.raises(LinkCodeExpired):
        repo.use_link_code("1" * 64, B, LATER)
    repo.add_link_code("2" * 64, ann, WHEN, LATER)
    repo.add_link_code("3" * 64, ann, WHEN + timedelta(minutes=1), LATER)
    with pytest.raises(LinkCodeExpired):
        repo.use_link_code("2" * 64, B, WHEN + timedelta(minutes=2))
    found = repo.player_of_key(B)
    assert found is not None and found.id != ann
    assert repo.use_link_code("3" * 64, B, WHEN + timedelta(minutes=2)) == ann


def test_two_browsers_with_one_code_one_link(repo: SqlGameRepository) -> None:
    ann = player(repo, A)
    repo.add_link_code("1" * 64, ann, WHEN, LATER)
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def use(key_hash: str) -> None:
        start.wait()
        try:
            repo.use_link_code("1" * 64, key_hash, WHEN)
            outcomes.append("linked")
        except LinkCodeUsed:
            outcomes.append("used")

    threads = [threading.Thread(target=use, args=(k * 64,)) for k in "bcde"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["linked", "used", "used", "used"]
    linked = [k for k in "bcde" if repo.player_of_key(k * 64) is not None]
    assert len(linked) == 1


def test_failures_count_within_the_window(repo: SqlGameRepository) -> None:
    assert repo.link_failures(["x", "y"], since=WHEN, limit=2) is None
    repo.add_link_failure(["x", "y"], WHEN + timedelta(seconds=1))
    repo.add_link_failure(["x"], WHEN + timedelta(seconds=2))
    assert repo.link_failures(["x", "y"], since=WHEN, limit=2) == WHEN + timedelta(seconds=1)
    assert repo.link_failures(["y"], since=WHEN, limit=2) is None
    assert repo.link_failures(["x"], since=WHEN + timedelta(seconds=1), limit=2) is None


def test_a_challenge_is_taken_once(repo: SqlGameRepository) -> None:
    ann = player(repo, A)
    repo.add_challenge("1" * 64, "register", ann, LATER, WHEN)
    repo.add_challenge("2" * 64, "sign_in", None, LATER, WHEN)
    repo.add_challenge("3" * 64, "sign_in", None, LATER, WHEN)
    assert repo.take_challenge("1" * 64, "register", ann, WHEN)
    assert not repo.take_challenge("1" * 64, "register", ann, WHEN)
    assert not repo.take_challenge("2" * 64, "register", None, WHEN)  # another purpose
    assert not repo.take_challenge("2" * 64, "sign_in", None, WHEN)  # gone all the same
    assert not repo.take_challenge("3" * 64, "sign_in", None, LATER)  # expired
    assert not repo.take_challenge("4" * 64, "sign_in", None, WHEN)


def test_passkeys_and_their_counter(repo: SqlGameRepository) -> None:
    ann = player(repo, A)
    bo = player(repo, B)
    key = Passkey("cred-1", ann, b"\x01\x02" * 40, 0, ("internal", "hybrid"), WHEN)
    repo.add_passkey(key)
    with pytest.raises(PasskeyRefused):
        repo.add_passkey(key)
    assert repo.passkey("cred-1") == key
    assert repo.passkey("cred-2") is None
    assert repo.passkeys_of(ann) == [key] and repo.passkeys_of(bo) == []
    repo.use_passkey("cred-1", 5, B, LATER)
    found = repo.player_of_key(B)
    assert found is not None and found.id == ann
    used = repo.passkey("cred-1")
    assert used is not None and used.sign_count == 5 and used.last_used_at == LATER
    with pytest.raises(PasskeyRefused):
        repo.use_passkey("cred-1", 5, C, LATER)  # the counter must grow
    assert repo.player_of_key(C) is None
    repo.use_passkey("cred-1", 2**32 - 1, C, LATER)  # a counter's largest value
    assert not repo.delete_passkey("cred-1", bo)
    assert repo.delete_passkey("cred-1", ann)
    assert repo.passkeys_of(ann) == []
    with pytest.raises(PasskeyRefused):
        repo.use_passkey("cred-1", 9, C, LATER)


def test_a_browser_s_games_are_its_player_s(service: GameService,
                                            repo: SqlGameRepository) -> None:
    ann = player(repo, A)
    player(repo, B)
    rules = yatzy.ruleset("yatzy")
    first = service.create(rules, [Seat("Ann"), Seat("Bo")], claims=[(0, A)])
    second = service.create(rules, [Seat("Ann"), Seat("Cy")], claims=[(0, B)])
    repo.claim(first.id, 0, B, WHEN)  # one seat, both browsers: listed once
    assert {g.saved.id for g in repo.seated_games(A, 10)} == {first.id}
    repo.add_link_code("1" * 64, ann, WHEN, LATER)
    repo.use_link_code("1" * 64, B, WHEN)
    for key_hash in (A, B):
        seated = repo.seated_games(key_hash, 10)
        assert sorted((g.saved.id, g.seat) for g in seated) == sorted(
            [(first.id, 0), (second.id, 0)])
    assert repo.seated_games(C, 10) == []
