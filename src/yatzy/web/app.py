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
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from yatzy.app.service import GameService
from yatzy.web import api, errors, pages, ws
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


def create_app(service: GameService, settings: Settings | None = None) -> FastAPI:
    """The web app over ``service`` (which it closes when it stops)."""
    settings = settings or Settings()

    rooms = Rooms(service, pace=settings.pace)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await rooms.close()
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
    app.state.limiter = RateLimiter(settings.rate, settings.burst)
    errors.install(app)
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _docs(app)
    app.add_middleware(SecureHeaders)
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


def _version() -> str:
    from yatzy import __version__

    return __version__
