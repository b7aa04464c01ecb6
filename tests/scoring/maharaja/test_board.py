"""Maharaja's optional city-board profile: the editor, pinning at set-up, names on
the board and travel checked against the roads (docs/rules/maharaja.md §6)."""
import json

import pytest
import re

from scoring.maharaja import GAME as M
from scoring.base import FormError
from scoring.maharaja import boards as B
from scoring.maharaja import apply as A, data as D, score as S
from tests.conftest import become_organiser
from tests.scoring.maharaja.table import refused, started, step

ROADS = [{"ends": ["S", "A"], "villages": [1]}, {"ends": ["A", "B"], "villages": [5, 6]},
         {"ends": ["S", "C"], "villages": [2]}]


def _pinned(roads=ROADS):
    data = B.blank()
    data["cities"][0]["name"] = "Ahmadabad"
    data["roads"] = roads
    return {"id": "test", "version": 1, "data": data}


def test_route_follows_the_roads_through_cities_and_only_entered_villages():
    assert B.route_ok(ROADS, None, "B", [1, 5, 6])          # start → A → B
    assert not B.route_ok(ROADS, None, "B", [1, 5])         # village 6 not passed: no road
    assert not B.route_ok(ROADS, "C", "A", [1])             # C → start needs village 2
    assert B.route_ok(ROADS, "C", "A", [2, 1])


def test_with_the_roads_known_travel_must_follow_them():
    s = started([D.MOGUL, D.TRADER], board=_pinned())
    assert s["roads"] == _pinned()["data"]["roads"] and B.place_names({"board": _pinned()})["A"] == "Ahmadabad"
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    assert refused(s, "architect-travelled", {"city": "B", "via": ["v1"]}) == ["docs/rules/maharaja.md §17"]
    assert step(s, "architect-travelled", {"city": "A", "via": ["v1"]})["architects"][0] == "A"


def test_without_roads_any_journey_through_houses_is_taken_on_trust():
    s = step(started([D.MOGUL, D.TRADER], board=_pinned(roads=[])), "actions-revealed",
             {"seat": 0, "actions": ["gold", "gold"]})
    assert step(s, "architect-travelled", {"city": "G", "via": ["v5"]})["architects"][0] == "G"


def test_profiles_are_validated():
    data = B.blank()
    data["roads"] = [{"ends": ["A", "A"], "villages": [1]}, {"ends": ["A", "B"], "villages": [1]}]
    assert {p.en for p in B.validate(data)} == {"A road joins two different places.",
                                                "Each village lies on one road only."}
    assert M.check_setup([{"name": "a"}] * 2, {"board": {"id": "x", "version": 1, "data": {"roads": 3}}})


def test_editor_saves_roads_and_a_new_game_pins_the_profile(app, client):
    client.set_cookie("lang", "en")
    become_organiser(app, client)  # a new version is the organiser's (docs/people.md §10)
    assert b"Maharaja board" in client.get("/boards/maharaja/").data
    form = {"name_hu": "Tábla", "name_en": "Our board", "roads": "S-A: 1\nA-B: 5, 6\n",
            **{f"city_{c}_name": "" for c in D.CITIES}, "city_A_name": "Ahmadabad"}
    saved = client.post("/boards/maharaja/maharaja/", data=form)
    assert saved.status_code == 303
    bad = client.post("/boards/maharaja/maharaja/", data={**form, "roads": "A to B"})
    assert bad.status_code == 422 and b"Line 1" in bad.data
    setup_page = client.get("/games/new?kind=maharaja&board=maharaja").data.decode()
    pinned = re.search(r'name="opt_board" value="([^"]+)" checked', setup_page).group(1)
    profile = json.loads(pinned.replace("&#34;", '"').replace("&quot;", '"'))
    assert profile["version"] == 2 and profile["data"]["roads"][1]["villages"] == [5, 6]
    created = client.post("/games/new", data={"kind": "maharaja", "name": ["Anna", "Béla"],
                                               "colour": ["red", "blue"], "opt_board": json.dumps(profile)})
    assert created.status_code == 302
    assert "Ahmadabad" in client.get(created.headers["Location"]).data.decode()


def test_a_broken_pinned_profile_is_refused_at_set_up(client):
    response = client.post("/games/new", data={"kind": "maharaja", "name": ["Anna", "Béla"],
                                                "opt_board": "{not json"})
    assert response.status_code == 422


def test_with_roads_the_form_finds_the_cheapest_open_way():
    roads = ROADS + [{"ends": ["S", "B"], "villages": [9]}]
    s = started([D.MOGUL, D.TRADER], board=_pinned(roads))   # seat 0 owns v1-v4, seat 1 v5-v8
    s = step(s, "actions-revealed", {"seat": 0, "actions": ["gold", "gold"]})
    # To B: S-A-B costs 2 (v5, v6 are seat 1's), S-B is closed (v9 has no house).
    assert M.parse_form(s, {"action": "architect-travelled", "travel_city": "B"}) == \
        ("architect-travelled", {"city": "B", "via": ["v1", "v5", "v6"]})
    s["villages"][8] = [0]                                  # now v9 holds seat 0's own house: free
    assert M.parse_form(s, {"action": "architect-travelled", "travel_city": "B"})[1]["via"] == ["v9"]
    s["villages"][0] = s["villages"][8] = []                # S-A and S-B closed: no way to A
    with pytest.raises(FormError):
        M.parse_form(s, {"action": "architect-travelled", "travel_city": "A"})


def test_the_table_names_villages_once_and_the_board_form_and_log_show_the_names(client):
    """Issue 17 item 8: villages can be named in the profile, as cities can (§17)."""
    data = B.from_form(B.blank(), {"villages": "5: by the river\n12. mill", "roads": ""})
    assert data["villages"] == [{"number": 5, "name": "by the river"}, {"number": 12, "name": "mill"}]
    assert B.validate(data) == []
    with pytest.raises(FormError):
        B.from_form(B.blank(), {"villages": "31: nowhere"})
    pinned = {"id": "t", "version": 1, "data": data}
    s = started([D.MOGUL, D.TRADER], board=pinned)
    assert "by the river" not in str(s)  # the names are the set-up's, read by the presentation
    from scoring.maharaja.view import view
    shown = view(s, [{"name": "Anna"}, {"name": "Béla"}], options={"board": pinned})["villages"]
    assert shown[4]["name"] == "by the river" and shown[11]["number"] == 12
    from scoring.base import Move
    line = M.describe(Move(30, "house-built", {"place": "v5"}), [{"name": "Anna"}], s, {"board": pinned})
    assert line["en"] == "House – village 5 (by the river)"
