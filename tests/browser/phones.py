"""A phone at a table of the live server, as the browser tests hold one: a game made, a phone
seated at it in a language, a round recorded, what its screen shows kept for a person to
look at (test-artifacts/), and the least contrast and touch target a page must give."""
import os

from playwright.sync_api import expect

from scoring import GAMES
from tests.conftest import ARTIFACTS, api, api_game, sit


READABLE = 4.5  # WCAG 2 AA for body text: the least contrast ratio a text has
TAPPABLE = 44  # px: the least width and height of what a finger taps (WCAG 2.5.5)

# Every element with text of its own: its colour and the first opaque background behind it.
CONTRAST = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const behind = el => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor);
                          if (c.length === 3 || c[3] > 0.5) return c.slice(0, 3); } return [255, 255, 255]; };
  const low = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.offsetParent && el.tagName !== 'BODY' || el.closest('svg, details:not([open])')) continue;
    const fg = rgb(getComputedStyle(el).color).slice(0, 3), bg = behind(el);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < %s) low.push([el.tagName, el.className, el.textContent.trim().slice(0, 30), Math.round(ratio * 100) / 100]);
  }
  return low;
}""" % READABLE


def what_the_phone_shows(page, name: str) -> None:
    """The viewport only: what the person holding the phone sees after the tap."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, f"{name}.png"))


def demo_game(base: str, kind: str, moves=0) -> dict:
    """A game of ``kind`` on the live server, its demo's first ``moves`` recorded: the API's answer."""
    return api_game(base, kind, moves=GAMES[kind].demo()[2][:moves])


def sit_in(phone, base, created, lang, seat=0):
    """``phone`` holding ``seat`` of ``created``, its table open in ``lang`` with the move form."""
    sit(phone, created, seat)
    phone.goto(f"{base}/lang/{lang}?next=/games/{created['id']}")
    expect(phone.locator("#move-form")).to_have_count(1)


def record_a_round(phone, player, points, lang="en"):
    """A round of the score pad with only ``player``'s points (docs/rules/scorepad.md §5)."""
    phone.get_by_label(player, exact=True).fill(str(points))
    phone.get_by_role("button", name={"en": "Save the round", "hu": "Kör mentése"}[lang], exact=True).click()


def move_from_another_phone(base, created, seq, type_, data):
    """Another phone's move, through the API with seat 0's token."""
    api(base, f"/api/games/{created['id']}/events",
        {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"api-{seq}"},
        created["seats"][0]["token"])
