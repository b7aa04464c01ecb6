"""A phone at a table of the live server, as the browser tests hold one: a game made, a phone
seated at it in a language, a round recorded, and what its screen shows kept for a person
to look at (test-artifacts/)."""
import os

from playwright.sync_api import expect

from scoring import GAMES
from tests.conftest import ARTIFACTS, api_game, sit


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
