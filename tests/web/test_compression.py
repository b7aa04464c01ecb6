"""Responses are sent compressed (issue 37 §8): a table page could save 135 KiB. What a
phone gets decompresses to exactly the page an uncompressing client gets; the live stream
is never held back for a compressor."""
from __future__ import annotations

import gzip

import pytest

from tests.conftest import finished_pad


@pytest.mark.parametrize("path", ["/", "/static/app.css", "/rules/han", "/api/stats"])
def test_pages_css_and_json_are_sent_gzip_compressed(guarded, path):
    app, client, token, db = guarded
    finished_pad(client, token, "Azul", "230802")
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    packed = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.get_data()) == plain.get_data()


def test_a_table_page_shrinks_to_a_fraction(guarded):
    app, client, token, db = guarded
    game_id = finished_pad(client, token, "Azul", "230802")
    plain = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "identity"}).get_data()
    packed = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "br, gzip"})
    assert packed.headers["Content-Encoding"] in ("br", "gzip")
    assert len(packed.get_data()) * 3 < len(plain)  # HTML of repeated markup: a third or less


def test_the_live_stream_is_not_compressed(guarded):
    app, client, token, db = guarded
    game_id = finished_pad(client, token, "Azul", "230802")
    stream = client.get(f"/games/{game_id}/stream", headers={"Accept-Encoding": "gzip"}, buffered=False)
    assert stream.mimetype == "text/event-stream" and "Content-Encoding" not in stream.headers
    stream.close()
