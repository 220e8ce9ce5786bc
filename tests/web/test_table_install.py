"""Installable: a web app manifest with icons, and a service worker that keeps the app's
shell (never an API answer or a game's state) and shows an offline page when the server
cannot be reached; the content security policy stays strict."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.web.server import free_port, start
from tests.web.test_browser import PHONE

STATIC = Path(__file__).parents[2] / "src" / "yatzy" / "web" / "static"


def test_the_manifest_names_the_app_and_its_icons(base: str) -> None:
    manifest = httpx.get(f"{base}/manifest.webmanifest?lang=sv")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["name"] == "Yatzy" and data["start_url"] == "/" and data["display"] == "standalone"
    assert data["lang"] == "sv" and data["description"].startswith("Yatzy och Yahtzee")
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        answer = httpx.get(f"{base}{icon['src']}")
        assert answer.status_code == 200 and answer.headers["content-type"] == icon["type"]
    home = httpx.get(f"{base}/")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home.text
    csp = home.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe" not in csp
    worker = httpx.get(f"{base}/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")


def test_the_worker_keeps_every_file_of_the_shell() -> None:
    """Every page's file is in the worker's list (the API's documentation script aside),
    and the list names no file that is not there."""
    worker = (STATIC / "sw.js").read_text()
    listed = {line.strip().strip('",') for line in worker.splitlines()
              if line.strip().startswith('"/static/')}
    files = {f"/static/{f.name}" for f in STATIC.iterdir()} - {"/static/sw.js", "/static/docs.js"}
    assert listed == files


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    process = start(tmp_path / "games.sqlite3", port)
    yield f"http://127.0.0.1:{port}", process
    process.kill()
    process.wait(timeout=10)


def test_offline_the_shell_stays_and_the_game_does_not(browser: Browser,
                                                       server: tuple[str, subprocess.Popen[bytes]],
                                                       ) -> None:
    base, process = server
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base}/?lang=en")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)") \
        == f"{base}/sw.js"
    page.reload()
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    created = httpx.post(f"{base}/api/games", json={"rules": "yatzy", "seats": [{"name": "Ann"}]})
    game = created.json()
    page.goto(game["seats"][0]["url"].replace("#", "?lang=en#"))
    expect(page.locator("#roll")).to_be_enabled(timeout=15_000)
    page.click("#roll")
    expect(page.locator("#cards button.box").first).to_be_visible(timeout=15_000)
    kept = page.evaluate("""caches.keys().then((names) => Promise.all(names.map((n) =>
        caches.open(n).then((c) => c.keys()).then((rs) => rs.map((r) => new URL(r.url).pathname)))))
        .then((lists) => lists.flat())""")
    assert "/static/app.css" in kept and "/offline" in kept
    assert all(path.startswith("/static/") or path == "/offline" for path in kept), kept
    # The server goes away.
    process.kill()
    process.wait(timeout=10)
    page.goto(f"{base}/games/{game['id']}?lang=en")
    expect(page.locator("h1")).to_have_text("The server cannot be reached")
    expect(page.get_by_role("link", name="Try again")).to_be_visible()
    # Its style sheet came from the worker's copy.
    assert page.evaluate("getComputedStyle(document.querySelector('header')).display") == "flex"
    # A game's state is never served from a copy.
    asked = page.evaluate(
        f"fetch('/api/games/{game['id']}').then(() => 'answered', () => 'failed')")
    assert asked == "failed"
    context.close()
