"""Counting the taps a move takes on a phone (issue 39: taps per typical move, a select
counting two): every tap of a test that counts goes through ``Taps``."""
from playwright.sync_api import expect


class Taps:
    """The taps of one move or turn; a tap that records waits until the move is in."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator, records: bool = True):
        before = int(self.page.locator("#live").get_attribute("data-seq"))
        locator.click()
        self.count += 1
        if records:   # the live region, not the form: the game's last move takes the form away
            expect(self.page.locator("#live")).to_have_attribute("data-seq", str(before + 1))

    def button(self, name: str):
        self.tap(self.page.get_by_role("button", name=name, exact=True))

    def select(self, name: str, value: str):
        """A select of the move form set: two taps, open it and pick."""
        self.page.locator(f'#move-form select[name="{name}"]').select_option(value)
        self.count += 2


def example_on_a_phone(base, new_phone, path: str, limit=None):
    """A shipped example's table made afresh, and one English phone seated at it that records
    for the whole table: (the created game, the phone, the example's moves up to ``limit``)."""
    from tests.conftest import api, example_moves, sit
    kind, players, options, moves = example_moves(path)
    created = api(base, "/api/games", {"kind": kind, "players": players, "options": options})
    phone = new_phone()
    sit(phone, created, 0)
    phone.goto(f"{base}/lang/en?next=/games/{created['id']}")
    return created, phone, moves[:limit] if limit else moves
