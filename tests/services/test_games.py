"""services/games.py: a game, its first events and its roster links are one write."""
import pytest

from events.storage import store
from group import roster


class LinkFailed(Exception):
    pass


@pytest.fixture
def links_fail(monkeypatch):
    def fail(*args, **kwargs):
        raise LinkFailed("the roster's write failed")
    monkeypatch.setattr(roster, "append_locked", fail)


def test_a_game_whose_roster_links_fail_is_not_created(client, db, links_fail):
    """Before, the game and its timer were committed and the links written after: a failure
    there left a game whose seats were never linked to the people the form named."""
    with pytest.raises(LinkFailed):
        client.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"], "turn": "2"})
    assert store.game_ids(db) == []


def test_the_api_starts_no_game_either_when_its_links_fail(client, db, links_fail):
    with pytest.raises(LinkFailed):
        client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
    assert store.game_ids(db) == []


def test_a_game_starts_with_its_timer_and_its_seats_linked(app, client, db):
    answer = client.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"], "turn": "2"})
    assert answer.status_code == 302
    [game_id] = store.game_ids(db)
    events = store.read_events(db, game_id)
    assert [(e.type, e.seat) for e in events] == [("game-created", None), ("timer-set", 0)]
    assert roster.export_links(db, game_id) == [{"seat": 0, "name": "Anna"}, {"seat": 1, "name": "Béla"}]


def test_an_imported_game_whose_roster_links_fail_is_not_stored(table_of, db, other_app, other_db, links_fail):
    """Before, the game was committed first and its seats linked after: a failure there left
    the game here without the people its file named, and the same file could not come again."""
    import io
    import json

    from events.application.export import export_game
    table = table_of(moves=[("points-recorded", {"seat": 0, "points": 4})])
    doc = export_game(db, table.id)
    with pytest.raises(LinkFailed):
        other_app.test_client().post("/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                                     content_type="multipart/form-data")
    assert store.game_ids(other_db) == []
