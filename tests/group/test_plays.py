"""The statistics' read model (group/plays.py, docs/people.md §6–§7): kept event by event in
the move's own transaction, it equals the one rebuilt from the logs; its scores and ranks are
the games' own, the figures read from it count what they say, a worker's kept plays follow
every change (the pages and the API: tests/web/test_stats.py)."""
from __future__ import annotations

import pytest

from events.application.table import new_game, record
from events.storage import store
from group import plays, roster, statistics
from scoring import GAMES
from tests.conftest import demo_played, pad_played


def test_the_incremental_read_model_equals_the_rebuilt_one(app, db):
    games = [demo_played(db, kind) for kind in GAMES]
    pad = pad_played(db, [5, 9], ["Anna", "Béla"])
    # a finished game voided back to running, then ended again; one voided and left running
    assert [r for r in plays.dump(db) if r[0] == pad]
    record(db, pad, "event-voided", {"target": 4, "reason": "too early"}, 4, 0, "dev", "v1")
    assert not [r for r in plays.dump(db) if r[0] == pad]
    record(db, pad, "points-recorded", {"seat": 0, "points": 10}, 5, 0, "dev", "p5")
    record(db, pad, "game-ended", {}, 6, 0, "dev", "end2")
    running = pad_played(db, [1, 2], ["Anna", "Cili"])
    record(db, running, "event-voided", {"target": 4, "reason": "not yet"}, 4, 0, "dev", "v2")
    incremental = plays.dump(db)
    assert {r[0] for r in incremental} >= {pad, *[g for g in games if _over(db, g)]}
    assert running not in {r[0] for r in incremental}
    plays.rebuild(db)
    assert plays.dump(db) == incremental


def _over(db, game_id) -> bool:
    from events.application.states import uncached as load
    table = load(db, game_id)
    return table.rules.is_over(table.game)


def test_the_scores_categories_and_ranks_come_from_the_games_own_scoring(app, db):
    from events.domain.projection import standings
    from events.application.states import uncached as load
    game_id = demo_played(db, "five-tribes")
    rows = {r[1]: r for r in plays.dump(db) if r[0] == game_id}
    for row in standings(load(db, game_id)):
        assert rows[row["seat"]][7] == row["score"] and rows[row["seat"]][8] == row["rank"]


def test_head_to_head_says_who_wins_more_at_what_and_by_how_much(app, db, two_friends):
    now = roster.load(db)
    anna, bela = now.by_name("Anna")["id"], now.by_name("Béla")["id"]
    found = plays.read(db, now)
    together = statistics.head_to_head(found, [anna, bela])
    assert len(together["plays"]) == 5
    pair = together["pairs"][0]["games"]
    assert len(pair[""]["a"]) + len(pair[""]["b"]) + len(pair[""]["tie"]) == 5
    assert pair["scorepad"]["a"] == [two_friends[0], two_friends[2]] and pair["scorepad"]["b"] == [two_friends[1]]
    assert {"scorepad", "five-tribes", "han"} <= set(pair)
    assert pair["scorepad"]["margin"] == round(((30 - 20) + (10 - 25) + (40 - 12)) / 3, 1)


def test_person_figures(app, db, two_friends):
    now = roster.load(db)
    anna = now.by_name("Anna")["id"]
    figures = statistics.person_figures(plays.read(db, now, key="scorepad"), anna)
    assert figures["plays"] == 3 and figures["wins"] == 2
    pad = figures["games"]["scorepad"]
    assert (pad["best"], pad["worst"], pad["average"]) == (40, 10, 26.7)
    assert pad["best_game"] == two_friends[2]
    assert figures["streaks"]["longest_wins"] == 1 and figures["streaks"]["current_is_win"]


def test_a_link_and_a_merge_change_the_statistics_without_rewriting_them(app, db, two_friends):
    now = roster.load(db)
    cili, anna = now.by_name("Cili")["id"], now.by_name("Anna")["id"]
    before = plays.dump(db)
    roster.append(db, [("person-added", {"name": "Dóra"})], "dev", by=roster.ORGANISER)
    dora = roster.load(db).by_name("Dóra")["id"]
    roster.append(db, [("people-merged", {"source": cili, "into": dora})], "dev", by=roster.ORGANISER)
    assert statistics.person_figures(plays.read(db, roster.load(db)), dora)["plays"] == 2
    assert plays.dump(db) == before


def test_a_workers_kept_plays_follow_every_change_as_a_fresh_read_does(app, db, two_friends):
    """The plays a worker keeps are brought up to date from stat_changes and the roster;
    after every kind of change they equal what a worker that never saw them reads."""
    worker = plays.Plays()  # what one server process keeps

    def fresh():
        return plays.read(db, roster.load(db), cache=plays.Plays())

    def kept_equals_fresh():
        kept = plays.read(db, roster.load(db), cache=worker)
        assert kept == fresh() == plays.read(db, roster.load(db))
        plays.read(db, roster.load(db), cache=worker)  # the worker looks again, and keeps it

    plays.read(db, roster.load(db), cache=worker)
    record(db, two_friends[0], "event-voided", {"target": 4, "reason": "not over"}, 4, 0, "dev", "v")
    kept_equals_fresh()  # a finished game left the statistics
    pad_played(db, [3, 4], ["Anna", "Dóra"])
    kept_equals_fresh()  # a new one came, with a new person
    now = roster.load(db)
    roster.append(db, [("people-merged", {"source": now.by_name("Dóra")["id"], "into": now.by_name("Cili")["id"]})], "dev", by=roster.ORGANISER)
    kept_equals_fresh()  # the roster changed
    plays.rebuild(db)
    kept_equals_fresh()


def test_the_statistics_commit_with_the_move_or_neither_does(app, db, monkeypatch):
    """Issue 25 §5: the read model was written after the move had committed; a busy
    database there left the game out of the statistics until its next event or a rebuild.
    Now its rows are written in the move's own transaction: both, or neither (and the
    phone is told to send the move again, 503)."""
    import sqlite3

    def busy(*args):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(plays, "_replace", busy)
    with pytest.raises(sqlite3.OperationalError):
        pad_played(db, [5, 9], ["Anna", "Béla"])  # the game-ended move meets a busy read model
    game_id = db.execute("SELECT id FROM games").fetchone()[0]
    assert [e.type for e in store.read_events(db, game_id)][-1] != "game-ended"  # not half-written
    monkeypatch.undo()
    record(db, game_id, "game-ended", {}, 3, 0, "dev", "end")  # the phone sends it again
    assert [r[:2] for r in plays.dump(db) if r[0] == game_id] == [(game_id, 0), (game_id, 1)]
    rows = plays.dump(db)
    plays.rebuild(db)
    assert plays.dump(db) == rows  # nothing lagged


def test_games_group_by_kind_and_only_the_score_pad_by_the_game_it_was_kept_for():
    from group.bgstats import _KIND_OF_BGG
    from group.plays import game_key
    assert game_key("han", "Han") == "han"                      # an imported Han play: still Han
    assert game_key("scorepad", "Azul") == "scorepad:azul"
    assert game_key("scorepad", "") == "scorepad"
    assert _KIND_OF_BGG[31594] == "dragon" and _KIND_OF_BGG[157354] == "five-tribes"  # from each GameKind
