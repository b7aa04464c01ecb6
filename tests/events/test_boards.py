"""Board profiles (events/application/boards.py): insert-only versions; a profile exported
and imported again is the same facts as a new version; a document that is no profile of
this game, or a profile the rules find contradictory, is refused with its reason and
stores nothing; a set-up names a shipped profile by its id and the table's answers."""
import sqlite3

import pytest

from events.application import boards
from events.storage import store
from scoring import get_game
from scoring.han.demo import example_profile

HAN = get_game("han")


def test_profiles_are_insert_only_versions(app, db):
    example = boards.save(db, HAN, "example", example_profile(1))
    again = boards.save(db, HAN, "example", example_profile(1))
    assert (example["version"], again["version"]) == (1, 2)
    assert boards.load(db, HAN, "example", 1)["data"] == example["data"]
    with pytest.raises(sqlite3.DatabaseError):
        db.execute("UPDATE board_profiles SET data = '{}'")
    with pytest.raises(sqlite3.DatabaseError):
        db.execute("DELETE FROM board_profiles")
    store.migrate(db)  # the migration is idempotent
    assert boards.load(db, HAN, "example")["version"] == 2


def test_an_exported_profile_imports_as_a_new_version_of_the_same_facts(app, db):
    saved = boards.save(db, HAN, "example", example_profile(1))
    again = boards.import_document(db, HAN, boards.export(HAN, saved))
    assert (again["id"], again["version"], again["data"]) == ("example", 2, saved["data"])
    copied = boards.import_document(db, HAN, boards.export(HAN, saved), profile_id="copy")
    assert (copied["id"], copied["version"]) == ("copy", 1)
    assert boards.pin(copied) == {"id": "copy", "version": 1, "data": saved["data"]}


@pytest.mark.parametrize("spoil", [lambda doc: None, lambda doc: [], lambda doc: {**doc, "kind": "maharaja"},
                                   lambda doc: {**doc, "format_version": True}, lambda doc: {**doc, "format": "other"}])
def test_a_document_that_is_no_profile_of_this_game_is_refused(app, db, spoil):
    document = spoil(boards.export(HAN, boards.save(db, HAN, "example", example_profile(1))))
    with pytest.raises(boards.BadProfile):
        boards.import_document(db, HAN, document)
    assert boards.load(db, HAN, "example")["version"] == 1


def test_a_contradictory_profile_is_refused_with_its_reason(app, db):
    data = example_profile(1)
    data["harbours"].pop()
    with pytest.raises(boards.BadProfile) as refused:
        boards.save(db, HAN, "example", data)
    assert "7 harbours" in refused.value.problems[0].en and boards.load(db, HAN, "example") is None


def test_a_set_up_names_a_shipped_profile_by_its_id_and_the_tables_answers(app, db):
    board = {"id": "han-side1", "colours": {}}
    assert boards.asks_completion(HAN, board) and not boards.asks_completion(HAN, {**board, "data": {}})
    with pytest.raises(boards.BadProfile):
        boards.completed(db, HAN, {"id": "no-such-board", "colours": {}})
