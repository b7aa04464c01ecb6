"""The statistics (docs/people.md §6–§7): the read model kept event by event equals the
one rebuilt from the logs; the figures count what they say; the pages and the API
answer, and every bad filter is a 400 with a reason."""
from __future__ import annotations

import pytest

from events.application.table import new_game, record
from events.storage import store
from group import plays, roster, statistics
from scoring import GAMES


def _play(db, kind: str, names: list[str] | None = None) -> str:
    """The game's demo played to its end, its seats linked by name as the form does."""
    players, options, moves = GAMES[kind].demo()
    if names:
        players = [{**p, "name": names[i]} if i < len(names) else p for i, p in enumerate(players)]
    game = new_game(db, kind, players, options, "dev")
    roster.link_game(db, game["id"], [p["name"] for p in players], "dev")
    for i, (type_, data) in enumerate(moves, start=1):
        record(db, game["id"], type_, data, i, i % len(players), "dev", f"m{i}")
    return game["id"]


def _scorepad(db, points: list[int], names: list[str]) -> str:
    game = new_game(db, "scorepad", [{"name": n} for n in names], {}, "dev")
    roster.link_game(db, game["id"], names, "dev")
    seq = 1
    for seat, p in enumerate(points):
        record(db, game["id"], "points-recorded", {"seat": seat, "points": p}, seq, 0, "dev", f"p{seq}")
        seq += 1
    record(db, game["id"], "game-ended", {}, seq, 0, "dev", "end")
    return game["id"]


def test_the_incremental_read_model_equals_the_rebuilt_one(app, db):
    games = [_play(db, kind) for kind in GAMES]
    pad = _scorepad(db, [5, 9], ["Anna", "Béla"])
    # a finished game voided back to running, then ended again; one voided and left running
    assert [r for r in plays.dump(db) if r[0] == pad]
    record(db, pad, "event-voided", {"target": 4, "reason": "too early"}, 4, 0, "dev", "v1")
    assert not [r for r in plays.dump(db) if r[0] == pad]
    record(db, pad, "points-recorded", {"seat": 0, "points": 10}, 5, 0, "dev", "p5")
    record(db, pad, "game-ended", {}, 6, 0, "dev", "end2")
    running = _scorepad(db, [1, 2], ["Anna", "Cili"])
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
    game_id = _play(db, "five-tribes")
    rows = {r[1]: r for r in plays.dump(db) if r[0] == game_id}
    for row in standings(load(db, game_id)):
        assert rows[row["seat"]][7] == row["score"] and rows[row["seat"]][8] == row["rank"]


@pytest.fixture
def two_friends(app, db):
    """Anna and Béla: five plays together across three game kinds; Anna wins three."""
    ids = [_scorepad(db, [30, 20], ["Anna", "Béla"]),
           _scorepad(db, [10, 25], ["Anna", "Béla"]),
           _scorepad(db, [40, 12, 5], ["Anna", "Béla", "Cili"])]
    ids.append(_play(db, "five-tribes", ["Anna", "Béla"]))
    ids.append(_play(db, "han", ["Anna", "Béla", "Cili"]))
    return ids


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


def test_the_pages_show_the_numbers_and_link_to_their_games(client, db, two_friends):
    client.set_cookie("lang", "en")
    now = roster.load(db)
    anna, bela = now.by_name("Anna")["id"], now.by_name("Béla")["id"]
    person = client.get(f"/stats/people/{anna}").get_data(as_text=True)
    assert 'data-testid="person-plays"' in person and "Five Tribes" in person
    together = client.get(f"/stats/together?people={anna}&people={bela}")
    assert together.status_code == 200 and "<svg" in together.get_data(as_text=True)
    won = client.get(f"/stats/plays?people={anna}&won={anna}").get_data(as_text=True)
    assert won.count('data-testid="play"') == statistics.person_figures(plays.read(db, now), anna)["wins"]
    for path in ("/stats", "/stats/games/scorepad", "/stats/games/han", "/people", "/people/log",
                 f"/people/games/{two_friends[0]}"):
        assert client.get(path).status_code == 200, path
    for lang in ("hu", "en"):
        client.set_cookie("lang", lang)
        assert client.get(f"/stats/people/{anna}").status_code == 200


def test_the_api_gives_the_numbers_behind_the_pages(client, db, two_friends):
    now = roster.load(db)
    anna, bela = now.by_name("Anna")["id"], now.by_name("Béla")["id"]
    body = client.get(f"/api/stats?people={anna},{bela}&kind=scorepad").get_json()
    assert body["plays"] == 3 and body["people"][str(anna)]["wins"] == 2
    assert len(body["together"]["plays"]) == 3
    people = {p["name"]: p for p in client.get("/api/people").get_json()["people"]}
    assert people["Anna"]["plays"] == 5


@pytest.mark.parametrize("query", ["since=2024-13-01", "until=yesterday", "people=abc",
                                   "people=" + ",".join(["1"] * 3) + "&since=2024-02-30",
                                   "since=%ED%A0%80", "kind=" + "x" * 500])
def test_bad_filters_are_a_400_with_a_reason(client, query):
    for prefix in ("/stats", "/api/stats"):
        response = client.get(f"{prefix}?{query}")
        assert response.status_code == 400, (prefix, query)
    assert "error" in client.get(f"/api/stats?{query}").get_json()


def test_a_person_who_does_not_exist_is_not_found(client):
    """A well-formed id of nobody is a 404, as a game's is (docs/openapi.yaml: a request of
    the documented form is never a 400)."""
    for prefix in ("/stats", "/api/stats"):
        response = client.get(f"{prefix}?people=999")
        assert response.status_code == 404, prefix
    assert "999" in client.get("/api/stats?people=999").get_json()["error"]


def test_rebuild_stats_command(app, db, two_friends):
    before = plays.dump(db)
    db.execute("DELETE FROM stat_seats")
    result = app.test_cli_runner().invoke(args=["rebuild-stats"])
    assert result.exit_code == 0 and "5 finished plays" in result.output, result.output
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
    _scorepad(db, [3, 4], ["Anna", "Dóra"])
    kept_equals_fresh()  # a new one came, with a new person
    now = roster.load(db)
    roster.append(db, [("people-merged", {"source": now.by_name("Dóra")["id"], "into": now.by_name("Cili")["id"]})], "dev", by=roster.ORGANISER)
    kept_equals_fresh()  # the roster changed
    plays.rebuild(db)
    kept_equals_fresh()


def test_the_plays_list_pages_keep_every_filter(client, db, two_friends, monkeypatch):
    from web import stats as stats_pages
    monkeypatch.setattr(stats_pages, "PLAYS_PAGE", 2)
    now = roster.load(db)
    anna, bela = now.by_name("Anna")["id"], now.by_name("Béla")["id"]
    first = client.get(f"/stats/plays?people={anna}&people={bela}").get_data(as_text=True)
    assert first.count('data-testid="play"') == 2
    link = next(part.split('"', 1)[0] for part in first.split('href="') if "page=1" in part.split('"', 1)[0])
    assert f"people={anna}" in link and f"people={bela}" in link
    last = client.get(link.replace("&amp;", "&").replace("page=1", "page=2")).get_data(as_text=True)
    assert last.count('data-testid="play"') == 1 and "page=3" not in last


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
        _scorepad(db, [5, 9], ["Anna", "Béla"])  # the game-ended move meets a busy read model
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
