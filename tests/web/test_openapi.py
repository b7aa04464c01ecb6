"""docs/openapi.yaml, held to the API by outside tools (issue 23): schemathesis with every
check and its stateful phase against a live gunicorn (0 failures), a client that
openapi-python-client generates from the document plays a round, and the document's
enums are the code's. Nothing generated is kept: it is made in a temporary folder."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import yaml

from tests.conftest import ROOT, free_port, start_server, stop_server
from events.domain.core_types import CORE_SCHEMAS
from events.domain.palette import COLOURS
from scoring import GAMES

SPEC_PATH = os.path.join(ROOT, "docs", "openapi.yaml")
SPEC = yaml.safe_load(open(SPEC_PATH, encoding="utf-8"))
SCHEMAS = SPEC["components"]["schemas"]
BIN = os.path.dirname(sys.executable)
ENV = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", ""), "NO_COLOR": "1"}


# The suite's run generates the same cases every time: schemathesis 4.32.5 (the registry's
# newest) sometimes calls a case invalid that reaches the server as a valid one — `people`
# "as a string" sent as `people=`, which the document admits as an array with one empty
# part — and a suite that fails at random proves nothing. The long variant (`-m slow`)
# draws new cases each run; a failure there prints the seed that repeats it.
SEED = 20261128


@pytest.mark.parametrize("seed", [pytest.param(SEED, id="seeded"),
                                  pytest.param(None, id="random", marks=pytest.mark.slow)])
def test_schemathesis_with_every_check_and_its_stateful_phase_finds_nothing(tmp_path, seed):
    port = free_port()
    server = start_server(str(tmp_path / "schemathesis.db"), port)
    try:
        run = subprocess.run(
            [os.path.join(BIN, "schemathesis"), "--config-file", "tests/web/schemathesis.toml", "run",
             "docs/openapi.yaml", "--url", f"http://127.0.0.1:{port}", "--checks", "all", "--workers", "1"]
            + ([] if seed is None else ["--seed", str(seed)]),
            cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=900)
    finally:
        stop_server(server)
    out = run.stdout
    print(out[out.rfind("Test Phases:"):])  # the phases, the count of cases and the seed
    assert run.returncode == 0, out[-8000:] + run.stderr[-2000:]
    cases = int(re.search(r"(\d+) generated, \1 passed", out).group(1))
    scenarios = int(re.search(r"Scenarios:\s+(\d+)", out).group(1))
    links = int(re.search(r"API Links:\s+(\d+) covered", out).group(1))
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in out, phase
    # the stateful phase followed the links from a created game to its routes
    assert cases >= 500 and scenarios >= 20 and links >= 3, (cases, scenarios, links)


@pytest.fixture
def generated_client(tmp_path):
    """The package openapi-python-client makes from docs/openapi.yaml, imported."""
    subprocess.run([os.path.join(BIN, "openapi-python-client"), "generate", "--path", SPEC_PATH,
                    "--output-path", str(tmp_path / "tablescribe_client"), "--meta", "none"],
                   env=ENV, check=True, capture_output=True, timeout=300)
    sys.path.insert(0, str(tmp_path))
    try:
        import tablescribe_client
        yield tablescribe_client
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.split(".")[0] == "tablescribe_client"]:
            del sys.modules[name]


def test_a_client_generated_from_the_document_plays_a_round(generated_client, live_server):
    from tablescribe_client import AuthenticatedClient, Client
    from tablescribe_client.api.default import append_event, create_game, get_state, list_events
    from tablescribe_client.models import (Appended, CreatedGame, JsonObject, NewEvent, NewEventType, NewGame,
                                           NewGameKind, Player, PlayerByPerson, Refusal, Stale, State)

    anyone = Client(base_url=live_server)
    assert Player(name="Anna").name == "Anna"
    assert PlayerByPerson(person=1).person == 1  # a real model each, not Any (issue 37 §9)
    created = create_game.sync(client=anyone, body=NewGame(
        kind=NewGameKind.SCOREPAD, players=[Player.from_dict({"name": "Anna", "colour": "red"}), Player(name="Béla")]))
    assert isinstance(created, CreatedGame) and created.seq == 1, created
    seat0 = AuthenticatedClient(base_url=live_server, token=created.seats[0].token, prefix="",
                                auth_header_name="X-Seat-Token")

    def move(expected_seq: int, client_event_id: str, points: tuple[int, int]):
        return append_event.sync(created.id, client=seat0, body=NewEvent(
            type_=NewEventType.ROUND_ENTERED, expected_seq=expected_seq, client_event_id=client_event_id,
            data=JsonObject.from_dict({"round": 1, "entries": [{"seat": 0, "points": points[0]},
                                                                 {"seat": 1, "points": points[1]}]})))

    appended = move(1, "c1", (7, 5))
    assert isinstance(appended, Appended) and appended.seq == 2, appended
    state = get_state.sync(created.id, client=anyone)
    assert isinstance(state, State) and [row.score for row in state.standings] == [7, 5]
    stale = move(1, "c2", (1, 1))  # someone recorded first: the fresh seq and state
    assert isinstance(stale, Stale) and stale.seq == 2 and stale.state.seq == 2, stale
    refused = move(2, "c3", (1, 1))  # round 1 is filled: the rules say why
    assert isinstance(refused, Refusal) and refused.problems[0].rule.startswith("docs/rules/scorepad.md"), refused
    events = list_events.sync(created.id, client=anyone)
    assert [e.type_ for e in events.events] == ["game-created", "round-entered"]


def test_the_documents_enums_are_the_codes():
    assert SCHEMAS["NewGame"]["properties"]["kind"]["enum"] == sorted(GAMES)
    players = SCHEMAS["NewGame"]["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (min(g.min_players for g in GAMES.values()),
                                                          max(g.max_players for g in GAMES.values()))
    for kind, game in GAMES.items():
        assert f"{kind} {game.min_players}-{game.max_players}" in players["description"] \
            or f"the others {game.min_players}-{game.max_players}" in players["description"], kind
    assert SCHEMAS["Colour"]["enum"] == [c["id"] for c in COLOURS] + ["", None]
    for rule in SCHEMAS["NewGame"]["allOf"]:  # each kind's number of players, as the registry has it
        kinds = rule["if"]["properties"]["kind"].get("enum") or [rule["if"]["properties"]["kind"]["const"]]
        counts = rule["then"]["properties"]["players"]
        assert {(GAMES[k].min_players, GAMES[k].max_players) for k in kinds} == {(counts["minItems"], counts["maxItems"])}
    limited = {k for rule in SCHEMAS["NewGame"]["allOf"] for k in rule["if"]["properties"]["kind"].get(
        "enum", [rule["if"]["properties"]["kind"].get("const")])}
    assert {k for k, g in GAMES.items() if (g.min_players, g.max_players) != (1, 12)} == limited
    types = set(CORE_SCHEMAS).union(*(game.event_types for game in GAMES.values()))
    assert SCHEMAS["NewEvent"]["properties"]["type"]["enum"] == sorted(types), \
        "docs/openapi.yaml: NewEvent's type lists every event type of every game and the core's, sorted"


def _valid(name: str, value) -> bool:
    """Whether the document's schema ``name`` takes ``value`` (its references resolved)."""
    from jsonschema import Draft202012Validator
    schema = {**SCHEMAS[name], "components": SPEC["components"]}
    return Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize("body,status", [
    ({"kind": "scorepad", "players": [{"name": "A"}], "options": {"title": {"deep": ["x\u0000"]}}}, 400),
    ({"kind": "scorepad", "players": [{"person": 0}]}, 422),
    ({"kind": "five-tribes", "players": [{"name": n} for n in "ABCDE"]}, 422),
    ({"kind": "han", "players": [{"name": "A"}]}, 422),
])
def test_what_the_server_refuses_the_document_calls_invalid(client, body, status):
    assert client.post("/api/games", json=body).status_code == status
    assert not _valid("NewGame", body)


def test_a_nul_deep_in_an_events_data_is_invalid_in_the_document_too():
    move = {"type": "points-recorded", "data": {"seat": 0, "points": 1, "note": {"x": ["\u0000"]}},
            "expected_seq": 1, "client_event_id": "k1"}
    assert not _valid("NewEvent", move)
    assert _valid("NewEvent", {**move, "data": {"seat": 0, "points": 1, "note": "fine"}})
    assert _valid("NewGame", {"kind": "five-tribes", "players": [{"name": "A"}, {"person": 3, "colour": "red"}]})


def test_a_wrong_method_names_the_right_ones_in_allow(client):
    for method, path, allowed in (("delete", "/api/games", "OPTIONS, POST"),
                                  ("put", "/api/games/abc/events", "GET, HEAD, OPTIONS, POST"),
                                  ("post", "/api/stats", "GET, HEAD, OPTIONS")):
        response = getattr(client, method)(path)
        assert response.status_code == 405 and response.headers["Allow"] == allowed, (path, response.headers)
        assert "error" in response.get_json()


def test_a_key_the_document_does_not_know_is_refused_not_ignored(client):
    """additionalProperties: false, in the body and in a player, as the document says."""
    game = {"kind": "scorepad", "players": [{"name": "Anna"}]}
    assert client.post("/api/games", json={**game, "colour": "red"}).status_code == 400
    assert client.post("/api/games", json={**game, "players": [{"name": "Anna", "age": 9}]}).status_code == 400
    assert client.post("/api/games", json={**game, "players": [{"colour": "red"}]}).status_code == 400
    assert client.post("/api/games", json={**game, "players": [{"name": 5, "person": 1}]}).status_code == 400
    created = client.post("/api/games", json=game).json
    move = {"type": "points-recorded", "data": {"seat": 0, "points": 1, "note": ""}, "expected_seq": 1,
            "client_event_id": "k1"}
    headers = {"X-Seat-Token": created["seats"][0]["token"]}
    for spoiled in ({**move, "seat": 0}, {**move, "data": None}, {**move, "data": [1]}):
        assert client.post(f"/api/games/{created['id']}/events", json=spoiled, headers=headers).status_code == 400
    assert client.post(f"/api/games/{created['id']}/events", json=move, headers=headers).status_code == 201


def test_a_backslash_before_u0000_is_text_not_a_nul(client):
    """JSON's \\u0000 is a NUL (refused); an escaped backslash followed by "u0000" is six
    ordinary characters, which the document's pattern allows."""
    body = b'{"kind": "scorepad", "players": [{"name": "A\\\\u0000"}]}'
    created = client.post("/api/games", data=body, content_type="application/json")
    assert created.status_code == 201 and created.json["seats"][0]["player"] == "A\\u0000", created.json
    nul = b'{"kind": "scorepad", "players": [{"name": "A\\u0000"}]}'
    assert client.post("/api/games", data=nul, content_type="application/json").status_code == 400


def test_a_person_id_written_as_7_point_0_is_the_integer_json_schema_says_it_is(client):
    """JSON Schema counts 2.0 as an integer, so the document calls it valid: it is no 400."""
    body = {"kind": "scorepad", "players": [{"person": 605833.0}, {"name": "", "person": 1}]}
    assert _valid("NewGame", body)
    assert client.post("/api/games", json=body).status_code == 422  # nobody of that id: the roster says so
