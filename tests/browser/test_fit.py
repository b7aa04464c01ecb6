"""Every page of every registered game fits a 390 px phone: no horizontal scroll,
in Hungarian, English and German (its long words), at the end of each game's demo."""

import pytest
from playwright.sync_api import expect

from scoring import GAMES
from tests.conftest import api_game, cut_selects, screenshot, sit

pytestmark = pytest.mark.browser
PAGES = ["", "/timeline", "/replay?at=2", "/final"]


def _play_demo(base: str, kind: str) -> dict:
    return api_game(base, kind, moves=GAMES[kind].demo()[2])


@pytest.mark.parametrize("locale, lang", [("hu-HU", "hu"), ("en-GB", "en"), ("de-DE", "de")])
def test_every_game_page_fits_a_phone(live_server, new_phone, locale, lang):
    phone = new_phone(locale)
    too_wide, unhyphenated = [], []
    for kind in sorted(GAMES):
        created = _play_demo(live_server, kind)
        sit(phone, created)  # the join link is rate-limited per address: three languages' worth of joins
        for page in PAGES:
            phone.goto(f"{live_server}/games/{created['id']}{page}")
            width = phone.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                too_wide.append((kind, page, width))
            said = phone.evaluate(HYPHENATION)
            if said != [lang, "auto"]:
                unhyphenated.append((kind, page, said))
        phone.goto(f"{live_server}/games/{created['id']}")
        screenshot(phone, f"fit-{kind}-{lang}")
    assert too_wide == []
    assert unhyphenated == []


# A long word ("Sárkányfesztivál") breaks at a syllable with a hyphen only where the page says
# its language and asks for hyphenation; headless Chromium has no hyphenation dictionary, so
# the markup and the style are what a test can hold, not the drawn break.
HYPHENATION = "() => [document.documentElement.lang, getComputedStyle(document.querySelector('main')).hyphens]"


@pytest.mark.parametrize("locale, lang", [("hu-HU", "hu"), ("en-GB", "en"), ("de-DE", "de")])
def test_no_select_of_the_new_game_form_or_a_set_up_step_cuts_its_text(live_server, new_phone, locale, lang):
    """The chosen text of a select is drawn whole (its own font against its width less the
    padding and the arrow): 'rózsaszín' in the player rows was cut ('rózsaszí'); the governor
    track, tiles since its selects' '– válassz –' was cut, draws each tile's letter whole."""
    phone = new_phone(locale)
    phone.goto(f"{live_server}/lang/{lang}?next=/games/new%3Fkind%3Dmaharaja")
    cut = []
    colour = phone.locator("select[name=colour]").first
    for option in colour.locator("option").all_inner_texts():
        colour.select_option(label=option)
        cut += cut_selects(phone, "main select", chosen_only=True)
    for i, name in enumerate(("Anna", "Béla"), start=1):
        phone.locator("input[name=name]").nth(i - 1).fill(name)
    phone.locator("main form button[type=submit]").last.click()
    expect(phone.locator('input[name="gov1"]').first).to_be_attached()  # the governor track's tiles
    cut += cut_selects(phone, "main select", chosen_only=True)
    cut += phone.eval_on_selector_all(
        ".mh-govs .mh-tile", "tiles => tiles.filter(t => t.scrollWidth > t.clientWidth).map(t => t.textContent)")
    assert sorted(set(cut)) == []


# The words of buttons, labels and headings that are drawn on two lines: "Érvénytelenít|és".
# `main { overflow-wrap: anywhere }` lets a word break at any letter; a word broken where a
# soft hyphen (U+00AD) allows it is hyphenated on purpose and not counted.
SPLIT_WORDS = """() => [...document.querySelectorAll(
        'main button, main a.button, main label, main th, main h1, main h2, main h3, main legend, main summary')]
    .filter(e => e.getClientRects().length)
    .flatMap(e => {
      const found = [], walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (let node; (node = walker.nextNode());) {
        for (const m of node.data.matchAll(/[^\\s\\u00ad]{4,}/g)) {
          const range = document.createRange();
          range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
          if (tops.size > 1) found.push(`${e.tagName.toLowerCase()} '${m[0]}'`);
        }
      }
      return found;
    })"""


@pytest.mark.parametrize("locale, lang", [("hu-HU", "hu"), ("en-GB", "en"), ("de-DE", "de")])
def test_no_button_of_a_dispute_breaks_a_word_in_two(live_server, new_phone, locale, lang):
    """The two buttons that settle a dispute share a row; Hungarian's "Érvénytelenítés" was
    wider than its half and was drawn "Érvénytelenité" over "s". A word that does not fit
    its button moves the button onto a line of its own instead."""
    created = _play_demo(live_server, "scorepad")
    phone = new_phone(locale)
    sit(phone, created)
    phone.goto(f"{live_server}/lang/{lang}?next=/games/{created['id']}/timeline")
    disputable = phone.locator("details.dispute-form").first
    disputable.locator("summary").click()
    disputable.locator("textarea").fill("?")
    disputable.locator("button[type=submit]").click()
    expect(phone.locator("form.resolve button[value=voided]")).to_be_visible(timeout=10_000)
    screenshot(phone, f"fit-dispute-{lang}")
    assert phone.evaluate(SPLIT_WORDS) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("kind", ["dragon", "five-tribes"])
def test_the_turn_time_table_fits_the_final_sheet_in_german(live_server, new_phone, kind):
    """Issue 39 §11: the final sheet's turn-time table was 467 px wide in a 366 px box, and
    German's "Längste" column was cut to "8:1" (its box scrolls, nothing told it did)."""
    created = api_game(live_server, kind, moves=[("timer-set", {"turn": 600, "total": 0}), *GAMES[kind].demo()[2]])
    phone = new_phone("de-DE")
    phone.goto(f"{live_server}/games/{created['id']}/final")
    box = phone.get_by_test_id("turn-times").locator(".scroll")
    expect(box).to_be_visible()
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), box.evaluate("b => [b.scrollWidth, b.clientWidth]")
