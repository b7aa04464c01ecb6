"""The files people already have (issue 37): the statistics' documented game names, a real
BG Stats history in (play by play), and our BG Stats file and link as BG Stats' published
format has them (the plays as a spreadsheet opens them: tests/web/test_spreadsheet.py)."""
from __future__ import annotations

import pytest

from tests.conftest import finished_pad, upload_bgstats


@pytest.mark.parametrize("kind", ["scorepad:Azul", "scorepad:azul", "scorepad:AZUL"])
def test_the_documented_form_of_a_score_pad_game_finds_its_plays(guarded, kind):
    app, client, token, db = guarded
    finished_pad(client, token, "Azul", "230802")
    answer = client.get("/api/stats", query_string={"kind": kind})
    assert answer.status_code == 200
    assert answer.get_json()["plays"] == 1 and list(answer.get_json()["games"]) == ["scorepad:azul"]


@pytest.mark.parametrize("kind", ["chess", "azul", "chess:Azul", "han:Azul", ":Azul", "SCOREPAD:Azul", "scorepad:"])
def test_an_unknown_game_kind_is_a_bad_request(guarded, kind):
    app, client, token, db = guarded
    finished_pad(client, token, "Azul", "230802")
    answer = client.get("/api/stats", query_string={"kind": kind})
    assert answer.status_code == 400 and "error" in answer.get_json()


# ---- a real BG Stats history in, play by play (issue 37 §1–2, issue 35 §4) -------------

import json  # noqa: E402

from tests.group.bgstats_files import real_shaped_export  # noqa: E402


def test_a_real_shaped_export_of_500_plays_imports_play_by_play_with_the_right_counts(guarded):
    app, client, token, db = guarded
    doc, wins = real_shaped_export()
    response = upload_bgstats(client, token, json.dumps(doc).encode())
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page
    assert "Imported: 460" in page and "marked ignored in BG Stats: 30" in page and "Not imported (10)" in page
    assert page.count("is not a number") == 5 and page.count("is not among the players") == 5
    people = {p["name"]: p for p in client.get("/api/people").get_json()["people"]}
    assert "Anonymous player" not in people  # nobody's seat, at any number of seats
    assert {name: people[name]["wins"] for name in wins} == dict(wins)
    assert sum(p["plays"] for p in people.values()) == 300 * 3 + 50 * 2 + 40 * 3 + 30 + 20 * 15 + 20 * 2
    stats = client.get("/api/stats").get_json()
    assert stats["plays"] == 460
    assert stats["games"]["scorepad:pandemic"]["plays"] == 50 and stats["games"]["scorepad:pandemic"]["average"] is None
    assert stats["games"]["scorepad:terraforming mars"]["average_winning"] == 61.5
    # the same history again, from a device writing its uuids in the other case: nothing twice
    for play in doc["plays"]:
        if "uuid" in play:
            play["uuid"] = play["uuid"].swapcase()
    again = upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)
    assert "Imported: 0" in again and "imported before: 460" in again
    assert client.get("/api/stats").get_json()["plays"] == 460


def test_a_tie_the_table_broke_by_hand_stays_broken(guarded):
    """Ranks 0 with winner flags, as BG Stats writes them: the flag decides a tie."""
    app, client, token, db = guarded
    doc, _ = real_shaped_export()
    doc["plays"] = doc["plays"][:1]  # Anna 60, Béla 60 (Anna's flag), Csaba 30
    assert "Imported: 1" in upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)
    people = {p["name"]: p for p in client.get("/api/people").get_json()["people"]}
    assert (people["Anna"]["wins"], people["Béla"]["wins"], people["Csaba"]["wins"]) == (1, 0, 0)


@pytest.mark.parametrize("which,plays,wins", [
    ("co-op won", slice(300, 301), {"Anna": 1, "Csaba": 1}),
    ("co-op lost", slice(349, 350), {"Emese": 0, "Béla": 0}),
    ("decimal", slice(350, 351), {"Anna": 1, "Béla": 0, "Dóra": 0}),
    ("anonymous twice", slice(390, 391), {"Anna": 1}),
    ("15 players", slice(420, 421), {"Falusi 1": 1, "Falusi 15": 0}),
])
def test_each_case_of_a_real_history_imports(guarded, which, plays, wins):
    app, client, token, db = guarded
    doc, _ = real_shaped_export()
    doc["plays"] = doc["plays"][plays]
    page = upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)
    assert "Imported: 1" in page, page
    people = {p["name"]: p for p in client.get("/api/people").get_json()["people"]}
    assert {name: people[name]["wins"] for name in wins} == wins


def test_plays_without_a_uuid_are_known_again_by_game_date_players_and_scores(guarded):
    app, client, token, db = guarded
    doc, _ = real_shaped_export()
    doc["plays"] = doc["plays"][440:460]
    assert "Imported: 20" in upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)
    assert "imported before: 20" in upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)
    doc["plays"][0]["playerScores"][0]["score"] = "1000"  # another play after all
    assert "Imported: 1" in upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)


def test_one_named_person_at_two_seats_refuses_that_play_only(guarded):
    app, client, token, db = guarded
    doc, _ = real_shaped_export()
    doc["plays"] = doc["plays"][:3]
    doc["plays"][1]["playerScores"][1]["playerRefId"] = doc["plays"][1]["playerScores"][0]["playerRefId"]
    page = upload_bgstats(client, token, json.dumps(doc).encode()).get_data(as_text=True)
    assert "Imported: 2" in page and "Not imported (1)" in page and "One person sits at one seat" in page


# ---- our .bgsplay and link in BG Stats' published format (issue 37 §3) -----------------

from datetime import datetime, timezone  # noqa: E402
from urllib.parse import parse_qs, urlsplit  # noqa: E402

from jsonschema import Draft202012Validator  # noqa: E402

from events.storage import store  # noqa: E402

# The structure a public reader of .bgsplay files deserialises (theiam79/BGStats.Bot,
# Models/PlayFile.cs, Player.cs, Game.cs, Play.cs, PlayerScore.cs, UserInfo.cs: System.Text.Json
# with typed properties, so a field of another JSON type fails the whole file), with the
# fields BG Stats' own exports carry (theblang/bgstats README). Encoded here as a schema.
_S, _I, _B = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}


def _typed(**props) -> dict:
    return {"type": "object", "required": list(props), "properties": props}


READER = _typed(
    about=_S,
    players={"type": "array", "minItems": 1, "items": _typed(
        uuid=_S, id=_I, name=_S, isAnonymous=_B, modificationDate=_S, bggUsername=_S)},
    locations={"type": "array", "items": _typed(uuid=_S, id=_I, name=_S, modificationDate=_S)},
    games={"type": "array", "minItems": 1, "items": _typed(
        uuid=_S, id=_I, name=_S, modificationDate=_S, cooperative=_B, highestWins=_B, noPoints=_B,
        usesTeams=_B, bggId=_I)},
    plays={"type": "array", "minItems": 1, "items": _typed(
        uuid=_S, modificationDate=_S, entryDate=_S,
        playDate={"type": "string", "pattern": r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"},
        usesTeams=_B, durationMin=_I, ignored=_B, manualWinner=_B, rounds=_I, locationRefId=_I,
        gameRefId=_I, board=_S, scoringSetting=_I, playerScores={"type": "array", "minItems": 1, "items": _typed(
            score=_S, winner=_B, newPlayer=_B, startPlayer=_B, playerRefId=_I, role=_S, rank=_I, seatOrder=_I)})},
    userInfo=_typed(meRefId=_I))


def test_our_bgsplay_reads_as_a_public_reader_reads_bgstats_files(guarded):
    app, client, token, db = guarded
    game_id = finished_pad(client, token, "Azul", "230802")
    doc = client.get(f"/games/{game_id}/play.bgsplay").get_json()
    assert not [e.message for e in Draft202012Validator(READER).iter_errors(doc)]
    ids = {p["id"] for p in doc["players"]}
    play = doc["plays"][0]
    assert play["gameRefId"] in {g["id"] for g in doc["games"]}
    assert play["locationRefId"] in {loc["id"] for loc in doc["locations"]}
    assert {s["playerRefId"] for s in play["playerScores"]} <= ids and doc["userInfo"]["meRefId"] in ids
    assert [s["startPlayer"] for s in play["playerScores"]] == [True, False]  # a score pad's first seat begins
    # playDate: when the play ended, in UTC (BG Stats' push format), not its start on the table's clock
    ended = store.read_events(db, game_id)[-1].recorded_at
    assert play["playDate"] == datetime.fromisoformat(ended).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def test_the_link_is_bgstats_https_link_with_the_end_in_utc(guarded):
    app, client, token, db = guarded
    game_id = finished_pad(client, token, "Azul", "230802")
    final = client.get(f"/games/{game_id}/final").get_data(as_text=True)
    link = final.split('data-testid="bgstats-app" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    data = json.loads(parse_qs(parts.query)["data"][0])
    ended = store.read_events(db, game_id)[-1].recorded_at
    assert data["playDate"] == datetime.fromisoformat(ended).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    assert {"sourceName", "sourcePlayId", "playDate", "game", "players"} <= set(data)


def test_a_late_budapest_evening_keeps_its_utc_day_and_the_start_player_the_game_had():
    """22:30 in Budapest is 21:30 UTC of the same day; Han's chosen start player is marked."""
    from group import bgstats
    play = {"game_id": "g1", "key": "han", "bgg_id": 153625, "seconds": 5400,
            "started_at": "2026-11-26T19:55:00.000+00:00", "ended_at": "2026-11-26T21:30:00.000+00:00",
            "seats": [{"seat": i, "person": None, "name": n, "score": 40 - i, "rank": i + 1}
                      for i, n in enumerate(["Anna", "Béla", "Cili"])]}
    doc = bgstats.play_document(play, "Han", {}, start=1, me=2)
    assert doc["plays"][0]["playDate"] == "2026-11-26 21:30:00"
    assert [s["startPlayer"] for s in doc["plays"][0]["playerScores"]] == [False, True, False]
    assert doc["userInfo"]["meRefId"] == 3
    data = json.loads(parse_qs(urlsplit(bgstats.create_play_link(play, "Han", {}, start=1)).query)["data"][0])
    assert data["playDate"] == "2026-11-26 21:30:00" and [p["startPlayer"] for p in data["players"]] == [False, True, False]
