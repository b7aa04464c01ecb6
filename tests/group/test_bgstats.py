"""BG Stats and all plays out and in (docs/people.md §8): a .bgsplay file per finished
example game in the structure BG Stats reads, round-tripping through our own import with
the same scores and winners; the create-play link; /plays.csv and export-plays; bad BG
Stats files refused with a reason and nothing changed, with CSRF on."""
from __future__ import annotations

import glob
import io
import json
import os
from urllib.parse import parse_qs, urlsplit

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import ROOT
from events.storage import store
from group import roster

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.json")))

_obj = lambda required, **props: {"type": "object", "required": required, "properties": props}  # noqa: E731
BGSPLAY = _obj(
    ["about", "players", "locations", "games", "plays", "userInfo"],
    about={"type": "string"},
    players={"type": "array", "minItems": 1, "items": _obj(["id", "name"], id={"type": "integer"},
                                                            name={"type": "string", "minLength": 1})},
    locations={"type": "array", "items": _obj(["id", "name"], id={"type": "integer"}, name={"type": "string"})},
    games={"type": "array", "minItems": 1, "maxItems": 1, "items": _obj(
        ["id", "name", "bggId", "highestWins"], id={"type": "integer"}, name={"type": "string", "minLength": 1},
        bggId={"type": "integer"}, highestWins={"type": "boolean"})},
    plays={"type": "array", "minItems": 1, "maxItems": 1, "items": _obj(
        ["gameRefId", "playDate", "playerScores"], gameRefId={"type": "integer"},
        playDate={"type": "string", "pattern": r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"},
        playerScores={"type": "array", "minItems": 1, "items": _obj(
            ["score", "winner", "rank", "seatOrder", "startPlayer", "playerRefId"],
            score={"type": "string", "pattern": r"^-?\d+$"}, winner={"type": "boolean"},
            rank={"type": "integer", "minimum": 1}, seatOrder={"type": "integer", "minimum": 1},
            startPlayer={"type": "boolean"}, playerRefId={"type": "integer"})})},
    userInfo={"type": "object"})


def _import_game(client, token, path) -> str:
    with open(path, "rb") as f:
        response = client.post("/import", data={"csrf_token": token, "file": (f, "game.json")},
                               content_type="multipart/form-data")
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    # an example file is unsigned: it counts once the organiser accepts it (issue 35 §3)
    assert client.post(f"/people/servers/games/{game_id}/accept", data={"csrf_token": token}).status_code == 303
    return game_id


def _upload(client, token, content: bytes):
    return client.post("/people/import-bgstats", data={"csrf_token": token, "file": (io.BytesIO(content), "x.json")},
                       content_type="multipart/form-data")


def _finals(client, game_id) -> list[tuple[int, bool]]:
    state = client.get(f"/api/games/{game_id}/state").get_json()
    return sorted((row["score"], row["rank"] == 1) for row in state["standings"])


def other_server(tmp_path):
    """A second server (its own database), its organiser's client and form token."""
    from tests.conftest import become_organiser, csrf_of, guarded_app
    app, client, _ = guarded_app(str(tmp_path / "other.db"))
    become_organiser(app, client)
    return app, client, csrf_of(client.get("/games/new").get_data(as_text=True))


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_each_example_game_as_bgsplay_validates_and_round_trips(guarded, path, tmp_path):
    app, client, token, db = guarded
    game_id = _import_game(client, token, path)
    response = client.get(f"/games/{game_id}/play.bgsplay")
    if not client.get(f"/api/games/{game_id}/state").get_json()["over"]:
        assert response.status_code == 404  # not finished: nothing to send yet
        return
    doc = response.get_json()
    assert not list(Draft202012Validator(BGSPLAY).iter_errors(doc))
    assert sorted((int(s["score"]), s["winner"]) for s in doc["plays"][0]["playerScores"]) == _finals(client, game_id)
    key = next(iter(client.get("/api/stats").get_json()["games"]))
    # back on its own server, the file is the game it came from, not a second play (issue 35 §4)
    home = _upload(client, token, json.dumps(doc).encode())
    assert home.status_code == 200 and "games of this server: 1" in home.get_data(as_text=True)
    assert client.get("/api/stats").get_json()["plays"] == 1 and not roster.load(db).imported
    # on another server, one play of the same game with the same scores and winners
    other_app, other, other_token = other_server(tmp_path)
    assert _upload(other, other_token, json.dumps(doc).encode()).status_code == 200
    imported = other.get("/api/stats").get_json()
    assert imported["plays"] == 1 and list(imported["games"]) == [key]
    other_db = store.connect(other_app.config["DATABASE"])
    imported_play = list(roster.load(other_db).imported.values())
    assert sorted((s["score"], s["rank"] == 1) for s in imported_play[0]["seats"]) == _finals(client, game_id)
    again = _upload(other, other_token, json.dumps(doc).encode())
    assert again.status_code == 200 and "imported before: 1" in again.get_data(as_text=True)
    other_db.conn.close()


def _finished_pad(client, token, title="", bgg="0") -> str:
    response = client.post("/games/new", data={"csrf_token": token, "kind": "scorepad", "name": ["Anna", "Béla"],
                                               "colour": ["red", "blue"], "opt_title": title, "opt_bgg_id": bgg})
    assert response.status_code == 302, response.get_data(as_text=True)
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    seat = client.get_cookie(f"seat_{game_id}", path=f"/games/{game_id}").value
    for i, (type_, data) in enumerate([("points-recorded", {"seat": 0, "points": 12}),
                                       ("points-recorded", {"seat": 1, "points": 30}),
                                       ("game-ended", {})], start=1):
        r = client.post(f"/api/games/{game_id}/events", headers={"X-Seat-Token": seat},
                        json={"type": type_, "data": data, "expected_seq": i, "client_event_id": f"c{i}"})
        assert r.status_code == 201, r.get_json()
    return game_id


def test_the_score_pad_names_its_game_for_bgstats_and_the_statistics(guarded):
    app, client, token, db = guarded
    game_id = _finished_pad(client, token, "Azul", "230802")
    doc = client.get(f"/games/{game_id}/play.bgsplay").get_json()
    assert doc["games"][0]["name"] == "Azul" and doc["games"][0]["bggId"] == 230802
    assert "scorepad:azul" in client.get("/api/stats").get_json()["games"]
    final = client.get(f"/games/{game_id}/final").get_data(as_text=True)
    link = final.split('data-testid="bgstats-app" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")  # works without the app too
    data = json.loads(parse_qs(urlsplit(link).query)["data"][0])
    assert data["sourceName"] == "Tablescribe" and data["sourcePlayId"] == game_id
    # BG Stats' published format for pushing plays (issue 25 §9): numbers for scores, the
    # source's own ids for the game and each player, the location and a comment
    assert data["game"] == {"name": "Azul", "bggId": 230802, "highestWins": True, "noPoints": False,
                            "sourceGameId": "scorepad:azul"}
    people = {p["name"]: p["id"] for p in client.get("/api/people").get_json()["people"]}
    assert [(p["name"], p["score"], p["winner"], p["rank"], p["startPlayer"], p["sourcePlayerId"])
            for p in data["players"]] == [("Anna", 12, False, 2, True, f"person-{people['Anna']}"),
                                          ("Béla", 30, True, 1, False, f"person-{people['Béla']}")]
    assert data["location"] == "Tablescribe" and data["comments"] == f"Tablescribe {game_id}"
    assert len(data["playDate"]) == 19


def test_a_bad_bgg_id_is_refused_at_creation(guarded):
    app, client, token, db = guarded
    response = client.post("/games/new", data={"csrf_token": token, "kind": "scorepad", "name": ["A", "B"],
                                               "opt_title": "", "opt_bgg_id": "-4"})
    assert response.status_code == 422 and "0–99999999" in response.get_data(as_text=True)


def test_plays_csv_and_export_plays(guarded, tmp_path):
    app, client, token, db = guarded
    game_id = _finished_pad(client, token, "=HYPERLINK(1)")
    text_ = client.get("/plays.csv").get_data(as_text=True)
    lines = text_.strip().split("\r\n")
    assert lines[0].startswith("date,game_id,game,bgg_id,person_id,person,played_as,seat,score,rank,winner,imported")
    assert len(lines) == 3 and ",'=HYPERLINK(1)," in lines[1] and ",Béla,Béla,2,30,1,1,0" in lines[2]
    out = tmp_path / "plays.json"
    result = app.test_cli_runner().invoke(args=["export-plays", str(out)])
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text(encoding="utf-8"))["plays"]
    assert [(r["person"], r["score"], r["winner"]) for r in rows] == [("Anna", 12, 0), ("Béla", 30, 1)]
    assert rows[0]["game_id"] == game_id


def _bgs(**changes) -> dict:
    doc = {"about": "", "userInfo": {},
           "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Béla"}],
           "locations": [{"id": 1, "name": "Home"}],
           "games": [{"id": 7, "name": "Five Tribes", "bggId": 157354, "highestWins": True}],
           "plays": [{"uuid": "p1", "gameRefId": 7, "locationRefId": 1, "playDate": "2024-03-01 19:30:00",
                      "durationMin": 90, "playerScores": [
                          {"playerRefId": 1, "score": "151", "winner": True, "rank": 1, "seatOrder": 1, "startPlayer": True},
                          {"playerRefId": 2, "score": "140", "winner": False, "rank": 2, "seatOrder": 2}]}]}
    for path, value in changes.items():
        target = doc
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        target[keys[-1]] = value
    return doc


def test_a_bgstats_export_joins_the_statistics_as_imported_plays(guarded):
    app, client, token, db = guarded
    response = _upload(client, token, json.dumps(_bgs()).encode())
    assert response.status_code == 200 and "Imported: 1" in response.get_data(as_text=True)
    body = client.get("/api/stats").get_json()
    assert body["games"]["five-tribes"]["plays"] == 1 and body["games"]["five-tribes"]["average_winning"] == 151
    page = client.get("/stats/plays").get_data(as_text=True)
    assert "imported (BG Stats), no moves" in page


BAD = {
    "unknown player": (lambda: json.dumps(_bgs(plays__0__playerScores__1__playerRefId=9)).encode(),
                       200, "playerRefId 9 is not among the players"),
    "unknown game": (lambda: json.dumps(_bgs(plays__0__gameRefId=3)).encode(), 200, "gameRefId 3 is not among the games"),
    "unknown location": (lambda: json.dumps(_bgs(plays__0__locationRefId=5)).encode(), 200,
                         "locationRefId 5 is not among the locations"),
    "score not a number": (lambda: json.dumps(_bgs(plays__0__playerScores__0__score="lots")).encode(), 200,
                           "the score &#39;lots&#39; is not a number"),
    "bad date": (lambda: json.dumps(_bgs(plays__0__playDate="yesterday")).encode(), 200, "playDate"),
    "invalid UTF-8": (lambda: b'{"players": [{"id": 1, "name": "\xff\xfe"}]}', 422, "UTF-8"),
    "not JSON": (lambda: b"\x00\x01garbage", 422, "UTF-8"),
    "a list": (lambda: b"[]", 422, "no BG Stats export"),
    "a lone surrogate": (lambda: json.dumps(_bgs(games__0__name="Five \ud800 Tribes")).encode(), 422,
                         "games.0.name is not valid Unicode"),
    "50 MB": (lambda: b" " * (50 * 1024 * 1024), 413, ""),
    "a bad player name": (lambda: json.dumps(_bgs(players__0__name="\u0007")).encode(), 200, "(U+0007)"),
    # each of these was a 500 (issue 25 §7)
    "score --5": (lambda: json.dumps(_bgs(plays__0__playerScores__0__score="--5")).encode(), 200,
                  "the score &#39;--5&#39; is not a number"),
    "year 1": (lambda: json.dumps(_bgs(plays__0__playDate="0001-01-01 00:00:00")).encode(), 200,
               "in a year 1900–2999"),
    "year 9999 and two weeks": (lambda: json.dumps(_bgs(plays__0__playDate="9999-12-31 23:59:59",
                                                        plays__0__durationMin=20160)).encode(), 200, "in a year"),
    "a player name turned backwards": (lambda: json.dumps(_bgs(players__0__name="\u202eevil")).encode(), 200,
                                       "text direction mark (U+202E)"),
    "a game name turned backwards": (lambda: json.dumps(_bgs(games__0__name="Five \u202eTribes")).encode(), 200,
                                     "text direction mark"),
    "a location name turned backwards": (lambda: json.dumps(_bgs(locations__0__name="\u2067Home")).encode(), 200,
                                         "text direction mark"),
    "a NUL in a name": (lambda: json.dumps(_bgs(players__0__name="An\x00na")).encode(), 400, "NUL character"),
    "a NUL in a uuid": (lambda: json.dumps(_bgs(plays__0__uuid="p\x001")).encode(), 400, "NUL character"),
    "a NUL in a game name": (lambda: json.dumps(_bgs(games__0__name="Five\x00")).encode(), 400, "NUL character"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_bgstats_file_is_refused_with_a_reason_and_nothing_changes(guarded, case):
    """A file that is no export is refused whole (422, 413, 400); a play of it that is
    broken (200: the file's only play here) is refused with its reason, the others of the
    file would be imported (tests/group/test_files_people_have.py)."""
    app, client, token, db = guarded
    content, status, reason = BAD[case]
    response = _upload(client, token, content())
    assert response.status_code == status
    assert reason in response.get_data(as_text=True)
    if status == 200:
        assert "Not imported (1)" in response.get_data(as_text=True)
    assert roster.last_seq(db) == 0
    assert db.execute("SELECT COUNT(*) FROM stat_seats").fetchone()[0] == 0


def test_a_bgstats_export_past_the_forms_limit_is_taken(guarded):
    """A real history is larger than a move's 256 KiB; the import takes up to 8 MiB."""
    app, client, token, db = guarded
    response = _upload(client, token, json.dumps(_bgs(about="x" * 2_000_000)).encode())
    assert response.status_code == 200 and "Imported: 1" in response.get_data(as_text=True)


def test_the_import_needs_the_csrf_token(guarded):
    app, client, token, db = guarded
    response = client.post("/people/import-bgstats", data={"file": (io.BytesIO(json.dumps(_bgs()).encode()), "x")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and roster.last_seq(db) == 0


def test_an_imported_play_is_reverted_from_the_roster_log(guarded):
    app, client, token, db = guarded
    _upload(client, token, json.dumps(_bgs()).encode())
    play = next(e.seq for e in roster.read_log(db) if e.type == "play-imported")
    assert client.post(f"/people/log/{play}/revert", data={"csrf_token": token}).status_code == 303
    assert db.execute("SELECT COUNT(*) FROM stat_seats").fetchone()[0] == 0
    from group import plays
    before = plays.dump(db)
    plays.rebuild(db)
    assert plays.dump(db) == before


def _many_plays(n: int) -> dict:
    doc = _bgs()
    doc["players"].append({"id": 3, "name": "Cili"})
    doc["plays"] = [dict(doc["plays"][0], uuid=f"p{k}", playerScores=[
        dict(s, playerRefId=(k + i) % 3 + 1) for i, s in enumerate(doc["plays"][0]["playerScores"])])
        for k in range(n)]
    return doc


def test_a_large_bgstats_import_writes_in_short_transactions(guarded, monkeypatch):
    """Issue 25 §5: 10,000 plays were written in one transaction that held SQLite's write
    lock for 32 s, and other tables' moves failed meanwhile. The plays go in batches, each
    its own short transaction with its people and its statistics' rows."""
    from contextlib import contextmanager
    from services import bgstats as importing
    app, client, token, db = guarded
    per_transaction = []
    real_lock = store.short_write

    @contextmanager
    def counted(conn):
        before = roster.last_seq(conn)
        with real_lock(conn):
            yield conn
        per_transaction.append(sum(e.type == "play-imported" for e in roster.read_log(conn, after=before)))

    monkeypatch.setattr(store, "short_write", counted)
    response = _upload(client, token, json.dumps(_many_plays(250)).encode())
    assert response.status_code == 200 and "Imported: 250" in response.get_data(as_text=True)
    assert max(per_transaction) <= importing.IMPORT_BATCH < 250 and sum(per_transaction) == 250
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 250


def test_a_bgstats_batch_reads_only_the_roster_events_it_has_not_seen(guarded, monkeypatch):
    """Issue 25 §5: each batch folded the roster's whole log again under the write lock (twice:
    to check its changes and to write the statistics' rows), so a 10,000-play import held the
    lock longer with every batch (~0.2 s each by its end). The batches extend the cache: each
    batch reads the events it wrote, not those before them."""
    from group.bgstats import read_export
    from services import bgstats as importing
    app, client, token, db = guarded
    rows_read = []
    real_read = roster.read_log

    def counted(conn, after=0, upto=None):
        rows_read.append(len(real_read(conn, after, upto)))
        return real_read(conn, after, upto)

    monkeypatch.setattr(roster, "read_log", counted)
    result = importing.import_plays(db, read_export(_many_plays(5 * importing.IMPORT_BATCH)),
                                      "dev", roster.Rosters())
    assert result["imported"] == 5 * importing.IMPORT_BATCH
    log = roster.last_seq(db)
    assert sum(rows_read) <= 2 * log, f"{sum(rows_read)} roster events read for a log of {log}"
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 5 * importing.IMPORT_BATCH


def test_an_import_cut_off_half_way_is_finished_by_importing_the_file_again(guarded, monkeypatch):
    """A batch is whole or absent; the same file again skips the plays already in."""
    from services import bgstats as importing
    app, client, token, db = guarded
    real = importing._play_data
    calls = []

    def dies_in_the_second_batch(play, person_of):
        calls.append(play)
        if len(calls) > importing.IMPORT_BATCH:
            raise RuntimeError("the server went down")
        return real(play, person_of)

    monkeypatch.setattr(importing, "_play_data", dies_in_the_second_batch)
    with pytest.raises(RuntimeError):
        importing.import_plays(db, __import__("group.bgstats", fromlist=["read_export"]).read_export(
            _many_plays(150)), "dev")
    assert sum(e.type == "play-imported" for e in roster.read_log(db)) == importing.IMPORT_BATCH
    monkeypatch.undo()
    response = _upload(client, token, json.dumps(_many_plays(150)).encode())
    assert f"Imported: {150 - importing.IMPORT_BATCH}" in response.get_data(as_text=True)
    assert sum(e.type == "play-imported" for e in roster.read_log(db)) == 150
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 150
