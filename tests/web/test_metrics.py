"""The server's numbers of its own process: how long its garbage collector paused it,
by generation, counted when the numbers are read (a collection may interrupt the
histogram's lock), and no longer timed once the app has stopped."""

from __future__ import annotations

import gc

from prometheus_client.parser import text_string_to_metric_families

from yatzy.web.metrics import Metrics


def pauses(metrics: Metrics, generation: str) -> tuple[float, float]:
    """The count and the sum of seconds of the pauses of ``generation`` rendered."""
    count = total = 0.0
    for family in text_string_to_metric_families(metrics.render().decode()):
        for sample in family.samples:
            if sample.labels.get("generation") != generation:
                continue
            if sample.name == "yatzy_gc_pause_seconds_count":
                count = sample.value
            elif sample.name == "yatzy_gc_pause_seconds_sum":
                total = sample.value
    return count, total


def test_the_garbage_collectors_pauses_are_timed_by_generation_until_closed() -> None:
    metrics = Metrics(games_held=lambda: 0)
    try:
        before, _ = pauses(metrics, "2")
        gc.collect()
        gc.collect(0)
        after, seconds = pauses(metrics, "2")
        assert after >= before + 1  # the full collection (the process may make more)
        assert seconds > 0
        assert pauses(metrics, "0")[0] >= 1  # the young one
    finally:
        metrics.close()
    counted = pauses(metrics, "2")[0]
    gc.collect()
    assert pauses(metrics, "2")[0] == counted  # closed: no longer timed
