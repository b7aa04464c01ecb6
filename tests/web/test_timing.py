"""The table's clock through Flask's client, CSRF on (issue 28): whose turn and for how long,
a break and the turn timer as events any seated phone records, refused with reasons, never
a 500; the standings' turn times; old games without these events show their clock."""
import re

from events.domain.event import NewEvent
from events.storage import store
from tests.conftest import app_on, csrf_of


def _game(client, token, kind="scorepad") -> str:
    response = client.post("/games/new", data={"csrf_token": token, "kind": kind,
                                                "name": ["Anna", "Béla"], "colour": ["", ""]})
    assert response.status_code == 302
    return response.headers["Location"]


def _post(client, url, path, **fields):
    page = client.get(url).get_data(as_text=True)
    seq = re.search(r'name="expected_seq" value="(\d+)"', page).group(1)
    return client.post(f"{url}/{path}", data={"csrf_token": csrf_of(page), "expected_seq": seq, **fields},
                       headers={"HX-Request": "true"})


def _clock(page: str) -> str:
    return page[page.index('id="turn-clock"'):page.index("</section>", page.index('id="turn-clock"'))]


def test_the_table_page_says_whose_turn_and_ticks_from_the_servers_times(guarded):
    app, client, token, db = guarded
    url = _game(client, token)
    clock = _clock(client.get(url).get_data(as_text=True))
    assert "The table" in clock and 'data-tick="up"' in clock
    since = int(re.search(r'data-since="(\d+)" data-testid="turn-time"', clock).group(1))
    created = store.read_events(db, url.rsplit("/", 1)[1], upto=1)[0]
    from events.domain.turns import epoch
    assert since == int(epoch(created.recorded_at) * 1000)   # the running turn began with event 1


def test_pause_stops_the_clock_resume_restarts_it_and_each_is_refused_twice(guarded):
    app, client, token, db = guarded
    url = _game(client, token)
    assert _post(client, url, "pause").status_code == 200
    page = client.get(url).get_data(as_text=True)
    assert "Paused" in _clock(page) and 'data-testid="turn-time"' not in _clock(page)
    assert 'data-testid="resume"' in page
    again = _post(client, url, "pause")
    assert again.status_code == 422 and "already paused" in again.get_data(as_text=True)
    assert _post(client, url, "resume").status_code == 200
    refused = _post(client, url, "resume")
    assert refused.status_code == 422 and "not paused" in refused.get_data(as_text=True)
    types = [e.type for e in store.read_events(db, url.rsplit("/", 1)[1])]
    assert types == ["game-created", "game-paused", "game-resumed"]


def test_the_turn_timer_is_an_event_shown_as_a_countdown_and_bad_times_say_why(guarded):
    app, client, token, db = guarded
    url = _game(client, token)
    for bad, says in (("1:x", "give minutes"), ("1441", "24 hours at most"), ("99999", "give minutes"), ("2:75", "give minutes"),
                      ("٣", "give minutes"), ("-1", "give minutes")):
        answer = _post(client, url, "timer", turn=bad)
        assert answer.status_code == 422 and says in answer.get_data(as_text=True), bad
    assert _post(client, url, "timer", turn="2:30", total="1:00:00").status_code == 200
    event = store.read_events(db, url.rsplit("/", 1)[1])[-1]
    assert (event.type, event.data) == ("timer-set", {"turn": 150, "total": 3600})
    clock = _clock(client.get(url).get_data(as_text=True))
    assert 'data-testid="countdown"' in clock and "Turn timer" in clock and 'value="2:30"' in clock
    assert "Turn timer: 2:30 a turn, 1:00:00 per player in all" in client.get(url).get_data(as_text=True)


def test_a_spectator_sees_the_clock_but_cannot_pause(guarded):
    app, client, token, db = guarded
    url = _game(client, token)
    watcher = app.test_client()
    watcher.set_cookie("lang", "en")
    page = watcher.get(url).get_data(as_text=True)
    assert 'id="turn-clock"' in page and 'data-testid="pause"' not in page
    watcher_token = csrf_of(watcher.get("/games/new").get_data(as_text=True))
    answer = watcher.post(f"{url}/pause", data={"csrf_token": watcher_token, "expected_seq": "1"})
    assert answer.status_code == 403
    assert [e.type for e in store.read_events(db, url.rsplit("/", 1)[1])] == ["game-created"]


def test_the_standings_final_sheet_and_replay_show_each_players_turn_times(guarded):
    """A Five Tribes game recorded at set times: Peti's bid 15 s and turn 100 s, the second
    player's bid 20 s (tests/test_turns.py counts the same game)."""
    from datetime import datetime, timedelta
    from bench.common import Player
    from events.application.table import new_game
    app, client, token, db = guarded
    player = Player("five-tribes")
    game_id = new_game(db, "five-tribes", player.players, player.options, "phone")["id"]
    start = datetime.fromisoformat(store.read_events(db, game_id, upto=1)[0].recorded_at)
    moves = iter(player.game.demo()[2])
    for seq, at in enumerate((60, 75, 95, 100, 130, 140, 200), start=1):
        type_, data = next(moves)
        stamp = (start + timedelta(seconds=at)).isoformat(timespec="milliseconds")
        store.append(db, game_id, NewEvent(type_, player.game.event_types[type_].version, data, 0, "phone",
                                                 f"m{seq}", stamp), seq)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    peti = page[page.index('data-testid="turn-times-0"'):]
    assert re.match(r'data-testid="turn-times-0"><span>Turn time: 2 turns</span>\s*<strong>1:55</strong><small>average 0:57', peti), peti[:300]
    assert "1:55" in peti[:300] and 'data-testid="turn-times-1"' in page
    clock = _clock(page)
    assert 'data-testid="turn-who">' in clock and ">0:" in clock
    final = client.get(f"/games/{game_id}/final").get_data(as_text=True)
    assert 'data-testid="turn-times"' in final and "1:55" in final and "0:57" in final
    replay = client.get(f"/games/{game_id}/replay?at=4").get_data(as_text=True)
    assert 'data-testid="turn-times"' in replay and "0:15" in replay and "1:55" not in replay


def test_a_game_with_breaks_and_a_timer_exports_verifies_and_imports_with_its_times(guarded, tmp_path):
    from events.application.export import export_game, import_game, verify
    app, client, token, db = guarded
    other = app_on(str(tmp_path / "other.db"), WTF_CSRF_ENABLED=True)
    elsewhere = store.connect(other.config["DATABASE"])
    url = _game(client, token)
    _post(client, url, "timer", turn="1:00")
    _post(client, url, "pause")
    _post(client, url, "resume")
    game_id = url.rsplit("/", 1)[1]
    document = export_game(db, game_id)
    assert [e.type for e in verify(document)][-3:] == ["timer-set", "game-paused", "game-resumed"]
    copied = store.read_events(elsewhere, import_game(elsewhere, document)["id"])
    assert [e.type for e in copied][-3:] == ["timer-set", "game-paused", "game-resumed"]
    assert [e.recorded_at for e in copied] == [e.recorded_at for e in store.read_events(db, game_id)]


def test_a_turn_timer_chosen_with_the_game_is_its_second_event_and_a_bad_one_starts_nothing(guarded):
    app, client, token, db = guarded
    refused = client.post("/games/new", data={"csrf_token": token, "kind": "scorepad", "name": ["Anna", "Béla"],
                                              "colour": ["", ""], "turn": "2:3x"})
    assert refused.status_code == 422 and "Time per turn" in refused.get_data(as_text=True)
    assert 'value="2:3x"' in refused.get_data(as_text=True)     # what was typed stays
    assert store.list_games(db, False, 10, 0) == []
    created = client.post("/games/new", data={"csrf_token": token, "kind": "scorepad", "name": ["Anna", "Béla"],
                                              "colour": ["", ""], "turn": "1:30", "total": ""})
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    events = store.read_events(db, game_id)
    assert [(e.type, e.data, e.seat) for e in events[1:]] == [("timer-set", {"turn": 90, "total": 0}, 0)]
    assert 'data-testid="countdown"' in client.get(created.headers["Location"]).get_data(as_text=True)
