"""Example games replayed tap by tap through the phone pages (issue 34, deliverable 6): one
browser phone per seat, in Hungarian, English and German by turns, each move made on the
phone of the seat that made it. Which tap makes the move is found as a player would find it
— among the choices the phone's page offers (tests/web/as_a_browser.py), the one whose form
records exactly the example's move, tried on an in-process copy of the table; a move no one
choice of the page makes (a form of several fields: a governor track, an event row) is
recorded through the API and counted. The final sheet is the API's standings."""
from __future__ import annotations

import json
import os
import urllib.request

import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.browser.test_five_tribes import DROPPED, tap_meeple
from tests.conftest import api, app_on, example_moves, EXAMPLES, sit
from tests.web import as_a_browser
from tests.web.test_label_is_record import Harness, capturing

pytestmark = pytest.mark.browser

LANGS = ["hu", "en", "de"]
LOCALES = {"hu": "hu-HU", "en": "en-GB", "de": "de-DE"}


@pytest.fixture
def solver(tmp_path, monkeypatch):
    """An in-process copy of the table whose appends are captured, never stored."""
    app = app_on(str(tmp_path / "s.db"))
    return capturing(app, monkeypatch)


def _same(event, type_, data) -> bool:
    return event is not None and event.type == type_ and \
        json.dumps(event.data, sort_keys=True) == json.dumps(data, sort_keys=True)


def _tap_for(solver: Harness, local, seat: int, html: str, live_id: str, type_: str, data: dict):
    """The choice of the page whose form records (type_, data), tried on the local table."""
    doc = as_a_browser.page(html)
    client = solver.phone(local, seat)
    for choice in as_a_browser.choices(doc, text=False):
        action = choice.form.get("action") or ""
        if not action.endswith("/moves"):
            continue
        choice.form.set("action", action.replace(live_id, local["id"]))
        event, _ = solver.submit(client, local["id"], choice, choice.pairs)
        choice.form.set("action", action)
        if _same(event, type_, data):
            return doc, choice
    return doc, None


def _control(page, doc, el):
    """The browser's element for a control of the parsed page: by its name and place."""
    name = el.get("name")
    same = [x for x in doc.iter(*as_a_browser.CONTROLS) if x.get("name") == name]
    return page.locator(f'[name="{name}"]').nth(same.index(el))


def _reveal(page, doc, el) -> None:
    """Open what holds the control (a closed <details>: its summary tapped), as a player does."""
    for details in reversed(list(el.iterancestors("details"))):
        summary = details.find("summary")
        if summary is None:
            continue
        shown = page.locator("details").nth(list(doc.iter("details")).index(details))
        if shown.get_attribute("open") is None:
            shown.locator("summary").first.click()


def _make(page, doc, choice) -> None:
    for el, value in choice.fills.items():
        control = _control(page, doc, el)
        if not control.is_visible() and el.getparent() is not None and not list(el.iterancestors("details")):
            continue   # another part of the form (its own button reads it)
        if not control.is_visible():
            continue
        if el.tag == "select":
            control.select_option(value=as_a_browser.option_value(value))
        else:
            control.fill(value)
    if choice.control is not None:
        _reveal(page, doc, choice.control)
        control = _control(page, doc, choice.control)
        if choice.control.tag == "select":
            control.select_option(value=choice.value)
        else:   # a tile's or a card's radio is drawn by its label, which takes the tap
            control.set_checked(bool(choice.value), force=True)
    button = choice.submitter
    _reveal(page, doc, button)
    with page.expect_response(lambda r: r.request.method == "POST" and "/moves" in r.url):
        _control(page, doc, button).click()


def _tap_path(page, data) -> None:
    """Five Tribes: the path's tiles tapped on the board, then the meeples in the order they
    were dropped, up to the tap that records the move (a tile's, a meeple's or Record, which
    the page's choices then hold)."""
    for tile in data["path"][:-1]:
        page.get_by_test_id(f"ft-tile-{tile}").click()
        expect(page.locator(f"[data-testid=ft-tile-{tile}].drafted")).to_have_count(1)
    last = page.get_by_test_id(f"ft-tile-{data['path'][-1]}")
    if last.evaluate("el => el.tagName") == "BUTTON":
        return                                   # the rules leave no order: its tap records the move
    last.click()
    expect(page.get_by_test_id("ft-sequence")).to_be_visible()
    while page.locator("button.ft-drop").count():
        tribe = data["drops"][page.locator(DROPPED).count()]
        meeple = page.get_by_test_id(f"ft-drop-{tribe}")
        if meeple.get_attribute("formaction") is None:
            return                               # its tap records the move
        tap_meeple(page, meeple)


def replay_on_phones(base, new_phone, solver, game, limit=None) -> dict:
    kind, players, options, moves = game
    moves = moves[:limit] if limit else moves
    created = api(base, "/api/games", {"kind": kind, "players": players, "options": options})
    local = solver.new(kind, players, options)
    phones = []
    for seat in range(len(players)):
        lang = LANGS[seat % 3]
        phone = new_phone(LOCALES[lang])
        sit(phone, created, seat)
        phone.goto(f"{base}/lang/{lang}?next=/games/{created['id']}")
        phones.append(phone)
    tapped = by_api = 0
    for seq, (type_, data, seat) in enumerate(moves, start=1):
        phone = phones[seat if seat is not None else 0]
        expect(phone.locator("#live")).to_have_attribute("data-seq", str(seq))
        if type_ == "meeples-moved" and data.get("drops") and phone.get_by_test_id("ft-map").count():
            _tap_path(phone, data)
        doc, choice = _tap_for(solver, local, seat or 0, phone.content(), created["id"], type_, data)
        if choice is not None:
            _make(phone, doc, choice)
            tapped += 1
        else:
            api(base, f"/api/games/{created['id']}/events",
                {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"whole-{seq}"},
                created["seats"][seat or 0]["token"])
            phone.goto(phone.url.split("?")[0])
            by_api += 1
        expect(phone.locator("#live")).to_have_attribute("data-seq", str(seq + 1))
        solver.record(local["id"], type_, data, seat)
    standings = json.loads(urllib.request.urlopen(f"{base}/api/games/{created['id']}/state", timeout=10).read())["standings"]
    return {"tapped": tapped, "api": by_api, "created": created, "standings": standings, "phones": phones}


def _demo(kind):
    players, options, moves = GAMES[kind].demo()
    return kind, players, options, [(t, d, 0) for t, d in moves]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_first_moves_of_each_demo_are_tapped_on_the_phones(live_server, new_phone, solver, kind):
    """Up to 8 moves of each demo (the score pad's and the final tally's whole)."""
    done = replay_on_phones(live_server, new_phone, solver, _demo(kind), limit=8)
    # the final tally's moves are whole sheets (a form of many fields): no one choice makes them
    assert done["tapped"] >= 1 or kind == "dragon-tally", done
    final_sheet_is_the_apis(live_server, done)


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in EXAMPLES if not p.endswith("-v1.json")], ids=os.path.basename)
def test_each_example_game_is_tapped_whole_on_the_phones(live_server, new_phone, solver, path):
    done = replay_on_phones(live_server, new_phone, solver, example_moves(path))
    # Most moves are one choice of a page. A Han placement paid with several cards is a form
    # of several fields, which this replay sends through the API; tests/browser/test_han.py
    # taps Han's examples whole, those placements too.
    several_fields = os.path.basename(path).startswith("han-")
    assert done["tapped"] >= (done["api"] / 2 if several_fields else done["api"]), done
    final_sheet_is_the_apis(live_server, done)


def final_sheet_is_the_apis(base, done) -> None:
    """Every seat's total on the final sheet (opened on the last seat's phone) is the API's."""
    phone, game_id = done["phones"][-1], done["created"]["id"]
    phone.goto(f"{base}/games/{game_id}/final")
    for row in done["standings"]:
        expect(phone.get_by_test_id(f"final-{row['seat']}")).to_have_text(str(row["score"]))
