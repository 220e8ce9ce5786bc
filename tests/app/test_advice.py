"""The advice service: once per version, one version of a game at a time, the newest
answer for whoever waited, a bounded queue, and tables prepared off the request path."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest

import yatzy
from yatzy.app.advice import AdviceBusy, AdviceService, Superseded
from yatzy.solver.policy import Strategy

RULES = yatzy.ruleset("yatzy", order="in_order")


@pytest.fixture
def advice() -> Iterator[AdviceService]:
    service = AdviceService(workers=2, queue_limit=3)
    yield service
    service.close()


def games(n: int) -> list[yatzy.Game]:
    """``n`` successive positions of one two-player game."""
    game = yatzy.new_game(RULES, ["Ann", "Bo"], seed=1)
    found = [game]
    for box in ("ones", "ones", "twos", "twos", "threes")[: n - 1]:
        game = game.roll([1, 2, 3, 4, 5]).score(box)
        found.append(game)
    return found


@pytest.fixture
def slow_chances(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Win chances that take 0.3 s and note the number of actions of each game."""
    asked: list[int] = []
    real = Strategy.win_chances

    def slow(self: Strategy, game: yatzy.Game) -> dict[str, float]:
        asked.append(len(game.history))
        time.sleep(0.3)
        return real(self, game)

    monkeypatch.setattr(Strategy, "win_chances", slow)
    return asked


def test_a_version_is_worked_out_once(advice: AdviceService, slow_chances: list[int]) -> None:
    game = games(1)[0]
    first = advice.chances("g", 1, game)
    assert advice.chances("g", 1, game) is first
    answer = advice.wait("chances", "g", first)
    assert advice.chances("g", 1, game) is first  # answered, and kept
    assert slow_chances == [0]
    assert answer == (1, yatzy.strategy(RULES).win_chances(game))


def test_waiting_versions_are_passed_over_for_the_newest(
        advice: AdviceService, slow_chances: list[int]) -> None:
    positions = games(4)
    asked = [advice.chances("g", v + 1, game) for v, game in enumerate(positions)]
    answers = [advice.wait("chances", "g", a) for a in asked]
    # The first is worked out, the two in between are passed over, the last follows.
    assert slow_chances == [0, 6]
    assert [v for v, _ in answers] == [1, 4, 4, 4]
    with pytest.raises(Superseded):
        asked[1].result()


def test_other_games_are_worked_out_side_by_side(
        advice: AdviceService, slow_chances: list[int]) -> None:
    game = games(1)[0]
    start = time.monotonic()
    one, two = advice.chances("g1", 1, game), advice.chances("g2", 1, game)
    one.result(), two.result()
    assert time.monotonic() - start < 0.55  # two threads, not one after the other


def test_a_full_queue_refuses_at_once(advice: AdviceService, slow_chances: list[int]) -> None:
    game = games(1)[0]
    asked = []
    with pytest.raises(AdviceBusy) as refused:
        for i in range(10):
            asked.append(advice.chances(f"g{i}", 1, game))
    # Three may wait (the queue limit); two more may be at work already.
    assert 3 <= len(asked) <= 5
    assert refused.value.retry_after > 0 and refused.value.code == "advice_busy"
    for answer in asked:
        answer.result()
    advice.chances("g9", 1, game).result()  # room again


def test_a_failure_is_tried_again(advice: AdviceService) -> None:
    failed = advice.hint("g", 1, None)  # type: ignore[arg-type]
    with pytest.raises(yatzy.RulesError):  # no game: the solver's typed refusal
        failed.result()
    again = advice.hint("g", 1, None)  # type: ignore[arg-type]
    assert again is not failed  # a failure is not kept as the answer
    with pytest.raises(yatzy.RulesError):
        again.result()
    over = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=2)
    while not over.is_over:
        over = over.roll().score(next(iter(over.roll().choices())))
    analysis = advice.analysis("g", 2, over).result()
    assert analysis.players[0].player == "Ann"


def test_latest_from_a_loop(advice: AdviceService, slow_chances: list[int]) -> None:
    positions = games(3)

    async def ask() -> list[tuple[int, dict[str, float]]]:
        asked = [advice.chances("g", v + 1, game) for v, game in enumerate(positions)]
        return list(await asyncio.gather(*(advice.latest("chances", "g", a)
                                           for a in asked)))

    answers = asyncio.run(ask())
    assert [v for v, _ in answers] == [1, 3, 3]


def test_prepare_loads_a_table_once_on_the_pool(advice: AdviceService) -> None:
    threads: set[str] = set()
    real = yatzy.solver.policy.strategy

    def noted(rules: yatzy.Ruleset, **kwargs: object) -> Strategy:
        threads.add(threading.current_thread().name)
        return real(rules, **kwargs)  # type: ignore[arg-type]

    yatzy.solver.policy.strategy = noted  # type: ignore[assignment]
    import yatzy.solver as solver_package

    old = solver_package.strategy
    solver_package.strategy = noted  # type: ignore[assignment]
    try:
        assert not advice.ready(RULES)
        first = advice.prepare(RULES)
        assert advice.prepare(RULES) is first
        first.result()
        assert advice.ready(RULES) and not advice.ready(RULES, winner=True)
        assert threads and all(name.startswith("yatzy-advice") for name in threads)
    finally:
        yatzy.solver.policy.strategy = real  # type: ignore[assignment]
        solver_package.strategy = old  # type: ignore[assignment]
