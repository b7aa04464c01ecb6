"""The templates' addresses are built once per process (web/links.py): the same links
as Flask builds, kept under what they depend on."""
from werkzeug.routing import MapAdapter

from web.links import Links


def _built(monkeypatch) -> list:
    built = []
    real = MapAdapter.build
    monkeypatch.setattr(MapAdapter, "build", lambda self, *a, **k: built.append(a[0]) or real(self, *a, **k))
    return built


def test_a_second_look_at_a_table_builds_its_page_links_no_more(table_of, monkeypatch):
    """A tap's page links to its game a dozen times; the second render of the table finds
    them made. A count of werkzeug's builds, not a time."""
    table = table_of("scorepad", ("Anna", "Béla"))
    table.play("points-recorded", {"seat": 0, "points": 3}, 0)
    phone = table.phone(0)
    built = _built(monkeypatch)
    assert phone.get(f"/games/{table.id}").status_code == 200
    first = len(built)
    built.clear()
    assert phone.get(f"/games/{table.id}").status_code == 200
    assert first >= 10 and len(built) * 4 < first, (first, built)


def test_a_kept_address_is_the_one_flask_builds_under_each_mount(app):
    """An app mounted under another path (``SCRIPT_NAME``) links under it; 1 and True are
    different values of an address though equal as keys; an ``_anchor`` is built each time."""
    from flask import url_for
    links = Links()
    for root in ("", "/scores"):
        with app.test_request_context("/", environ_overrides={"SCRIPT_NAME": root}):
            for values in ({"game_id": "abc"}, {"game_id": "abc", "done": 1}, {"game_id": "abc", "done": True},
                           {"game_id": "abc", "_anchor": "pad"}):
                assert links.url_for("pages.table", **values) == url_for("pages.table", **values)
                assert links.url_for("pages.table", **values) == url_for("pages.table", **values)
    assert len(links) == 6


def test_the_kept_addresses_are_bounded(app):
    links = Links(size=3)
    with app.test_request_context("/"):
        for n in range(10):
            links.url_for("pages.table", game_id=f"g{n}")
    assert len(links) == 3
