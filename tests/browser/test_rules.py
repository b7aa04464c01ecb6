"""Issue 26, item 4, in real Chromium at 390 × 844, Hungarian and English: a refused move
says what is wrong in a line or two and links to its rule; the link opens the rule's section
on the game's rule page, in the table's language; the rule pages read well on a phone
(Five Tribes' djinn table, Han's expected draw pile)."""
import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot
from tests.browser.phones import demo_game, sit_in, what_the_phone_shows

pytestmark = pytest.mark.browser
RULE = {"en": "Rule §1", "hu": "Szabály §1"}
POINTS = {"en": "Points", "hu": "Pontok"}

# The reason's own text (the link aside) as the lines it takes on the screen.
LINES = """() => { const li = document.querySelector('#move-form .problems li');
  const range = document.createRange(); range.setStart(li, 0); range.setEndBefore(li.querySelector('a'));
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_refusal_is_short_and_links_to_its_rule_in_the_tables_language(live_server, new_phone, lang):
    created = demo_game(live_server, "scorepad")
    phone = new_phone()
    sit_in(phone, live_server, created, lang)
    phone.get_by_label("Anna", exact=True).fill("2000000")
    phone.get_by_role("button", name={"en": "Save the round", "hu": "Kör mentése"}[lang], exact=True).click()
    problems = phone.locator("#move-form .problems")
    expect(problems).to_contain_text("2000000")
    link = problems.get_by_role("link", name=RULE[lang])
    expect(link).to_be_visible()
    assert "docs/" not in problems.inner_text() and ".md" not in problems.inner_text()
    assert phone.evaluate(LINES) <= 2
    what_the_phone_shows(phone, f"rules-refusal-{lang}")
    link.click()
    expect(phone).to_have_url(f"{live_server}/rules/scorepad#s1")
    section = phone.locator("#s1")
    expect(section).to_be_in_viewport()
    expect(section.get_by_role("heading")).to_contain_text(POINTS[lang])
    assert phone.locator("html").get_attribute("lang") == lang
    what_the_phone_shows(phone, f"rules-scorepad-s1-{lang}")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_rule_pages_read_on_a_phone(live_server, new_phone, lang):
    phone = new_phone()
    phone.goto(f"{live_server}/lang/{lang}?next=/rules/")
    for book in ("five-tribes", "han", "maharaja", "dragon", "scorepad", "core"):
        phone.goto(f"{live_server}/rules/{book}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, book
    phone.goto(f"{live_server}/rules/five-tribes#s6")
    djinns = phone.locator("#s6 table")
    expect(djinns.locator("tbody tr")).to_have_count(22)
    expect(djinns.locator("tr", has_text="Echidna")).to_contain_text({"en": "2 elders", "hu": "2 vén"}[lang])
    screenshot(phone, f"rules-five-tribes-{lang}")
    phone.goto(f"{live_server}/rules/han#s4-1")
    expect(phone.locator("#s4-1")).to_contain_text({"en": "the new pile is 26 cards", "hu": "az új pakli 26 lap"}[lang])
    what_the_phone_shows(phone, f"rules-han-pile-{lang}")
