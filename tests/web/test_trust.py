"""Forgeries do not count (issue 35 §3, §7, §8; events/application/signing.py, events/application/trust.py): each
server signs its exports; an import verifies the signature; a game imported without a
trusted one is shown, marked, and counts nowhere until the organiser accepts it; duplicates
are found by the signed identity; a file cut short is never silent; the photos a file
carries are prepared again exactly as an upload. On both engines, CSRF on."""
from __future__ import annotations

import base64
import io
import json
import os
import re

import pytest

from events.application import photos
from events.storage import store
from events.domain.hashing import GENESIS, chain_hash
from events.application.table import new_game, record
from group import roster
from tests.conftest import app_on, become_organiser, create_database, csrf_of
from tests.events.images import gps_jpeg, metadata_jpeg


@pytest.fixture
def servers(database, request, tmp_path):
    """Two servers, each with its own store and its own key pair: {"a": (app, client), "b": …}."""
    other = create_database(request.getfixturevalue("postgres_server")) if database.startswith("postgresql") \
        else str(tmp_path / "b.db")
    made = {}
    for name, url in (("a", database), ("b", other)):
        app = app_on(url, WTF_CSRF_ENABLED=True, SIGNING_KEY=str(tmp_path / f"{name}.pem"))
        client = app.test_client()
        client.set_cookie("lang", "en")
        made[name] = (app, client)
    return made


def _finished(app, names=("Anna", "Béla"), points=(30, 10)) -> str:
    """A score pad game Anna wins, ended, its seats linked to the roster."""
    db = store.connect(app.config["DATABASE"], on_recorded=app.extensions["on_recorded"])
    game = new_game(db, "scorepad", [{"name": n} for n in names], {}, "dev")
    roster.link_game(db, game["id"], list(names), "dev")
    for seq, p in enumerate(points, start=1):
        seat = (seq - 1) % len(names)
        record(db, game["id"], "points-recorded", {"seat": seat, "points": p}, seq, 0, "dev", f"p{seq}")
    record(db, game["id"], "game-ended", {}, len(points) + 1, 0, "dev", "end")
    db.conn.close()
    return game["id"]


def _export(client, game_id) -> dict:
    return json.loads(client.get(f"/games/{game_id}/export.json").data)


def _import(client, doc):
    page = client.get("/import").get_data(as_text=True)
    return client.post("/import", data={"csrf_token": csrf_of(page),
                                        "file": (io.BytesIO(json.dumps(doc).encode()), "game.json")},
                       content_type="multipart/form-data")


def _rechained(doc: dict, change) -> dict:
    """``doc`` with ``change(events)`` applied and its chain computed again, as anyone can."""
    doc = json.loads(json.dumps(doc))
    change(doc["events"])
    prev = GENESIS
    for env in doc["events"]:
        env["hash"] = prev = chain_hash(prev, env)
    doc["game"]["last_hash"] = prev
    return doc


def _new_id(answer) -> str:
    assert answer.status_code == 303, answer.get_data(as_text=True)[-2000:]
    return answer.headers["Location"].rsplit("/", 1)[1]


def _counted(client) -> dict:
    """What the statistics count: each person's plays and wins, the games in the CSV, the rated."""
    people = {p["name"]: (p["plays"], p["wins"]) for p in client.get("/api/people").get_json()["people"]}
    csv = client.get("/plays.csv").get_data(as_text=True)
    stats = client.get("/api/stats").get_json()
    return {"people": people, "csv": csv, "left_out": stats["left_out"], "ratings": stats["ratings"]}


def _organiser_post(app, client, path):
    become_organiser(app, client)
    token = csrf_of(client.get("/people/servers").get_data(as_text=True))
    return client.post(path, data={"csrf_token": token})


def test_a_forged_game_imports_marked_and_counts_nowhere_until_the_organiser_accepts_it(servers):
    app, phone = servers["a"]
    genuine = _finished(app)
    doc = _export(phone, genuine)

    def forge(events):  # Béla's 10 points become 999, and event 1 is made "another game"
        events[0]["client_event_id"] += "x"
        events[2]["data"]["points"] = 999
    forged = _new_id(_import(phone, _rechained(doc, forge)))
    counted = _counted(phone)
    assert counted["people"]["Béla"] == (1, 0) and counted["people"]["Anna"] == (1, 1)
    assert forged not in counted["csv"] and forged in counted["left_out"]
    assert "999" not in json.dumps(counted["ratings"])
    page = phone.get(f"/games/{forged}").get_data(as_text=True)
    assert 'data-testid="not-counted"' in page and "signature does not match" in page
    stranger = app.test_client()  # anyone but the organiser: refused, nothing changes
    token = re.search(r'"X-CSRFToken": "([^"]+)"', stranger.get("/people/servers").get_data(as_text=True)).group(1)
    assert stranger.post(f"/people/servers/games/{forged}/accept", data={"csrf_token": token}).status_code == 403
    assert _counted(phone)["people"]["Béla"] == (1, 0)
    assert _organiser_post(app, phone, f"/people/servers/games/{forged}/accept").status_code == 303
    counted = _counted(phone)  # the organiser's choice: now it counts
    assert counted["people"]["Béla"] == (2, 1) and forged in counted["csv"] and forged not in counted["left_out"]
    assert 'data-testid="not-counted"' not in phone.get(f"/games/{forged}").get_data(as_text=True)


def test_another_servers_game_counts_once_its_key_is_trusted_and_comes_back_as_already_here(servers):
    (a, phone_a), (b, phone_b) = servers["a"], servers["b"]
    game = _finished(a)
    doc = _export(phone_a, game)
    assert doc["signature"]["origin"]["game"] == game
    there = _new_id(_import(phone_b, doc))
    assert _counted(phone_b)["people"]["Anna"] == (0, 0)  # signed, by a server B does not trust yet
    assert "signed by a server not trusted here" in phone_b.get(f"/games/{there}").get_data(as_text=True)
    become_organiser(b, phone_b)
    token = csrf_of(phone_b.get("/people/servers").get_data(as_text=True))
    trusted = phone_b.post("/people/servers", data={"csrf_token": token, "name": "Club A", "public_key": doc["signature"]["key"]})
    assert trusted.status_code == 303
    assert _counted(phone_b)["people"]["Anna"] == (1, 1)
    assert _import(phone_b, doc).status_code == 409  # the same game again: by its signed identity
    back = _export(phone_b, there)  # B vouches for it now, under its first identity
    assert back["signature"]["origin"] == {"server": doc["signature"]["key"], "game": game}
    home = _import(phone_a, back)
    assert home.status_code == 409 and f'href="/games/{game}"' in home.get_data(as_text=True)


def test_a_cut_short_export_is_never_silent(servers):
    (a, phone_a), (b, phone_b) = servers["a"], servers["b"]
    game = _finished(a, points=(30, 10, 20))
    doc = _export(phone_a, game)
    cut = json.loads(json.dumps(doc))
    cut["events"] = cut["events"][:-2]  # the last move and the end, and what named them
    del cut["game"]["last_seq"], cut["game"]["last_hash"]
    page = phone_b.get(f"/games/{_new_id(_import(phone_b, cut))}").get_data(as_text=True)
    assert "signature does not match this file (changed or cut short" in page
    unsigned = _export(phone_a, _finished(a, points=(30, 10, 20)))
    del unsigned["signature"], unsigned["game"]["last_seq"], unsigned["game"]["last_hash"]
    unsigned["events"] = unsigned["events"][:-2]
    page = phone_b.get(f"/games/{_new_id(_import(phone_b, unsigned))}").get_data(as_text=True)
    assert "neither its moves nor where it ends can be verified" in page


def test_old_exports_import_as_unsigned_and_marked(servers):
    app, phone = servers["a"]
    path = os.path.join(os.path.dirname(__file__), "..", "fixtures", "han-side1-3p-v1.json")
    with open(path, encoding="utf-8") as f:
        old = json.load(f)
    page = phone.get(f"/games/{_new_id(_import(phone, old))}").get_data(as_text=True)
    assert "Imported: not signed" in page


def test_the_photos_of_an_imported_game_are_prepared_again_exactly_as_an_upload(servers):
    app, phone = servers["a"]
    game = _finished(app)
    db = store.connect(app.config["DATABASE"])
    small = photos.prepare(gps_jpeg())
    record(db, game, "photo-attached", {**small.facts(), "caption": "board", "about": "final"},
           store.last_seq(db, game), 0, "dev", "photo", blobs=(small.image, small.thumb))
    db.conn.close()
    doc = _export(phone, game)
    laden = metadata_jpeg()
    assert b"GPSLatitude" in laden and b"secret comment" in laden and b"ICC_PROFILE" in laden

    def carry(events):  # the photo event names the image with its metadata
        events[-1]["data"].update(sha256=photos.digest(laden), bytes=len(laden), width=200, height=400)
        events[0]["client_event_id"] += "x"  # another game, so it imports beside the first
    smuggled = _rechained(doc, carry)
    thumb = smuggled["events"][-1]["data"]["thumb_sha256"]
    smuggled["photos"] = {photos.digest(laden): base64.b64encode(laden).decode(), thumb: doc["photos"][thumb]}
    imported = _new_id(_import(phone, smuggled))
    page = phone.get(f"/games/{imported}/final").get_data(as_text=True)
    served = [phone.get(url).data for url in re.findall(rf'/games/{imported}/photos/[0-9a-f]{{64}}\.jpg', page)]
    assert served
    for data in served:
        assert b"GPSLatitude" not in data and b"secret comment" not in data and b"ICC_PROFILE" not in data
        assert data == photos.prepare(laden).image.data or data == photos.prepare(laden).thumb.data
    assert app.test_cli_runner().invoke(args=["verify-db"]).exit_code == 0


def test_init_db_makes_the_servers_key_pair_in_its_instance_folder(tmp_path):
    app = app_on(str(tmp_path / "k.db"), WTF_CSRF_ENABLED=True,
                 SIGNING_KEY=str(tmp_path / "instance" / "export-signing-key.pem"))
    assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0
    key = tmp_path / "instance" / "export-signing-key.pem"
    assert key.exists() and oct(key.stat().st_mode & 0o777) == "0o600"
