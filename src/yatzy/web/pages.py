"""The pages: the home page (start a game) and the game page (play, watch, invite).
Server-rendered templates; the page's own script does the rest. Every text comes from
the same catalogs as the terminal game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from yatzy.app.errors import GameNotFound
from yatzy.core.names import MAX_NAME_LENGTH
from yatzy.core.rulesets import ruleset
from yatzy.core.rulesets import rulesets as all_rulesets
from yatzy.i18n import LANGUAGES, translator
from yatzy.i18n.words import box_label, ruleset_description, ruleset_title
from yatzy.web.errors import LANG_COOKIE, asked_lang, request_lang
from yatzy.web.texts import TEXTS, level_name, page_texts

templates = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))
router = APIRouter(include_in_schema=False)


def script_json(data: object) -> str:
    """``data`` as JSON safe inside a ``<script type="application/json">`` element: no
    ``<`` can close it."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def _page(request: Request, name: str, context: dict[str, Any],
          status_code: int = 200) -> HTMLResponse:
    """A page; one opened with ``?lang=`` also keeps that language for this browser's
    later pages (a cookie for a year, for this site only, never sent to scripts)."""
    response = templates.TemplateResponse(request, name, context, status_code=status_code)
    if (lang := asked_lang(request)) is not None:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, httponly=True,
                            samesite="lax")
    return response


def _common(request: Request) -> dict[str, Any]:
    lang = request_lang(request)
    t = translator(lang)
    texts = page_texts(t)
    return {"lang": lang, "t": t, "languages": LANGUAGES, "texts": texts,
            "texts_json": script_json(texts), "name_max": MAX_NAME_LENGTH}


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """Start a game: rules and options, seats, dice, hints, language. The rules and
    their options are those of ``GET /api/rulesets`` (the same description): a field for
    each option, of its kind, with its label and default."""
    t = translator(request_lang(request))
    context = _common(request) | {
        "rulesets": [ruleset_description(t, info) for info in all_rulesets()],
        # The levels the server's policy offers (winner only where allowed), but random,
        # which is no opponent.
        "bots": [b for b in request.app.state.policy.levels() if b != "random"],
        # Each level's name in the page's language.
        "levels": {b: level_name(t, b) for b in request.app.state.policy.levels()},
        # Which rulesets each level plays (a solver level not those the solver cannot).
        "plays": {b: " ".join(info.name for info in all_rulesets()
                              if b in request.app.state.policy.levels(ruleset(info.name)))
                  for b in request.app.state.policy.levels()},
    }
    return _page(request, "home.html", context)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    """A game: a seat's page when the address holds its token (``#token=``, which never
    reaches the server), else the watchers' page."""
    return await _game(request, game_id, replay=False)


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    """A game again, step by step (arrow keys, or the buttons)."""
    return await _game(request, game_id, replay=True)


async def _game(request: Request, game_id: str, *, replay: bool) -> HTMLResponse:
    rooms = request.app.state.rooms
    try:
        saved = await rooms.run(rooms.service.load, game_id)
    except GameNotFound:
        raise HTTPException(404) from None  # the page that says there is nothing here
    t = translator(request_lang(request))
    boxes = {box: box_label(t, box) for box in saved.game.ruleset.boxes}
    context = _common(request) | {"game_id": game_id[:64], "replay": replay,
                                  "boxes_json": script_json(boxes),
                                  "key_help": t._(TEXTS["key_help"],
                                                  dice=saved.game.ruleset.dice_count)}
    return _page(request, "game.html", context)


@router.get("/history", response_class=HTMLResponse)
async def history(request: Request) -> HTMLResponse:
    """This browser's games and best scores, and the leaderboards."""
    return _page(request, "history.html", _common(request))


@router.get("/daily", response_class=HTMLResponse)
async def daily(request: Request) -> HTMLResponse:
    """Today's challenges: play, then the results, the leaderboard and the text to
    share; this browser's name and streak; quick match (a rated game against the next
    person waiting) and this browser's rating."""
    t = translator(request_lang(request))
    titles = {info.name: ruleset_title(t, ruleset(info.name)) for info in all_rulesets()}
    # Quick match's computer offer: each level's name in the page's language.
    levels = {b: level_name(t, b) for b in request.app.state.policy.levels()}
    return _page(request, "daily.html", _common(request) | {
        "titles": titles, "titles_json": script_json(titles),
        "levels_json": script_json(levels)})


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The public tables waiting for players (join) and the public games in play
    (watch), and a form to open a public table: the rules and their options as the home
    page offers them (the rulesets' description)."""
    t = translator(request_lang(request))
    context = _common(request) | {
        "rulesets": [ruleset_description(t, info) for info in all_rulesets()]}
    return _page(request, "lobby.html", context)


@router.get("/offline", response_class=HTMLResponse)
async def offline(request: Request) -> HTMLResponse:
    """What the service worker shows for a page when the server cannot be reached (it
    keeps this page, in the language of the browser that installed it)."""
    return _page(request, "offline.html", _common(request))


@router.get("/manifest.webmanifest")
async def manifest(request: Request) -> JSONResponse:
    """The web app manifest: the game installs on a phone's home screen."""
    texts = _common(request)["texts"]
    return JSONResponse(
        {"name": "Yatzy", "short_name": "Yatzy", "description": texts["app_description"],
         "lang": request_lang(request), "start_url": "/", "scope": "/", "id": "/",
         "display": "standalone", "background_color": "#fbfaf7", "theme_color": "#1f6f5c",
         "icons": [{"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                   {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
                   {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}]},
        media_type="application/manifest+json")


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The service worker, at the root so that it serves the whole site."""
    return FileResponse(Path(__file__).with_name("static") / "sw.js",
                        media_type="text/javascript", headers={"Cache-Control": "no-cache"})


def not_found_page(request: Request) -> HTMLResponse:
    """404 for a person: a page in their language, with the way home."""
    return templates.TemplateResponse(request, "not_found.html", _common(request),
                                      status_code=404)
