"""BG Stats files out and in (group/bgstats.py, docs/people.md §8): a .bgsplay file per
finished example game in the structure BG Stats reads, round-tripping through our own
import with the same scores and winners; the create-play link; bad BG Stats files refused
with a reason and nothing changed, with CSRF on (/plays.csv, export-plays and the import
page: tests/web/test_bgstats.py)."""
from __future__ import annotations

import glob
import json
import os
from urllib.parse import parse_qs, urlsplit

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import ROOT, bgstats_export, finished_pad, import_example, upload_bgstats
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
    game_id = import_example(client, token, path)
    response = client.get(f"/games/{game_id}/play.bgsplay")
    if not client.get(f"/api/games/{game_id}/state").get_json()["over"]:
        assert response.status_code == 404  # not finished: nothing to send yet
        return
    doc = response.get_json()
    assert not list(Draft202012Validator(BGSPLAY).iter_errors(doc))
    assert sorted((int(s["score"]), s["winner"]) for s in doc["plays"][0]["playerScores"]) == _finals(client, game_id)
    key = next(iter(client.get("/api/stats").get_json()["games"]))
    # back on its own server, the file is the game it came from, not a second play (issue 35 §4)
    home = upload_bgstats(client, token, json.dumps(doc).encode())
    assert home.status_code == 200 and "games of this server: 1" in home.get_data(as_text=True)
    assert client.get("/api/stats").get_json()["plays"] == 1 and not roster.load(db).imported
    # on another server, one play of the same game with the same scores and winners
    other_app, other, other_token = other_server(tmp_path)
    assert upload_bgstats(other, other_token, json.dumps(doc).encode()).status_code == 200
    imported = other.get("/api/stats").get_json()
    assert imported["plays"] == 1 and list(imported["games"]) == [key]
    other_db = store.connect(other_app.config["DATABASE"])
    imported_play = list(roster.load(other_db).imported.values())
    assert sorted((s["score"], s["rank"] == 1) for s in imported_play[0]["seats"]) == _finals(client, game_id)
    again = upload_bgstats(other, other_token, json.dumps(doc).encode())
    assert again.status_code == 200 and "imported before: 1" in again.get_data(as_text=True)
    other_db.conn.close()


def test_the_score_pad_names_its_game_for_bgstats_and_the_statistics(guarded):
    app, client, token, db = guarded
    game_id = finished_pad(client, token, "Azul", "230802")
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


def test_a_bgstats_export_joins_the_statistics_as_imported_plays(guarded):
    app, client, token, db = guarded
    response = upload_bgstats(client, token, json.dumps(bgstats_export()).encode())
    assert response.status_code == 200 and "Imported: 1" in response.get_data(as_text=True)
    body = client.get("/api/stats").get_json()
    assert body["games"]["five-tribes"]["plays"] == 1 and body["games"]["five-tribes"]["average_winning"] == 151
    page = client.get("/stats/plays").get_data(as_text=True)
    assert "imported (BG Stats), no moves" in page


BAD = {
    "unknown player": (lambda: json.dumps(bgstats_export(plays__0__playerScores__1__playerRefId=9)).encode(),
                       200, "playerRefId 9 is not among the players"),
    "unknown game": (lambda: json.dumps(bgstats_export(plays__0__gameRefId=3)).encode(), 200, "gameRefId 3 is not among the games"),
    "unknown location": (lambda: json.dumps(bgstats_export(plays__0__locationRefId=5)).encode(), 200,
                         "locationRefId 5 is not among the locations"),
    "score not a number": (lambda: json.dumps(bgstats_export(plays__0__playerScores__0__score="lots")).encode(), 200,
                           "the score &#39;lots&#39; is not a number"),
    "bad date": (lambda: json.dumps(bgstats_export(plays__0__playDate="yesterday")).encode(), 200, "playDate"),
    "invalid UTF-8": (lambda: b'{"players": [{"id": 1, "name": "\xff\xfe"}]}', 422, "UTF-8"),
    "not JSON": (lambda: b"\x00\x01garbage", 422, "UTF-8"),
    "a list": (lambda: b"[]", 422, "no BG Stats export"),
    "a lone surrogate": (lambda: json.dumps(bgstats_export(games__0__name="Five \ud800 Tribes")).encode(), 422,
                         "games.0.name is not valid Unicode"),
    "50 MB": (lambda: b" " * (50 * 1024 * 1024), 413, ""),
    "a bad player name": (lambda: json.dumps(bgstats_export(players__0__name="\u0007")).encode(), 200, "(U+0007)"),
    # each of these was a 500 (issue 25 §7)
    "score --5": (lambda: json.dumps(bgstats_export(plays__0__playerScores__0__score="--5")).encode(), 200,
                  "the score &#39;--5&#39; is not a number"),
    "year 1": (lambda: json.dumps(bgstats_export(plays__0__playDate="0001-01-01 00:00:00")).encode(), 200,
               "in a year 1900–2999"),
    "year 9999 and two weeks": (lambda: json.dumps(bgstats_export(plays__0__playDate="9999-12-31 23:59:59",
                                                        plays__0__durationMin=20160)).encode(), 200, "in a year"),
    "a player name turned backwards": (lambda: json.dumps(bgstats_export(players__0__name="\u202eevil")).encode(), 200,
                                       "text direction mark (U+202E)"),
    "a game name turned backwards": (lambda: json.dumps(bgstats_export(games__0__name="Five \u202eTribes")).encode(), 200,
                                     "text direction mark"),
    "a location name turned backwards": (lambda: json.dumps(bgstats_export(locations__0__name="\u2067Home")).encode(), 200,
                                         "text direction mark"),
    "a NUL in a name": (lambda: json.dumps(bgstats_export(players__0__name="An\x00na")).encode(), 400, "NUL character"),
    "a NUL in a uuid": (lambda: json.dumps(bgstats_export(plays__0__uuid="p\x001")).encode(), 400, "NUL character"),
    "a NUL in a game name": (lambda: json.dumps(bgstats_export(games__0__name="Five\x00")).encode(), 400, "NUL character"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_bgstats_file_is_refused_with_a_reason_and_nothing_changes(guarded, case):
    """A file that is no export is refused whole (422, 413, 400); a play of it that is
    broken (200: the file's only play here) is refused with its reason, the others of the
    file would be imported (tests/group/test_files_people_have.py)."""
    app, client, token, db = guarded
    content, status, reason = BAD[case]
    response = upload_bgstats(client, token, content())
    assert response.status_code == status
    assert reason in response.get_data(as_text=True)
    if status == 200:
        assert "Not imported (1)" in response.get_data(as_text=True)
    assert roster.last_seq(db) == 0
    assert db.execute("SELECT COUNT(*) FROM stat_seats").fetchone()[0] == 0


def test_an_imported_play_is_reverted_from_the_roster_log(guarded):
    app, client, token, db = guarded
    upload_bgstats(client, token, json.dumps(bgstats_export()).encode())
    play = next(e.seq for e in roster.read_log(db) if e.type == "play-imported")
    assert client.post(f"/people/log/{play}/revert", data={"csrf_token": token}).status_code == 303
    assert db.execute("SELECT COUNT(*) FROM stat_seats").fetchone()[0] == 0
    from group import plays
    before = plays.dump(db)
    plays.rebuild(db)
    assert plays.dump(db) == before
