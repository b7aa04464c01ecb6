"""Han on the web: board profiles (store, editor, export/import), set-up with a pinned
profile, the move form and board view, refusals with their rule."""
import html
import json
import re

import pytest

from events.application import boards
from events.storage import store
from scoring import get_game
from scoring.han.demo import example_profile
from tests.conftest import app_on, become_organiser, post_move

HAN = get_game("han")


@pytest.fixture
def example(app, db):
    return boards.save(db, HAN, "example", example_profile(1))


def test_builtin_profiles_hold_the_known_facts_only(db):
    profiles = {p["id"]: p for p in boards.list_profiles(db, HAN)}
    side1 = profiles["han-side1"]["data"]
    colours = {a["name"]: a["colour"] for a in side1["areas"] if a["name"]}
    assert colours == {"Vej": "red", "Csi": "yellow", "Csin": "yellow", "Lu": "orange", "Csao": "orange",
                       "Csou": "violet", "Su": None}
    assert [a["areas"] for a in side1["alliances"] if None not in a["areas"]] == [["vej", "csin"], ["csin", "su"]]
    assert all(a["sites"] is None for a in side1["areas"])
    assert len(side1["border_sites"]) == 6 and len(side1["harbours"]) == 7
    side2 = profiles["han-side2"]["data"]
    assert all(a["colour"] is None and not a["name"] for a in side2["areas"])
    assert HAN.boards.validate(side1) == [] and HAN.boards.validate(side2) == []


@pytest.mark.parametrize("spoil, words", [
    (lambda d: d["areas"][0].update(colour="violet"), "at most 1"),
    (lambda d: d["alliances"][1].update(areas=["vej", "csin"]), "No two alliances"),
    (lambda d: d["alliances"][0].update(areas=["vej", "vej"]), "two different areas"),
    (lambda d: d["harbours"].pop(), "7 harbours"),
    (lambda d: d["areas"].pop(), "Invalid profile"),
])
def test_the_validator_refuses_contradictions(db, spoil, words):
    data = example_profile(1)
    spoil(data)
    with pytest.raises(boards.BadProfile) as refused:
        boards.save(db, HAN, "bad", data)
    assert any(words in p.en for p in refused.value.problems)


def test_the_editor_saves_a_new_version_with_readable_ids(app, client, db):
    become_organiser(app, client)  # a new version is the organiser's (docs/people.md §10)
    page = client.get("/boards/han/han-side1/")
    assert page.status_code == 200 and b'name="area_6_colour"' in page.data
    form = {f"area_{i}_name": a["name"] for i, a in enumerate(example_profile(1)["areas"])}
    form.update({f"area_{i}_colour": a["colour"] for i, a in enumerate(example_profile(1)["areas"])})
    form.update({"area_7_name": "Han", "alliance_3_a": "vej", "alliance_3_b": "csin",
                 "alliance_1_a": "a8", "alliance_1_b": "vej"})
    saved = client.post("/boards/han/han-side1/", data=form)
    assert saved.status_code == 303
    profile = boards.load(db, HAN, "han-side1")
    assert profile["version"] == 2
    ids = [a["id"] for a in profile["data"]["areas"]]
    assert "han" in ids and profile["data"]["alliances"][0]["areas"] == ["han", "vej"]
    bad = client.post("/boards/han/han-side1/", data={**form, "area_0_colour": "violet"})
    assert bad.status_code == 422 and "Csou" not in bad.data.decode().split("problems")[0]
    assert boards.load(db, HAN, "han-side1")["version"] == 2


def test_export_and_import_round_trip(app, client, db, example):
    become_organiser(app, client)
    exported = client.get("/boards/han/example/1.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    document = exported.get_json()
    assert document["format"] == "tablescribe-board" and document["data"] == example["data"]
    imported = client.post("/boards/han/import", data={"document": json.dumps(document), "profile_id": "copy"})
    assert imported.status_code == 303
    assert boards.load(db, HAN, "copy")["data"] == example["data"]
    refused = client.post("/boards/han/import", data={"document": "{not json"})
    assert refused.status_code == 422
    assert client.get("/boards/scorepad/").status_code == 404


def test_the_set_up_names_each_profile_and_its_version_not_its_inner_id(client):
    page = client.get("/games/new?kind=han").data.decode()
    assert "változat 1" in page and "han-side1 ·" not in page


def _start(client, board: str, names=("Anna", "Béla", "Cili"), **extra):
    page = client.get(f"/games/new?kind=han&board={board}").data.decode()
    value = html.unescape(re.search(r'name="opt_board" value="([^"]+)"[^>]*checked', page).group(1))
    data = {"kind": "han", "name": list(names), "colour": ["red", "blue", "green"][:len(names)],
            "opt_board": value, "opt_start_player": "0", **extra}
    return client.post("/games/new", data=data)


def test_a_new_game_pins_the_profile_in_its_first_event(client, db, example):
    created = _start(client, "example", opt_fortress="1")
    assert created.status_code == 302
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    first = store.read_events(db, game_id)[0]
    assert first.data["options"]["board"] == {"id": "example", "version": 1, "data": example["data"]}
    assert first.data["options"]["fortress"] is True


def test_a_broken_or_missing_profile_is_refused_with_its_rule(client, db):
    bodies = []
    for board in (json.dumps({"id": "x", "version": 1, "data": {"side": 1}}), "nonsense"):
        refused = client.post("/games/new", data={"kind": "han", "name": ["A", "B", "C"],
                                                  "opt_start_player": "0", "opt_board": board})
        assert refused.status_code == 422
        bodies.append(refused.data.decode())
    assert "/rules/han#s6" in bodies[0] and "tábla-profilt" in bodies[1]


SIDE1_COLOURS = {"su": "green", "a8": "green", "a9": "red"}


def _shipped_form(db, names=("Anna", "Béla", "Cili"), **colours):
    shipped = boards.pin(boards.load(db, HAN, "han-side1"))
    return {"kind": "han", "name": list(names), "colour": ["red", "blue", "green"][:len(names)],
            "opt_board": json.dumps(shipped), "opt_start_player": "0",
            **{f"colour_han-side1_{area}": colour for area, colour in colours.items()}}


def test_the_new_game_form_asks_the_missing_colours_of_the_shipped_profiles(client):
    page = client.get("/games/new?kind=han").data.decode()
    assert "disabled" not in page.split('class="han-profiles"')[1].split("</fieldset>")[-1]
    for area in ("su", "a8", "a9"):  # side 1 lacks three colours
        assert f'name="colour_han-side1_{area}"' in page
    assert page.count('name="colour_han-side2_') == 9  # side 2 lacks all nine
    assert re.search(r'name="opt_board" value="[^"]*han-side1[^"]*"[^>]*checked', page)


def test_the_shipped_profile_starts_a_game_in_one_step_saving_its_colours(client, db):
    created = client.post("/games/new", data=_shipped_form(db, **SIDE1_COLOURS))
    assert created.status_code == 302
    saved = boards.load(db, HAN, "han-side1")
    assert saved["version"] == 2
    assert {a["id"]: a["colour"] for a in saved["data"]["areas"]}["a9"] == "red"
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    assert store.read_events(db, game_id)[0].data["options"]["board"] == boards.pin(saved)
    again = client.post("/games/new", data=_shipped_form(db, **SIDE1_COLOURS))
    assert again.status_code == 302 and boards.load(db, HAN, "han-side1")["version"] == 2  # nothing new to save


@pytest.mark.parametrize("colours, words", [
    ({"su": "green", "a8": "green"}, "#9"),                            # one missing: named
    ({"su": "green", "a8": "green", "a9": "green"}, "green: 3 areas"),  # four colours twice, violet once
    ({"su": "green", "a8": "green", "a9": "violet"}, "violet: 2 areas"),
])
def test_a_missing_or_impossible_colour_keeps_what_was_typed(client, db, colours, words):
    refused = client.post("/games/new", data=_shipped_form(db, names=("Zsófi", "Béla", "Cili"), **colours),
                          headers={"Accept-Language": "en"})
    body = html.unescape(refused.data.decode())
    assert refused.status_code == 422 and words in body and "/rules/han#" in body
    assert 'value="Zsófi"' in body                                      # the names typed stay
    assert re.search(r'name="colour_han-side1_su"[^>]*>.*?<option value="green" selected', body, re.S)
    assert boards.load(db, HAN, "han-side1")["version"] == 1            # nothing saved


def test_a_bad_player_count_saves_no_profile_version(client, db):
    refused = client.post("/games/new", data=_shipped_form(db, names=("A", "B"), **SIDE1_COLOURS))
    assert refused.status_code == 422 and boards.load(db, HAN, "han-side1")["version"] == 1


def test_the_api_completes_the_shipped_profile_in_one_step(client, db):
    players = [{"name": n} for n in ("Anna", "Béla", "Cili")]
    missing = client.post("/api/games", json={"kind": "han", "players": players,
                                              "options": {"board": {"id": "han-side1", "colours": {"su": "green"}}}})
    assert missing.status_code == 422
    problems = " ".join(p["en"] for p in missing.get_json()["problems"])
    assert "#8" in problems and "#9" in problems and "Su" not in problems and "a8" not in problems  # one name
    created = client.post("/api/games", json={"kind": "han", "players": players,
                                              "options": {"board": {"id": "han-side1", "colours": SIDE1_COLOURS}}})
    assert created.status_code == 201
    first = store.read_events(db, created.get_json()["id"])[0]
    assert first.data["options"]["board"]["version"] == 2
    assert all(a["colour"] for a in first.data["options"]["board"]["data"]["areas"])
    for board in ({"id": "no-such"}, {"id": "han-side1", "colours": ["green"]}, {"id": "../x", "colours": {}}):
        refused = client.post("/api/games", json={"kind": "han", "players": players, "options": {"board": board}})
        assert refused.status_code == 422, board


def test_table_page_move_form_board_view_and_a_refused_move(client, example):
    location = _start(client, "example").headers["Location"]
    page = client.get(location).data.decode()
    assert 'name="card1"' in page and 'value="pieces-placed"' in page and 'class="han-grid"' in page
    assert "games/han.css" in page
    move = {"action": "pieces-placed", "seat": "0", "area": "vej", "card1": "red", "piece1": "pagoda",
            "site1": "ordinary", "piece2": "", "expected_seq": "1", "client_event_id": "m1"}
    assert client.post(location + "/moves", data=move).status_code == 303
    page = client.get(location).data.decode()
    assert re.search(r'class="han-area han-red changed"[^>]*data-area="vej"', page)
    again = client.post(location + "/moves", data={**move, "expected_seq": "2", "client_event_id": "m2"})
    assert again.status_code == 422
    assert "/rules/han#s2-1" in again.data.decode()
    envoy = {**move, "seat": "1", "area": "csi", "card1": "yellow", "piece1": "envoy", "expected_seq": "2",
             "client_event_id": "m3"}
    refused = client.post(location + "/moves", data=envoy)
    assert refused.status_code == 422 and "/rules/han#s2-5" in refused.data.decode()
    garbage = client.post(location + "/moves", data={"action": "pieces-placed", "seat": "zz", "expected_seq": "2"})
    assert garbage.status_code == 422


def test_the_board_marks_what_the_last_move_changed_as_the_log_now_stands(client, example):
    """The marks are derived from the log when the page renders (not kept in the state): a
    card exchange after the move marks nothing, and once it is undone the move is the last again."""
    location = _start(client, "example").headers["Location"]
    move = {"action": "pieces-placed", "seat": "0", "area": "vej", "card1": "red", "piece1": "pagoda",
            "site1": "ordinary", "piece2": ""}
    assert post_move(client, location, 1, **move).status_code == 303
    assert post_move(client, location, 2, action="card-exchanged", seat="1").status_code == 303
    assert " changed" not in client.get(location).data.decode()
    assert client.post(location + "/undo", data={"expected_seq": "3", "client_event_id": "u"}).status_code == 303
    page = client.get(location).data.decode()
    assert re.findall(r'class="han-area han-\w+ changed"[^>]*data-area="(\w+)"', page) == ["vej"]


def _editor_form(data: dict) -> dict:
    form = {"name_hu": data["name"]["hu"], "name_en": data["name"]["en"], "source": data["source"]}
    for i, a in enumerate(data["areas"]):
        form.update({f"area_{i}_name": a["name"], f"area_{i}_colour": a["colour"] or "",
                     f"area_{i}_sites": a["sites"] or ""})
    for i, b in enumerate(data["border_sites"]):
        form.update({f"border_{i}_a": b["areas"][0] or "", f"border_{i}_b": b["areas"][1] or ""})
    form.update({f"harbour_{i}": h["area"] or "" for i, h in enumerate(data["harbours"])})
    for a in data["alliances"]:
        form.update({f"alliance_{a['n']}_a": a["areas"][0] or "", f"alliance_{a['n']}_b": a["areas"][1] or ""})
    return form


def test_the_editor_keeps_every_fact_and_adds_a_road_network(app, client, db, example):
    become_organiser(app, client)
    form = _editor_form(example["data"])
    assert client.post("/boards/han/example/", data=form).status_code == 303
    assert boards.load(db, HAN, "example")["data"] == {**example["data"], "roads": None}
    roads = client.post("/boards/han/example/", data={**form, "roads": "vej-1 vej-2 b1\nsu-1, su-2"})
    assert roads.status_code == 303
    assert boards.load(db, HAN, "example")["data"]["roads"] == [["vej-1", "vej-2", "b1"], ["su-1", "su-2"]]
    bad = client.post("/boards/han/example/", data={**form, "roads": "vej-1 atlantis"})
    assert bad.status_code == 422 and "atlantis" in bad.data.decode()


def test_final_tally_alliances_and_chains_through_the_forms(client, db):
    data = example_profile(1)
    data["alliances"][0]["areas"] = [None, None]          # alliance 1 asked at the end
    boards.save(db, HAN, "partial", data)
    location = _start(client, "partial", opt_fortress="1").headers["Location"]
    page = client.get(location).data.decode()
    assert 'name="p_vej_0"' in page and 'value="final-position-entered"' in page
    tally = {f"{k}_{a['id']}_{s}": "0" for a in data["areas"] for s in range(3) for k in ("p", "e")}
    tally.update({"p_vej_0": "3", "p_vej_1": "1", "p_csi_0": "1", "e_vej_1": "2", "p_su_1": "2", "e_su_1": "1",
                  "p_lu_2": "2", "harbour_2": "2", "fort_0": "vej", "fort_site_0": "ordinary"})
    assert post_move(client, location, 1, action="final-position-entered", **tally).status_code == 303
    page = client.get(location).data.decode()
    assert 'value="alliances-entered:1:vej:su"' in page and "👑" in page and 'data-testid="chains"' in page
    assert post_move(client, location, 2, action="alliances-entered:1:vej:su").status_code == 303
    refused = post_move(client, location, 3, action="road-chains-entered", chain_seat_0="2", chain_len_0="3")
    assert refused.status_code == 422 and "/rules/han#s3-6" in refused.data.decode()
    assert post_move(client, location, 3, action="road-chains-entered", chain_seat_0="0", chain_len_0="4",
                 chain_fort_0="1").status_code == 303
    from events.application.table import load
    table = load(db, location.rsplit("/", 1)[1])
    assert table.rules.is_over(table.game)
    from events.domain.projection import standings
    sheet = {row["seat"]: {(p["category"], p["label"]["en"]): p["points"] for p in row["parts"]}
             for row in standings(table)}  # the parts as the final sheet names them
    parts = sheet[0]
    # Vej 3/1: Anna 4, doubled by her fortress; her fortified chain of 4 doubled too.
    assert parts[("provinces", "Province Vej (fortress: ×2)")] == 8
    assert parts[("roads", "Road: chain of 4 pagodas (fortress: ×2)")] == 8
    assert sheet[1][("alliances", "Alliance 1 (Vej–Su)")] == 3               # envoys 2 + 1, majority in both
    assert "A játék véget ért" in client.get(location).data.decode()


def test_a_point_card_is_announced_on_the_board(client, db, example):
    location = _start(client, "example").headers["Location"]
    tally = {f"p_{a['id']}_0": "2" for a in example["data"]["areas"]}
    tally.update({f"p_{a['id']}_1": "1" for a in example["data"]["areas"]})
    tally.update({f"e_{a['id']}_0": "1" for a in example["data"]["areas"][:8]})
    tally.update(p_vej_0="4", p_csi_1="0")   # Csi has 2 sites, Vej 5; provinces: 7×3 + 2 + 5 = 28,
    # 11 alliances of 2: 22 -> 50
    assert post_move(client, location, 1, action="final-position-entered", **tally).status_code == 303
    page = client.get(location).data.decode()
    assert 'data-testid="score-0">50<' in page
    assert "han-pointcard" in page and "vegyél egy pontkártyát (50)" in page


def test_the_end_position_form_is_inline_on_an_empty_board_and_a_link_once_pieces_are_down(client, example):
    location = _start(client, "example").headers["Location"]
    assert 'name="p_vej_0"' in client.get(location).data.decode()   # nothing recorded yet
    move = {"action": "pieces-placed", "seat": "0", "area": "vej", "card1": "red", "piece1": "pagoda",
            "site1": "ordinary", "piece2": "", "expected_seq": "1", "client_event_id": "m1"}
    fragment = client.post(location + "/moves", data=move, headers={"HX-Request": "true"}).data.decode()
    assert 'name="p_vej_0"' not in fragment and 'data-testid="han-tally-link"' in fragment
    link = html.unescape(re.search(r'href="([^"]+)" data-testid="han-tally-link"', fragment).group(1))
    opened = client.get(link).data.decode()
    assert 'name="p_vej_0"' in opened and re.search(r'<details id="han-tally" class="[^"]*" open>', opened)
    tally = {f"{k}_{a}_{s}": "0" for a in ("vej", "csi") for s in range(3) for k in ("p", "e")}
    refused = client.post(location + "/moves", data={"action": "final-position-entered", "expected_seq": "2",
                                                     "client_event_id": "t1", **tally, "p_vej_0": "99"})
    assert refused.status_code == 422 and 'name="p_vej_0"' in refused.data.decode()  # kept open with the error


def test_the_end_position_columns_say_which_is_pagodas_and_which_envoys(client, example):
    location = _start(client, "example").headers["Location"]
    page = client.get(location + "?lang=en").data.decode()
    vej = page[page.index('<legend><span class="han-chip'):page.index('name="p_vej_0"')]
    assert re.search(r'class="tally-row tally-head".*<small>pagodas</small><small>envoys</small>', vej)
    assert page.index('name="p_vej_0"') < page.index('name="e_vej_0"')  # the columns' order


JUNK_BOARDS = [
    json.dumps({"id": "han-side1", "data": {"areas": [{"id": 5, "colour": None}, "x", None]}}),
    json.dumps({"id": "han-side1", "data": {"areas": [{"id": "su", "colour": None}]}}),
    json.dumps({"id": "../../etc", "data": {"areas": [{"id": "a", "colour": None}]}}),
    json.dumps({"id": "han-side1" * 30, "data": {"areas": [{"id": "a", "colour": None}]}}),
    json.dumps({"id": ["han-side1"], "data": {}}), "\x00\xff{", "[]", "1e999",
]


def test_junk_in_the_board_completion_is_a_422_with_csrf_on_and_nothing_is_stored(tmp_path):
    """The new-game form with its CSRF token: any bytes in the chosen profile or the colour
    fields answer 422 (400 for a NUL) with a reason, never a 500, and no game or profile version is stored."""
    from tests.conftest import csrf_of
    app = app_on(str(tmp_path / "csrf.db"), WTF_CSRF_ENABLED=True)
    phone = app.test_client()
    token = csrf_of(phone.get("/games/new?kind=han").data.decode())
    for board in JUNK_BOARDS:
        for colour in ("green", "", "\x00", "green" * 1000, "violet"):
            answer = phone.post("/games/new", data={
                "csrf_token": token, "kind": "han", "name": ["A", "B", "C"], "opt_start_player": "0",
                "opt_board": board, "colour_han-side1_su": colour, "colour_han-side1_a8": colour,
                "colour_han-side1_a9": colour, "colour_han-side1_5": colour})
            # a NUL anywhere in a request is refused before the form is read (400, saying
            # why: docs/reliability.md); every other junk is the form's 422 with its reasons
            has_nul = "\x00" in board + colour
            assert answer.status_code == (400 if has_nul else 422), (board, colour, answer.status_code)
            assert (b"NUL" if has_nul else b'class="problems') in answer.data
    db = store.connect(app.config["DATABASE"])
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
    assert boards.load(db, HAN, "han-side1")["version"] == 1
    db.conn.close()


def test_the_full_province_choice_starts_empty_and_an_empty_choice_is_refused(client, db):
    data = example_profile(1)
    data["areas"][5]["sites"] = None                          # Csou: the table says when it is full
    boards.save(db, HAN, "unknown-csou", data)
    location = _start(client, "unknown-csou").headers["Location"]
    move = {"action": "pieces-placed", "seat": "0", "area": "csou", "card1": "violet", "piece1": "pagoda",
            "site1": "ordinary", "piece2": "", "expected_seq": "1", "client_event_id": "m1"}
    assert client.post(location + "/moves", data=move).status_code == 303
    page = client.get(location).data.decode()
    select = re.search(r'<select name="score_area"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert select.startswith('<option value="">') and "selected" not in select and 'value="csou"' in select
    empty = client.post(location + "/moves", data={"action": "province-scored", "score_area": "",
                                                   "expected_seq": "2", "client_event_id": "m2"})
    assert empty.status_code == 422 and "/rules/han#s3-2" in empty.data.decode()


def test_with_a_road_network_the_site_choice_starts_empty(client, db):
    data = example_profile(1)
    data["roads"] = [["vej-1", "vej-2", "b1"]]
    boards.save(db, HAN, "roads", data)
    page = client.get(_start(client, "roads").headers["Location"]).data.decode()
    select = re.search(r'<select name="site1">(.*?)</select>', page, re.S).group(1).strip()
    assert select.startswith('<option value="">') and "selected" not in select and 'value="at:vej-1"' in select


def _tally_zero(data: dict, players: int = 3) -> dict:
    return {f"{k}_{a['id']}_{s}": "0" for a in data["areas"] for s in range(players) for k in ("p", "e")}


# Thirteen pairs the shipped side 1 lacks (3 = Vej–Csin and 4 = Csin–Su are printed)
SIDE1_ALLIANCES = {1: ("vej", "csi"), 2: ("csi", "lu"), 5: ("su", "a8"), 6: ("a8", "a9"), 7: ("a9", "csou"),
                   8: ("csou", "csao"), 9: ("csao", "lu"), 10: ("lu", "vej"), 11: ("csi", "csin"),
                   12: ("su", "a9"), 13: ("csou", "vej"), 14: ("a8", "csao"), 15: ("csin", "lu")}


def test_alliances_a_table_enters_are_saved_in_the_profile_and_the_next_game_asks_none(client, db):
    """Issue 26 item 6: the shipped board's 13 unknown alliances were asked at the final
    scoring of every game. Entered once, they are saved as the profile's next version (a new
    version, never a change), and the next game on the same board asks none."""
    first = client.post("/games/new", data=_shipped_form(db, **SIDE1_COLOURS)).headers["Location"]
    assert boards.load(db, HAN, "han-side1")["version"] == 2                   # the colours
    profile = boards.load(db, HAN, "han-side1")["data"]
    assert post_move(client, first, 1, action="final-position-entered", **_tally_zero(profile)).status_code == 303
    page = client.get(first).data.decode()
    assert page.count('value="alliances-entered:1:') == 34                     # 36 pairs of 9, 2 joined already
    order = [a["id"] for a in profile["areas"]]                                # a pair's button: in the board's order
    for seq, (n, pair) in enumerate(SIDE1_ALLIANCES.items(), start=2):         # one tap each (issue 39)
        tile = "alliances-entered:{}:{}:{}".format(n, *sorted(pair, key=order.index))
        assert f'value="{tile}"' in client.get(first).data.decode()
        assert post_move(client, first, seq, action=tile).status_code == 303
    saved = boards.load(db, HAN, "han-side1")
    assert saved["version"] == 15 and boards.load(db, HAN, "han-side1", 2)["data"] == profile  # v2 kept as it was
    assert {a["n"]: frozenset(a["areas"]) for a in saved["data"]["alliances"]} == {
        n: frozenset(pair) for n, pair in {**SIDE1_ALLIANCES, 3: ("vej", "csin"), 4: ("csin", "su")}.items()}
    game_id = first.rsplit("/", 1)[1]
    assert store.read_events(db, game_id)[0].data["options"]["board"]["version"] == 2  # the game keeps its pin

    second = client.post("/games/new", data=_shipped_form(db)).headers["Location"]  # no colour asked either
    assert store.read_events(db, second.rsplit("/", 1)[1])[0].data["options"]["board"]["version"] == 15
    assert post_move(client, second, 1, action="final-position-entered", **_tally_zero(saved["data"])).status_code == 303
    page = client.get(second).data.decode()
    assert 'alliances-entered' not in page and 'data-testid="chains"' in page   # only the road chains are asked
    assert boards.load(db, HAN, "han-side1")["version"] == 15


def test_alliances_the_profile_got_meanwhile_are_kept_not_overwritten():
    from scoring.han import boards as han_boards
    data = han_boards.BUILTIN[0]["data"]
    state = {"entered_alliances": {"1": ["vej", "csi"], "2": ["vej", "csin"], "5": ["nowhere", "su"]}}
    learned = han_boards.learn(data, state)
    pairs = {a["n"]: a["areas"] for a in learned["alliances"]}
    assert pairs[1] == ["vej", "csi"]                 # new: taken
    assert pairs[2] == [None, None]                   # alliance 3 already joins Vej and Csin
    assert pairs[5] == [None, None]                   # no such province in this profile
    assert han_boards.learn(learned, state) is None   # nothing new: no version
    assert han_boards.validate(learned) == []


def test_an_unnamed_province_has_one_name_at_set_up_on_the_board_and_in_the_log(client, db):
    """Issue 26 item 6: "#8" at set-up, "a8" on the board."""
    setup = client.get("/games/new?kind=han").data.decode()
    assert ">#8" in setup.split('name="colour_han-side1_a8"')[0].rsplit("<label", 1)[1]
    location = client.post("/games/new", data=_shipped_form(db, **SIDE1_COLOURS)).headers["Location"]
    page = client.get(location).data.decode()
    board = page.split('data-area="a8"')[1].split("</h3>")[0]
    assert "#8" in board and "a8" not in board
    assert ">a8<" not in page and ">A8<" not in page


def test_the_profile_learns_the_alliances_through_the_api_on_both_engines(database):
    app = app_on(database)
    api, db = app.test_client(), store.connect(database)
    created = api.post("/api/games", json={"kind": "han", "players": [{"name": n} for n in ("A", "B", "C")],
                                           "options": {"board": {"id": "han-side1", "colours": SIDE1_COLOURS}}}).json
    token = {"X-Seat-Token": created["seats"][0]["token"]}
    areas = ("vej", "csi", "csin", "lu", "csao", "csou", "su", "a8", "a9")
    tally = {"areas": {a: {"pagodas": [0] * 3, "envoys": [0] * 3} for a in areas},
             "harbours": [0] * 3, "border_pagodas": [0] * 3, "fortresses": []}
    entered = [{"n": n, "areas": list(pair)} for n, pair in SIDE1_ALLIANCES.items()]
    for seq, (type_, data) in enumerate((("final-position-entered", tally),
                                         ("alliances-entered", {"alliances": entered})), start=1):
        answer = api.post(f"/api/games/{created['id']}/events", headers=token, json={
            "type": type_, "data": data, "expected_seq": seq, "client_event_id": f"c{seq}"})
        assert answer.status_code == 201, answer.json
    saved = boards.load(db, HAN, "han-side1")
    assert saved["version"] == 3 and all(None not in a["areas"] for a in saved["data"]["alliances"])
    db.conn.close()


def test_the_missing_alliances_may_be_entered_before_the_final_scoring(client, db):
    """Issue 26 item 6, "whenever they are entered": one link away while the game is played
    (was: refused, "this is entered at the final scoring"), and kept by the profile at once."""
    location = client.post("/games/new", data=_shipped_form(db, **SIDE1_COLOURS)).headers["Location"]
    page = client.get(location).data.decode()
    assert 'data-testid="han-alliances-link"' in page and 'alliances-entered:' not in page   # the tap's form stays small
    assert 'value="alliances-entered:1:vej:csi"' in client.get(location + "?alliances=1").data.decode()
    assert post_move(client, location, 1, action="alliances-entered:1:vej:csi").status_code == 303
    saved = boards.load(db, HAN, "han-side1")
    assert saved["version"] == 3 and saved["data"]["alliances"][0]["areas"] == ["vej", "csi"]
    page = client.get(location + "?alliances=1").data.decode()
    assert 'alliances-entered:1:' not in page and 'value="alliances-entered:2:' in page  # 12 left to ask
    assert 'alliances-entered:2:vej:csi"' not in page and 'alliances-entered:2:vej:csin"' not in page  # no pair twice
    assert f'action="{location}/moves?alliances=1"' in page                              # the list stays open ...
    answer = client.post(f"{location}/moves?alliances=1", data={"expected_seq": "2", "client_event_id": "c2",
                                                                 "action": "alliances-entered:2:vej:lu"})
    assert answer.status_code == 303 and "alliances=1" in answer.headers["Location"]    # ... after a tap without JS
    assert 'value="alliances-entered:5:' in client.get(answer.headers["Location"]).data.decode()
