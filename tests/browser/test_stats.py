"""Issue 20 done: two people who played five games together across three kinds see, on a
phone (real Chromium at 390 × 844, both languages), who wins more, at what and by how
much, and each of those games is two taps from BG Stats."""
import pytest
from playwright.sync_api import expect

from tests.conftest import organiser_link, screenshot

pytestmark = pytest.mark.browser


def _fits(page) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_person_page_and_head_to_head_on_a_phone(friends, new_phone, lang):
    base, ids, people = friends
    anna, bela = people["Anna"], people["Béla"]
    phone = new_phone("hu-HU" if lang == "hu" else "en-GB")
    phone.goto(f"{base}/lang/{lang}?next=/stats/people/{anna}")
    expect(phone.get_by_role("heading", name="Anna", exact=True)).to_be_visible()
    expect(phone.get_by_test_id("person-plays")).to_have_text("5")
    expect(phone.locator("svg.stat-bars")).to_be_visible()
    _fits(phone)
    screenshot(phone, f"stats-person-{lang}")

    phone.goto(f"{base}/stats/together?people={anna}&people={bela}")
    expect(phone.get_by_test_id("together-plays")).to_contain_text("5")
    pair = phone.get_by_test_id(f"pair-{anna}-{bela}")
    expect(pair).to_contain_text("Azul")
    expect(pair.locator("li", has_text="Azul")).to_contain_text({"en": "on average Anna by", "hu": "átlagosan Anna +"}[lang])  # by how much, within one game
    _fits(phone)
    screenshot(phone, f"stats-together-{lang}")
    phone.emulate_media(color_scheme="dark")  # at the table at night: the charts' text follows the ink
    phone.goto(f"{base}/stats/people/{anna}")
    fill = phone.locator("svg.stat-bars text").first.evaluate("e => getComputedStyle(e).fill")
    page_ink = phone.evaluate("getComputedStyle(document.body).color")
    assert fill != "rgb(17, 17, 17)" and page_ink != "rgb(17, 17, 17)"
    screenshot(phone, f"stats-person-{lang}-dark")


def test_a_game_of_the_two_is_two_taps_from_bgstats(friends, new_phone):
    base, ids, people = friends
    phone = new_phone()
    phone.goto(f"{base}/lang/en?next=/stats/plays?people={people['Anna']}%26people={people['Béla']}")
    plays = phone.get_by_test_id("play")
    expect(plays).to_have_count(5)
    plays.first.get_by_role("link").first.click()  # tap 1: the game's final sheet
    app_link = phone.get_by_test_id("bgstats-app")
    expect(app_link).to_be_visible()  # tap 2 opens the BG Stats app on a phone that has it
    assert app_link.get_attribute("href").startswith("https://app.bgstatsapp.com/createPlay.html?data=")  # the documented link: it opens the app, or its page where the app is missing
    expect(phone.get_by_test_id("bgstats-file")).to_be_visible()
    _fits(phone)
    screenshot(phone, "stats-final-bgstats-en")


def test_a_seat_is_linked_to_a_person_afterwards_on_a_phone(friends, new_phone):
    base, ids, people = friends  # Cili, who is in neither of the other tests' figures
    phone = new_phone()
    phone.goto(organiser_link(base))  # the roster's changes are the organiser's (docs/people.md §10)
    phone.goto(f"{base}/lang/en?next=/people/games/{ids[3]}")
    seat = phone.get_by_test_id("seat-2")
    expect(seat).to_contain_text("Cili")
    seat.get_by_role("button", name="Unlink").click()
    field = phone.get_by_test_id("seat-2").get_by_label("Who was it?")
    field.fill("Cili Nagy")
    phone.get_by_test_id("seat-2").get_by_role("button", name="Link").click()
    expect(phone.get_by_test_id("seat-2")).to_contain_text("→ Cili Nagy")
    _fits(phone)
    phone.goto(f"{base}/people/log")
    expect(phone.get_by_text("Seat linked").first).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_count_and_its_words_in_one_link_keep_their_space(friends, new_phone, lang):
    """Every link of a page is an inline flex box (a 44 px tap target): a bold count and the
    words after it became two flex items and lost the space between them ("5finished plays")."""
    base, ids, people = friends
    phone = new_phone("hu-HU" if lang == "hu" else "en-GB")
    phone.goto(f"{base}/lang/{lang}?next=/stats")
    words = {"en": "5 finished plays", "hu": "5 befejezett játszma"}[lang]
    assert phone.get_by_test_id("plays-total").inner_text() == words
    phone.goto(f"{base}/stats/together?people={people['Anna']}&people={people['Béla']}")
    link = phone.get_by_test_id("together-plays").locator("a")
    assert link.inner_text() == {"en": "5 plays together", "hu": "5 közös játszma"}[lang]


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_ratings_on_a_phone(friends, new_phone, lang):
    """Issue 31: the game page ranks the people by rating (provisional after few plays), the
    person page draws each game's rating play by play, head to head gives the chance."""
    base, ids, people = friends
    anna, bela = people["Anna"], people["Béla"]
    phone = new_phone("hu-HU" if lang == "hu" else "en-GB")
    phone.goto(f"{base}/lang/{lang}?next=/stats/games/scorepad:azul")
    ranking = phone.get_by_test_id("game-ratings")
    expect(ranking).to_be_visible()
    expect(ranking.locator("tbody tr")).to_have_count(2)
    expect(ranking).to_contain_text({"en": "provisional", "hu": "előzetes"}[lang])
    ranking.scroll_into_view_if_needed()
    _fits(phone)
    screenshot(phone, f"stats-ratings-game-{lang}")
    phone.goto(f"{base}/stats/people/{anna}#ratings")
    expect(phone.get_by_test_id("person-rating-scorepad:azul").locator("svg.stat-trend")).to_be_visible()
    _fits(phone)
    screenshot(phone, f"stats-ratings-person-{lang}")
    phone.goto(f"{base}/stats/together?people={anna}&people={bela}")
    expect(phone.get_by_test_id("chance-scorepad:azul")).to_contain_text("%")
    _fits(phone)
    phone.emulate_media(color_scheme="dark")
    phone.goto(f"{base}/stats/games/scorepad:azul#ratings")
    screenshot(phone, f"stats-ratings-game-{lang}-dark")
