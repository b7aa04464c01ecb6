"""Retries (docs/reliability.md §2): the same submission sent twice — a double tap,
a retry after a dropped response — makes exactly one event, and the second answer
equals the first. Over real HTTP against gunicorn with two worker processes, so the
twins really race in different processes."""
from __future__ import annotations

import json
import re
import socket
import threading
import uuid

import pytest

from tests.reliability.kit import Phone, Server, assert_store_sound, create_game, record_figures

DOUBLE_TAPS = 30
DROPPED = 10
FIGURES: dict = {}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    """The real server on each engine (issue 19)."""
    if request.param == "sqlite":
        db_path = str(tmp_path_factory.mktemp("retry") / "retry.db")
    else:
        from tests.conftest import create_database
        db_path = create_database(request.getfixturevalue("postgres_server"))
    with Server(db_path) as running:
        yield running
    assert_store_sound(db_path)


def _events(url: str, game_id: str) -> list[dict]:
    phone = Phone(url)
    status, body = phone.request("GET", f"/api/games/{game_id}/events")
    phone.close()
    assert status == 200
    return body["events"]


def _body(seq: int, cid: str, points: int = 5) -> dict:
    return {"type": "points-recorded", "data": {"seat": 0, "points": points},
            "expected_seq": seq, "client_event_id": cid}


def test_sent_twice_in_a_row_one_event_same_answer(server):
    game = create_game(server.url, "scorepad", [{"name": "A"}, {"name": "B"}])
    phone = Phone(server.url, game["seats"][0]["token"])
    body = _body(1, "same-id")
    first = phone.request("POST", f"/api/games/{game['id']}/events", body)
    second = phone.request("POST", f"/api/games/{game['id']}/events", body)
    # Even after another move, a late retry of the first still gets the first answer.
    phone.request("POST", f"/api/games/{game['id']}/events", _body(2, "next"))
    third = phone.request("POST", f"/api/games/{game['id']}/events", body)
    phone.close()
    assert first[0] == 201 and first == second == third
    assert [e["client_event_id"] for e in _events(server.url, game["id"])][1:] == ["same-id", "next"]


def test_double_tap_twins_racing_make_one_event(server):
    """Both taps leave at the same instant (a barrier) on two connections."""
    game = create_game(server.url, "scorepad", [{"name": "A"}, {"name": "B"}])
    token = game["seats"][0]["token"]
    phones = [Phone(server.url, token), Phone(server.url, token)]
    seq, mismatched = 1, []
    for tap in range(DOUBLE_TAPS):
        body, answers = _body(seq, uuid.uuid4().hex, points=tap), [None, None]
        barrier = threading.Barrier(2)

        def tap_once(i):
            barrier.wait()
            answers[i] = phones[i].request("POST", f"/api/games/{game['id']}/events", body)

        twins = [threading.Thread(target=tap_once, args=(i,)) for i in (0, 1)]
        for t in twins:
            t.start()
        for t in twins:
            t.join(30)
        if answers[0] != answers[1] or answers[0][0] != 201:
            mismatched.append(answers)
        seq = answers[0][1]["seq"] if answers[0][0] == 201 else seq
    for phone in phones:
        phone.close()
    assert not mismatched, mismatched[:3]
    events = _events(server.url, game["id"])
    assert len(events) == 1 + DOUBLE_TAPS
    assert len({e["client_event_id"] for e in events}) == len(events)
    record_figures("retry: racing double taps", {"pairs": DOUBLE_TAPS, "events": len(events) - 1,
                                                "different answers": len(mismatched)})


def _send_and_drop(url: str, path: str, token: str, body: dict) -> None:
    """Send a request and hang up before reading the answer (a response lost in the air)."""
    host, port = url.removeprefix("http://").split(":")
    payload = json.dumps(body).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"X-Seat-Token: {token}\r\nContent-Length: {len(payload)}\r\nConnection: close\r\n\r\n")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(head.encode() + payload)
        s.shutdown(socket.SHUT_WR)


def test_retry_after_a_dropped_response_makes_one_event(server):
    game = create_game(server.url, "scorepad", [{"name": "A"}, {"name": "B"}])
    token, path = game["seats"][1]["token"], f"/api/games/{game['id']}/events"
    phone = Phone(server.url, token)
    seq = 1
    for i in range(DROPPED):
        body = _body(seq, uuid.uuid4().hex, points=i)
        _send_and_drop(server.url, path, token, body)
        status, answer = phone.request("POST", path, body)  # the phone retries, same id
        assert status == 201, answer
        again = phone.request("POST", path, body)
        assert again == (status, answer)
        seq = answer["seq"]
    phone.close()
    events = _events(server.url, game["id"])
    assert len(events) == 1 + DROPPED and [e["seq"] for e in events] == list(range(1, 2 + DROPPED))
    record_figures("retry: dropped responses", {"retries": DROPPED, "events": len(events) - 1})


def test_form_double_submit_makes_one_event(server):
    """A phone form (no JavaScript) posted twice with the same hidden client_event_id."""
    game = create_game(server.url, "scorepad", [{"name": "A"}, {"name": "B"}])
    cookie = f"seat_{game['id']}={game['seats'][0]['token']}"
    status, jar, html = _get_with_cookies(server.url, f"/games/{game['id']}", cookie)
    assert status == 200
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    cid = re.search(r'name="client_event_id" value="([^"]+)"', html).group(1)
    form = (f"csrf_token={csrf}&expected_seq=1&client_event_id={cid}"
            "&action=points-recorded&seat=1&points=7&note=")
    phone, answers = Phone(server.url), []
    for _ in range(2):
        answers.append(phone.request("POST", f"/games/{game['id']}/moves", raw=form.encode(), headers={
            "Cookie": jar, "Content-Type": "application/x-www-form-urlencoded"})[0])
    phone.close()
    assert answers == [303, 303]
    events = _events(server.url, game["id"])
    assert [e["client_event_id"] for e in events[1:]] == [cid]


def _get_with_cookies(url: str, path: str, cookie: str):
    import http.client
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", path, headers={"Cookie": cookie})
    response = conn.getresponse()
    html = response.read().decode()
    jar = [cookie] + [h.split(";")[0] for k, h in response.getheaders() if k.lower() == "set-cookie"]
    conn.close()
    return response.status, "; ".join(jar), html


def test_twin_that_loses_the_race_gets_the_first_answer_not_409(db, monkeypatch):
    """Deterministic form of the double-tap race: twin B finds no event with its id,
    then twin A appends before B reads the table. B must answer as A did, not 409."""
    from events.application import table as table_mod
    game_id = table_mod.new_game(db, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")["id"]
    original_load, first = table_mod.load, []

    def load_after_twin(db_, game_id_, at=None):
        monkeypatch.setattr(table_mod, "load", original_load)
        first.append(table_mod.record(db, game_id, "points-recorded", {"seat": 0, "points": 4},
                                      1, 0, "dev", "twin"))
        return original_load(db_, game_id_, at)

    monkeypatch.setattr(table_mod, "load", load_after_twin)
    event, created = table_mod.record(db, game_id, "points-recorded", {"seat": 0, "points": 4},
                                      1, 0, "dev", "twin")
    assert first[0] == (event, True) and created is False
    assert table_mod.store.last_seq(db, game_id) == 2
