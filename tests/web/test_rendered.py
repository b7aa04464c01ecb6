"""One move, rendered once per view (issue 27 §2; web/rendered.py): however many phones
hold the table's stream, the live region is rendered once for spectators, once for the
seated phones (once per seat where the game hides something: Maharaja's secret gold)
and once per language, and the same bytes go to the tapping phone's answer and to every
stream of that view — on each engine. Each phone still sees only what its seat may."""
import re

import pytest
from flask import template_rendered

from events.application import seats
from web.db import get_db
from tests.conftest import app_on


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

    def __init__(self, app, game_id: str, token: str | None = None, lang: str = "hu", query: str = ""):
        self.client = app.test_client()
        if token:
            self.client.set_cookie(f"seat_{game_id}", token)
        self.client.set_cookie("lang", lang)
        self.response = self.client.get(f"/games/{game_id}/stream{query}", buffered=False)
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


def test_a_moves_regions_pushed_to_many_streams_are_rendered_once_per_view(app, renders):
    """Pages that take a move's regions (``?regions=1``) and were sent the table before it get
    the regions alone, rendered once per view as the whole push was — spectators in Hungarian,
    in English, the seated phones — plus the tapping phone's answer; no whole region is
    rendered for them, and every phone of a view gets the same bytes."""
    tapper = app.test_client()
    game = _new_game(tapper, "scorepad", 3)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    tapper.set_cookie(f"seat_{game_id}", tokens[0])
    for seq in (1, 2):  # a move's regions go from the third event on (the join code shows until then)
        assert tapper.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
            "action": "points-recorded", "seat": "0", "sign": "+", "points": "7",
            "expected_seq": str(seq), "client_event_id": f"tap-{seq}"}).status_code == 200
    watching = [Phone(app, game_id, query="?regions=1") for _ in range(SPECTATORS)] + \
               [Phone(app, game_id, lang="en", query="?regions=1") for _ in range(5)]
    seated = [Phone(app, game_id, tokens[1], query="?regions=1"), Phone(app, game_id, tokens[2], query="?regions=1")]
    try:
        assert all(p.first.startswith("id: 3\nevent: live\n") for p in watching + seated)
        renders.clear()
        before = app.extensions["tablescribe"].rendered.renders
        answer = tapper.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
            "action": "points-recorded", "seat": "1", "sign": "+", "points": "5", "expected_seq": "3",
            "client_event_id": "tap-3"})
        assert answer.status_code == 200 and answer.headers["HX-Reswap"] == "none"
        messages = {phone: phone.next() for phone in watching + seated}
        assert all(m.startswith("id: 4\nevent: regions\n") for m in messages.values())
        assert renders.count("_partial.html") == 4  # three views' pushes and the answer
        assert renders.count("_live.html") == 0 and renders.count("_live_region.html") == 0
        assert app.extensions["tablescribe"].rendered.renders - before == 3
        assert len({messages[p] for p in watching[:SPECTATORS]}) == 1
        assert len({messages[p] for p in watching[SPECTATORS:]}) == 1
        assert len({messages[p] for p in seated}) == 1
    finally:
        for phone in watching + seated:
            phone.close()


def _log(html: str) -> str:
    """The ``#log`` section's entries, as the answer or the push carries them."""
    start = html.index('<section id="log"')
    return html[html.index(">", start) + 1:html.index("</section>", start)]


def test_the_tapping_phones_answer_carries_its_new_log_entry_as_the_pushes_show_it(app, monkeypatch):
    """The log is the table's: the pushes write its rows once per view of a move, and the
    tapping phone's answer writes only the move's own entry (web/partial.py), the very
    entry the pushes of its view show at the top (every row shows its time: counted)."""
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
        assert len(rows) == 1 + 2 * 5  # the answer's entry; five in each pushed log (seated, spectators)
        entry = answer[answer.index('<li id="e5"'):answer.index("</li>", answer.index('<li id="e5"')) + 5]
        pushed_log = _log("\n".join(line[len("data: "):] for line in pushed.splitlines() if line.startswith("data: ")))
        same = re.compile(r'value="[0-9a-f]+-v')  # the void form's submission id is each render's own
        entry = same.sub('value="-v', entry).replace(' hx-swap-oob="afterbegin:#events"', "")
        pushed_log = same.sub('value="-v', pushed_log)
        assert entry in pushed_log and pushed_log.index(entry) < pushed_log.index('<li id="e4"')
        assert '/void"' not in _log(watched) and '/void"' in entry and 'name="csrf_token"' not in entry
    finally:
        seated.close()
        watching.close()


def test_a_games_pushed_form_is_rendered_once_for_the_answer_and_the_pushes(app, monkeypatch):
    """Han pushes its move form to every seated phone (``_live_oob.html``); the tapping
    phone's answer carries the same fields, rendered once per move and view (the board's
    end-position grid, in the form while no piece is placed, is counted)."""
    from scoring import GAMES
    tapper = app.test_client()
    players, options, _ = GAMES["han"].demo()
    game = tapper.post("/api/games", json={"kind": "han", "players": players, "options": options}).json
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    tapper.set_cookie(f"seat_{game_id}", tokens[0])
    seated = Phone(app, game_id, tokens[1])
    loaded = []
    real = app.jinja_env.get_template
    monkeypatch.setattr(app.jinja_env, "get_template",
                        lambda name, *a, **k: loaded.append(name) or real(name, *a, **k))
    try:
        answer = tapper.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
            "action": "draw-pile-ran-out", "confirm_pile": "1", "expected_seq": "1",
            "client_event_id": "tap-2"}).get_data(as_text=True)
        assert 'data-testid="ack"' in answer, answer[:2000]
        pushed = "\n".join(line[len("data: "):] for line in seated.next().splitlines() if line.startswith("data: "))
        assert loaded.count("games/han/_tally.html") == 1
        form = answer[answer.index('<div id="han-form">') + len('<div id="han-form">'):]
        pushed_form = pushed[pushed.index('<div id="han-form" hx-swap-oob="morph">') + len('<div id="han-form" hx-swap-oob="morph">'):]
        assert form[:form.index('id="han-tally"')] == pushed_form[:pushed_form.index('id="han-tally"')]
    finally:
        seated.close()


def test_a_seat_apart_shares_its_pushed_form_with_its_own_answer_only(app, renders):
    """Maharaja pushes its form too, and a seat whose gold is secret is a view of its own:
    the form's fields are rendered once per seat's view, the tapping seat's answer carries
    its view's bytes, and the other seat gets its own."""
    tapper = app.test_client()
    game = _new_game(tapper, "maharaja", 2)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    tapper.set_cookie(f"seat_{game_id}", tokens[0])
    anna, bela = Phone(app, game_id, tokens[0]), Phone(app, game_id, tokens[1])
    try:
        renders.clear()
        answer = tapper.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
            "action": "governors-laid", "expected_seq": "1", "client_event_id": "gov",
            **{f"gov{i}": c for i, c in enumerate("ABCDEFG", start=1)}}).get_data(as_text=True)
        assert 'data-testid="ack"' in answer, answer[:1500]
        mine, theirs = anna.next(), bela.next()
        fields = renders.count("games/maharaja/_form_fields.html")
        assert fields == 2  # Anna's view (her answer and her other phone), Béla's view

        def form_of(html: str) -> str:
            start = html.index('<div id="mh-form"')
            return html[html.index(">", start) + 1:html.index('data-testid="mh-step"', start) + 200]
        pushed = "\n".join(line[len("data: "):] for line in mine.splitlines() if line.startswith("data: "))
        assert form_of(answer) == form_of(pushed)
    finally:
        anna.close()
        bela.close()


def test_dragons_step_form_is_rendered_once_for_the_push_and_the_polls_of_its_view(app, renders):
    from scoring import GAMES
    api = app.test_client()
    players, options, moves = GAMES["dragon"].demo()
    game = api.post("/api/games", json={"kind": "dragon", "players": players, "options": options}).json
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    seated = Phone(app, game_id, tokens[1])
    try:
        renders.clear()
        type_, data = moves[0]
        moved = api.post(f"/api/games/{game_id}/events", headers={"X-Seat-Token": tokens[0]}, json={
            "type": type_, "data": data, "expected_seq": 1, "client_event_id": "first"})
        assert moved.status_code == 201, moved.json
        pushed = "\n".join(line[len("data: "):] for line in seated.next().splitlines() if line.startswith("data: "))
        poller = app.test_client()
        poller.set_cookie(f"seat_{game_id}", tokens[0])
        polled = poller.get(f"/games/{game_id}/live?seq=1").get_data(as_text=True)
        assert renders.count("games/dragon/_form_fields.html") == 1
        start = '<div id="dragon-form" hx-swap-oob="morph">'
        assert start in polled and polled[polled.index(start):polled.index("</form>", polled.index(start))] in pushed
    finally:
        seated.close()


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
    assert app.extensions["live"].count() == 0



def test_a_phone_whose_seat_was_handed_over_gets_no_more_of_its_secret(app):
    """The streams a move wakes share one read of the seats (events/runtime/live.py ``Hub.look``),
    made after the move: a hand-over before it takes the old phone's secret view at once."""
    api = app.test_client()
    game = _new_game(api, "maharaja", 2)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    lost, other = Phone(app, game_id, tokens[1]), Phone(app, game_id, tokens[1])
    gold = re.compile(r'data-testid="mh-gold-(\d)">(\d+)<')

    def move(seq: int, data: dict, type_: str) -> None:
        moved = api.post(f"/api/games/{game_id}/events", headers={"X-Seat-Token": tokens[0]}, json={
            "type": type_, "data": data, "expected_seq": seq, "client_event_id": f"m{seq}"})
        assert moved.status_code == 201, moved.json
    try:
        move(1, {"order": list("ABCDEFG")}, "governors-laid")
        assert [s for s, _ in gold.findall(lost.next())] == ["1"]  # Béla's phone: his gold
        other.next()
        with app.app_context():
            seats.hand_over(get_db(), game_id, 1)  # Béla's phone is lost: the host hands his seat on
        move(2, {}, "game-paused")  # the next event of the game, whatever it is
        assert gold.findall(lost.next()) == gold.findall(other.next()) == []  # what a spectator sees
    finally:
        lost.close()
        other.close()

# ---- two servers on one store (issue 27 §2, §3) -------------------------------------------

def _server(database: str):
    """One server: an app of its own (its own hub, watcher and caches) on the shared store."""
    app = app_on(database)
    app.extensions["tablescribe"].rendered.max_age = 600  # renders are counted, not seconds
    return app


@pytest.fixture
def servers(database):
    """Two servers on one store, and the store connections each of them took, counted."""
    from flask import current_app, has_app_context

    from events.storage import pg, store
    a, b = _server(database), _server(database)
    taken = {a: 0, b: 0}
    pooled, take = pg.Pools.pooled, store.Idle.take

    def counted(open_):
        def opened(*args, **kwargs):
            if has_app_context():  # a request's connection (the watchers open their own)
                taken[current_app._get_current_object()] += 1
            return open_(*args, **kwargs)
        return opened
    pg.Pools.pooled, store.Idle.take = counted(pooled), counted(take)
    try:
        yield a, b, taken
    finally:
        pg.Pools.pooled, store.Idle.take = pooled, take


def test_a_move_is_read_once_per_server_and_rendered_once_per_view_on_each(servers):
    a, b, taken = servers
    game = _new_game(a.test_client(), "scorepad", 3)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    tapper = a.test_client()
    tapper.set_cookie(f"seat_{game_id}", tokens[0])
    phones = {app: [Phone(app, game_id) for _ in range(6)] + [Phone(app, game_id, lang="en") for _ in range(3)]
              + [Phone(app, game_id, tokens[1]), Phone(app, game_id, tokens[2])] for app in (a, b)}
    rendered = {a: [], b: []}

    def count(sender, template, context, **extra):
        rendered[sender].append(template.name)
    try:
        with template_rendered.connected_to(count, a), template_rendered.connected_to(count, b):
            taken.update({a: 0, b: 0})
            answer = tapper.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
                "action": "points-recorded", "seat": "0", "sign": "+", "points": "7", "expected_seq": "1",
                "client_event_id": "tap-1"})
            assert answer.status_code == 200
            seen = {app: [phone.next() for phone in phones[app]] for app in (a, b)}
        for app in (a, b):  # B's phones were woken by the store (NOTIFY, data_version), not by A
            assert all(m.startswith("id: 2\n") for m in seen[app])
            assert rendered[app].count("_live.html") == 3  # spectators hu, en, the seated phones
            assert len(set(seen[app][:6])) == 1 and len(set(seen[app][-2:])) == 1
        # a store connection per view rendered (the region's own reads, events/application/loaded.py), the
        # move and the seats read in the first of them for every stream: none per phone
        assert taken == {a: 1 + 3, b: 3}  # A: the tap's too
        assert _region(seen[b][-1]) != _region(seen[b][0])  # seated phones: the grid's void forms
    finally:
        for phone in phones[a] + phones[b]:
            phone.close()


def test_a_server_is_told_of_its_own_move_once(servers):
    """PostgreSQL NOTIFYs every listener of a committed move, the server that recorded it
    too (SQLite: its watcher sees the file change): that server's streams were woken when
    it recorded the move, and are not woken a second time for it."""
    a, b, _ = servers
    database = a.config["DATABASE"]
    games = [_new_game(a.test_client(), "scorepad", 2) for _ in range(2)]
    (game_id, token), (other_id, other_token) = ((g["id"], g["seats"][0]["token"]) for g in games)
    hub = a.extensions["live"]
    woken, other_woken = hub.subscribe(game_id, database), hub.subscribe(other_id, database)
    api = {app: app.test_client() for app in (a, b)}
    seqs = {game_id: 1, other_id: 1}

    def move(app, game: str) -> None:
        answer = api[app].post(f"/api/games/{game}/events", headers={"X-Seat-Token": token if game == game_id
                                                                      else other_token}, json={
            "type": "points-recorded", "data": {"seat": 1, "points": 3}, "expected_seq": seqs[game],
            "client_event_id": f"{game}-{seqs[game]}"})
        assert answer.status_code == 201, answer.json
        seqs[game] += 1

    def told_of_the_other_game() -> None:
        """B records a move of the other game: once A's watcher has woken its stream, it
        has handled every notification before it (PostgreSQL delivers them in order)."""
        other_woken.clear()
        move(b, other_id)
        assert other_woken.wait(10)
    try:
        move(a, game_id)
        told_of_the_other_game()  # whatever A's watcher had to say before is said
        woken.clear()
        move(a, game_id)
        assert woken.is_set()  # at once, by the server that recorded it
        woken.clear()
        told_of_the_other_game()
        assert not woken.is_set()  # its own notification of that move woke nobody again
        move(b, game_id)
        assert woken.wait(10)  # while a move recorded through B does
    finally:
        hub.unsubscribe(game_id, woken)
        hub.unsubscribe(other_id, other_woken)
