"""The devices page in Chromium: a code shown on one browser (with its QR code) moves the
player's profile to a second browser (typed in, or opened as the link); a passkey made
with Chromium's virtual authenticator signs a third browser in as the same player. On a
phone's width (360 px) and a desktop's (1366 px). The site is opened as ``localhost``
(a passkey's relying party is a domain, never an IP address)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

if not Path(CHROMIUM).exists():
    if os.environ.get("YATZY_REQUIRE_BROWSER"):
        raise RuntimeError("chromium is required here (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from tests.web.test_browser import PHONE, record_errors
from tests.web.test_table_a11y import axe_violations

WIDE: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
SHOTS = Path(os.environ.get("YATZY_SHOTS", "/tmp/devices-shots"))


def page_errors(errors: list[str]) -> list[str]:
    """The errors of a page but the refusals the test asks for (a browser notes each
    answer of 4xx in the console)."""
    return [e for e in errors if not e.startswith("Failed to load resource")]


def local(base: str) -> str:
    return base.replace("127.0.0.1", "localhost")


def named(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/daily?lang=en")
    page.fill("#my-name", name)
    page.locator("#name-form button").click()
    expect(page.locator("#name-status")).to_have_text("Saved")


def qr_drawn(page: Page) -> None:
    """Wait until the QR code's picture is drawn (polled from here: the page's security
    policy forbids the script Playwright's own polling would evaluate)."""
    deadline = time.monotonic() + 10
    while page.evaluate("document.getElementById('code-qr').naturalWidth") <= 100:
        assert time.monotonic() < deadline, "the QR code was not drawn"
        page.wait_for_timeout(50)


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_a_code_moves_the_profile_to_another_browser(browser: Browser, base: str) -> None:
    site = local(base)
    first, second, third = (browser.new_context(**WIDE), browser.new_context(**PHONE),
                            browser.new_context(**PHONE))
    ann, phone, tablet = first.new_page(), second.new_page(), third.new_page()
    errors: list[str] = []
    for page in (ann, phone, tablet):
        record_errors(page, errors)
    named(ann, site, "Ann")
    ann.goto(f"{site}/devices?lang=en")
    expect(ann.locator("#me")).to_have_text("On this device you play as Ann.")
    ann.locator("#new-code").click()
    code = ann.locator("#code")
    expect(code).to_have_text(re.compile(r"^[2-9A-Z]{8}$"))
    expect(ann.locator("#code-expires")).to_contain_text("Good until")
    qr_drawn(ann)
    fits(ann)
    assert axe_violations(ann) == []
    shot(ann, "code-1366.png")
    # The phone types it in (lower case, with a dash: it is read loosely).
    phone.goto(f"{site}/devices?lang=en")
    expect(phone.locator("#me")).to_have_text("This device has no display name yet.")
    typed = code.inner_text()
    phone.fill("#link-code", f"{typed[:4].lower()}-{typed[4:]}")
    phone.locator("#link-form button[type=submit]").click()
    expect(phone.locator("#link-status")).to_have_text(
        "Linked: on this device you now play as Ann.")
    expect(phone.locator("#me")).to_have_text("On this device you play as Ann.")
    fits(phone)
    expect(phone.locator("#replace-warning")).to_be_hidden()
    shot(phone, "linked-360.png")
    # The same code again on another browser: refused, nothing changes there.
    tablet.goto(f"{site}/devices?lang=en")
    tablet.fill("#link-code", typed)
    tablet.locator("#link-form button[type=submit]").click()
    expect(tablet.locator("#link-error")).to_have_text(
        "This link code was used already: ask the other device for a new one")
    expect(tablet.locator("#me")).to_have_text("This device has no display name yet.")
    shot(tablet, "used-360.png")
    # A new code opened as the link (the QR code's): the tablet links at once.
    ann.locator("#new-code").click()
    expect(code).not_to_have_text(typed)
    tablet.goto(f"{site}/devices?lang=en#code={code.inner_text()}")
    expect(tablet.locator("#me")).to_have_text("On this device you play as Ann.")
    assert "#code" not in tablet.url  # the code leaves the address
    # The daily page of the phone is Ann's; the history leads to this page.
    phone.goto(f"{site}/daily?lang=en")
    expect(phone.locator("#my-name")).to_have_value("Ann")
    phone.goto(f"{site}/history?lang=en")
    phone.get_by_role("link", name="Your devices").click()
    expect(phone.locator("h1")).to_have_text("Your devices")
    assert page_errors(errors) == []
    for context in (first, second, third):
        context.close()


def authenticator(context: BrowserContext, page: Page) -> tuple[CDPSession, str]:
    """Chromium's virtual authenticator for ``page``: a platform authenticator with
    resident keys that verifies its user at once."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return cdp, found["authenticatorId"]


def test_a_passkey_signs_in_another_browser(browser: Browser, base: str) -> None:
    site = local(base)
    first, second = browser.new_context(**PHONE), browser.new_context(**WIDE)
    ann, laptop = first.new_page(), second.new_page()
    errors: list[str] = []
    record_errors(ann, errors)
    record_errors(laptop, errors)
    ann_cdp, ann_auth = authenticator(first, ann)
    # Without a name, no passkey.
    ann.goto(f"{site}/devices?lang=en")
    ann.locator("#add-passkey").click()
    expect(ann.locator("#passkey-error")).to_have_text(
        "Choose a display name first (on the daily challenge page).")
    named(ann, site, "Ann")
    ann.goto(f"{site}/devices?lang=en")
    expect(ann.locator("#passkeys li")).to_have_text("No passkeys yet.")
    ann.locator("#add-passkey").click()
    expect(ann.locator("#passkey-status")).to_have_text("Passkey added.")
    expect(ann.locator("#passkeys li")).to_have_count(1)
    expect(ann.locator("#passkeys li")).to_contain_text("Passkey added")
    fits(ann)
    assert axe_violations(ann) == []
    shot(ann, "passkey-360.png")
    [credential] = ann_cdp.send("WebAuthn.getCredentials",
                                {"authenticatorId": ann_auth})["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
    # The laptop holds the same passkey (as a synced one, or a phone's over Bluetooth).
    laptop_cdp, laptop_auth = authenticator(second, laptop)
    laptop_cdp.send("WebAuthn.addCredential", {"authenticatorId": laptop_auth,
                                               "credential": credential})
    laptop.goto(f"{site}/devices?lang=en")
    expect(laptop.locator("#me")).to_have_text("This device has no display name yet.")
    laptop.locator("#sign-in").click()
    expect(laptop.locator("#passkey-status")).to_have_text(
        "Signed in: on this device you now play as Ann.")
    expect(laptop.locator("#me")).to_have_text("On this device you play as Ann.")
    expect(laptop.locator("#passkeys li")).to_contain_text("last used")
    shot(laptop, "signed-in-1366.png")
    # Removed on the laptop, the passkey signs in no more.
    laptop.locator("#passkeys li button").click()
    expect(laptop.locator("#passkeys li")).to_have_text("No passkeys yet.")
    laptop.locator("#sign-in").click()
    expect(laptop.locator("#passkey-error")).to_have_text("This passkey is not known here")
    assert page_errors(errors) == []
    first.close()
    second.close()
