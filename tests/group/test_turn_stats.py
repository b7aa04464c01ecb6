"""Time in the statistics (issue 28): a finished game's playing time without its breaks and
each seat's turn times reach the read model, the figures (/api/stats, the game's and the
person's pages) and BG Stats' durationMin; rows written before keep working without them."""
from __future__ import annotations

from datetime import datetime, timedelta

from events.application.table import new_game
from events.domain import turns
from events.domain.event import NewEvent
from events.storage import store
from group import plays, roster, statistics
from scoring import GAMES

BREAK = 20 * 60


def _timed_han(db, names=("Anna", "Béla", "Cili"), minute=60) -> str:
    """Han's demo game, a move a minute, with a 20-minute break after the third move."""
    game = GAMES["han"]
    players, options, moves = game.demo()
    players = [{**p, "name": names[i]} for i, p in enumerate(players)]
    created = new_game(db, "han", players, options, "dev")
    game_id = created["id"]
    roster.link_game(db, game_id, list(names), "dev")
    start = datetime.fromisoformat(store.read_events(db, game_id, upto=1)[0].recorded_at)
    at, seq = 0, 1
    steps = [(t, d) for t, d in moves]
    steps[3:3] = [("game-paused", {}), ("game-resumed", {})]
    for type_, data in steps:
        at += BREAK if type_ == "game-resumed" else minute
        version = game.event_types[type_].version if type_ in game.event_types else 1
        stamp = (start + timedelta(seconds=at)).isoformat(timespec="milliseconds")
        store.append(db, game_id, NewEvent(type_, version, data, 0, "dev", f"m{seq}", stamp), seq)
        seq += 1
    plays.refresh(db, game_id)   # as an import enters the read model
    return game_id


def test_the_read_model_keeps_the_time_without_breaks_and_each_seats_turn_times(app, db):
    game_id = _timed_han(db)
    events = store.read_events(db, game_id)
    clock = turns.turn_times(events)
    wall = turns.epoch(events[-1].recorded_at) - turns.epoch(events[0].recorded_at)
    assert clock.over and clock.counted == wall - BREAK            # the break is left out
    rows = [dict(zip(plays._COLUMNS, r)) for r in plays.dump(db) if r[0] == game_id]
    assert {r["played_seconds"] for r in rows} == {clock.counted}
    by_seat = {row["seat"]: row for row in clock.seats(3)}
    for row in rows:
        assert (row["turns"], row["turn_seconds"]) == (by_seat[row["seat"]]["turns"], by_seat[row["seat"]]["total"])
        assert row["turns"] >= 1 and row["longest_turn"] >= 60 and row["longest_turn_at"] > 1


def test_the_figures_give_durations_by_player_count_turn_times_and_the_longest_turns(app, db):
    game_id = _timed_han(db)
    found = plays.read(db, roster.load(db))
    figures = statistics.game_figures(found, "han")
    play = next(p for p in found if p["game_id"] == game_id)
    assert play["seconds"] == play["wall_seconds"] - BREAK and play["timed"]
    assert figures["durations"] == {3: {"plays": 1, "average": float(play["seconds"]), "longest": play["seconds"]}}
    assert {r["turns"] for r in figures["turn_times"]} and all(r["average"] for r in figures["turn_times"])
    longest = figures["longest_turns"][0]
    assert longest["game"] == game_id and longest["seconds"] == max(
        s["longest_turn"] for s in play["seats"])
    anna = next(s for s in play["seats"] if s["name"] == "Anna")
    person = statistics.person_figures(found, anna["person"])
    assert person["games"]["han"]["turns"]["turns"] == anna["turns"]
    assert person["seconds"] == play["seconds"]                    # time played: breaks left out


def test_the_api_and_pages_show_the_time_and_bgstats_gets_it_without_breaks(app, client, db):
    game_id = _timed_han(db)
    client.set_cookie("lang", "en")
    stats = client.get("/api/stats").get_json()
    han = stats["games"]["han"]
    assert han["durations"]["3"]["plays"] == 1 and han["longest_turns"][0]["game"] == game_id
    page = client.get("/stats/games/han").get_data(as_text=True)
    assert 'data-testid="stat-time"' in page and "Playing time by number of players" in page
    assert 'data-testid="turn-times"' in page and "The longest turns" in page
    hu = client.get("/stats/games/han?lang=hu")
    client.set_cookie("lang", "hu")
    assert "A leghosszabb körök" in client.get("/stats/games/han").get_data(as_text=True) and hu.status_code == 200
    doc = client.get(f"/games/{game_id}/play.bgsplay").get_json()
    wall = plays.read(db, roster.load(db))[0]["wall_seconds"]
    assert doc["plays"][0]["durationMin"] == (wall - BREAK) // 60 != wall // 60


def test_plays_kept_before_turn_times_existed_still_count_their_wall_clock(app, db):
    """Rows written before the migration have no turn times: their time is the wall clock
    from the first to the last move, and no turn figure counts them."""
    game_id = _timed_han(db)
    db.execute("UPDATE stat_seats SET played_seconds = NULL, turns = NULL, turn_seconds = NULL,"
               " longest_turn = NULL, longest_turn_at = NULL")
    # nothing kept between reads: plays.read without the app's cache reads the rows as they are now
    found = plays.read(db, roster.load(db))
    play = next(p for p in found if p["game_id"] == game_id)
    assert play["seconds"] == play["wall_seconds"] and not play["timed"]
    figures = statistics.game_figures(found, "han")
    assert figures["turn_times"] == [] and figures["longest_turns"] == []
    assert figures["durations"][3]["average"] == play["wall_seconds"]
