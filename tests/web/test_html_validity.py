"""HTML a validator accepts beyond htmx's attributes (issue 37 §10): a `<time>` says its
moment or duration in a machine form (`datetime`), every table header says what it heads
(`scope`), and no two landmarks of one kind share a name on a page (the dispute page)."""
from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import pytest

from tests.conftest import post_form, sit_at

# A valid date, time or duration string (HTML's "time" element, the forms this app writes).
_MOMENT = re.compile(r"\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?)?")
_DURATION = re.compile(r"-?P(\d+D)?(T(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?")
LANDMARKS = {"nav": "navigation", "aside": "complementary", "main": "main", "header": "banner",
             "footer": "contentinfo"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.times, self.headers, self.landmarks = [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "time":
            self.times.append(a.get("datetime"))
        if tag == "th":
            self.headers.append(a.get("scope"))
        role = a.get("role") or LANDMARKS.get(tag) or (
            "region" if tag == "section" and ("aria-label" in a or "aria-labelledby" in a) else None) or (
            "form" if tag == "form" and ("aria-label" in a or "aria-labelledby" in a) else None)
        if role in ("navigation", "complementary", "main", "banner", "contentinfo", "region", "form", "search"):
            self.landmarks.append((role, a.get("aria-label") or a.get("aria-labelledby") or ""))


def _read(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


@pytest.fixture
def pages(client, db, scored_pad):
    """The table page with its running clock, the timeline, the final sheet and a dispute page."""
    sit_at(client, scored_pad, 0)
    gid = scored_pad["id"]
    assert post_form(client, f"/games/{gid}/events/4/dispute?lang=en", comment="Cili had 3, not 30",
                expected_seq=5, client_event_id="d1").status_code == 303
    return {name: client.get(url).get_data(as_text=True) for name, url in [
        ("table", f"/games/{gid}?lang=en"), ("timeline", f"/games/{gid}/timeline?lang=en"),
        ("final", f"/games/{gid}/final?lang=en"), ("dispute", f"/games/{gid}/disputes/6?lang=en")]}


def test_every_time_element_says_its_moment_or_duration(pages):
    assert "turn-time" in pages["table"]  # the running clock is there
    for name, html in pages.items():
        for value in _read(html).times:
            assert value is not None and (_MOMENT.fullmatch(value) or _DURATION.fullmatch(value)), (name, value)


def test_every_table_header_has_a_scope(pages, table_of):
    more = [table_of(kind=kind, demo=True) for kind in ("five-tribes", "maharaja", "dragon")]
    from flask import current_app  # noqa: F401
    htmls = dict(pages)
    for t in more:
        htmls[t.id] = t.phone(0).get(f"/games/{t.id}?lang=en").get_data(as_text=True)
    for name, html in htmls.items():
        assert all(scope in ("row", "col", "rowgroup", "colgroup") for scope in _read(html).headers), name


def test_no_two_landmarks_of_a_kind_share_a_name(pages):
    for name, html in pages.items():
        twice = [k for k, n in Counter(_read(html).landmarks).items() if n > 1]
        assert not twice, (name, twice)
