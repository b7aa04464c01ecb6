"""Each page kind reads the store a bounded number of times once its caches are warm: its
one loader reads what the page shows and the templates only render it (docs/architecture.md,
"One read model per page"). The statements are counted by the store itself
(events/storage/store.py:trace), so the same bound holds on SQLite and on PostgreSQL
(TABLESCRIBE_TEST_ENGINE=postgresql)."""
import pytest
from flask import before_render_template, template_rendered

from events.application.table import record
from events.storage import store
from group import roster
from scoring import GAMES
from services.games import start_game
from tests.conftest import become_organiser

# A warm table page: the game's last row (is the cached state current?), the phone's seat
# token, the game's row (join code, summary for the record's check) and the log's last events.
TABLE_PAGE_READS = 4


@pytest.fixture
def reads(app) -> list[str]:
    """Every statement that reads, as the app's requests run them, in order."""
    seen: list[str] = []

    def read(sql: str) -> None:
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            seen.append(sql)
    app.extensions["trace_statements"] = read
    return seen


def _warm_reads(phone, path: str, reads: list[str]) -> list[str]:
    assert phone.get(path).status_code == 200  # the first request fills the caches
    reads.clear()
    assert phone.get(path).status_code == 200
    return list(reads)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_warm_table_page_reads_the_store_at_most_four_times(table_of, reads, kind):
    table = table_of(kind, demo=True)
    done = _warm_reads(table.phone(0), f"/games/{table.id}", reads)
    assert len(done) <= TABLE_PAGE_READS, "\n".join(done)


def test_a_warm_table_page_of_a_spectator_reads_no_more(table_of, reads, app):
    table = table_of("han", demo=True)
    done = _warm_reads(app.test_client(), f"/games/{table.id}", reads)
    assert len(done) <= TABLE_PAGE_READS, "\n".join(done)


# ---- every other page kind -------------------------------------------------------------

@pytest.fixture
def finished(db, client) -> str:
    """A score pad game Anna won, its seats linked to the roster's Anna and Béla, a dispute
    opened on its first move: a play the statistics count; and two games still played."""
    created = start_game(db, "scorepad", [{"name": "Anna"}, {"name": "Béla"}], {}, "dev", phones_for=(0,))
    game = created["id"]
    moves = [("points-recorded", {"seat": 0, "points": 30}), ("points-recorded", {"seat": 1, "points": 10}),
             ("dispute-opened", {"target": 2, "comment": "a typo"}), ("game-ended", {})]
    for seq, (type_, data) in enumerate(moves, start=1):
        record(db, game, type_, data, seq, 0, "dev", f"m{seq}")
    client.set_cookie(f"seat_{game}", created["seats"][0]["token"])  # the host's phone
    for _ in range(2):  # two score pads still played: the home page names each by its set-up
        start_game(db, "scorepad", [{"name": "Anna"}, {"name": "Béla"}], {}, "dev")
    return game


# Each page's warm reads: what its one loader reads, named, and nothing a template asks for.
# A game's history (web/audit.py:Game): its last event (is the cached walk current?) and its
# row (the record's check, the imported mark).
HISTORY = 2
# The group (web/stats.py:load_group): the games left out (imported ones not counted, the
# finished ones' checks), the roster's summary row (its check) and its last change.
GROUP = 4
PLAYS = 1       # the statistics' read model's version (group/plays.py)
ORGANISER = 1   # the organiser's cookie checked against the store's salt
SEAT = 1        # the phone's seat token
PAGES = {
    "/": 2 + 2,  # the games of each list, and the set-ups naming each list's score pads
    "/games/{game}/timeline": HISTORY + 1 + SEAT,  # the events shown
    "/games/{game}/replay?at=2": HISTORY + 1,  # the events up to the step shown
    "/games/{game}/disputes/4": HISTORY + 1 + SEAT,  # the game's events
    "/games/{game}/final": HISTORY + 1 + GROUP + PLAYS,  # the last event; the BG Stats link's play
    "/people": GROUP + PLAYS + ORGANISER,
    "/people/games/{game}": 1 + GROUP + ORGANISER,  # the game's row
    "/people/log": GROUP + 1 + 2 + ORGANISER,  # the page of changes, the games they name (row, set-up)
    "/people/servers": 2 + GROUP + ORGANISER,  # the trusted keys, the imported games
    "/stats": GROUP + PLAYS + ORGANISER,
    "/stats/people/{anna}": GROUP + 2 * PLAYS + ORGANISER,  # the plays, then the ratings
    "/stats/games/scorepad": GROUP + 2 * PLAYS + ORGANISER,
    "/stats/together": GROUP + 2 * PLAYS + ORGANISER,
    "/stats/plays": GROUP + PLAYS + 1 + ORGANISER,  # the listed plays' photos
    # the board's built-in profiles (stored once), its profiles, and the organiser
    "/boards/han/": 2 + ORGANISER,
    "/boards/han/han-side1/": 2 + ORGANISER,
    "/games/new?kind=han": 1 + 2,  # the roster's last change (its names), the boards
    "/games/{game}/rescore": HISTORY + 1 + SEAT,  # the game's events
    # the host's: the game's last event, the phone's seat token, the seats' locks, the phones
    # per seat, the game's row
    "/games/{game}/seats": 1 + SEAT + 2 + 1,
    "/people/import-bgstats": GROUP + ORGANISER,
    "/import": 0,
    "/boards/": 0,
}


def _page(app, client, db, game: str, path: str) -> str:
    become_organiser(app, client)
    return path.format(game=game, anna=roster.load(db).by_name("Anna")["id"])


@pytest.mark.parametrize("path", sorted(PAGES))
def test_a_warm_page_reads_what_its_loader_reads(app, client, db, finished, reads, path):
    done = _warm_reads(client, _page(app, client, db, finished, path), reads)
    assert len(done) <= PAGES[path], "\n".join(done)


@pytest.mark.parametrize("path", sorted({*PAGES, "/games/{game}"}))
def test_a_page_s_templates_read_nothing(app, client, db, finished, path, monkeypatch):
    """Templates receive data: no global they call and no context processor reads the store
    (cold or warm)."""
    read_by_templates: list[str] = []
    rendering = []
    context = app.update_template_context  # the context processors run here, before the signal

    def processors(ctx) -> None:
        rendering.append(True)
        try:
            context(ctx)
        finally:
            rendering.pop()
    monkeypatch.setattr(app, "update_template_context", processors)
    before_render_template.connect(lambda *_, **__: rendering.append(True), app, weak=False)
    template_rendered.connect(lambda *_, **__: rendering.pop(), app, weak=False)
    app.extensions["trace_statements"] = lambda sql: read_by_templates.append(sql) if rendering else None
    page = _page(app, client, db, finished, path)
    assert client.get(page).status_code == 200
    assert read_by_templates == []



def test_a_tap_looks_at_the_logs_last_event_once(table_of, reads):
    """The state is checked against the store when the request loads it; the record
    checks the sequence again under the write lock, and the answer draws the state the
    record left (a tap looked at the log's end three times before it took the lock)."""
    table = table_of("scorepad", names=("Anna", "Béla"))
    phone = table.phone(0)
    assert phone.get(f"/games/{table.id}").status_code == 200  # the caches warm
    for seq in range(1, 4):
        reads.clear()
        answer = phone.post(f"/games/{table.id}/moves", headers={"HX-Request": "true"}, data={
            "action": "points-recorded", "seat": "0", "sign": "+", "points": str(seq),
            "expected_seq": str(seq), "client_event_id": f"m{seq}"})
        assert answer.status_code == 200
        heads = [sql for sql in reads if "ORDER BY seq DESC LIMIT 1" in " ".join(sql.split())]
        assert len(heads) == 2, "\n".join(reads)  # the request's load, and the append's under its lock
