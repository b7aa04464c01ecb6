"""In the Year of the Dragon through the phone forms (Flask's client, no JavaScript):
every demo move entered as a form becomes exactly the demo's event, every page renders,
bad input is refused beside the form, the final tally mode scores Ben's example."""
import json

import pytest

from events.storage import store
from scoring.base import Move
from scoring.dragon import GAME as dragon
from scoring.dragon.data import R_TILES
from scoring.dragon_tally import GAME as dragon_tally
from tests.conftest import post_move


def _who(state, seat, palace, slot) -> str:
    """A person as the form names it: by palace and what it is, never by its slot."""
    person = state["players"][seat]["palaces"][palace]["persons"][slot]
    return f"{palace}:{person['type']}:{person['age']}"


def form_for(type_, data, state=None) -> dict:
    """The fields a phone posts for a move (the seat comes from the state)."""
    fields = {"action": type_}
    if type_ == "dragon-events-laid":
        fields.update({f"ev{m}": e for m, e in enumerate(data["row"], start=3)})
    elif type_ == "dragon-opening-recruited":
        for i, p in enumerate(data["persons"], start=1):
            fields.update({f"type{i}": p["type"], f"palace{i}": str(p["palace"])})
    elif type_ == "dragon-actions-dealt":
        fields.update({f"group_{a}": str(g + 1) for g, grp in enumerate(data["groups"]) for a in grp})
    elif type_ == "dragon-action-chosen":
        fields["choice"] = f"{data['group']}:{data['action']}" + (f":{data['privilege']}" if "privilege" in data else "")
    elif type_ == "dragon-floors-placed":
        fields.update({f"add{i}": str(a) for i, a in enumerate(data["add"])})
        fields["new"] = [str(f) for f in data["new"]] + ["0"]
    elif type_ == "dragon-person-recruited":
        person = data.get("person")
        fields["pick"] = data["card"] + "|" + (f"{person['type']}:{person['age']}" if person else "")
        if data.get("away"):
            fields["place"] = "away"
        elif "replace" in data:
            fields["place"] = "r:" + _who(state, data["seat"], data["palace"], data["replace"])
        elif "palace" in data:
            fields["place"] = f"p:{data['palace']}"
    elif type_ == "dragon-persons-released":
        fields["release"] = [_who(state, data["seat"], a, b) for a, b in data["persons"]]
    return fields


def _new(client, kind, names):
    response = client.post("/games/new", data={"kind": kind, "name": names,
                                               "colour": ["red", "blue", "green", "yellow", "purple"][:len(names)]})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"]


def test_the_demo_game_entered_through_the_phone_forms(app, client, db):
    players, _, moves = dragon.demo()
    url = _new(client, "dragon", [p["name"] for p in players])
    game_id = url.rsplit("/", 1)[1]
    state = dragon.setup(players, {})
    for seq, (type_, data) in enumerate(moves, start=1):
        page = client.get(url)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert f'value="{type_}"' in html, f"the form should offer {type_} before event {seq + 1}"
        if type_ == "dragon-floors-placed":  # Anna builds 1 floor: "az 1", not "a 1" (issue 17 item 9)
            assert "Rakd le az <strong>1</strong> új szintet" in html
        response = post_move(client, url, seq, **form_for(type_, data, state))
        assert response.status_code == 303, response.get_data(as_text=True)[:3000]
        recorded = store.read_events(db, game_id)[-1]
        assert (recorded.type, recorded.data) == (type_, data)
        state = dragon.apply(state, Move(seq + 1, type_, data))
    html = client.get(url).get_data(as_text=True)
    assert 'data-testid="event-row"' in html and "Fertőzés" in html


@pytest.mark.parametrize("fields", [
    {"action": "dragon-events-laid", "ev3": "peace"},
    {"action": "dragon-events-laid", **{f"ev{m}": "drought" for m in range(3, 13)}},
    {"action": "nonsense"},
    {"action": "dragon-persons-released"},
])
def test_bad_input_is_refused_beside_the_form_never_a_500(app, client, db, fields):
    url = _new(client, "dragon", ["Anna", "Ben", "Clara"])
    response = post_move(client, url, 1, **fields)
    assert response.status_code == 422
    assert 'class="problems"' in response.get_data(as_text=True)
    assert len(store.read_events(db, url.rsplit("/", 1)[1])) == 1


def test_every_phase_renders_in_both_languages(app, client):
    players, _, moves = dragon.demo()
    url = _new(client, "dragon", [p["name"] for p in players])
    state = dragon.setup(players, {})
    for seq, (type_, data) in enumerate(moves, start=1):
        for lang in ("hu", "en"):
            client.set_cookie("lang", lang)
            assert client.get(url).status_code == 200
        post_move(client, url, seq, **form_for(type_, data, state))
        state = dragon.apply(state, Move(seq + 1, type_, data))


def test_the_new_game_page_says_player_1_is_the_oldest_who_opens(client):
    for lang, words in (("hu", "Az 1. játékos a legidősebb"), ("en", "Player 1 is the oldest player")):
        client.set_cookie("lang", lang)
        assert words in client.get("/games/new?kind=dragon").get_data(as_text=True)
    assert 'data-testid="seat-hint"' not in client.get("/games/new?kind=maharaja").get_data(as_text=True)


def test_final_tally_mode_scores_ben_25_from_a_phone_form(app, client, db):
    url = _new(client, "dragon-tally", ["Ben", "Anna"])
    page = client.get(url).get_data(as_text=True)
    assert page.count('<option value="monk:old"') == 8 * 3  # every person select offers every tile
    fields = {"action": "dragon-position-entered", "seat": "0", "score": "80", "yuan": "4", "rice": "1",
              "fireworks": "2", "track": "40",
              "floors0": "2", "person0_0": "monk:young", "person0_1": "lady:young",
              "floors1": "3", "person1_0": "monk:old", "person1_1": "tax:young", "person1_2": "craftsman:young",
              "floors2": "2", "person2_0": "healer:young", "person2_1": "farmer:young"}
    assert post_move(client, url, 1, **fields).status_code == 303
    state = client.get(f"/api/games/{url.rsplit('/', 1)[1]}/state").get_json()
    ben = next(r for r in state["standings"] if r["seat"] == 0)
    assert ben["breakdown"] == {"earlier": 80, "persons": 14, "monks": 8, "money": 3}
    assert ben["score"] == 80 + 25
    refused = post_move(client, url, 2, **{**fields, "floors0": "1"})  # 2 persons in a 1-floor palace
    assert refused.status_code == 422


def test_tally_refuses_more_tiles_of_a_kind_than_the_player_count_supplies():
    players, _, moves = dragon_tally.demo()            # Ben holds the one old monk of a 2-player game
    state = dragon_tally.setup(players, {})
    ben = moves[0][1]
    assert dragon_tally.check(state, Move(2, "dragon-position-entered", ben)) == []
    state = dragon_tally.apply(state, Move(2, "dragon-position-entered", ben))
    old_monk = {"type": "monk", "age": "old"}
    anna = {**moves[1][1], "palaces": [{"floors": 2, "persons": [old_monk]}]}
    found = dragon_tally.check(state, Move(3, "dragon-position-entered", anna))
    assert [p.rule for p in found] == [R_TILES] and "only 1 old monk" in found[0].en
    lone = dragon_tally.setup(players, {})             # the same court alone is fine
    assert dragon_tally.check(lone, Move(2, "dragon-position-entered", anna)) == []
    crowd = {**anna, "palaces": [{"floors": 3, "persons": [{"type": "tax", "age": "young"}] * 3},
                                 {"floors": 2, "persons": [{"type": "tax", "age": "young"}] * 2}]}
    assert "only 4 tax collector" in dragon_tally.check(lone, Move(2, "dragon-position-entered", crowd))[0].en


def test_tally_tie_goes_to_the_person_track():
    state = dragon_tally.setup([{"name": "A"}, {"name": "B"}], {})
    assert dragon_tally.tiebreak(state, 0) == (0,)


def test_a_finished_game_shows_the_final_scoring_arithmetic(app, client, db):
    import pathlib
    from events.application.export import import_game
    doc = json.loads((pathlib.Path(__file__).parents[3] / "examples" / "dragon-4p.json").read_text("utf-8"))
    game_id = import_game(db, doc, "test")["id"]
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-testid="final-scoring"' in html
    state = client.get(f"/api/games/{game_id}/state").get_json()["state"]
    for final in state["final"]:
        assert final["money"] == final["yuan"] + 2 * (final["rice"] + final["fireworks"])
        assert f"= {final['money']} " in html


def test_releases_are_picked_by_what_the_persons_are_not_by_a_shifting_slot(app, client, db):
    """Issue 15 item 2: the release form names "young healer, palace 1"; two alike persons of
    one palace are two ticks of the same value, and the form computes the payload's slots."""
    players, _, moves = dragon.demo()
    url = _new(client, "dragon", [p["name"] for p in players])
    for seq, (type_, data) in enumerate(moves[:-2], start=1):  # up to the contagion's releases
        state = dragon.setup(players, {}) if seq == 1 else state
        assert post_move(client, url, seq, **form_for(type_, data, state)).status_code == 303
        state = dragon.apply(state, Move(seq + 1, type_, data))
    client.set_cookie("lang", "en")
    html = client.get(url).get_data(as_text=True)
    assert 'value="0:monk:young"' in html and "young monk, palace 1" in html
    assert 'value="0:0"' not in html  # no slot numbers on the form
    seq = len(moves) - 1
    wanted = [_who(state, 0, 0, 2), _who(state, 0, 1, 1)]  # the demo's [[0, 2], [1, 1]]
    assert post_move(client, url, seq, **{"action": "dragon-persons-released", "release": wanted}).status_code == 303
    assert store.read_events(db, url.rsplit("/", 1)[1])[-1].data["persons"] == [[0, 2], [1, 1]]
    missing = post_move(client, url, seq + 1, **{"action": "dragon-persons-released", "release": ["1:tax:young"] * 2})
    assert missing.status_code == 422 and "Palace 2 holds no (further) tax collector" in missing.get_data(as_text=True)
