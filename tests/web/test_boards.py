"""The board editor (web/boards.py), with CSRF on, on both engines: only the organiser
publishes a profile's new version, by the editor or an imported document; a board's name
follows the text policy, saying which character it refuses."""
from __future__ import annotations

import pytest
from tests.conftest import run_sql


def _profile_document(name_en: str = "Our board") -> str:
    import json
    from events.application import boards
    from scoring import get_game
    han = get_game("han")
    data = {**han.boards.builtin[0]["data"], "name": {"hu": "A mi táblánk", "en": name_en}}
    return json.dumps(boards.export(han, {"id": "han-side1", "version": 1, "data": data}))


def _versions(db, profile_id: str = "han-side1") -> int:
    return run_sql(db, "SELECT COUNT(*) FROM board_profiles WHERE kind = 'han' AND profile_id = :id",
                   id=profile_id).fetchone()[0]


def test_only_the_organiser_publishes_a_new_version_of_a_board_profile(hall):
    app, db, organiser, host, stranger, game = hall
    page = stranger.get("/boards/han/han-side1/").get_data(as_text=True)
    assert 'data-testid="organiser-only"' in page and 'data-testid="save-board"' not in page
    before = _versions(db)
    for phone in (stranger, host):  # a phone with no seat, and a seated one (of a score pad)
        edited = phone.post("/boards/han/han-side1/", data={"csrf_token": phone.token, "name_en": "Mallory's"})
        assert edited.status_code == 403 and "Only the organiser" in edited.get_data(as_text=True)
        imported = phone.post("/boards/han/import", data={"csrf_token": phone.token, "document": _profile_document()})
        assert imported.status_code == 403
    assert _versions(db) == before
    answer = organiser.post("/boards/han/import", data={"csrf_token": organiser.token, "document": _profile_document()})
    assert answer.status_code == 303 and _versions(db) == before + 1


@pytest.mark.parametrize("name", ["\u202eevil", "a\u2066b", "bell\x07"])
def test_a_board_name_follows_the_text_policy(hall, name):
    app, db, organiser, host, stranger, game = hall
    assert organiser.get("/boards/han/").status_code == 200  # the shipped profiles are stored
    before = _versions(db)
    answer = organiser.post("/boards/han/import", data={"csrf_token": organiser.token,
                                                        "document": _profile_document(name)})
    assert answer.status_code == 422
    assert "U+" in answer.get_data(as_text=True)  # says which character, never takes it
    assert _versions(db) == before
