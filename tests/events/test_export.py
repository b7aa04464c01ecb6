"""Export → verify → import: the game's record as evidence (docs/export-format.md).
The tests with a store run on SQLite and on PostgreSQL (issue 19)."""
import copy
import json
import pathlib

import pytest

from events.application.export import FORMAT, AlreadyHere, BadExport, export_game, import_game, replay, verify
from events.application.table import load
from events.domain.hashing import GENESIS, chain_hash
from events.domain.projection import standings
from events.storage import store
from tests.conftest import PAD_WITH_DISPUTES, commits_unsynced_then_syncs_once, played_pad

@pytest.fixture
def app(app_on_each_engine):
    return app_on_each_engine


@pytest.fixture
def game_id(db):
    return played_pad(db)


@pytest.fixture
def doc(db, game_id):
    return export_game(db, game_id)


def rechain(doc):
    """What a forger would do: recompute every hash after editing."""
    prev = GENESIS
    for env in doc["events"]:
        env["hash"] = chain_hash(prev, env)
        prev = env["hash"]
    doc["game"].update(last_seq=len(doc["events"]), last_hash=prev)  # and the envelope's end
    return doc


def refusal(doc) -> BadExport:
    with pytest.raises(BadExport) as caught:
        verify(doc)
    return caught.value


def test_export_has_the_format_metadata_and_every_envelope(db, game_id, doc):
    assert doc["format"] == FORMAT and doc["format_version"] == 1
    assert doc["game"]["id"] == game_id and doc["game"]["kind"] == "scorepad"
    assert [e["seq"] for e in doc["events"]] == list(range(1, len(PAD_WITH_DISPUTES) + 2))
    assert doc["events"] == [e.envelope() for e in store.read_events(db, game_id)]
    assert json.loads(json.dumps(doc)) == doc


def test_round_trip_equals_the_original_standings_at_every_step(db, other_db, game_id, doc):
    copied = import_game(other_db, json.loads(json.dumps(doc)), "importer")["id"]
    assert copied != game_id
    for n in range(1, len(doc["events"]) + 1):
        original, imported = load(db, game_id, n), load(other_db, copied, n)
        assert standings(imported) == standings(original), n
        assert imported.voided == original.voided and imported.disputes == original.disputes
    final = {row["player"]: row["score"] for row in standings(load(other_db, copied))}
    assert final == {"Anna": 12 + 6, "Béla": 7}  # the 40 and the disputed 9 are void


def test_import_keeps_original_times_recorders_and_hashes(other_db, game_id, doc):
    copied = import_game(other_db, doc, "importer")["id"]
    again = export_game(other_db, copied)
    assert again["events"] == doc["events"]
    row = store.game_row(other_db, copied)
    assert row["imported_from"] == game_id and row["finished"] == 1
    assert row["last_seq"] == len(doc["events"])
    assert store.verify_game(other_db, copied) is None


def test_the_same_game_again_is_refused_naming_the_game_here(db, other_db, game_id, doc):
    """Issue 25 §2: the same export imported 5 times gave 5 plays."""
    with pytest.raises(AlreadyHere) as here:
        import_game(db, json.loads(json.dumps(doc)), "importer")
    assert here.value.game_id == game_id
    copied = import_game(other_db, doc, "importer")["id"]
    with pytest.raises(AlreadyHere) as again:  # and the copy's export, back on either server
        import_game(other_db, export_game(other_db, copied), "importer")
    assert again.value.game_id == copied
    longer = export_game(other_db, copied)
    with pytest.raises(AlreadyHere):
        import_game(db, longer, "importer")
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_an_export_cut_at_an_event_boundary_is_refused(doc):
    """Issue 25 §10: whole trailing events dropped, the chain intact up to there."""
    assert doc["game"]["last_seq"] == len(doc["events"]) and doc["game"]["last_hash"] == doc["events"][-1]["hash"]
    cut = copy.deepcopy(doc)
    del cut["events"][-3:]
    err = refusal(cut)
    assert err.seq == len(doc["events"]) - 2 and f"cut short at event {len(doc['events']) - 3} of {len(doc['events'])}" in err.reason
    other_end = copy.deepcopy(doc)
    other_end["game"]["last_hash"] = "0" * 64
    assert "another last hash" in refusal(other_end).reason
    older = copy.deepcopy(cut)  # a file from before the envelope named its end: as it always was
    del older["game"]["last_seq"], older["game"]["last_hash"]
    assert len(verify(older)) == len(doc["events"]) - 3


def test_replay_gives_the_standings_at_any_step(doc):
    at_3 = replay(doc, at=3)
    assert at_3 == {"game": "scorepad", "finished": False, "seq": 3, "standings": [
        {"seat": 0, "player": "Anna", "score": 12, "rank": 1, "breakdown": {"round-1": 12}},
        {"seat": 1, "player": "Béla", "score": 7, "rank": 2, "breakdown": {"round-1": 7}}]}
    assert replay(doc)["finished"] is True
    with pytest.raises(BadExport):
        replay(doc, at=99)


def test_one_byte_of_one_payload_changed_is_refused_naming_the_event(doc):
    text = json.dumps(doc)
    target = json.dumps(doc["events"][3]["data"])  # event 4: Béla +40
    assert text.count(target) == 1
    tampered = json.loads(text.replace(target, target.replace("40", "41")))
    err = refusal(tampered)
    assert (err.seq, err.reason) == (4, "hash does not match its content and the previous hash")


def test_one_event_removed_is_refused_naming_the_event(doc):
    del doc["events"][4]
    err = refusal(doc)
    assert err.seq == 6 and "expected event 5" in err.reason


def test_two_events_swapped_are_refused_naming_the_event(doc):
    doc["events"][2], doc["events"][3] = doc["events"][3], doc["events"][2]
    err = refusal(doc)
    assert err.seq == 4 and "expected event 3" in err.reason


def test_swapped_and_renumbered_is_refused_naming_the_event(doc):
    events = doc["events"]
    events[2], events[3] = events[3], events[2]
    events[2]["seq"], events[3]["seq"] = 3, 4
    err = refusal(doc)
    assert err.seq == 3 and "hash" in err.reason


def test_a_forged_hash_is_refused_naming_the_event(doc):
    doc["events"][6]["hash"] = chain_hash(doc["events"][5]["hash"], {**doc["events"][6], "seat": 0})
    err = refusal(doc)
    assert err.seq == 7 and "hash" in err.reason


def test_a_rechained_forgery_the_rules_refuse_is_refused_naming_the_event(doc):
    doc["events"][6]["data"]["points"] = 5_000_000
    err = refusal(rechain(doc))
    assert err.seq == 7 and [p.rule for p in err.problems] == ["docs/rules/scorepad.md §1"]
    assert "docs/" not in err.reason and "docs/rules/scorepad.md §1" in str(err)  # the command line names it


def test_a_rechained_void_of_a_missing_event_is_refused(doc):
    doc["events"][4]["data"]["target"] = 99
    err = refusal(rechain(doc))
    assert err.seq == 5 and [p.rule for p in err.problems] == ["core §3"]


def test_a_move_after_the_end_is_refused_naming_it(doc):
    doc["events"].append({**copy.deepcopy(doc["events"][2]), "seq": len(doc["events"]) + 1,
                          "client_event_id": "late"})
    err = refusal(rechain(doc))
    assert err.seq == len(doc["events"]) and [p.rule for p in err.problems] == ["docs/rules/scorepad.md §3"]


@pytest.mark.parametrize("edit, forged, seq, words", [
    (lambda d: d.update(format="something-else"), False, 0, "not a game exported from Tablescribe"),
    (lambda d: d.update(format_version=3), False, 0, "format version 3"),
    (lambda d: d.update(events=[]), False, 0, "no events"),
    (lambda d: d["events"][2].pop("device"), False, 3, "device"),
    (lambda d: d["events"][2].update(data="x"), False, 3, "data"),
    (lambda d: d["events"][2].update(seat=5), True, 3, "seat 5"),
    (lambda d: d["events"][2].update(type="points-invented"), True, 3, "unknown event type"),
    (lambda d: d["events"][2].update(version=9), True, 3, "version 9"),
    (lambda d: d["events"][0]["data"].update(kind="chess"), True, 1, "'chess'"),
    (lambda d: d["events"][0]["data"].update(rules_version=7), True, 1, "rules version 7"),
    (lambda d: d["events"][0]["data"].update(players=[]), True, 1, "players"),
    (lambda d: d["events"][1].update(type="game-created"), True, 2, "missing kind"),
    (lambda d: d["events"][4].update(client_event_id="c2"), True, 5, "repeats event 3"),
    (lambda d: d["events"][2]["data"].update(points=7.0), True, 3, "must be a whole number"),
    (lambda d: d["events"][2].update(seq=3.0), True, 3, "must be a whole number"),
])
def test_malformed_files_are_refused_with_the_event_and_reason(doc, edit, forged, seq, words):
    edit(doc)
    if forged:
        rechain(doc)
    err = refusal(doc)
    assert err.seq == seq and words in err.reason, err


def test_a_refused_import_stores_nothing(db, doc):
    before = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    doc["events"][3]["data"]["points"] = 41
    with pytest.raises(BadExport):
        import_game(db, doc, "importer")
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before


EXAMPLES = sorted((pathlib.Path(__file__).parents[2] / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_game_verifies_and_imports(db, path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    events = verify(doc)
    copied = import_game(db, doc, "importer")["id"]
    assert export_game(db, copied)["events"] == doc["events"]
    assert replay(doc)["seq"] == len(events)


def test_data_nested_too_deeply_is_refused_not_crashed(doc):
    deep = []
    for _ in range(100_000):
        deep = [deep]
    doc["events"][2]["data"]["note"] = deep
    err = refusal(doc)
    assert err.seq == 0 and "nested too deeply" in err.reason


def test_an_imports_rows_are_made_before_the_write_lock(db, monkeypatch):
    """Issue 25 §5: serialising a 10,000-event game's payloads took ~0.1 s of the ~0.19 s
    the import held the write lock that every other table's move waits for. The rows are
    made before the lock; under it only the game's own row serialises (its players)."""
    from tests.conftest import watch_the_write_lock
    doc = json.loads(pathlib.Path(__file__).parents[2].joinpath("examples", "han-side1-3p.json").read_text())
    serialised = []
    real_dumps = store.json.dumps

    class Json:
        loads = staticmethod(store.json.loads)

        @staticmethod
        def dumps(*args, **kwargs):
            if held:
                serialised.append(args[0])
            return real_dumps(*args, **kwargs)

    held = watch_the_write_lock(monkeypatch)
    monkeypatch.setattr(store, "json", Json)
    created = import_game(db, doc)
    assert len(store.read_events(db, created["id"])) == len(doc["events"])
    assert len(serialised) <= 1, f"{len(serialised)} payloads serialised under the write lock"


def test_an_imported_game_commits_without_its_fsync_under_the_write_lock_and_is_durable_before_it_answers(
        other_db, doc):
    """Issue 38 §5: the fsync of a 10,000-event game's commit (~40 ms) was made holding SQLite's
    write lock, every other table's move waiting for it. The game commits at synchronous=NORMAL
    (in WAL still all or nothing, and kept through a kill -9) and the WAL is synced once the
    lock is free, before the import answers."""
    if store.is_postgres(other_db):
        pytest.skip("SQLite's write lock and fsync; PostgreSQL commits as it did")
    seen: list[str] = []
    store.trace(other_db, seen.append)
    copied = import_game(other_db, doc, "importer")["id"]
    assert commits_unsynced_then_syncs_once(seen)
    assert export_game(other_db, copied)["events"] == doc["events"]
    assert other_db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again for what follows


def _han_example() -> dict:
    return json.loads(pathlib.Path(__file__).parents[2].joinpath("examples", "han-side1-3p.json").read_text())


def test_an_imported_game_is_written_a_few_hundred_events_at_a_time(db, monkeypatch):
    """Issue 38 §5: the largest game file (Han, 10,000 events) was one transaction that held
    the write lock ~80–150 ms while every other table's move waited. Its events go in by
    ``IMPORT_CHUNK`` per transaction, the lock left free between two, the game's row last."""
    from tests.conftest import watch_the_write_lock
    doc = _han_example()
    monkeypatch.setattr(store, "IMPORT_CHUNK", 10)
    held = watch_the_write_lock(monkeypatch)
    chunks = []
    real = store.insert_unlisted
    monkeypatch.setattr(store, "insert_unlisted", lambda db_, game_id, rows: (
        chunks.append((len(held), len(rows))), real(db_, game_id, rows)))
    created = import_game(db, doc, "importer")
    n = len(doc["events"])
    assert chunks == [(1, min(10, n - start)) for start in range(0, n, 10)]  # one write lock each
    assert export_game(db, created["id"])["events"] == doc["events"]


def test_an_import_cut_off_between_its_writes_lists_no_game_and_imports_whole_again(db, monkeypatch):
    """A crash (here: a failure) after some of an import's transactions leaves events under a
    game id that has no row: no list, no count, no duplicate check finds a game; the same file
    imported again makes the whole game."""
    doc = _han_example()
    monkeypatch.setattr(store, "IMPORT_CHUNK", 10)
    real, written = store.insert_unlisted, []

    def cut_off(db_, game_id, rows):
        if len(written) == 2:
            raise RuntimeError("the power went")
        written.append(game_id)
        real(db_, game_id, rows)

    monkeypatch.setattr(store, "insert_unlisted", cut_off)
    games_before = store.game_ids(db)
    with pytest.raises(RuntimeError):
        import_game(db, doc, "importer")
    assert len(store.read_events(db, written[0])) == 20  # the two transactions stay: events are never deleted
    assert store.game_ids(db) == games_before and store.game_row(db, written[0]) is None
    assert store.game_of_first_hash(db, doc["events"][0]["hash"]) is None
    listed = store.list_games(db, finished=False) + store.list_games(db, finished=True)
    assert written[0] not in {game["id"] for game in listed}
    monkeypatch.setattr(store, "insert_unlisted", real)
    again = import_game(db, doc, "importer")["id"]
    assert again != written[0] and export_game(db, again)["events"] == doc["events"]
    with pytest.raises(AlreadyHere):
        import_game(db, doc, "importer")
