"""Bad input, HTTP side (docs/reliability.md §4): hypothesis generates requests from
the OpenAPI description of the JSON API (docs/openapi.yaml) and random form posts to
every form route of the app (found in Flask's URL map, so new pages are covered too).
Every answer is below 500 and documented, every JSON answer matches its schema, and
a request that is refused appends nothing (the event count is read around each one).
The bulk runs against the Flask test client with a real SQLite file and CSRF protection
on, as the app runs (a form post carries the page's token, except the ones that test
its absence); a smaller batch goes over real HTTP to gunicorn. Hostile input includes
text that is not valid Unicode (lone surrogates in JSON, broken UTF-8 in forms), numbers
of thousands of digits, deep nesting, oversized fields and wrong types."""
from __future__ import annotations

import functools
import io
import json
import os
import re
import sqlite3
import urllib.parse

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.conftest import app_on, csrf_of
from events.domain.core_types import CORE_SCHEMAS
from tests.reliability.kit import Phone, ROOT, Server, create_game, from_schema, hostile_strategies, record_figures
from scoring import GAMES

SPEC = yaml.safe_load(open(os.path.join(ROOT, "docs", "openapi.yaml"), encoding="utf-8"))
# 5,000 generated requests in `make test`: 3,000 API + 1,500 forms through the Flask test
# client on a real SQLite file, 500 API requests over real HTTP. The `slow` marker
# (`make test-slow`) sends 20,000 API requests and 6,000 forms.
API_BATCH = int(os.environ.get("FUZZ_API_REQUESTS", "3000"))
FORM_BATCH = int(os.environ.get("FUZZ_FORM_REQUESTS", "1500"))
HTTP_BATCH = int(os.environ.get("FUZZ_HTTP_REQUESTS", "500"))
PER_EXAMPLE = 10
FIGURES: dict = {}


def _deref(node):
    while isinstance(node, dict) and "$ref" in node:
        target = SPEC
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


@functools.lru_cache(maxsize=None)
def _validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator({**json.loads(schema_json), "components": SPEC["components"]})


OPERATIONS = {op["operationId"]: (path, method, op)
              for path, item in SPEC["paths"].items()
              for method, op in item.items() if method in ("get", "post")}


class World:
    """The games the fuzzer aims at, and the bookkeeping of what it was told."""

    def __init__(self, games: list[dict], db_path: str):
        self.games, self.db_path = games, db_path
        self.tokens = [s["token"] for g in games for s in g["seats"]]
        self.statuses: dict[int, int] = {}
        self.requests = 0
        self.conn = sqlite3.connect(db_path)

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    def last_seq(self, game_id: str) -> int:
        row = self.conn.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", [game_id]).fetchone()
        return row[0] or 0


# ---- generating requests from the OpenAPI description ----------------------------------

def _api_requests(world_games: list[dict]):
    ints, strings, json_values = hostile_strategies()
    game_pick = st.integers(0, len(world_games) - 1)
    junk_ids = st.one_of(strings, st.sampled_from(["nope", "..", "%00", "x" * 300]))
    cids = st.one_of(st.uuids().map(lambda u: u.hex), st.sampled_from(["same", "dup", "x" * 64]),
                     strings, st.text(min_size=60, max_size=70))
    seq = st.one_of(st.just("CURRENT"), st.just("CURRENT"), ints, strings, st.none())

    def event_body(kind: str):
        rules = GAMES[kind]
        types = {**{t: dict(s.schema) for t, s in rules.event_types.items()}, **CORE_SCHEMAS}
        demo_moves = rules.demo()[2]
        shaped = st.one_of([st.fixed_dictionaries(
            {"type": st.just(t), "data": from_schema(types[t]), "expected_seq": seq,
             "client_event_id": cids}) for t in sorted(types)])
        demo = st.tuples(st.sampled_from(demo_moves), seq, cids).map(lambda m: {
            "type": m[0][0], "data": m[0][1], "expected_seq": m[1], "client_event_id": m[2]}) \
            if demo_moves else st.nothing()
        spoiled = st.tuples(st.one_of(shaped, demo), st.sampled_from(
            ["type", "data", "expected_seq", "client_event_id"]), st.one_of(json_values, st.just(None)),
            st.booleans()).map(lambda t: {k: v for k, v in {**t[0], t[1]: t[2]}.items()
                                          if not (t[3] and k == t[1])})
        return st.one_of(shaped, demo, spoiled)

    new_game = st.fixed_dictionaries({
        "kind": st.one_of(st.sampled_from(sorted(GAMES)), strings),
        "players": st.one_of(st.lists(st.fixed_dictionaries(
            {"name": st.one_of(st.sampled_from(["Anna", "Béla", "<b>x</b>"]), strings)},
            optional={"colour": strings}), max_size=7), json_values),
    }, optional={"options": st.one_of(st.just({}), json_values)})

    body = st.one_of(st.tuples(st.just("json"), json_values), st.tuples(st.just("raw"), st.sampled_from(
        [b"", b"{", b"null", b"[]", b'{"type": 1}', b"\xff\xfe", b"[" * 5000, b'{"a":' * 3000,
         b"x" * 300_000, *HOSTILE_JSON])))

    def append(pick, token_pick, own_body, other, path_junk, use_junk_id, use_other):
        game = world_games[pick]
        token = {0: None, 1: game["seats"][0]["token"], 2: game["seats"][-1]["token"],
                 3: world_games[(pick + 1) % len(world_games)]["seats"][0]["token"],
                 4: "x" * 200, 5: "not-a-token"}[token_pick]
        game_id = path_junk if use_junk_id else game["id"]
        payload = ("json", own_body) if not use_other else other
        return {"op": "appendEvent", "game": game["id"], "game_id": game_id, "token": token,
                "body": payload}

    appends = st.one_of([st.builds(
        append, st.just(pick), st.sampled_from([1, 1, 1, 2, 0, 3, 4, 5]),
        event_body(world_games[pick]["kind"]), body, junk_ids,
        st.integers(0, 9).map(lambda n: n == 0), st.integers(0, 9).map(lambda n: n == 0))
        for pick in range(len(world_games))])
    reads = st.builds(lambda op, pick, junk, use_junk, at: {
        "op": op, "game": world_games[pick]["id"],
        "game_id": junk if use_junk else world_games[pick]["id"], "token": None, "body": None,
        "query": None if at is None else {"at": at}},
        st.sampled_from(["listEvents", "getState"]), game_pick, junk_ids, st.booleans(),
        st.one_of(st.none(), ints.map(str), strings))
    creates = st.builds(lambda shaped, other, use_other: {
        "op": "createGame", "game": None, "game_id": None, "token": None,
        "body": other if use_other else ("json", shaped)}, new_game, body, st.booleans())
    return st.one_of(appends, appends, appends, reads, creates)


# Bodies no generator above makes: lone surrogates where the API reads text, a number of
# 5,000 digits, an oversized field, a float for an integer.
HOSTILE_JSON = [
    b'{"kind": "scorepad", "players": [{"name": "\\ud800"}, {"name": "B"}]}',
    b'{"kind": "\\udfff", "players": []}',
    b'{"type": "points-recorded", "data": {"seat": 0, "points": 1, "note": "\\ud800"}, "expected_seq": 1, '
    b'"client_event_id": "s1"}',
    b'{"type": "points-recorded", "data": {"seat": 0, "points": 1}, "expected_seq": 1, "client_event_id": "\\ud800"}',
    b'{"type": "points-recorded", "data": {"\\ud800": 1}, "expected_seq": 1, "client_event_id": "s2"}',
    b'{"type": "points-recorded", "data": {"seat": 0, "points": ' + b"9" * 5000 + b'}, "expected_seq": 1, '
    b'"client_event_id": "s3"}',
    b'{"type": "points-recorded", "data": {"seat": 0, "points": 1.0}, "expected_seq": 1.0, "client_event_id": "s4"}',
    b'{"type": "points-recorded", "data": {"seat": 0, "points": 1, "note": "' + b"n" * 200_000 + b'"}, '
    b'"expected_seq": 1, "client_event_id": "s5"}',
]


def _url(request: dict) -> str:
    path, _, _ = OPERATIONS[request["op"]]
    if request["game_id"] is not None:
        path = path.replace("{game_id}", urllib.parse.quote(str(request["game_id"]), safe=""))
    if request.get("query"):
        path += "?" + urllib.parse.urlencode(request["query"])
    return path


def _encode(request: dict, world: World) -> tuple[bytes | None, dict]:
    headers = {}
    if request["token"] is not None:
        headers["X-Seat-Token"] = request["token"]
    if request["body"] is None:
        return None, headers
    kind, value = request["body"]
    headers["Content-Type"] = "application/json"
    if kind == "raw":
        return value, headers
    if isinstance(value, dict) and value.get("expected_seq") == "CURRENT":
        value = {**value, "expected_seq": world.last_seq(request["game"])}
    return json.dumps(value).encode(), headers


def _judge(request: dict, status: int, body: bytes, ctype: str, added: int, world: World) -> None:
    world.requests += 1
    world.statuses[status] = world.statuses.get(status, 0) + 1
    assert status < 500, (request, status, body[:300])
    _, _, op = OPERATIONS[request["op"]]
    responses = {code: _deref(r) for code, r in op["responses"].items()}
    assert str(status) in responses, (request, status, body[:300])
    schema = responses[str(status)].get("content", {}).get("application/json", {}).get("schema")
    if schema is not None:
        assert ctype.startswith("application/json"), (request, status, ctype)
        errors = list(_validator(json.dumps(schema, sort_keys=True)).iter_errors(json.loads(body)))
        assert not errors, (request, status, errors[0].message)
    # A refused request leaves no trace; an accepted one appends at most one event.
    assert added == 0 or (status == 201 and added == 1), (request, status, added)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    db_path = str(tmp_path_factory.mktemp("fuzz") / "fuzz.db")
    app = app_on(db_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    games = []
    for kind in sorted(GAMES):
        players, options, _ = GAMES[kind].demo()
        created = client.post("/api/games", json={"kind": kind, "players": players, "options": options})
        assert created.status_code == 201, created.json
        games.append({**created.json, "kind": kind})
    return app, client, World(games, db_path)


def test_api_fuzzed_from_the_openapi_description(fuzz_app):
    _fuzz_api(fuzz_app, API_BATCH)


@pytest.mark.slow
def test_slow_api_fuzzed_twenty_thousand_requests(fuzz_app):
    _fuzz_api(fuzz_app, 20_000)


def _fuzz_api(fuzz_app, count: int) -> None:
    app, client, world = fuzz_app
    start = world.requests

    @settings(max_examples=count // PER_EXAMPLE, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(_api_requests(world.games), min_size=PER_EXAMPLE, max_size=PER_EXAMPLE))
    def run(batch):
        for request in batch:
            payload, headers = _encode(request, world)
            before = world.count()
            _, method, _ = OPERATIONS[request["op"]]
            response = client.open(_url(request), method=method.upper(), data=payload, headers=headers)
            _judge(request, response.status_code, response.data,
                   response.headers.get("Content-Type", ""), world.count() - before, world)

    run()
    sent = world.requests - start
    assert sent >= count
    for game in world.games:  # whatever the API took, every page of the game still renders
        for page in ("", "/timeline", "/replay", "/final", "/export.json"):  # GETs need no token
            response = client.get(f"/games/{game['id']}{page}")
            assert response.status_code == 200, (game["kind"], page, response.status_code)
    assert world.statuses.get(201, 0) > 0 and world.statuses.get(422, 0) > 0
    FIGURES["api"] = {"requests": sent, "statuses": dict(sorted(world.statuses.items()))}
    record_figures(f"fuzz: api ({count})", FIGURES["api"])


# ---- every form route of the app -----------------------------------------------------

def _template_fields() -> list[str]:
    names = set()
    for folder, _, files in os.walk(os.path.join(ROOT, "templates")):
        for name in files:
            if name.endswith(".html"):
                html = open(os.path.join(folder, name), encoding="utf-8").read()
                names |= set(re.findall(r'name="([A-Za-z_][\w\-]*)"', html))
    return sorted(names)


def _form_routes(app) -> list[tuple[str, list[str]]]:
    routes = []
    for rule in app.url_map.iter_rules():
        if "POST" in rule.methods and not rule.rule.startswith("/api/"):
            routes.append((rule.rule, sorted(rule.arguments)))
    return sorted(routes)


def _forms(app, world: World):
    ints, strings, _ = hostile_strategies()
    fields = _template_fields()
    codes = world.join_codes
    values = st.one_of(st.integers(-3, 40).map(str), strings, ints.map(str),
                       st.sampled_from(sorted({t for g in GAMES.values() for t in g.event_types})),
                       st.sampled_from(["9" * 5000, "-" + "9" * 5000, "1e309", "x" * 60_000]))
    form = st.dictionaries(st.one_of(st.sampled_from(fields), strings), values, max_size=10)
    upload = st.one_of(st.none(), st.sampled_from([b"", b"{", b"[" * 5000, b"null", b'{"format": 1}',
                                                   b"\xff", json.dumps({"format": "tablescribe-export",
                                                                        "format_version": 1}).encode(),
                                                   b'{"format": "tablescribe-export", "format_version": 1, '
                                                   b'"game": {"kind": "\\ud800"}, "events": [1]}',
                                                   b'{"format": "tablescribe-board", "data": "\\ud800"}']))
    # mostly the page's CSRF token, as a browser sends it; sometimes none or a wrong one
    csrf = st.sampled_from(["ok"] * 8 + ["missing", "wrong"])
    # a field whose bytes are not UTF-8 (a lone surrogate's encoding, a stray byte)
    broken = st.one_of(st.none(), st.none(), st.tuples(st.sampled_from(fields), st.sampled_from(
        [b"%ED%A0%80", b"%FF%FE", b"%C0%AF", b"\xff"])))

    def build(route, pick, junk_args, small, use_junk, seated, data, file, htmx, csrf_mode, bad_bytes):
        rule, args = route
        game = world.games[pick]
        path = rule
        for arg in args:
            real = {"game_id": game["id"], "code": codes[game["id"]], "kind": game["kind"]}.get(arg)
            value = junk_args if use_junk else (small if real is None else real)
            path = re.sub(rf"<(?:[a-z]+:)?{arg}>", urllib.parse.quote(str(value), safe="") or "x", path)
        return {"path": path, "game": game, "seated": seated, "form": data, "file": file, "htmx": htmx,
                "csrf": csrf_mode, "broken": bad_bytes}

    junk = st.one_of(st.integers(-2, 12).map(str), strings)
    return st.builds(build, st.sampled_from(_form_routes(app)), st.integers(0, len(world.games) - 1),
                     junk, st.integers(1, 8), st.integers(0, 4).map(lambda n: n == 0), st.booleans(),
                     form, upload, st.booleans(), csrf, broken)


def _post_form(client, request: dict, token: str):
    """Post one generated form: multipart with its upload, or urlencoded, with the
    page's CSRF token unless the request tests its absence, broken bytes appended raw."""
    data = dict(request["form"])
    if request["csrf"] != "missing":
        data["csrf_token"] = token if request["csrf"] == "ok" else "x"
    headers = {"HX-Request": "true"} if request["htmx"] else {}
    if request["file"] is not None:
        data["file"] = (io.BytesIO(request["file"]), "game.json")
        return client.post(request["path"], data=data, headers=headers)
    body = urllib.parse.urlencode(data).encode()
    if request["broken"]:
        field, raw = request["broken"]
        body += b"&" + urllib.parse.quote(field).encode() + b"=" + raw
    return client.post(request["path"], data=body, headers=headers,
                       content_type="application/x-www-form-urlencoded")


def test_every_form_route_fuzzed(fuzz_app):
    _fuzz_forms(fuzz_app, FORM_BATCH)


@pytest.mark.slow
def test_slow_every_form_route_fuzzed_six_thousand_forms(fuzz_app):
    _fuzz_forms(fuzz_app, 6_000)


def _fuzz_forms(fuzz_app, count: int) -> None:
    app, client, world = fuzz_app
    world.join_codes = {g["id"]: g["join_url"].rsplit("/", 1)[1] for g in world.games}
    statuses: dict[int, int] = {}
    sent = [0]
    token = csrf_of(client.get("/games/new?kind=scorepad").get_data(as_text=True))

    @settings(max_examples=count // PER_EXAMPLE, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(_forms(app, world), min_size=PER_EXAMPLE, max_size=PER_EXAMPLE))
    def run(batch):
        for request in batch:
            game = request["game"]
            client.delete_cookie(f"seat_{game['id']}")
            if request["seated"]:
                client.set_cookie(f"seat_{game['id']}", game["seats"][0]["token"])
            before = world.count()
            response = _post_form(client, request, token)
            added = world.count() - before
            sent[0] += 1
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            assert response.status_code < 500, (request, response.data[:300])
            if response.status_code >= 400:
                assert added == 0, (request, response.status_code, added)

    run()
    assert sent[0] >= count
    FIGURES["forms"] = {"requests": sent[0], "routes": len(_form_routes(app)),
                        "statuses": dict(sorted(statuses.items()))}
    record_figures(f"fuzz: form routes ({count})", FIGURES["forms"])


HOSTILE_QUERY = ["", "0", "-1", "2", "1.5", "\u00b2", "\u0661", "9" * 25, "abc", "<x>", "%00"]
QUERY_NAMES = ["at", "seat", "type", "seq", "version", "saved", "next", "lang", "kind"]


def test_every_page_route_with_hostile_queries_and_numbers(fuzz_app):
    """Every GET route of the app (pages, images, exports, board profiles) for every game,
    each query parameter any route reads set to each hostile value, and every int path
    part at 0, 1 and 10**30: never a 5xx."""
    app, client, world = fuzz_app
    codes = {g["id"]: g["join_url"].rsplit("/", 1)[1] for g in world.games}
    sent = 0
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or rule.rule.endswith("/stream"):
            continue
        for game in world.games:
            real = {"game_id": game["id"], "code": codes[game["id"]], "kind": game["kind"], "profile_id": "x"}
            for number in ("0", "1", str(10**30)):
                path = re.sub(r"<int:\w+>", number, rule.rule)
                path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: real.get(m.group(1), "x"), path)
                for value in HOSTILE_QUERY if number == "1" else HOSTILE_QUERY[:1]:
                    response = client.get(path, query_string={name: value for name in QUERY_NAMES})
                    sent += 1
                    assert response.status_code < 500, (path, value, response.status_code)
    assert sent > 500


def test_api_fuzzed_over_real_http(tmp_path):
    """A smaller batch of the same generated API requests against gunicorn."""
    db_path = str(tmp_path / "fuzz-http.db")
    with Server(db_path, workers=1) as server:
        games = []
        for kind in sorted(GAMES):
            players, options, _ = GAMES[kind].demo()
            games.append({**create_game(server.url, kind, players, options), "kind": kind})
        world = World(games, db_path)
        phone = Phone(server.url)

        @settings(max_examples=HTTP_BATCH // PER_EXAMPLE, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.lists(_api_requests(games), min_size=PER_EXAMPLE, max_size=PER_EXAMPLE))
        def run(batch):
            for request in batch:
                payload, headers = _encode(request, world)
                phone.token = None
                before = world.count()
                _, method, _ = OPERATIONS[request["op"]]
                status, body = phone.request(method.upper(), _url(request), raw=payload, headers=headers)
                raw = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
                _judge(request, status, raw, "application/json" if isinstance(body, (dict, list)) else "",
                       world.count() - before, world)

        run()
        phone.close()
    assert world.requests >= HTTP_BATCH
    FIGURES["http"] = {"requests": world.requests, "statuses": dict(sorted(world.statuses.items()))}
    record_figures("fuzz: api over http", FIGURES["http"])


def test_the_openapi_description_covers_every_api_route(app):
    """The fuzzer aims at what docs/openapi.yaml describes, so it must describe it all."""
    described = {(re.sub(r"\{[^}]+\}", "<>", path), method.upper())
                 for path, item in SPEC["paths"].items() for method in item if method != "parameters"}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert (re.sub(r"<[^>]+>", "<>", rule.rule), method) in described, (method, rule.rule)
