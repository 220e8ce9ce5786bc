"""A player's devices over HTTP: link codes, passkeys and the page ``/devices``. The web
side of :mod:`yatzy.app.devices`, which decides everything; this module only
translates. The contract is in ``docs/web.md`` and at ``/docs``.

The relying party of a passkey is this site: its id is the request's host name and the
origin the browser must be on is the request's scheme, host and port, unless the
deployment says otherwise (:data:`RP_ID_ENV`, :data:`ORIGINS_ENV`), as it should behind
a proxy that does not pass the host on.
"""

from __future__ import annotations

import io
import os
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from yatzy.app.devices import CODE_LENGTH, CODE_MINUTES, DeviceService, RelyingParty
from yatzy.i18n import N_, translator
from yatzy.web.api import PlayerKey, check_rate, client_of, need_key, rooms_of
from yatzy.web.errors import request_lang
from yatzy.web.schemas import ERRORS

#: The environment variable with the passkeys' relying party id (the site's domain,
#: ``yatzy.example.org``); unset, the request's host name.
RP_ID_ENV = "YATZY_RP_ID"
#: The environment variable with the origins a passkey may be used on, separated by
#: commas (``https://yatzy.example.org``); unset, the request's own origin.
ORIGINS_ENV = "YATZY_ORIGINS"

router = APIRouter()

#: The texts of the page ``/devices``, by key (catalog msgids).
TEXTS: dict[str, str] = {
    "title": N_("Your devices"),
    "intro": N_("Play as the same player on your phone and your computer: your name, "
                "rating, games and daily challenges follow you."),
    "you_are": N_("On this device you play as {name}."),
    "no_name": N_("This device has no display name yet."),
    "link_title": N_("Link another device"),
    "link_help": N_("Ask for a code here, then type it on the other device on this page, "
                    "or scan the QR code with it. The code works once, for {minutes} "
                    "minutes."),
    "new_code": N_("Show a link code"),
    "code_label": N_("Link code"),
    "expires": N_("Good until {time}"),
    "qr_alt": N_("QR code of the link"),
    "enter_title": N_("This is my other device"),
    "enter_help": N_("Type the code the other device shows: this device becomes that "
                     "player."),
    "enter_code": N_("Code from the other device"),
    "link": N_("Link this device"),
    "linked": N_("Linked: on this device you now play as {name}."),
    "linked_unnamed": N_("Linked: this device now plays as your other device."),
    "replace_warning": N_("This device plays as {name} now: linking it makes it your "
                          "other device's player instead."),
    "passkeys_title": N_("Passkeys"),
    "passkeys_help": N_("A passkey lets you sign in on a new device with your phone's or "
                        "computer's lock (fingerprint, face, PIN)."),
    "add_passkey": N_("Add a passkey"),
    "passkey_added": N_("Passkey added."),
    "passkey_needs_name": N_("Choose a display name first (on the daily challenge page)."),
    "no_passkeys": N_("No passkeys yet."),
    "passkey_line": N_("Passkey added {date}"),
    "passkey_used": N_("last used {date}"),
    "remove": N_("Remove"),
    "sign_in": N_("Sign in with a passkey"),
    "signed_in": N_("Signed in: on this device you now play as {name}."),
    "no_webauthn": N_("This browser cannot use passkeys here."),
    "cancelled": N_("The passkey was not used."),
    "unreachable": N_("The server cannot be reached"),
}


class LinkCodeOut(BaseModel):
    """``POST /api/me/link-codes``: a code to give on another device, shown once."""

    code: Annotated[str, Field(description=f"{CODE_LENGTH} characters, good once",
                               examples=["K7QM4XPA"])]
    expires_at: datetime
    url: Annotated[str, Field(description="The page that links a device, the code in its "
                                          "fragment (never sent to a server)")]
    qr_svg: Annotated[str, Field(description="A QR code of ``url``, as SVG")]


class LinkIn(BaseModel):
    """``POST /api/me/link``: a code another device of the player showed."""

    model_config = ConfigDict(extra="forbid")
    code: Annotated[str, Field(max_length=64)]


class LinkedOut(BaseModel):
    """The player this browser plays as now."""

    name: str | None


class CredentialIn(BaseModel):
    """A browser's passkey answer (``PublicKeyCredential``, its JSON form:
    ``id``, ``rawId``, ``type``, ``response`` with base64url fields)."""

    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any]


class OptionsOut(BaseModel):
    """The options for ``navigator.credentials.create`` or ``.get``, their binary fields
    base64url (WebAuthn's JSON form)."""

    options: dict[str, Any]


class PasskeyOut(BaseModel):
    """One of the player's passkeys."""

    id: Annotated[str, Field(description="The credential's id (base64url)")]
    created_at: datetime
    last_used_at: datetime | None


def devices_of(request: Request) -> DeviceService:
    devices: DeviceService = rooms_of(request).service.devices
    return devices


def relying_party(request: Request) -> RelyingParty:
    """This site as a passkey's relying party (see the module)."""
    rp_id = os.environ.get(RP_ID_ENV, "").strip() or request.url.hostname or "localhost"
    origins = tuple(o.strip().rstrip("/") for o in os.environ.get(ORIGINS_ENV, "").split(",")
                    if o.strip())
    if not origins:
        origins = (f"{request.url.scheme}://{request.url.netloc}",)
    return RelyingParty(rp_id, origins)


def _qr_svg(text: str) -> str:
    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False,
                                     svgns=True)
    return buffer.getvalue().decode()


@router.post("/api/me/link-codes", status_code=201, response_model=LinkCodeOut,
             responses=ERRORS, tags=["players"])
async def new_link_code(request: Request, player_key: PlayerKey = None) -> dict[str, Any]:
    """A code (and a link with it, and the link's QR code) that ties another browser to
    this browser's player: good once, for 10 minutes; a new one replaces the last."""
    await check_rate(request)
    key = need_key(player_key)
    found = await run_in_threadpool(devices_of(request).new_code, key)
    base = str(request.base_url).rstrip("/")
    url = f"{base}/devices?lang={request_lang(request)}#code={found.code}"
    return {"code": found.code, "expires_at": found.expires_at, "url": url,
            "qr_svg": _qr_svg(url)}


@router.post("/api/me/link", response_model=LinkedOut, responses=ERRORS, tags=["players"])
async def link(body: LinkIn, request: Request, player_key: PlayerKey = None) -> dict[str, Any]:
    """Tie this browser to the player who asked for ``code`` on another device: its
    name, rating, games and daily attempts are this browser's from now on. A wrong code
    is 404, a used or expired one 409, too many refused codes from one client 429;
    each changes nothing."""
    await check_rate(request)
    key = need_key(player_key)
    player = await run_in_threadpool(devices_of(request).link, key, body.code,
                                     client=client_of(request))
    return {"name": player.name}


@router.post("/api/me/passkeys/options", response_model=OptionsOut, responses=ERRORS,
             tags=["players"])
async def passkey_options(request: Request, player_key: PlayerKey = None) -> dict[str, Any]:
    """The options of a new passkey of this browser's player (who needs a display
    name): hand them to ``navigator.credentials.create``, then its answer to ``POST
    /api/me/passkeys`` within 5 minutes."""
    await check_rate(request)
    key = need_key(player_key)
    options = await run_in_threadpool(devices_of(request).registration_options, key,
                                      relying_party(request))
    return {"options": options}


@router.post("/api/me/passkeys", status_code=201, response_model=PasskeyOut,
             responses=ERRORS, tags=["players"])
async def add_passkey(body: CredentialIn, request: Request,
                      player_key: PlayerKey = None) -> dict[str, Any]:
    """Register the passkey the browser made for the options of ``POST
    /api/me/passkeys/options``."""
    await check_rate(request)
    key = need_key(player_key)
    passkey = await run_in_threadpool(devices_of(request).add_passkey, key, body.credential,
                                      relying_party(request))
    return {"id": passkey.id, "created_at": passkey.created_at,
            "last_used_at": passkey.last_used_at}


@router.get("/api/me/passkeys", response_model=list[PasskeyOut], responses=ERRORS,
            tags=["players"])
async def my_passkeys(request: Request, player_key: PlayerKey = None) -> list[dict[str, Any]]:
    """The passkeys of this browser's player, oldest first."""
    await check_rate(request)
    key = need_key(player_key)
    found = await run_in_threadpool(devices_of(request).passkeys, key)
    return [{"id": p.id, "created_at": p.created_at, "last_used_at": p.last_used_at}
            for p in found]


@router.delete("/api/me/passkeys/{passkey_id}", status_code=204, responses=ERRORS,
               tags=["players"])
async def remove_passkey(passkey_id: Annotated[str, Path(max_length=1400)], request: Request,
                         player_key: PlayerKey = None) -> Response:
    """Forget one of the player's passkeys (404 for any other)."""
    await check_rate(request)
    key = need_key(player_key)
    await run_in_threadpool(devices_of(request).remove_passkey, key, passkey_id)
    return Response(status_code=204)


@router.post("/api/passkeys/sign-in/options", response_model=OptionsOut, responses=ERRORS,
             tags=["players"])
async def sign_in_options(request: Request) -> dict[str, Any]:
    """The options of a sign-in with a passkey of this site (the browser offers the
    ones it has): hand them to ``navigator.credentials.get``, then its answer to ``POST
    /api/passkeys/sign-in`` within 5 minutes."""
    await check_rate(request)
    options = await run_in_threadpool(devices_of(request).sign_in_options,
                                      relying_party(request))
    return {"options": options}


@router.post("/api/passkeys/sign-in", response_model=LinkedOut, responses=ERRORS,
             tags=["players"])
async def sign_in(body: CredentialIn, request: Request,
                  player_key: PlayerKey = None) -> dict[str, Any]:
    """Tie this browser to the player whose passkey answered the challenge of ``POST
    /api/passkeys/sign-in/options``."""
    await check_rate(request)
    key = need_key(player_key)
    player = await run_in_threadpool(devices_of(request).sign_in, key, body.credential,
                                     relying_party(request))
    return {"name": player.name}


@router.get("/devices", response_class=HTMLResponse, include_in_schema=False)
async def devices_page(request: Request) -> HTMLResponse:
    """Link another device (a code and its QR code, or the code of another device),
    and passkeys: add one, or sign in with one."""
    from yatzy.web.pages import _common, _page, script_json

    t = translator(request_lang(request))
    texts = {key: t._(message) for key, message in TEXTS.items()}
    texts["link_help"] = t._(TEXTS["link_help"], minutes=CODE_MINUTES)
    return _page(request, "devices.html", _common(request) | {
        "device_texts": texts, "device_texts_json": script_json(texts),
        "code_length": CODE_LENGTH})
