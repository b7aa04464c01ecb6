"""``GET /games/<id>/stream`` (web/stream.py): the live region pushed as server-sent
events, resumed by Last-Event-ID, refused cleanly past the limit (issue 18)."""
import pytest

from events.application.table import record
from events.domain.event import NewEvent
from events.runtime import live
from events.storage import store
from tests.conftest import app_on


@pytest.fixture
def app_config():
    return {"STREAM_KEEPALIVE": 0.05}


@pytest.fixture
def game(table_of):
    return table_of().id


def _chunks(response):
    """The stream's chunks as text, one at a time (the server's generator runs on next())."""
    for chunk in response.response:
        yield chunk.decode() if isinstance(chunk, bytes) else chunk


def _next_message(chunks, tries: int = 40) -> str | None:
    """The next SSE message with data (keep-alive comments skipped), or None."""
    for _ in range(tries):
        chunk = next(chunks)
        if chunk.startswith("id:"):
            return chunk
    return None


def _open(client, game, query: str = "", **headers):
    response = client.get(f"/games/{game}/stream{query}", headers=headers, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    chunks = _chunks(response)
    assert next(chunks).startswith("retry:")  # the browser's reconnection delay comes first
    return response, chunks


def test_an_unknown_game_is_404(client):
    assert client.get("/games/nope/stream").status_code == 404


def test_a_new_phone_gets_the_live_region_with_the_games_sequence_as_id(client, game):
    response, chunks = _open(client, game)
    first = _next_message(chunks)
    assert first.startswith("id: 1\nevent: live\n")
    assert 'data: <section id="live"' in first
    assert 'id="expected-seq" value="1" hx-swap-oob="true"' in first  # the form's expected_seq
    assert 'id="log" class="log" hx-swap-oob="morph"' in first         # the log, out of band
    response.close()


def test_a_recorded_move_is_pushed_at_once(client, db, game):
    response, chunks = _open(client, game, **{"Last-Event-ID": "1"})
    assert next(chunks).startswith(":")  # up to date: nothing but a keep-alive
    record(db, game, "points-recorded", {"seat": 0, "points": 7}, 1, 0, "dev", "c1")
    pushed = _next_message(chunks)
    assert pushed.startswith("id: 2\n") and 'data-testid="score-0">7<' in pushed
    response.close()


def test_a_move_recorded_by_another_process_wakes_the_stream(client, db, game, monkeypatch):
    """Another gunicorn worker appends without this process's hub knowing: the watcher
    sees SQLite's data_version change and wakes the game's streams."""
    monkeypatch.setattr(live, "WATCH_INTERVAL", 0.01)
    response, chunks = _open(client, game, **{"Last-Event-ID": "1"})
    assert next(chunks).startswith(":")
    other = store.connect(str(db.conn.execute("PRAGMA database_list").fetchone()[2]))
    store.append(other, game, NewEvent("points-recorded", 1, {"seat": 1, "points": 4}, 1, "dev", "c2"),
                 expected_seq=1)
    other.conn.close()
    pushed = _next_message(chunks, tries=400)
    assert pushed is not None and pushed.startswith("id: 2\n")
    response.close()


def test_a_phone_that_missed_moves_gets_the_current_region_on_reconnect(client, db, game):
    record(db, game, "points-recorded", {"seat": 0, "points": 7}, 1, 0, "dev", "c1")
    record(db, game, "points-recorded", {"seat": 1, "points": 2}, 2, 1, "dev", "c2")
    response, chunks = _open(client, game, **{"Last-Event-ID": "1"})
    caught_up = _next_message(chunks)
    assert caught_up.startswith("id: 3\n") and 'data-testid="score-1">2<' in caught_up
    response.close()


def _two_moves_in(client, db, game) -> None:
    """Two moves recorded (a move's regions are pushed from the third), the page loaded at them."""
    record(db, game, "points-recorded", {"seat": 0, "points": 7}, 1, 0, "dev", "c1")
    record(db, game, "points-recorded", {"seat": 1, "points": 2}, 2, 1, "dev", "c2")
    assert client.get(f"/games/{game}").status_code == 200


@pytest.mark.parametrize("regions", [True, False])
def test_the_next_move_is_pushed_as_its_regions_to_a_page_that_takes_them(client, db, game, regions):
    """A page that takes them (``regions=1``, templates/table.html) and was sent the table just
    before the move gets the move's regions, named apart so its own sink swaps them out of
    band; a page that does not gets the whole region, as before."""
    _two_moves_in(client, db, game)
    response, chunks = _open(client, game, "?seq=3&regions=1" if regions else "?seq=3")
    record(db, game, "points-recorded", {"seat": 0, "points": 4}, 3, 0, "dev", "c3")
    pushed = _next_message(chunks)
    if regions:
        assert pushed.startswith("id: 4\nevent: regions\n") and 'data-from="3"' in pushed
        assert 'id="live"' not in pushed and 'data-testid="score-0">11<' in pushed
    else:
        assert pushed.startswith("id: 4\nevent: live\n") and 'data: <section id="live"' in pushed
    response.close()


def test_a_phone_that_missed_a_move_gets_the_whole_region_though_it_takes_regions(client, db, game):
    _two_moves_in(client, db, game)
    record(db, game, "points-recorded", {"seat": 0, "points": 4}, 3, 0, "dev", "c3")
    response, chunks = _open(client, game, "?regions=1", **{"Last-Event-ID": "2"})
    caught_up = _next_message(chunks)
    assert caught_up.startswith("id: 4\nevent: live\n") and 'data-testid="score-0">11<' in caught_up
    response.close()


@pytest.mark.parametrize("last_id", ["abc", "-1", "1.5", "99", "99999999999999999999999999", "٣", " "])
def test_a_bad_or_future_last_event_id_gets_a_full_refresh(client, game, last_id):
    response, chunks = _open(client, game, **{"Last-Event-ID": last_id})
    assert _next_message(chunks).startswith("id: 1\n")
    response.close()


def test_a_bad_seq_in_the_address_gets_a_full_refresh(client, game):
    response = client.get(f"/games/{game}/stream?seq=%ED%A0%80", buffered=False)
    assert response.status_code == 200
    response.close()


def test_past_the_limit_a_phone_gets_503_and_keeps_polling(app, client, game):
    app.config["MAX_STREAMS"] = 1
    held, _ = _open(client, game)
    refused = client.get(f"/games/{game}/stream")
    assert refused.status_code == 503
    assert b"Too many live connections" in refused.data and refused.headers["Retry-After"]
    held.close()
    assert app.extensions["live"].count() == 0  # a closed stream gives its place back
    assert client.get(f"/games/{game}/stream", buffered=False).status_code == 200
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert 'hx-trigger="every 1500ms, refresh"' in page  # the poll stays as the fallback (static/live.js)


def test_the_table_page_subscribes_with_the_sse_extension(client, game):
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert f'sse-connect="/games/{game}/stream?seq=1&amp;regions=1"' in page  # it takes a move's regions
    assert 'sse-swap="live" hx-target="#live" hx-swap="morph"' in page
    assert 'sse-swap="regions" hx-swap="none"' in page
    assert "vendor/htmx-ext-sse-" in page and "vendor/idiomorph-ext-" in page and "live.js" in page


def test_the_limit_counts_the_streams_of_every_worker(app, client, game, monkeypatch):
    """Under gunicorn each worker writes its count into memory the master shares: a
    worker refuses when the server as a whole is full, however the phones are split."""
    from multiprocessing import RawArray
    slots = RawArray("q", 4)
    hub = app.extensions["live"]
    hub.share(slots, 1)
    try:
        slots[0] = 2  # the other worker's streams
        app.config["MAX_STREAMS"] = 3
        held, _ = _open(client, game)
        assert list(slots) == [2, 1, 0, 0]
        assert client.get(f"/games/{game}/stream").status_code == 503
        held.close()
        assert slots[1] == 0
    finally:
        hub._slots = None


def test_a_stream_never_read_leaves_no_request_context_behind(client, game):
    """A stream that held its request's context between messages left it pushed when a
    client never read it (the fuzz test does): later requests in that process ran on a
    stack of leftover contexts (in a full run a later CLI test failed with RecursionError)."""
    from flask import has_request_context
    response = client.get(f"/games/{game}/stream")
    assert response.status_code == 200 and not has_request_context()
    response.close()
    assert not has_request_context()


def test_one_phone_and_one_address_cannot_take_every_stream(app, game):
    """Issue 25 §8: one address opened 2,100 streams in 14 s; another table then got 503."""
    app.config.update(STREAMS_PER_PHONE=2, STREAMS_PER_ADDRESS=3)
    lan = {"REMOTE_ADDR": "192.168.1.50"}
    phone, other_phone, elsewhere = (app.test_client() for _ in range(3))
    held = [phone.get(f"/games/{game}/stream", buffered=False, environ_base=lan) for _ in range(2)]
    assert [r.status_code for r in held] == [200, 200]
    refused = phone.get(f"/games/{game}/stream", environ_base=lan)  # a third on one phone
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    held.append(other_phone.get(f"/games/{game}/stream", buffered=False, environ_base=lan))
    assert held[-1].status_code == 200  # another phone behind the same address: its room is 3
    assert other_phone.get(f"/games/{game}/stream", environ_base=lan).status_code == 503
    far = elsewhere.get(f"/games/{game}/stream", buffered=False, environ_base={"REMOTE_ADDR": "192.168.1.51"})
    assert far.status_code == 200  # another address is not held up
    for response in held + [far]:
        response.close()
    assert phone.get(f"/games/{game}/stream", buffered=False, environ_base=lan).status_code == 200  # given back


def test_each_app_counts_the_streams_its_phones_hold(app, app_config, game):
    """Two apps in one process are two servers: an address one holds full is not full on the other."""
    app.config.update(STREAMS_PER_ADDRESS=1)
    other = app_on(app.config["DATABASE"], **app_config, STREAMS_PER_ADDRESS=1)
    lan = {"REMOTE_ADDR": "192.168.1.50"}
    held = app.test_client().get(f"/games/{game}/stream", buffered=False, environ_base=lan)
    assert held.status_code == 200
    there = other.test_client().get(f"/games/{game}/stream", buffered=False, environ_base=lan)
    assert there.status_code == 200
    held.close()
    there.close()
