"""Two real app servers (gunicorn, gevent workers, as `make run` starts them) on one
PostgreSQL database (issue 19, docs/scaling.md): a move recorded through server A
reaches a phone streaming from server B, and killing server A under load loses no
acknowledged event. A cluster is started by tests/conftest.py; if it cannot start,
these tests fail."""
import json
import queue
import threading
import time
import urllib.error
import urllib.request

from events.storage import store
from tests.conftest import free_port, start_server, stop_server


def _call(base: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def _servers(url: str, count: int = 2):
    ports = [free_port() for _ in range(count)]
    return [start_server(url, port, workers=2) for port in ports], [f"http://127.0.0.1:{p}" for p in ports]


def _stop(procs) -> None:
    for proc in procs:
        stop_server(proc)


def _new_game(base: str) -> tuple[str, str]:
    status, game = _call(base, "/api/games", {"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
    assert status == 201, game
    return game["id"], game["seats"][0]["token"]


def _stream_ids(base: str, game_id: str, ids: queue.Queue) -> None:
    """A phone's live stream: each message's id (the game's sequence number)."""
    with urllib.request.urlopen(f"{base}/games/{game_id}/stream", timeout=30) as stream:
        for raw in stream:
            line = raw.decode()
            if line.startswith("id: "):
                ids.put(int(line[4:]))


def test_a_move_recorded_through_one_server_reaches_a_phone_on_the_other(postgres_url):
    procs, (a, b) = _servers(postgres_url)
    try:
        game_id, token = _new_game(a)
        ids: queue.Queue = queue.Queue()
        threading.Thread(target=_stream_ids, args=(b, game_id, ids), daemon=True).start()
        assert ids.get(timeout=20) == 1  # the current region at once
        for seq in (1, 2, 3):
            status, _ = _call(a, f"/api/games/{game_id}/events", {
                "type": "points-recorded", "data": {"seat": 0, "points": 4},
                "expected_seq": seq, "client_event_id": f"m{seq}"}, token)
            assert status == 201
            # pushed by server B, woken by NOTIFY (sooner than its 15 s keep-alive look)
            assert ids.get(timeout=10) == seq + 1
    finally:
        _stop(procs)


def test_killing_one_server_under_load_loses_no_acknowledged_event(postgres_url):
    procs, bases = _servers(postgres_url)
    games = [_new_game(bases[i % 2]) for i in range(6)]
    acknowledged: dict[str, list[str]] = {g: [] for g, _ in games}
    stop = threading.Event()

    def phone(n: int, game_id: str, token: str) -> None:
        i = 0
        while not stop.is_set():
            base = bases[(n + i) % 2]
            client_id = f"p{n}-{i}"
            try:
                seen = _call(base, f"/api/games/{game_id}/state", token=token)[1].get("seq")
                status, _ = _call(base, f"/api/games/{game_id}/events", {
                    "type": "points-recorded", "data": {"seat": 0, "points": 1},
                    "expected_seq": seen, "client_event_id": client_id}, token)
            except OSError:  # the killed server: this phone tries the other one
                status = None
            if status == 201:
                acknowledged[game_id].append(client_id)
            i += 1

    phones = [threading.Thread(target=phone, args=(n, *games[n % len(games)])) for n in range(12)]
    try:
        for t in phones:
            t.start()
        time.sleep(3)
        procs[0].kill()  # kill -9 server A mid-load
        procs[0].wait(10)
        at_kill = sum(len(v) for v in acknowledged.values())
        time.sleep(3)
        assert sum(len(v) for v in acknowledged.values()) > at_kill  # server B kept serving
    finally:
        stop.set()
        for t in phones:
            t.join(60)
        _stop(procs)
    db = store.connect(postgres_url)
    assert sum(len(v) for v in acknowledged.values()) > 20
    for game_id, clients in acknowledged.items():
        stored = store.read_events(db, game_id)
        assert [e.seq for e in stored] == list(range(1, len(stored) + 1))  # no gap, no duplicate
        assert set(clients) <= {e.client_event_id for e in stored}  # every acknowledged move is there
        assert store.verify_game(db, game_id) is None
