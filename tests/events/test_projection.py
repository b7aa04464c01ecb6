"""State at any sequence number is a fold; voids refold and re-check later moves."""
import dataclasses

import pytest

from events.application.states import States
from events.application.table import Refused, StaleSequence, check_move, new_game, record
from events.domain.projection import fold, scoreboard, standings
from events.storage import store
from scoring import GAMES
from scoring.base import Move


STATES = States()  # a server process's cache of folded states


def load(db, game_id, at=None):
    return STATES.load(db, game_id, at)


@pytest.fixture
def game_id(db):
    return new_game(db, "scorepad", [{"name": "Anna"}, {"name": "Béla"}, {"name": "Cili"}], {}, "dev")["id"]


def _play(db, game_id, moves):
    for type_, data in moves:
        seq = load(db, game_id).seq
        record(db, game_id, type_, data, seq, 0, "dev", f"c{seq}", states=STATES)


def test_state_at_each_seq_is_the_fold_of_the_events_so_far(db, game_id):
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 4}),
                        ("points-recorded", {"seat": 1, "points": 6}),
                        ("round-closed", {}),
                        ("points-recorded", {"seat": 0, "points": 3})])
    totals = [[r["score"] for r in sorted(standings(load(db, game_id, at=n)), key=lambda r: r["seat"])]
              for n in range(1, 6)]
    assert totals == [[0, 0, 0], [4, 0, 0], [4, 6, 0], [4, 6, 0], [7, 6, 0]]


def test_breakdown_names_the_events_behind_each_part(db, game_id):
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 4}),
                        ("points-recorded", {"seat": 0, "points": 5}),
                        ("round-closed", {}),
                        ("points-recorded", {"seat": 0, "points": 1})])
    anna = next(r for r in standings(load(db, game_id)) if r["seat"] == 0)
    assert anna["breakdown"] == {"round-1": 9, "round-2": 1}
    assert [p["events"] for p in anna["parts"]] == [[2, 3], [5]]


def test_cached_state_always_equals_the_full_fold(db, game_id):
    moves = [("points-recorded", {"seat": i % 3, "points": i}) for i in range(12)]
    for i, move in enumerate(moves):
        _play(db, game_id, [move])
        if i == 6:
            record(db, game_id, "event-voided", {"target": 4, "reason": "typo"}, load(db, game_id).seq, 0, "dev", "v",
                   states=STATES)
        cached = load(db, game_id)
        full = fold(store.read_events(db, game_id))
        assert cached == full
    STATES.forget()
    assert load(db, game_id) == fold(store.read_events(db, game_id))


def test_ties_share_a_rank(db, game_id):
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 5}),
                        ("points-recorded", {"seat": 1, "points": 5}),
                        ("points-recorded", {"seat": 2, "points": 2})])
    assert [(r["player"], r["rank"]) for r in standings(load(db, game_id))] == \
        [("Anna", 1), ("Béla", 1), ("Cili", 3)]


def test_void_removes_a_move_and_flags_later_moves_the_rules_now_refuse(db, game_id):
    # Round 1 has one entry; closing it is legal. Voiding that entry makes the
    # later round-closed illegal (nothing recorded in the round): it is flagged.
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 4}),
                        ("round-closed", {})])
    record(db, game_id, "event-voided", {"target": 2, "reason": "wrong table"}, 3, 1, "dev", "v1")
    table = load(db, game_id)
    assert table.voided[2]["reason"] == "wrong table"
    assert list(table.flagged) == [3]
    assert table.flagged[3][0]["rule"] == "docs/rules/scorepad.md §2"
    assert standings(table)[0]["score"] == 0


def test_undo_of_a_void_is_refused(db, game_id):
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 4})])
    record(db, game_id, "event-voided", {"target": 2, "reason": "x"}, 2, 0, "dev", "v1")
    with pytest.raises(Refused):
        record(db, game_id, "event-voided", {"target": 3, "reason": "x"}, 3, 0, "dev", "v2")
    with pytest.raises(Refused):
        record(db, game_id, "event-voided", {"target": 2, "reason": "again"}, 3, 0, "dev", "v3")


@pytest.mark.parametrize("type_, data", [
    ("points-recorded", {"seat": 7, "points": 1}),
    ("points-recorded", {"seat": 0, "points": "5"}),
    ("points-recorded", {"seat": 0, "points": True}),
    ("points-recorded", {"seat": 0}),
    ("points-recorded", {"seat": 0, "points": 1, "extra": 1}),
    ("points-recorded", [1, 2]),
    ("no-such-type", {}),
    ("game-created", {"kind": "scorepad", "rules_version": 1, "players": [], "options": {}}),
    ("round-closed", {}),  # nothing recorded in the round yet
])
def test_bad_moves_are_refused_with_a_cited_rule_and_append_nothing(db, game_id, type_, data):
    before = store.last_seq(db, game_id)
    with pytest.raises(Refused) as refused:
        record(db, game_id, type_, data, before, 0, "dev", "bad")
    assert all(p.rule and p.hu and p.en for p in refused.value.problems)
    assert store.last_seq(db, game_id) == before


def test_a_finished_game_refuses_more_moves(db, game_id):
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 1}), ("game-ended", {})])
    assert check_move(load(db, game_id), "points-recorded", {"seat": 0, "points": 1})[0].rule == "docs/rules/scorepad.md §3"
    row = store.game_row(db, game_id)
    assert row["finished"] == 1


def test_stale_record_is_refused(db, game_id):
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 1})])
    with pytest.raises(StaleSequence):
        record(db, game_id, "points-recorded", {"seat": 0, "points": 1}, 1, 0, "dev", "late")


def test_the_table_page_standings_list_the_last_parts_and_sum_the_earlier(db, game_id):
    moves = []
    for round_no in range(1, 6):
        moves += [("points-recorded", {"seat": 0, "points": round_no}), ("round-closed", {})]
    _play(db, game_id, moves)
    table = load(db, game_id)
    full = next(r for r in standings(table) if r["seat"] == 0)
    short = next(r for r in scoreboard(table, last_parts=2) if r["seat"] == 0)
    assert full["score"] == short["score"] == 15 and full["rank"] == short["rank"] == 1
    assert short["parts"] == full["parts"][-2:] and [p["points"] for p in short["parts"]] == [4, 5]
    assert short["earlier"] == {"count": 3, "points": 6} and full["earlier"] == {"count": 0, "points": 0}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_table_pages_standings_are_the_sheets_last_parts_in_every_game(db, kind):
    """The table page's rows (``scoreboard``) hold what the full standings hold, their parts
    cut to the last ones, whether the game says its recent parts or is scored whole."""
    game = GAMES[kind]
    players, options, moves = game.demo()
    game_id = new_game(db, kind, players, options, "dev")["id"]
    for type_, data in moves:
        table = load(db, game_id)
        record(db, game_id, type_, data, table.seq, 0, "dev", f"d{table.seq}", states=STATES)
        table = load(db, game_id)
        for last in (1, 3):
            board = scoreboard(table, last)
            assert [(r["seat"], r["rank"], r["score"], r["tiebreak"]) for r in board] == \
                [(r["seat"], r["rank"], r["score"], r["tiebreak"]) for r in standings(table)]
            for full, short in zip(standings(table), board):
                assert short["parts"] == full["parts"][-last:]
                assert short["earlier"] == {"count": len(full["parts"]) - len(short["parts"]),
                                            "points": full["score"] - sum(p["points"] for p in short["parts"])}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_during_play_equal_scores_share_a_rank_and_the_tie_break_waits_for_the_end(db, kind, monkeypatch):
    """Issue 15 item 10: a tie-break that would separate every player (seat order here)
    decides nothing until the game is over."""
    game = GAMES[kind].changed(tiebreak=lambda state, seat: (-seat,))
    monkeypatch.setitem(GAMES, kind, game)
    players, options, moves = game.demo()
    table = load(db, new_game(db, kind, players, options, "dev")["id"])
    assert not game.is_over(table.game)
    assert [r["rank"] for r in standings(table)] == [1] * len(players)  # everyone on 0
    state = table.game
    for seq, (type_, data) in enumerate(moves, start=2):
        state = game.apply(state, Move(seq, type_, data))
    if game.is_over(state):
        over = standings(dataclasses.replace(table, game=state))
        tied = [r for r in over if [o["score"] for o in over].count(r["score"]) > 1]
        assert len({r["rank"] for r in tied}) == len(tied)  # the tie-break decides at the end


def test_dragon_ranks_a_15_15_tie_during_play_as_shared_first(db):
    from scoring.dragon import GAME as dragon
    players, options, moves = dragon.demo()
    table = load(db, new_game(db, "dragon", players, options, "dev")["id"])
    state = table.game
    state["points"] = [{"seat": 0, "cat": "research", "pts": 15, "seq": 2, "month": 1, "label": None},
                       {"seat": 1, "cat": "research", "pts": 15, "seq": 3, "month": 1, "label": None}]
    state["players"][0]["track"] = 9  # Anna ahead on the person track: no matter before the end
    assert [(r["player"], r["rank"]) for r in standings(dataclasses.replace(table, game=state))] == \
        [("Anna", 1), ("Béla", 1)]


def test_a_refusal_names_the_player_the_rules_name_by_seat(db, game_id):
    """The state holds seats; the table's players name them, when a move is recorded and
    when a form is read (the recheck after a void: tests/scoring/han/test_refusals.py)."""
    from events.application.table import parse_move
    from scoring.base import FormError
    _play(db, game_id, [("round-entered", {"round": 1, "entries": [{"seat": 1, "points": 8}]})])
    with pytest.raises(Refused) as refused:
        _play(db, game_id, [("round-entered", {"round": 1, "entries": [{"seat": 1, "points": 9}]})])
    assert refused.value.problems[0].en.startswith("Béla already has 8 in round 1 (#2)")
    with pytest.raises(FormError) as typed:
        parse_move(load(db, game_id), {"action": "round-entered", "round": "2", "points_2": "sok"})
    assert "Cili" in typed.value.problems[0].en and "\u27e8" not in typed.value.problems[0].en


def test_the_last_move_a_page_highlights_is_read_from_the_log_newest_first(db, game_id):
    from events.domain.projection import last_move
    _play(db, game_id, [("points-recorded", {"seat": 0, "points": 4}), ("points-recorded", {"seat": 1, "points": 6}),
                        ("round-closed", {}), ("event-voided", {"target": 4, "reason": "too soon"}),
                        ("points-recorded", {"seat": 2, "points": 1})])
    reads = []

    def read(first, last):
        reads.append((first, last))
        return store.read_events(db, game_id, after=first - 1, upto=last)
    table = load(db, game_id)
    assert last_move(table, read).seq == 6 and reads == [(6, 6)]        # one event read
    assert last_move(table, read, "round-closed") is None               # the only one is voided
    assert last_move(table, read, "points-recorded").data == {"seat": 2, "points": 1}
    assert last_move(load(db, game_id, at=3), read).seq == 3             # as the log stood then


def test_the_move_undo_takes_back_is_the_last_live_one_after_undos_and_voids(db, game_id):
    """Asked by every render of the log (the Undo button names it): found from the game's
    end, it is the last of ``live_moves`` at every step, voids and undos among them."""
    from events.application.table import undo
    steps = [("move", 4), ("move", 6), ("undo", None), ("undo", None), ("move", 3), ("move", 5),
             ("void", 0), ("undo", None), ("undo", None), ("undo", None)]
    for step, points in steps:
        table = load(db, game_id)
        if step == "move":
            record(db, game_id, "points-recorded", {"seat": 0, "points": points}, table.seq, 0, "dev",
                   f"c{table.seq}", states=STATES)
        elif step == "void":  # the move before the last, voided by a dispute's end
            record(db, game_id, "event-voided", {"target": table.live_moves[-2], "reason": "wrong"},
                   table.seq, 0, "dev", f"c{table.seq}", states=STATES)
        else:
            try:
                undo(db, game_id, table, table.seq, 0, "dev", f"c{table.seq}", states=STATES)
            except Refused:
                assert table.live_moves == ()
        after = load(db, game_id)
        assert after.last_live_move == (after.live_moves[-1] if after.live_moves else None)
    assert load(db, game_id).last_live_move is None
