"""One move, rendered once per view (issue 27 §2; web/rendered.py): however many phones
hold the table's stream, the live region is rendered once for spectators, once for the
seated phones (once per seat where the game hides something: Maharaja's secret gold)
and once per language, and the same bytes go to the tapping phone's answer and to every
stream of that view — on each engine. Each phone still sees only what its seat may."""
import re

import pytest
from flask import template_rendered

from events import live

@pytest.fixture
def app(app_on_each_engine):
    # a region is shared for a second (web/rendered.py MAX_AGE); reading 40 streams one by
    # one may take longer on a busy machine, and this test counts renders, not seconds
    app_on_each_engine.extensions["tablescribe"].rendered.max_age = 600
    return app_on_each_engine

SPECTATORS = 25


def _chunks(response):
    for chunk in response.response:
        yield chunk.decode() if isinstance(chunk, bytes) else chunk


def _next_message(chunks, tries: int = 200) -> str:
    for _ in range(tries):
        chunk = next(chunks)
        if chunk.startswith("id:"):
            return chunk
    raise AssertionError("no message")


class Phone:
    """A phone holding the table's stream: its seat token and language as cookies."""

    def __init__(self, app, game_id: str, token: str | None = None, lang: str = "hu"):
        self.client = app.test_client()
        if token:
            self.client.set_cookie(f"seat_{game_id}", token)
        self.client.set_cookie("lang", lang)
        self.response = self.client.get(f"/games/{game_id}/stream", buffered=False)
        assert self.response.status_code == 200
        self.chunks = _chunks(self.response)
        self.first = _next_message(self.chunks)  # the region as it is when the phone comes

    def next(self) -> str:
        return _next_message(self.chunks)

    def close(self) -> None:
        self.response.close()


@pytest.fixture
def renders(app):
    """The live templates rendered, by name, while the test counts."""
    counted: list[str] = []

    def count(sender, template, context, **extra):
        counted.append(template.name)
    with template_rendered.connected_to(count, app):
        yield counted


def _new_game(client, kind: str, players: int) -> dict:
    names = [{"name": n} for n in ("Anna", "Béla", "Cili", "Dani")[:players]]
    answer = client.post("/api/games", json={"kind": kind, "players": names})
    assert answer.status_code == 201, answer.json
    return answer.json


def _region(message: str) -> str:
    """The ``#live`` section of an SSE message, as the HTML it carries."""
    html = "\n".join(line[len("data: "):] for line in message.splitlines() if line.startswith("data: "))
    return html[html.index('<section id="live"'):html.index("</section>") + len("</section>")]


def test_a_move_watched_by_many_streams_renders_the_live_region_once_per_view(app, renders):
    tapper = app.test_client()
    game = _new_game(tapper, "scorepad", 3)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    tapper.set_cookie(f"seat_{game_id}", tokens[0])
    watching = [Phone(app, game_id) for _ in range(SPECTATORS)] + \
               [Phone(app, game_id, lang="en") for _ in range(5)]
    seated = [Phone(app, game_id, tokens[1]), Phone(app, game_id, tokens[1]), Phone(app, game_id, tokens[2])]
    try:
        renders.clear()
        before = app.extensions["tablescribe"].rendered.renders
        answer = tapper.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
            "action": "points-recorded", "seat": "0", "sign": "+", "points": "7", "expected_seq": "1",
            "client_event_id": "tap-1"})
        assert answer.status_code == 200
        messages = {phone: phone.next() for phone in watching + seated}
        assert all(m.startswith("id: 2\n") for m in messages.values())
        # spectators in Hungarian, in English, and the seated phones: three views
        assert renders.count("_live.html") == 3
        assert renders.count("_live_region.html") == 3
        assert renders.count("_log_entries.html") == 3
        assert app.extensions["tablescribe"].rendered.renders - before == 9  # each view's push, region and log
        hungarian = {messages[p] for p in watching[:SPECTATORS]}
        assert len(hungarian) == 1 and len({messages[p] for p in watching[SPECTATORS:]}) == 1
        assert len({messages[p] for p in seated}) == 1
        # the tapping phone's answer carries the very bytes its view's streams got
        assert _region(messages[seated[0]]) in answer.get_data(as_text=True)
        assert _region(messages[seated[0]]) != _region(messages[watching[0]])  # seated: the grid's void forms
        assert 'name="csrf_token"' not in messages[seated[0]]  # nothing one phone's own
    finally:
        for phone in watching + seated:
            phone.close()


def _log(html: str) -> str:
    """The ``#log`` section's entries, as the answer or the push carries them."""
    start = html.index('<section id="log"')
    return html[html.index(">", start) + 1:html.index("</section>", start)]


def test_the_tapping_phones_answer_and_the_pushes_of_its_view_share_the_log(app, monkeypatch):
    """The log is the table's too: its rows are written once per view of a move, not once
    for the answer and again for the pushes (every row shows its time: counted)."""
    tapper = app.test_client()
    game = _new_game(tapper, "scorepad", 2)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    tapper.set_cookie(f"seat_{game_id}", tokens[0])
    for seq in (1, 2, 3):
        assert tapper.post(f"/games/{game_id}/moves", data={
            "action": "points-recorded", "seat": "0", "points": "1", "expected_seq": str(seq),
            "client_event_id": f"t{seq}"}).status_code == 303
    seated, watching = Phone(app, game_id, tokens[1]), Phone(app, game_id)
    rows = []
    clock = app.jinja_env.filters["clock"]
    monkeypatch.setitem(app.jinja_env.filters, "clock", lambda t: rows.append(t) or clock(t))
    try:
        answer = tapper.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
            "action": "points-recorded", "seat": "0", "points": "7", "expected_seq": "4",
            "client_event_id": "tap-4"}).get_data(as_text=True)
        pushed, watched = seated.next(), watching.next()
        assert len(rows) == 2 * 5  # five events in the log, written for the seated view and the spectators'
        assert _log(answer) == _log("\n".join(line[len("data: "):] for line in pushed.splitlines()
                                               if line.startswith("data: ")))
        assert '/void"' not in _log(watched) and '/void"' in _log(answer) and 'name="csrf_token"' not in _log(answer)
    finally:
        seated.close()
        watching.close()


def test_a_seat_that_keeps_a_secret_gets_its_own_view_and_only_its_own_gold(app, renders):
    api = app.test_client()
    game = _new_game(api, "maharaja", 2)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    watching = [Phone(app, game_id) for _ in range(10)]
    anna, bela = [Phone(app, game_id, tokens[0]) for _ in range(2)], [Phone(app, game_id, tokens[1])]
    try:
        renders.clear()
        moved = api.post(f"/api/games/{game_id}/events", headers={"X-Seat-Token": tokens[0]}, json={
            "type": "governors-laid", "data": {"order": list("ABCDEFG")}, "expected_seq": 1,
            "client_event_id": "gov"})
        assert moved.status_code == 201, moved.json
        seen = {phone: phone.next() for phone in watching + anna + bela}
        assert renders.count("_live.html") == 3  # spectators, Anna's seat, Béla's seat
        assert len({seen[p] for p in anna}) == 1
        gold = re.compile(r'data-testid="mh-gold-(\d)">(\d+)<')
        assert [s for s, _ in gold.findall(seen[anna[0]])] == ["0"]    # her own gold only
        assert [s for s, _ in gold.findall(seen[bela[0]])] == ["1"]
        assert gold.findall(seen[watching[0]]) == []                    # spectators: none
        assert seen[watching[0]].count('class="mh-secret"') == 2
    finally:
        for phone in watching + anna + bela:
            phone.close()
    assert live.HUB.count() == 0
