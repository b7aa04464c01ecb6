"""Import files (docs/reliability.md §4 and §6): truncated, huge, deeply nested, wrong
types, a forged chain — each refused with a reason and nothing stored; every finished
game exports and imports again, and every example file in examples/ (exports made by
earlier versions of the app) still imports and replays to the same standings."""
from __future__ import annotations

import copy
import glob
import json
import os

import pytest

from tests.conftest import ROOT, demo_played, upload
from events.application.export import export_game, replay
from events.application.table import new_game, record
from events.storage import store
from scoring import GAMES


@pytest.fixture
def doc(db):
    return export_game(db, demo_played(db, "scorepad", linked=False))


def _forged(doc: dict) -> dict:
    forged = copy.deepcopy(doc)
    forged["events"][1]["data"]["points"] = 999  # a changed score, hash left alone
    return forged


def _rechained(doc: dict) -> dict:
    """A forger who also recomputes every hash: the chain holds, the rules still refuse."""
    from events.domain.hashing import chain_hash
    forged = copy.deepcopy(doc)
    forged["events"][1]["data"]["seat"] = 7
    prev = ""
    for env in forged["events"]:
        env["hash"] = chain_hash(prev, env)
        prev = env["hash"]
    return forged


BAD_FILES = {
    "truncated": lambda d: json.dumps(d).encode()[: len(json.dumps(d)) // 2],
    "empty": lambda d: b"",
    "not utf-8": lambda d: b"\xff\xfe\x00{",
    "deeply nested": lambda d: b"[" * 100_000 + b"]" * 100_000,
    "nested data": lambda d: json.dumps({**d, "events": [{**d["events"][0], "data": {"kind": "scorepad", "players": [], "options": {}, "rules_version": 1, "x": json.loads("[" * 500 + "]" * 500)}}]}).encode(),
    "a 5000-digit number": lambda d: b'{"format": "tablescribe-export", "n": ' + b"9" * 5000 + b"}",
    "wrong top type": lambda d: b"[1, 2, 3]",
    "wrong format": lambda d: json.dumps({**d, "format": "other"}).encode(),
    "future format version": lambda d: json.dumps({**d, "format_version": 99}).encode(),
    "events not a list": lambda d: json.dumps({**d, "events": {"1": 1}}).encode(),
    "no events": lambda d: json.dumps({**d, "events": []}).encode(),
    "seq a string": lambda d: json.dumps({**d, "events": [{**d["events"][0], "seq": "1"}]}).encode(),
    "data a list": lambda d: json.dumps({**d, "events": [{**d["events"][0], "data": []}]}).encode(),
    "unknown kind": lambda d: json.dumps({**d, "game": {**d["game"], "kind": "chess"}}).encode(),
    "forged chain": lambda d: json.dumps(_forged(d)).encode(),
    "forged and rechained": lambda d: json.dumps(_rechained(d)).encode(),
    "event missing": lambda d: json.dumps({**d, "events": d["events"][:1] + d["events"][2:]}).encode(),
    "events swapped": lambda d: json.dumps({**d, "events": [d["events"][0], d["events"][2], d["events"][1]] + d["events"][3:]}).encode(),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_import_file_is_refused_with_a_reason(app, client, db, doc, case):
    before = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    response = upload(client, "/import", BAD_FILES[case](doc))
    assert 400 <= response.status_code < 500, response.status_code
    page = response.data.decode()
    assert 'role="alert"' in page  # the reason is shown
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before


def test_a_huge_import_file_is_refused(app, client, db, doc):
    from app import LARGE_UPLOADS
    padded = {**doc, "padding": "x" * (LARGE_UPLOADS["audit.import_page"] + 1)}
    response = upload(client, "/import", json.dumps(padded).encode())
    assert response.status_code == 413 and 'role="alert"' in response.data.decode()


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_finished_game_exports_and_imports_again(app, client, db, other_db, kind):
    exported = export_game(other_db, demo_played(other_db, kind, linked=False))  # from another server: this one's own game is here already
    response = upload(client, "/import", json.dumps(exported).encode())
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    again = export_game(db, new_id)
    assert [e["hash"] for e in again["events"]] == [e["hash"] for e in exported["events"]]
    assert replay(again) == replay(exported)


EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.json")))


@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p) for p in EXAMPLES])
def test_every_example_export_still_imports(app, client, db, path):
    with open(path, "rb") as f:
        content = f.read()
    response = upload(client, "/import", content)
    assert response.status_code == 303, response.data[:500]
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    assert replay(export_game(db, new_id)) == replay(json.loads(content))
    assert store.verify_game(db, new_id) is None
