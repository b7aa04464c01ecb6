"""The JSON API: same rules and errors as the forms (docs/api.md)."""
import pytest


@pytest.fixture
def game(client):
    response = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "Anna", "colour": "red"}, {"name": "Béla"}]})
    assert response.status_code == 201
    return response.json


def _post(client, game, body, token=None):
    token = game["seats"][0]["token"] if token is None else token
    return client.post(f"/api/games/{game['id']}/events", json=body, headers={"X-Seat-Token": token} if token else {})


def _points(seq, points=3, client_event_id=None):
    return {"type": "points-recorded", "data": {"seat": 1, "points": points}, "expected_seq": seq,
            "client_event_id": client_event_id or f"c{seq}"}


def test_create_answers_id_seq_join_url_and_seat_tokens(game):
    assert game["seq"] == 1 and "/join/" in game["join_url"]
    assert [s["player"] for s in game["seats"]] == ["Anna", "Béla"]
    assert all(len(s["token"]) >= 32 for s in game["seats"])


def test_append_then_read_events_and_state(client, game):
    appended = _post(client, game, _points(1))
    assert appended.status_code == 201 and appended.json["seq"] == 2 and len(appended.json["hash"]) == 64
    events = client.get(f"/api/games/{game['id']}/events").json["events"]
    assert [e["type"] for e in events] == ["game-created", "points-recorded"]
    assert set(events[1]) == {"seq", "type", "version", "data", "seat", "device", "recorded_at",
                              "client_event_id", "hash"}
    state = client.get(f"/api/games/{game['id']}/state").json
    assert state["seq"] == 2
    assert state["standings"][0] == {"seat": 1, "player": "Béla", "score": 3, "rank": 1, "breakdown": {"round-1": 3}}
    earlier = client.get(f"/api/games/{game['id']}/state?at=1").json
    assert earlier["seq"] == 1 and earlier["standings"][0]["score"] == 0


def test_stale_gets_409_with_the_fresh_state(client, game):
    _post(client, game, _points(1))
    stale = _post(client, game, _points(1, client_event_id="other"))
    assert stale.status_code == 409 and stale.json["seq"] == 2
    assert stale.json["state"]["standings"][0]["score"] == 3


def test_resubmission_returns_the_original_answer(client, game):
    first = _post(client, game, _points(1, client_event_id="same"))
    second = _post(client, game, _points(1, client_event_id="same"))
    assert first.status_code == second.status_code == 201 and first.json == second.json
    assert len(client.get(f"/api/games/{game['id']}/events").json["events"]) == 2


def test_rule_refusal_is_422_with_problems(client, game):
    refused = _post(client, game, {**_points(1), "data": {"seat": 5, "points": 1}})
    assert refused.status_code == 422
    assert refused.json["problems"][0]["rule"] == "docs/rules/scorepad.md §1"
    assert refused.json["problems"][0]["hu"] and refused.json["problems"][0]["en"]


@pytest.mark.parametrize("body", ["not json", None, [], {"type": "points-recorded"},
                                  {"type": 1, "data": {}, "expected_seq": 1, "client_event_id": "x"},
                                  {**_points(1), "expected_seq": "1"}])
def test_malformed_requests_are_400(client, game, body):
    if body == "not json":
        response = client.post(f"/api/games/{game['id']}/events", data="{nope",
                               headers={"X-Seat-Token": game["seats"][0]["token"], "Content-Type": "application/json"})
    else:
        response = _post(client, game, body)
    assert response.status_code == 400 and response.json["error"]


def test_tokens_unknown_missing_and_of_another_table(client, game):
    other = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "X"}]}).json
    assert _post(client, game, _points(1), token="").status_code == 401
    assert _post(client, game, _points(1), token="guess").status_code == 403
    assert _post(client, game, _points(1), token=other["seats"][0]["token"]).status_code == 403
    assert len(client.get(f"/api/games/{game['id']}/events").json["events"]) == 1


def test_unknown_game_kind_and_oversized_body(client, game):
    assert client.post("/api/games/nope/events", json=_points(1)).status_code == 404
    assert client.get("/api/games/nope/state").status_code == 404
    assert client.get(f"/api/games/{game['id']}/state?at=x").status_code == 400
    unknown = client.post("/api/games", json={"kind": "chess", "players": [{"name": "A"}]})
    assert unknown.status_code == 422
    big = _post(client, game, {**_points(1), "data": {"seat": 1, "points": 1, "note": "x" * 400_000}})
    assert big.status_code == 413 and big.json["error"]


def test_setup_refusals(client):
    too_many = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": f"P{i}"} for i in range(13)]})
    assert too_many.status_code == 422
    long_name = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "x" * 500}]})
    assert long_name.status_code == 422
    bad_shape = client.post("/api/games", json={"kind": "scorepad", "players": "Anna"})
    assert bad_shape.status_code == 400


@pytest.mark.parametrize("player", [{"name": None}, {"name": 5}, {}, {"name": "Anna", "colour": {"a": 1}}])
def test_a_name_that_is_not_a_string_is_400_not_a_player_called_none(client, player):
    response = client.post("/api/games", json={"kind": "scorepad", "players": [player]})
    assert response.status_code == 400 and "name: str" in response.json["error"]
    assert client.get("/").get_data(as_text=True).count("None") == 0


def test_points_written_as_a_float_are_refused_and_the_table_still_renders(client, game):
    """JSON Schema counts 1.0 as an integer; stored, it would stay a float in the log
    and every page formatting it as a whole number would fail for ever."""
    response = _post(client, game, {**_points(1), "data": {"seat": 1, "points": 3.0}})
    assert response.status_code == 422 and "whole number" in response.json["problems"][0]["en"]
    assert [e["type"] for e in client.get(f"/api/games/{game['id']}/events").json["events"]] == ["game-created"]
    assert _post(client, game, {**_points(1), "client_event_id": "again"}).status_code == 201
    for page in ("", "/timeline", "/replay", "/final"):
        assert client.get(f"/games/{game['id']}{page}").status_code == 200


@pytest.mark.parametrize("data, hu", [
    ({"seat": 1, "points": 3.0}, "„points”: egész szám kell"),
    ({"seat": 1}, "az adat: hiányzik: points"),
    ({"seat": 1, "points": 3, "bonus": 1}, "az adat: ismeretlen mező: bonus"),
    ({"seat": 1, "points": 3, "note": "x" * 201}, "„note”: legfeljebb 200 karakter lehet"),
])
def test_schema_refusals_speak_hungarian_too(client, game, data, hu):
    response = _post(client, game, {**_points(1), "data": data})
    [problem] = response.json["problems"]
    assert response.status_code == 422 and problem["hu"] == f"Hibás adat: {hu}" and problem["en"].startswith("Invalid data: ")
    assert len(problem["en"]) < 200  # a 201-character note is not quoted in full


@pytest.mark.parametrize("at", ["\u00b2", "\u0661", "1e2", "0x2"])
def test_state_at_takes_ascii_digits_only(client, game, at):
    response = client.get(f"/api/games/{game['id']}/state", query_string={"at": at, "lang": "en"})
    assert response.status_code == 400 and "positive event number" in response.json["error"]
