"""Han: ends the table can trust (the expected draw pile, a confirmed end), refusals
that cite the right rule and say what they mean, and the lone-fortress decision
(issue 15, items 4-6, 10, 11; docs/rules/han.md §2.5, §4.1, §4.2)."""
from events.domain.event import Event
from events.domain.projection import fold, standings
from scoring.base import Move
from scoring.han import GAME
from scoring.han.demo import example_profile, pinned
from tests.scoring.han.table import ANITA, EVA, JENO, PLAYERS, E, F, P, new, problems, put, rules_of


def _out(confirmed=None, seq=50):
    return Move(seq, "draw-pile-ran-out", {} if confirmed is None else {"confirmed": confirmed})


def _ended(seq=60, **data):
    return Move(seq, "game-ended", data)


def _drawn(state, cards):
    """The state after ``cards`` more cards were drawn (apply never validates)."""
    for i in range(cards):
        state = GAME.apply(state, Move(100 + i, "card-exchanged", {"seat": state["next"]["seat"]}))
    return state


def test_a_run_out_far_from_the_expected_pile_needs_a_confirmation():
    s = new(players=3)                       # side 1, 3 players: 57 - 10 - 9 - 4 = 34 cards expected
    refused = GAME.check(s, _out())
    assert rules_of(refused) == ["docs/rules/han.md §4.1"]
    assert "34" in refused[0].en and "34" in refused[0].hu and "confirm" in refused[0].en
    assert GAME.check(s, _out(confirmed=True)) == []
    near = _drawn(s, 31)                     # 3 cards expected: one turn's draw away
    assert GAME.check(near, _out()) == []


def test_a_second_run_out_with_no_card_drawn_between_is_refused_even_confirmed():
    s = GAME.apply(_drawn(new(players=3), 34), _out())
    again = GAME.check(s, _out(confirmed=True, seq=51))
    assert rules_of(again) == ["docs/rules/han.md §4.1"] and "#50" in again[0].en
    later = _drawn(s, 1)                     # a card drawn: the reshuffled pile of 34 discards, 33 left
    assert GAME.check(later, _out(confirmed=True, seq=52)) == []
    assert "33" in GAME.check(later, _out(seq=52))[0].en


def test_game_ended_needs_nobody_able_to_place_or_a_confirmed_reason():
    s = put(new(players=3), JENO, ["red"], P("vej"))
    refused = [p.naming(PLAYERS) for p in GAME.check(s, _ended())]  # as the recorder names them
    assert rules_of(refused) == ["docs/rules/han.md §4.2"]
    assert "Jenő" in refused[0].en and "Anita" in refused[0].en
    assert rules_of(GAME.check(s, _ended(confirmed=True, reason=" "))) == ["docs/rules/han.md §4.2"]
    assert GAME.check(s, _ended(confirmed=True, reason="the box must go home")) == []
    full = {**s, "scored": {a["id"]: 2 for a in s["areas"]}}   # every province full and scored
    assert "(envoy)" in GAME.check(full, _ended())[0].en        # Jenő's pagoda in Vej still has envoy room
    full["pieces"] = full["pieces"] + [{**full["pieces"][0], "type": "envoy", "site": None, "seq": 3}]
    assert GAME.check(full, _ended()) == []                      # nobody can place: no confirmation needed


def test_old_run_outs_and_ends_upcast_as_confirmed_so_recorded_games_replay():
    out, end = GAME.event_types["draw-pile-ran-out"], GAME.event_types["game-ended"]
    assert out.version == 2 and end.version == 2
    assert out.upcasters[1]({}) == {"confirmed": True}
    upcast = end.upcasters[1]({})
    assert upcast["confirmed"] is True and upcast["reason"].strip()
    s = new(players=3)
    assert GAME.check(s, Move(5, "draw-pile-ran-out", out.upcasters[1]({}))) == []
    assert GAME.check(s, Move(5, "game-ended", upcast)) == []


def test_side_2_harbours_cite_the_harbour_rule_in_the_move_and_the_end_position():
    s = new(players=3, side=2)
    assert rules_of(problems(s, JENO, ["violet"], P("d1", "harbour"))) == ["docs/rules/han.md §2.8"]
    assert rules_of(problems(s, JENO, ["violet", "yellow"], P("d1", "border", **{"with": "d2"})))[0] == \
        "docs/rules/han.md §2.7"
    tally = {"areas": {a["id"]: {"pagodas": [0, 0, 0], "envoys": [0, 0, 0]} for a in s["areas"]},
             "harbours": [1, 0, 0], "border_pagodas": [0, 0, 0], "fortresses": []}
    tally["areas"]["d1"]["pagodas"] = [1, 0, 0]
    found = GAME.check(s, Move(9, "final-position-entered", tally))
    assert rules_of(found) == ["docs/rules/han.md §2.8"] and "harbour" in found[0].en
    fortified = new(players=3, side=2, fortress=True)
    tally.update(harbours=[0, 0, 0], fortresses=[{"seat": 0, "area": "d1", "site": "harbour"}])
    found = GAME.check(fortified, Move(9, "final-position-entered", tally))
    assert rules_of(found) == ["docs/rules/han.md §2.8"] and "harbour" in found[0].en


def test_the_joker_refusal_says_a_pair_stands_for_a_card_of_a_different_colour():
    s = put(new(), ANITA, ["red"], P("vej"))
    found = problems(s, JENO, ["red", "red"], P("vej"))   # a pair of the province's own colour
    assert rules_of(found) == ["docs/rules/han.md §2.3–2.4"]
    named = found[0].naming([], {"vej": "Vej"})  # the rules name the province by id, the table's board names it
    assert "different" in named.en and "red" in named.en and "Vej" in named.en
    assert "más" in found[0].hu and "vörös" in found[0].hu


def test_a_lone_fortress_leaves_a_province_empty_one_piece_there():
    s = put(new(fortress=True), JENO, ["yellow"], F("csi"))
    found = problems(s, ANITA, ["yellow", "yellow"], P("csi", "fortress"), P("csi"))
    assert rules_of(found) == ["docs/rules/han.md §2.5"] and "fortress" in found[0].en
    assert problems(s, ANITA, ["yellow"], P("csi", "fortress")) == []
    assert rules_of(problems(s, ANITA, ["yellow"], E("csi")))[0] == "docs/rules/han.md §2.5"


def test_games_pinned_to_rules_version_1_keep_counting_a_lone_fortress_so_a_void_flags_nothing():
    from scoring import RETIRED
    profile = pinned(example_profile(1))
    players = [{"name": n, "colour": ""} for n in ("Jenő", "Anita", "Éva")]
    options = {**GAME.default_options(), "board": profile, "fortress": True}
    created = Event(1, "game-created", 1, {"kind": "han", "rules_version": 1, "players": players,
                                           "options": options}, None, "dev", "t", "c1", "h")
    slip = Event(2, "draw-pile-ran-out", 2, {"confirmed": True}, JENO, "dev", "t", "c2", "h")
    moves = [({"seat": JENO, "cards": ["yellow"], "pieces": [F("csi")]}, JENO),
             ({"seat": ANITA, "cards": ["yellow", "yellow"], "pieces": [P("csi", "fortress"), P("csi")]}, ANITA)]
    events = [created, slip] + [Event(3 + i, "pieces-placed", 1, d, seat, "dev", "t", f"c{3 + i}", "h")
                                for i, (d, seat) in enumerate(moves)]
    voided = Event(5, "event-voided", 1, {"target": 2, "reason": "tapped by mistake"}, EVA, "dev", "t", "c5", "h")
    table = fold(events + [voided])                  # every move after #2 is checked again
    assert table.rules is RETIRED[("han", 1)] and table.game["rules_version"] == 1
    assert table.flagged == {}                       # Anita's two pieces beside the lone fortress stand
    assert len(table.game["pieces"]) == 3
    assert new(fortress=True)["rules_version"] == 2 == GAME.rules_version   # new games read §2.5 as version 2


def test_a_turn_refusal_names_who_is_asked_and_whose_turn_it_is():
    s = new(start_player=EVA)
    found = [p.naming(PLAYERS) for p in GAME.check(s, Move(2, "card-exchanged", {"seat": JENO}))]
    assert rules_of(found) == ["docs/rules/han.md §2.1"]
    assert "Jenő" in found[0].en and "Éva" in found[0].en and "Éva" in found[0].hu


def test_a_move_flagged_after_a_void_names_the_players_of_the_table():
    players = [{"name": n, "colour": ""} for n in ("Jenő", "Anita", "Éva")]
    options = {**GAME.default_options(), "board": pinned(example_profile(1))}
    created = Event(1, "game-created", 1, {"kind": "han", "rules_version": 2, "players": players,
                                           "options": options}, None, "dev", "t", "c1", "h")
    swaps = [Event(2 + seat, "card-exchanged", 1, {"seat": seat}, seat, "dev", "t", f"c{2 + seat}", "h")
             for seat in (JENO, ANITA)]
    voided = Event(4, "event-voided", 1, {"target": 2, "reason": "not Jenő"}, EVA, "dev", "t", "c4", "h")
    flagged = fold([created, *swaps, voided]).flagged       # Anita's swap now comes on Jenő's turn
    assert flagged[3][0]["en"] == "It is not Anita's turn: it is Jenő's (clockwise from the start player)."


def test_during_play_equal_scores_share_a_rank_the_tiebreak_waits_for_the_end():
    profile = pinned(example_profile(1))
    players = [{"name": n, "colour": ""} for n in ("A", "B", "C")]
    created = Event(1, "game-created", 1, {"kind": "han", "rules_version": 1, "players": players,
                                           "options": {**GAME.default_options(), "board": profile}},
                    None, "dev", "t", "c1", "h")
    placed = Event(2, "pieces-placed", 1, {"seat": 0, "cards": ["yellow"], "pieces": [P("csi")]},
                   0, "dev", "t", "c2", "h")       # A has one piece fewer in supply than B and C
    rows = standings(fold([created, placed]))
    assert [r["rank"] for r in rows] == [1, 1, 1]


def test_every_form_refusal_cites_its_rule_not_an_internal_tag():
    import pytest
    from scoring.base import FormError
    s = new(players=3)
    bad_forms = [
        {"action": "nonsense"},
        {"action": "pieces-placed", "area": ""},
        {"action": "pieces-placed", "area": "vej", "card1": "blue"},
        {"action": "pieces-placed", "area": "vej"},
        {"action": "pieces-placed", "area": "vej", "card1": "red", "piece1": "dragon"},
        {"action": "pieces-placed", "area": "vej", "card1": "red", "piece1": "pagoda", "site1": "moon"},
        {"action": "pieces-placed", "area": "vej", "card1": "red"},
        {"action": "pieces-placed", "seat": "9", "area": "vej", "card1": "red", "piece1": "pagoda"},
        {"action": "card-exchanged", "seat": "x"},
        {"action": "road-chains-entered", "chain_len_0": "4", "chain_seat_0": "x"},
        {"action": "final-position-entered", "p_vej_0": "999"},
    ]
    for form in bad_forms:
        with pytest.raises(FormError) as refused:
            GAME.parse_form(s, form)
        assert all(p.rule.startswith("docs/rules/han.md §") for p in refused.value.problems), (form, refused.value.problems)
    with pytest.raises(FormError) as refused:
        GAME.parse_options({"opt_board": "nonsense"})
    assert refused.value.problems[0].rule == "docs/rules/han.md §1.5"


def test_the_log_says_a_run_out_or_an_end_was_confirmed_and_why():
    players = [{"name": "Jenő"}]
    words = GAME.describe(Move(5, "draw-pile-ran-out", {"confirmed": True}), players, None)
    assert words["en"] == "Draw pile ran out (confirmed)" and words["hu"] == "Kifogyott a húzópakli (megerősítve)"
    assert GAME.describe(Move(5, "draw-pile-ran-out", {}), players, None)["en"] == "Draw pile ran out"
    ended = GAME.describe(Move(6, "game-ended", {"confirmed": True, "reason": "the café closes"}), players, None)
    assert ended["en"] == "Game ended (confirmed): the café closes"
    old = GAME.event_types["game-ended"].upcasters[1]({})
    assert GAME.describe(Move(6, "game-ended", old), players, None)["en"] == "Nobody can place: game over"


def test_the_new_game_form_asks_the_colours_in_hungarian_too(client):
    page = client.get("/games/new?kind=han", headers={"Accept-Language": "hu"}).data.decode()
    assert "A tartományok színe (négy szín kétszer, a lila egyszer)" in page and "válassz…" in page
    refused = client.post("/games/new", headers={"Accept-Language": "hu"}, data={
        "kind": "han", "name": ["A", "B", "C"], "opt_start_player": "0",
        "opt_board": '{"id": "han-side1", "version": 1, "data": {"areas": [{"id": "su", "colour": null}]}}'})
    assert refused.status_code == 422 and "Add meg a színét: Su, #8, #9" in refused.data.decode()
