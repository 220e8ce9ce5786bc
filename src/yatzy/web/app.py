"""The web app's composition root: one settings object, one game service, the rooms,
the routes. ``yatzy serve`` runs it with uvicorn.

>>> from fastapi.testclient import TestClient
>>> from yatzy.bootstrap import open_service
>>> with TestClient(create_app(open_service("sqlite://"))) as client:
...     client.get("/healthz").json()
{'status': 'ok'}
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from yatzy.app.advice import AdviceService
from yatzy.app.limits import SharedGuard
from yatzy.app.policy import GameCounter, TablePolicy
from yatzy.app.ports import SharedLimits
from yatzy.app.service import GameService
from yatzy.app.session import LEASE
from yatzy.core.rulesets import ruleset
from yatzy.solver import available as solver_available
from yatzy.web import (
    api,
    daily,
    devices,
    errors,
    lobby,
    lobby_feed,
    ops,
    pages,
    profiles,
    quickmatch,
    ws,
)
from yatzy.web.logs import RequestIds
from yatzy.web.metrics import Metrics
from yatzy.web.protocol import HeadAsGet
from yatzy.web.rooms import Rooms
from yatzy.web.security import RateLimiter, SecureHeaders, redact_server_logs

STATIC = Path(__file__).with_name("static")


@dataclass(frozen=True)
class Settings:
    """How the web app runs."""

    #: Seconds a computer seems to think before each step.
    pace: float = 0.8
    #: Requests a second a client may make on average (0: no limit), and its burst.
    rate: float = 20.0
    burst: int = 60
    #: Which computers and how many a game may seat, and games per client.
    policy: TablePolicy = field(default_factory=TablePolicy)
    #: Threads that work out advice and computers' choices, and the work that may wait.
    advice_workers: int = 2
    advice_queue: int = 16
    #: Rulesets whose optimal strategy is loaded (or built) at start-up, in the
    #: background, so that no request waits for it.
    prepare: tuple[str, ...] = ("yatzy", "yahtzee")
    #: Log a line for every request (method, path without its query, status, time).
    access_log: bool = False
    #: Seconds a lease on a game's computer turns lasts unless renewed (several
    #: processes on one database): how long a process killed holds its computers up.
    lease: float = LEASE


def create_app(service: GameService, settings: Settings | None = None, *,
               shared: SharedLimits | None = None) -> FastAPI:
    """The web app over ``service`` (which it closes when it stops). With ``shared``
    limits (Redis: :func:`yatzy.bootstrap.shared_limits`), the rate limit, the games
    per client and the one-at-a-time advice hold across every server process that
    shares them; without, in this process."""
    settings = settings or Settings()

    guard = SharedGuard(shared)
    advice = AdviceService(workers=settings.advice_workers, queue_limit=settings.advice_queue,
                           shared=guard)
    rooms: Rooms | None = None
    metrics = Metrics(games_held=lambda: 0 if rooms is None else len(rooms))
    service.profiles.background = advice.background  # a finished game's accuracy
    rooms = Rooms(service, pace=settings.pace, think=advice.think, lease=settings.lease,
                  computer_played=lambda action: metrics.computer_step(action.to_dict()["type"]))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        rooms.start()
        if solver_available():  # without the compiled solver there is nothing to load
            for name in settings.prepare:
                advice.prepare(ruleset(name))
        yield
        await rooms.close()
        metrics.close()
        advice.close()
        guard.close()
        service.close()

    app = FastAPI(
        title="yatzy",
        summary="Scandinavian Yatzy and Yahtzee: play in the browser, alone, against the "
                "computer or online with friends.",
        version=_version(),
        lifespan=lifespan,
        docs_url=None, redoc_url=None,
    )
    app.state.rooms = rooms
    app.state.advice = advice
    app.state.metrics = metrics
    app.state.policy = settings.policy
    # Games per client are a rate limit of their own: off with the rate limit (rate 0,
    # as when every client of a load test shares one address).
    app.state.games_started = GameCounter(
        settings.policy if settings.rate > 0 else replace(settings.policy, games_per_window=0),
        shared=guard)
    app.state.limiter = RateLimiter(settings.rate, settings.burst, shared=guard)
    errors.install(app)
    app.include_router(ops.router)
    app.include_router(api.router)
    app.include_router(daily.router)
    app.include_router(quickmatch.router)
    app.include_router(lobby.router)
    app.include_router(profiles.router)
    app.include_router(profiles.pages)
    app.include_router(devices.router)
    app.include_router(ws.router)
    app.include_router(lobby_feed.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _docs(app)
    _websocket_schemas(app)
    app.add_middleware(SecureHeaders)
    app.add_middleware(HeadAsGet)
    # Outermost: every answer, the refusals of SecureHeaders too, carries its id.
    app.add_middleware(RequestIds, access=settings.access_log)
    redact_server_logs()
    return app


def _docs(app: FastAPI) -> None:
    """The OpenAPI document at ``/docs``, drawn by Swagger UI served by the app itself
    (no CDN; its start-up script is a file, so the security policy holds). Swagger UI 5,
    which reads the OpenAPI 3.1 that FastAPI writes, comes in the fastapi-offline
    package (its static files only)."""
    import fastapi_offline

    assets = Path(fastapi_offline.__file__).with_name("static")
    app.mount("/docs/assets", StaticFiles(directory=assets), name="swagger")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(
            "<!doctype html><html lang=en><head><meta charset=utf-8><title>yatzy API</title>"
            '<link rel=icon href="/static/favicon.svg" type="image/svg+xml">'
            '<link rel=stylesheet href="/docs/assets/swagger-ui.css"></head><body>'
            '<div id="swagger-ui"></div><script src="/docs/assets/swagger-ui-bundle.js">'
            '</script><script src="/static/docs.js"></script></body></html>')


def _websocket_schemas(app: FastAPI) -> None:
    """Put the websocket's messages (:data:`~yatzy.web.schemas.ServerMessage`) into the
    OpenAPI document's schemas, beside the HTTP API's: one typed contract for both."""
    from fastapi.openapi.utils import get_openapi
    from pydantic import TypeAdapter

    from yatzy.web.schemas import LobbyServerMessage, ServerMessage

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                                 routes=app.routes)
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            kinds: tuple[tuple[str, Any], ...] = (
                ("ServerMessage", ServerMessage), ("LobbyServerMessage", LobbyServerMessage))
            for title, kind in kinds:
                messages = TypeAdapter(kind).json_schema(
                    ref_template="#/components/schemas/{model}")
                for name, definition in messages.pop("$defs", {}).items():
                    schemas.setdefault(name, definition)
                schemas[title] = messages
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _version() -> str:
    from yatzy import __version__

    return __version__
