"""The web page's front end in a real browser: the page shows what the server's state
says and decides nothing (a made-up state over a stand-in websocket proves it), the
home form is made from the rulesets' description, and a seat takes back its box."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.web.test_browser import DESKTOP, PHONE, record_errors, score_best, start_game
from tests.web.test_table_defects import first_roll, game_id, state

# --- 1. The page renders and never decides. --------------------------------------------


def test_the_page_shows_the_servers_numbers(browser: Browser, base: str) -> None:
    """Values a page could work out itself (the extra-Yahtzee bonus, a roll-off's sum,
    whether a roll is allowed, the dice kept, who moves) are taken from the state as it
    is: here a made-up state whose values no rule would give."""
    created = httpx.post(f"{base}/api/games", json={
        "rules": "yatzy", "seats": [{"name": "Ann"}, {"bot": "hard", "name": "Cy"}]}).json()
    real = httpx.get(f"{base}/api/games/{created['id']}?lang=en").json()
    page = browser.new_page(**DESKTOP)
    errors: list[str] = []
    record_errors(page, errors)
    sockets: list[WebSocketRoute] = []

    def handler(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        ws.send(json.dumps({"type": "welcome", "seat": "Ann"}))

    page.route_web_socket(re.compile(r"/ws/games/"), handler)
    page.goto(f"{created['seats'][0]['url']}".replace("#", "?lang=en#"))

    shown = dict(real)

    def send(**changes: Any) -> None:
        """The state as last sent, with ``changes``, at the next version."""
        shown.update(changes, version=shown["version"] + 1)
        sockets[-1].send(json.dumps({"type": "state", "state": shown}))

    for _ in range(200):
        if sockets:
            break
        page.wait_for_timeout(50)
    send()
    expect(page.locator("#cards tr").first).to_be_visible()

    # A roll-off: each roll's total as the server says it.
    send(roll_off=[{"player": "Ann", "dice": [1, 2], "total": 99},
                   {"player": "Cy", "dice": [3, 4], "total": 98}])
    notes = page.locator("#notes")
    expect(notes).to_contain_text("Ann: 1 2 = 99")
    expect(notes).to_contain_text("Cy: 3 4 = 98")

    # The extra-Yahtzee bonus: its points from the last step, its row from the rules'
    # points (in a ruleset the page would not expect it in).
    card = real["scorecards"]["Ann"] | {"yatzy": 50, "yahtzee_bonus": 77, "total": 127}
    send(steps=1, extra_yahtzee_points=77, scorecards=real["scorecards"] | {"Ann": card},
         last={"type": "score", "player": "Ann", "box": "yatzy", "points": 50,
               "bonus": True, "bonus_points": 77})
    expect(notes).to_contain_text("Yahtzee bonus +77!")
    expect(page.locator("#cards tr", has_text="Yahtzee bonus")).to_contain_text("77")

    # Rolls left, yet no roll allowed: the roll button and the dice stay off.
    send(steps=2, dice=[1, 2, 3, 4, 5], rolls_left=2, can_roll=False, choices={"chance": 15},
         last={"type": "roll", "player": "Ann"})
    expect(page.locator("#roll")).to_be_disabled()
    expect(page.locator("#dice .die").first).to_be_disabled()
    # And allowed: on.
    send(steps=3, can_roll=True)
    expect(page.locator("#roll")).to_be_enabled()
    expect(page.locator("#dice .die").first).to_be_enabled()

    # A computer shows the dice it keeps: the held ones are the state's, the status its.
    send(steps=4, current_player="Cy", phase="showing", held=[1, 3], dice=[6, 6, 6, 6, 6],
         choices={}, last={"type": "roll", "player": "Cy"})
    dice = page.locator("#dice .die")
    expect(dice.nth(1)).to_have_attribute("aria-pressed", "true")
    expect(dice.nth(3)).to_have_attribute("aria-pressed", "true")
    expect(dice.nth(0)).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#status")).to_contain_text("Cy (computer) plays")
    # The session's phase says who moves, not the seats: a person's phase is a person's.
    send(steps=5, phase="person")
    expect(page.locator("#status")).to_contain_text("Cy's turn")
    assert errors == []
    page.close()


# --- 2. The home form is made from the rulesets' description. -------------------------


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_home_form_offers_every_rulesets_options(browser: Browser, base: str,
                                                      lang: str) -> None:
    """Every option of every ruleset has a field of its kind, with the description's
    label, default and bounds; choosing a ruleset shows its fields only."""
    rulesets = httpx.get(f"{base}/api/rulesets?lang={lang}").json()
    page = browser.new_page(**DESKTOP)
    errors: list[str] = []
    record_errors(page, errors)
    page.goto(f"{base}/?lang={lang}")
    for described in rulesets:
        name = described["name"]
        page.locator(f"input[name=rules][value={name}]").check()
        for other in rulesets:
            block = page.locator(f"[data-rules={other['name']}]")
            expect(block).to_be_visible() if other is described else expect(block).to_be_hidden()
        assert described["options"], "a ruleset without options tests nothing"
        for option in described["options"]:
            field_id = f"option-{name}-{option['name']}"
            field = page.locator(f"#{field_id}")
            expect(field).to_be_visible()
            label = page.locator(f"[data-rules={name}] label", has=field) \
                if option["kind"] == "bool" else page.locator(f"label[for={field_id}]")
            expect(label).to_have_text(re.compile(rf"^\s*{re.escape(option['label'])}\s*$"))
            if option["kind"] == "choice":
                expect(field).to_have_value(option["default"])
                texts = [option["choice_labels"][c] for c in option["choices"]]
                assert [t.strip() for t in field.locator("option").all_inner_texts()] == texts
            elif option["kind"] == "bool":
                (expect(field).to_be_checked() if option["default"]
                 else expect(field).not_to_be_checked())
            else:
                assert option["kind"] == "int"
                expect(field).to_have_value(str(option["default"]))
                expect(field).to_have_attribute("min", str(option["minimum"]))
                expect(field).to_have_attribute("max", str(option["maximum"]))
    assert errors == []
    page.close()


def test_a_game_gets_the_options_chosen(browser: Browser, base: str) -> None:
    page = browser.new_page(**DESKTOP)
    errors: list[str] = []
    record_errors(page, errors)
    page.goto(f"{base}/?lang=en")
    page.get_by_label("Yahtzee", exact=True).check()
    page.locator("#option-yahtzee-rolls").fill("2")
    page.locator("#option-yahtzee-joker").select_option("gated")
    page.locator("#option-yahtzee-yahtzee_bonus").uncheck()
    page.fill("#seats input[name=name]", "Ann")
    page.click("#start")
    page.wait_for_url(re.compile(r"/games/\w+"))
    options = state(base, page)["rules"]["options"]
    assert options["rolls"] == 2 and options["joker"] == "gated"
    assert options["yahtzee_bonus"] is False and options["upper_first"] is False
    # Two rolls a turn: after the first roll, one roll left.
    first_roll(page)
    expect(page.locator("#status")).to_contain_text("1 roll left")
    assert errors == []
    page.close()


def test_an_option_out_of_bounds_is_refused_in_words(browser: Browser, base: str) -> None:
    """The page sends what was typed; the server's translated message says what is
    wrong, and no game is made."""
    page = browser.new_page(**DESKTOP)
    page.goto(f"{base}/?lang=en")
    page.locator("#option-yatzy-rolls").fill("0")
    page.click("#start")
    expect(page.locator("#form-error")).not_to_be_empty()
    assert "/games/" not in page.url
    page.close()


# --- 3. Undo: a seat takes back the box it just chose, until the next player acts. ----


def test_a_seat_takes_back_its_box_until_the_next_player_acts(browser: Browser,
                                                               base: str) -> None:
    desktop = browser.new_context(**DESKTOP)
    ann = desktop.new_page()
    errors: list[str] = []
    record_errors(ann, errors)
    start_game(ann, base, ["Ann", "Bo"])
    bo_link = ann.locator("#links a", has_text="Bo").get_attribute("href")
    assert bo_link
    bo_token = bo_link.split("#token=")[1]
    phone = browser.new_context(**PHONE)
    bo = phone.new_page()
    record_errors(bo, errors)
    bo.goto(bo_link.replace("#", "?lang=en#"))
    undo = ann.locator("#undo")
    expect(undo).to_be_hidden()

    first_roll(ann)
    expect(undo).to_be_hidden()                 # a roll is no box to take back
    rolled = state(base, ann)
    score_best(ann)
    expect(undo).to_be_visible()
    expect(undo).to_have_text("Undo (u)")
    expect(bo.locator("#status")).to_contain_text("Bo's turn")
    expect(bo.locator("#undo")).to_be_hidden()  # only the seat that chose it
    filled = state(base, ann)
    box = filled["last"]["box"]

    # The key takes it back: Ann's turn again, the box open, the same dice.
    ann.keyboard.press("u")
    expect(undo).to_be_hidden()
    expect(ann.locator("#status")).to_contain_text("Ann's turn")
    expect(ann.locator("#cards button.box").first).to_be_visible()
    back = state(base, ann)
    assert back["current_player"] == "Ann" and back["scorecards"]["Ann"][box] is None
    assert back["dice"] == rolled["dice"] and back["rolls_left"] == rolled["rolls_left"]
    expect(bo.locator("#status")).to_contain_text("Ann's turn")

    # Chosen again, then Bo rolls: it is Bo's game now, no undo.
    score_best(ann)
    expect(undo).to_be_visible()
    answer = httpx.post(f"{base}/api/games/{game_id(ann)}/actions", json={"type": "roll"},
                        headers={"Authorization": f"Bearer {bo_token}"})
    assert answer.status_code == 200, answer.text
    expect(undo).to_be_hidden()
    assert errors == []
    desktop.close()
    phone.close()
