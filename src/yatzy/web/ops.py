"""What an operator's tools ask a server: is it alive (``/healthz``), may it take
requests (``/readyz``), and its numbers (``/metrics``, for Prometheus).

- ``GET|HEAD /healthz``: 200 ``{"status": "ok"}`` while the process serves requests at
  all; it asks nothing else, so a load balancer or a supervisor may ask often.
- ``GET|HEAD /readyz``: 200 when the server can serve, that is when the game database
  answers: ``{"status": "ok", "checks": {"database": "ok", "redis": "ok"}}``, or
  ``"status": "degraded"`` with ``"redis": "down"`` while Redis (when the server uses
  it) does not answer: the server serves all the same (changes reach the other
  processes through the database, the limits are counted in its memory), and every
  process of a site shares the one Redis, so a load balancer that took them out would
  take the whole site down for a fault that does not stop it. Else 503 with
  ``Retry-After`` and the one error shape, code ``not_ready``.
- ``GET /metrics``: the server's numbers in Prometheus's text format: this process's,
  or with ``yatzy serve --workers N`` every worker's added up (:mod:`yatzy.web.metrics`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from yatzy.i18n import N_
from yatzy.web.errors import WebCode, WebError
from yatzy.web.metrics import CONTENT_TYPE, Metrics
from yatzy.web.schemas import ERRORS, Health, Ready

router = APIRouter(tags=["server"])
T = TypeVar("T")

#: Seconds the readiness check waits for the database and Redis to answer.
READY_TIMEOUT = 3.0
#: Seconds a client not served for want of readiness is told to wait.
RETRY_AFTER = 5

#: What the server cannot serve without (the others make it ``degraded``, not unready).
NEEDED = ("database",)
_NOT_READY = N_("Not ready: the game database does not answer")


@router.get("/healthz", response_model=Health, operation_id="healthz")
@router.head("/healthz", response_model=Health, operation_id="healthz_head")
async def healthz() -> dict[str, str]:
    """200 ``{"status": "ok"}`` while the server process answers at all (asks nothing
    of the database: that is ``/readyz``)."""
    return {"status": "ok"}


async def _within(check: Callable[[], T], otherwise: T) -> T:
    """``check()`` on a thread, or ``otherwise`` when it has not answered within
    :data:`READY_TIMEOUT`."""
    try:
        return await asyncio.wait_for(run_in_threadpool(check), READY_TIMEOUT)
    except TimeoutError:
        return otherwise


@router.get("/readyz", response_model=Ready, responses={503: ERRORS[503]},
            operation_id="readyz")
@router.head("/readyz", response_model=Ready, responses={503: ERRORS[503]},
             operation_id="readyz_head")
async def readyz(request: Request) -> dict[str, Any]:
    """200 when the game database answers: the server can take requests (``degraded``
    while Redis, when the server uses it, does not answer: it serves without). Else 503
    with ``Retry-After``, code ``not_ready``."""
    service = request.app.state.rooms.service
    # Both asked at once, each within the budget: a slow Redis makes the server
    # degraded, never unready.
    database, feed = await asyncio.gather(
        _within(service.database_ready, False),
        _within(service.feed_reachable, dict.fromkeys(service.feed_services(), False)))
    checks: dict[str, bool] = {"database": database, **feed}
    if not all(checks.get(name, False) for name in NEEDED):
        raise WebError(503, WebCode.NOT_READY, _NOT_READY, retry_after=RETRY_AFTER)
    return {"status": "ok" if all(checks.values()) else "degraded",
            "checks": {name: "ok" if ok else "down" for name, ok in checks.items()}}


@router.get("/metrics", response_class=Response,
            responses={200: {"content": {CONTENT_TYPE: {}}}})
async def metrics(request: Request) -> Response:
    """The server's numbers for Prometheus (every worker's, with ``--workers N``):
    ``yatzy_actions_total`` and ``yatzy_action_seconds`` by kind,
    ``yatzy_websockets_open``, ``yatzy_games_held``, ``yatzy_computer_steps_total`` by
    kind and ``yatzy_errors_total`` by code."""
    numbers: Metrics = request.app.state.metrics
    # Off the loop: with several workers their numbers are read from files.
    return Response(await run_in_threadpool(numbers.render), media_type=CONTENT_TYPE,
                    headers={"Cache-Control": "no-store"})
