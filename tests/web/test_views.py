"""The table page as phones see it (web/views.py), through Flask's client: full pages and
htmx fragments, the live poll, the log, times, QR codes and links (the routes that write:
tests/web/test_pages.py)."""
import re

from events.storage import store
from tests.conftest import post_move


def test_table_page_in_full_and_as_fragment(client, seated):
    full = client.get(seated)
    assert full.status_code == 200 and b"<html" in full.data and b'id="table-body"' in full.data
    fragment = client.get(seated, headers={"HX-Request": "true"})
    assert b"<html" not in fragment.data and fragment.data.lstrip().startswith(b'<div id="table-body"')
    assert "HX-Request" in full.headers["Vary"] and "HX-Request" in fragment.headers["Vary"]


def test_a_new_table_shows_its_join_code_above_the_moves(client, seated):
    """The host shows the QR code as soon as the game is created: open, and above the
    log (12 moves further down it was out of reach); closed once play has begun."""
    page = client.get(seated).get_data(as_text=True)
    assert '<details class="join" open>' in page and page.index('class="join"') < page.index('id="log"')
    assert 'set-up · ' in client.get(f"{seated}?lang=en").get_data(as_text=True)
    post_move(client, seated, 1, seat="0", points="5")
    assert '<details class="join">' in client.get(seated).get_data(as_text=True)


def test_the_home_page_lists_finished_games_however_many_were_abandoned(app, client):
    """A hundred games never ended used to fill the home page's one list of 100 (running
    first) and push every finished game off it: each list now pages on its own."""
    db = store.connect(app.config["DATABASE"])
    from events.application.table import new_game, record
    ended = []
    for i in range(3):
        game_id = new_game(db, "scorepad", [{"name": f"Done {i}"}], {}, "d")["id"]
        record(db, game_id, "game-ended", {}, 1, 0, "d", "end")
        ended.append(game_id)
    running = [new_game(db, "scorepad", [{"name": f"Left {i}"}], {}, "d")["id"] for i in range(105)]
    first = client.get("/?lang=en").get_data(as_text=True)
    finished_list = first.split('data-testid="finished"')[1]
    assert all(f"/games/{g}" in finished_list for g in ended)
    assert first.split('data-testid="running"')[1].split("</ul>")[0].count("<li>") == 50
    seen = set()
    for page in range(3):
        html = client.get(f"/?page={page}").get_data(as_text=True)
        seen |= {g for g in running if f"/games/{g}\"" in html.split('data-testid="running"')[1].split("</ul>")[0]}
        assert ('data-testid="older"' in html) == (page < 2)
    assert seen == set(running)
    assert client.get("/?page=999999999999999999999").status_code == 200


def test_history_restore_gets_the_full_page(client, seated):
    restored = client.get(seated, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert b"<html" in restored.data


def test_live_poll_answers_204_until_something_changes(client, seated):
    assert client.get(f"{seated}/live?seq=1").status_code == 204
    post_move(client, seated, 1, seat="0", points="5")
    changed = client.get(f"{seated}/live?seq=1")
    assert changed.status_code == 200 and b'hx-swap-oob="true"' in changed.data
    assert b'data-seq="2"' in changed.data


def test_the_live_poll_updates_the_round_the_pad_form_fills(client, seated):
    """Another phone entered round 1: the update must relabel this phone's form "Round 2",
    or the table enters round 2's points as round 1's."""
    form = client.get(f"{seated}?lang=en").get_data(as_text=True)
    assert '<span id="pad-round">Round 1<input type="hidden" name="round" value="1"></span>' in form
    assert 'hx-swap-oob' not in form[form.index('id="pad-entry"'):form.index('id="pad-round"')]
    post_move(client, seated, 1, seat="0", points="5")
    post_move(client, seated, 2, action="round-closed")
    live = client.get(f"{seated}/live?seq=2&lang=en").get_data(as_text=True)
    assert 'id="pad-entry" hx-swap-oob="morph"' in live
    assert '<span id="pad-round">Round 2<input type="hidden" name="round" value="2"></span>' in live
    post_move(client, seated, 3, action="game-ended")
    assert 'id="pad-round"' not in client.get(f"{seated}/live?seq=3").get_data(as_text=True)


def test_names_with_html_are_shown_as_text(client):
    response = client.post("/games/new", data={"kind": "scorepad", "name": ["<script>alert(1)</script>", "B"]})
    page = client.get(response.headers["Location"]).data
    assert b"<script>alert(1)</script>" not in page
    assert b"&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_language_follows_accept_language_and_the_switch(client):
    assert "Új játék".encode() in client.get("/", headers={"Accept-Language": "hu-HU,hu;q=0.9"}).data
    assert b"New game" in client.get("/", headers={"Accept-Language": "en-GB"}).data
    switched = client.get("/lang/hu?next=/games/new")
    assert switched.headers["Location"] == "/games/new"
    assert "Új játék".encode() in client.get("/", headers={"Accept-Language": "en-GB"}).data
    assert client.get("/lang/en?next=//evil.example").headers["Location"] == "/"


def _switch_links(html: str) -> list[str]:
    return [href.replace("&amp;", "&") for href in re.findall(r'href="(/lang/\w+\?next=[^"]*)"', html)]


def test_the_language_switch_on_a_refused_form_goes_back_to_the_page_of_the_form(client, seated):
    """Without JS a refused move is shown at /games/<id>/moves, which answers POST only:
    the switch must lead back to the table (or the page the form was on), not to a 405."""
    refused = client.post(f"{seated}/moves", data={"seat": "0", "points": "x", "expected_seq": "1"},
                          headers={"Referer": f"http://localhost{seated}/timeline?seat=1"})
    assert refused.status_code == 422
    for link in _switch_links(refused.get_data(as_text=True)):
        target = client.get(link).headers["Location"]
        assert target == f"{seated}/timeline?seat=1" and client.get(target).status_code == 200
    no_referrer = client.post(f"{seated}/moves", data={"seat": "0", "points": "x", "expected_seq": "1"})
    for link in _switch_links(no_referrer.get_data(as_text=True)):
        assert client.get(link).headers["Location"] == seated
    elsewhere = client.post(f"{seated}/moves", data={"seat": "0", "points": "x", "expected_seq": "1"},
                            headers={"Referer": "http://evil.example/x"})
    assert all(client.get(link).headers["Location"] == seated for link in _switch_links(elsewhere.get_data(as_text=True)))


def test_every_time_shown_is_the_tables_wall_clock(app, client, seated):
    """Event times were local but the home page's and final sheet's were UTC: a game
    "updated 03:12" whose moves were at 04:12. Dates are written as the page's language
    writes them (Hungarian here: "2026. nov. 27.")."""
    from datetime import datetime, timedelta, timezone

    from babel.dates import format_date

    def day(moment):
        return format_date(moment.date(), format="medium", locale="hu")
    app.config["TIMEZONE"] = "Pacific/Kiritimati"  # UTC+14: another hour, and another day
    post_move(client, seated, 1, seat="0", points="5")
    game_id = seated.rsplit("/", 1)[1]
    event = store.read_events(store.connect(app.config["DATABASE"]), game_id)[-1]
    utc = datetime.fromisoformat(event.recorded_at)
    local = utc + timedelta(hours=14)
    home = client.get("/").get_data(as_text=True)
    assert f"{day(local)} {local:%H:%M}" in home and f"{day(utc)} {utc:%H:%M}" not in home
    final = client.get(f"{seated}/final").get_data(as_text=True)
    assert f"#2 · {day(local)}" in final
    app.config["TIMEZONE"] = "Pacific/Pago_Pago"  # UTC-11: 25 hours from Kiritimati, always another day
    final = client.get(f"{seated}/final").get_data(as_text=True)
    assert f"#2 · {day(utc - timedelta(hours=11))}" in final and f"#2 · {day(local)}" not in final
    app.config["TIMEZONE"] = "Pacific/Kiritimati"
    assert local.strftime("%H:%M:%S") in client.get(seated).get_data(as_text=True)


def test_qr_code_is_an_svg_of_the_join_link(client, seated):
    response = client.get(f"{seated}/qr.svg")
    assert response.mimetype == "image/svg+xml" and b"<svg" in response.data


def _qr_svg(url: str) -> bytes:
    import io

    import qrcode
    import qrcode.image.svg
    buffer = io.BytesIO()
    qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2).save(buffer)
    return buffer.getvalue()


def test_a_read_only_link_for_spectators_with_its_qr_code(app, client, seated):
    """Spectators join "through a read-only link": the table page's own address, shown
    (with its QR code) beside the join code; it carries no join code."""
    page = client.get(f"{seated}?lang=en").get_data(as_text=True)
    watch = re.search(r'href="([^"]+)" data-testid="watch-link"', page).group(1)
    join = re.search(r'href="([^"]+)" data-testid="join-link"', page).group(1)
    assert watch == f"http://localhost{seated}" and "/join/" not in watch and watch != join
    stranger = app.test_client()
    assert stranger.get(f"{seated}/qr.svg").status_code == 403  # the join code stays with seated phones
    assert stranger.get(f"{seated}/qr.svg?watch=1").data == _qr_svg(watch)
    assert client.get(f"{seated}/qr.svg").data == _qr_svg(join)
    assert 'data-testid="watch-link"' not in stranger.get(seated).get_data(as_text=True)


def test_security_headers(client):
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_every_void_form_posts_to_the_void_route_of_its_event(app, client, seated):
    post_move(client, seated, 1, seat="0", points="5")
    post_move(client, seated, 2, seat="1", points="6")
    page = client.get(seated).data.decode()
    game_id = seated.rsplit("/", 1)[-1]
    with app.test_request_context():
        from flask import url_for
        expected = {url_for("pages.void", game_id=game_id, target=n) for n in (2, 3)}
    actions = set(re.findall(r'<form method="post" action="([^"]+/void)"', page))
    assert actions == expected
    assert set(re.findall(r'hx-post="([^"]+/void)"', page)) == expected


def test_scoreboard_sums_the_parts_before_the_last_twelve(client, seated):
    seq = 1
    for points in range(1, 15):  # 14 rounds for Anna: the first two are summed
        post_move(client, seated, seq, seat="0", points=str(points))
        post_move(client, seated, seq + 1, action="round-closed")
        seq += 2
    page = client.get(seated, headers={"Accept-Language": "en"}).data.decode()
    anna = page[page.index('data-seat="0"'):page.index('data-seat="1"')]
    assert re.search(r"2 earlier parts</a></span>\s*<strong>3</strong>", anna)
    assert anna.count("<li><span>Round") == 12 and 'data-testid="score-0">105<' in anna


def test_a_cell_tallied_from_many_entries_offers_to_void_its_last_ones(client, seated):
    """Points tallied entry by entry into one cell (the API's and older phones' way) made
    every tap render a void form per entry: hundreds. The cell offers its last entries',
    says how many came before, and its points and total are still the whole cell's."""
    CELL_VOIDS = 3  # scoring/scorepad/view.py
    for seq in range(1, 11):
        post_move(client, seated, seq, seat="0", points="2")
    post_move(client, seated, 11, seat="1", points="1")
    body = client.get(f"{seated}?lang=en").get_data(as_text=True)
    cell = body[body.index('data-testid="pad-round-1"'):]
    cell = cell[:cell.index("</td>")]
    assert re.findall(r'action="[^"]+/events/(\d+)/void"', cell) == [str(n) for n in range(12 - CELL_VOIDS, 12)]
    assert f"{10 - CELL_VOIDS} earlier entries: in the timeline" in cell
    assert "<b>20</b> <small>Σ 20</small>" in cell


def test_a_taps_answer_renders_the_answer_slot_only_beside_the_tapped_button(app, client, seated, monkeypatch):
    """Every Void form of the log, the clock, the photo form and the move form has a slot
    for the answer to a tap (``_outcome.html``); included everywhere, each cost ~30 µs
    while it wrote nothing. A tap's answer fills the slot of the button tapped."""
    for seq in range(1, 8):
        post_move(client, seated, seq, seat=str(seq % 2), points="1")
    loaded = []
    real = app.jinja_env.get_template
    monkeypatch.setattr(app.jinja_env, "get_template",
                        lambda name, *a, **k: loaded.append(name) or real(name, *a, **k))
    answer = client.post(f"{seated}/moves", headers={"HX-Request": "true"},
                         data={"expected_seq": "8", "client_event_id": "c8", "seat": "0", "points": "2"})
    assert answer.status_code == 200 and 'data-testid="ack"' in answer.get_data(as_text=True)
    assert loaded.count("_outcome.html") == 1 and "photos/_event.html" not in loaded
