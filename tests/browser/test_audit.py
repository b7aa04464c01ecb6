"""A disputed move, walked through in real Chromium at 390 × 844 by two phones:
flag it, comment, see the what-if, void it, then replay back to before it."""
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def _record(page, player: str, points: int):
    """A round of the score pad with only ``player``'s points (docs/rules/scorepad.md §5)."""
    page.get_by_label(player, exact=True).fill(str(points))
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_label(player, exact=True)).to_have_value("")


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


def test_dispute_comment_what_if_void_and_replay_back(live_server, phones_at_a_table):
    host, guest = phones_at_a_table()
    game_url = host.url

    _record(host, "Anna", 5)
    expect(guest.get_by_test_id("score-0")).to_have_text("5", timeout=4000)
    _record(guest, "Béla", 20)   # event 3: the disputed one
    expect(host.get_by_test_id("score-1")).to_have_text("20", timeout=4000)
    _record(host, "Anna", 4)
    expect(host.get_by_test_id("score-0")).to_have_text("9")

    # Anna flags Béla's 20 on the timeline.
    host.get_by_role("link", name="Timeline").first.click()
    expect(host.locator("#e3 .what")).to_have_text(re.compile(r"Round \d: Béla \+20"))
    expect(host.locator("#e3 .deltas")).to_contain_text("Béla +20")
    screenshot(host, "audit-timeline")
    _no_sideways_scroll(host)
    host.locator("#e3 summary").click()
    host.locator("#e3").get_by_label("Why do you dispute it?").fill("Béla only had 2 sets, so 10")
    host.locator("#e3").get_by_role("button", name="Dispute").click()
    expect(host.get_by_test_id("dispute-status")).to_have_text(re.compile("Open dispute"))

    # What-if: the standings without it, computed on a fork.
    whatif = host.get_by_test_id("whatif")
    expect(whatif.get_by_test_id("now-1")).to_have_text("20")
    expect(whatif.get_by_test_id("whatif-1")).to_have_text("0")
    expect(whatif.get_by_test_id("whatif-0")).to_have_text("9")
    expect(host.get_by_test_id("check-ok")).to_be_visible()
    screenshot(host, "audit-dispute")
    _no_sideways_scroll(host)

    # Béla's phone shows the open dispute on the table page without a reload, and he comments.
    expect(guest.get_by_role("link", name="Disputed move #3")).to_be_visible(timeout=8000)
    screenshot(guest, "audit-table-open-dispute")
    _no_sideways_scroll(guest)
    guest.get_by_role("link", name="Disputed move #3").click()
    guest.get_by_label("Comment").fill("I counted three sets")
    guest.get_by_role("button", name="Add comment").click()
    expect(guest.locator(".comments li")).to_have_count(2)
    expect(guest.locator(".comments")).to_contain_text("I counted three sets")

    # Anna reloads, sees the comment, and the table agrees to void it.
    host.reload()
    expect(host.locator(".comments")).to_contain_text("I counted three sets")
    host.get_by_label("Reason").fill("recount: two sets")
    host.get_by_role("button", name="Void the move").click()
    expect(host.get_by_test_id("dispute-status")).to_contain_text("the move is void")
    expect(host.get_by_test_id("whatif")).to_have_count(0)
    host.goto(game_url)
    expect(host.get_by_test_id("score-1")).to_have_text("0")
    expect(host.get_by_test_id("score-0")).to_have_text("9")

    host.get_by_role("link", name="Timeline").first.click()
    expect(host.locator("#e3")).to_have_class(re.compile("voided"))
    expect(host.locator("#e3 .why")).to_contain_text("recount: two sets")
    host.get_by_label("Player").select_option("Béla")
    host.get_by_role("button", name="Filter").click()
    expect(host.locator(".timeline > li")).not_to_have_count(0)
    for seq in host.locator(".timeline > li").evaluate_all("els => els.map(e => e.id)"):
        assert seq != "e2"  # Anna's own points are filtered out

    # Replay: from the last step, arrow keys step back to before the disputed move.
    host.goto(f"{game_url}/replay")
    last = int(host.get_by_test_id("step").inner_text())
    assert last == 7  # created, three points, dispute, comment, resolution
    expect(host.get_by_test_id("score-1")).to_have_text("0")
    for expected in range(last - 1, 1, -1):
        host.keyboard.press("ArrowLeft")
        expect(host.get_by_test_id("step")).to_have_text(str(expected))
        assert host.url.endswith(f"?at={expected}")
    expect(host.get_by_test_id("step-event")).to_contain_text("Round 1: Anna +5")
    expect(host.get_by_test_id("score-0")).to_have_text("5")
    expect(host.get_by_test_id("score-1")).to_have_text("0")
    host.keyboard.press("ArrowRight")
    expect(host.get_by_test_id("step")).to_have_text("3")
    expect(host.get_by_test_id("score-1")).to_have_text("20")   # as it stood before the void
    expect(host.get_by_test_id("step-event")).to_have_class(re.compile("voided"))
    expect(host.locator(".race line.step")).to_have_attribute("data-at", "3")
    screenshot(host, "audit-replay")
    _no_sideways_scroll(host)

    # The slider jumps; the link to a step can be shared.
    host.locator("#at").fill("1")
    expect(host.get_by_test_id("step")).to_have_text("1")
    expect(host).to_have_url(re.compile(r"at=1$"))
    guest.goto(f"{game_url}/replay?at=4")
    expect(guest.get_by_test_id("score-0")).to_have_text("9")
    guest.goto(f"{live_server}/lang/hu?next=/games/{game_url.rsplit('/', 1)[1]}/disputes/5")
    expect(guest.get_by_role("heading", name="Vitatott lépés #3")).to_be_visible()
    expect(guest.get_by_test_id("dispute-status")).to_contain_text("a lépés érvénytelen")
    screenshot(guest, "audit-dispute-hu")
    _no_sideways_scroll(guest)

    host.get_by_role("link", name="Final").click()
    expect(host.get_by_test_id("final-0")).to_have_text("9")
    screenshot(host, "audit-final")
    _no_sideways_scroll(host)
    host.emulate_media(media="print")
    screenshot(host, "audit-final-print")


def test_a_full_score_sheet_prints_on_one_page(live_server, new_phone):
    """Six players, twelve rounds: the final sheet prints on one A4 page (without the
    print stylesheet it takes four)."""
    import json
    import urllib.request

    def api(path, body, token=None):
        headers = {"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})}
        request = urllib.request.Request(live_server + path, json.dumps(body).encode(), headers)
        return json.loads(urllib.request.urlopen(request, timeout=10).read())

    game = api("/api/games", {"kind": "scorepad", "players": [{"name": f"Player {i}"} for i in range(6)]})
    moves = []
    for r in range(12):
        moves += [("points-recorded", {"seat": p, "points": (7 * p + 3 * r) % 20}) for p in range(6)]
        moves.append(("round-closed", {}))
    moves.append(("game-ended", {}))
    for seq, (type_, data) in enumerate(moves, start=1):
        api(f"/api/games/{game['id']}/events", {"type": type_, "data": data, "expected_seq": seq,
                                                "client_event_id": f"m{seq}"}, game["seats"][0]["token"])
    page = new_phone()
    page.goto(f"{live_server}/games/{game['id']}/final?lang=en")
    expect(page.get_by_test_id("final-0")).to_be_visible()
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
