"""The registry of computer players: every level is known to every thread from the
first call on."""

from __future__ import annotations

import threading
import time

import pytest

from yatzy import bots
from yatzy.bots import UnknownBot, simple


def test_levels_are_known_to_every_thread_from_the_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A fresh process: nothing registered yet, and registering takes a while.
    monkeypatch.setattr(bots, "_loaded", False)
    monkeypatch.setattr(bots, "_REGISTRY", {})
    monkeypatch.setattr(bots, "_UNAVAILABLE", {}, raising=False)
    register_all = simple.register_all

    def slowly() -> None:
        time.sleep(0.2)
        register_all()

    monkeypatch.setattr(simple, "register_all", slowly)
    start = threading.Barrier(6)
    found: list[object] = []

    def ask() -> None:
        start.wait()
        try:
            found.append(bots.check_level("greedy"))
        except UnknownBot as error:
            found.append(error)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert found == ["greedy"] * 6
    assert {"random", "greedy", "optimal"} <= set(bots.bot_names())
