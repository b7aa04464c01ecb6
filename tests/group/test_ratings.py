"""Skill ratings (docs/people.md §9): the library's published numbers, a small history
checked by hand, ties, merges and reverts as a rebuild gives them, and the pages."""
from __future__ import annotations

import pytest

from group import plays, ratings, roster
from tests.conftest import pad_played, tamper


def _play(key: str, game_id: str, ended_at: str, ranks: dict[int, int]) -> dict:
    return {"key": key, "game_id": game_id, "ended_at": ended_at,
            "seats": [{"seat": i, "person": person, "rank": rank} for i, (person, rank) in enumerate(ranks.items())]}


def test_the_model_gives_the_librarys_published_example():
    # openskill's README (6.2.0): four new players, two against two, the first team wins.
    rater = ratings.model()
    r = rater.rating
    [[a, b], [x, y]] = rater.rate([[r(), r()], [r(), r()]])
    assert a.mu == pytest.approx(26.964294621803063) and a.sigma == pytest.approx(8.177962604389991)
    assert x.mu == pytest.approx(23.035705378196937) and (a == b) and (x == y)


def test_a_small_history_checked_by_hand():
    """Anna, Béla, Cili. By hand from Weng & Lin's Plackett–Luce update (Algorithm 4):
    a new rating has σ² = (25/3)² + τ² = 69.4514 (τ = 25/300 added before the play);
    two players: c = √(2·(69.4514 + β²)) = √(2·(69.4514 + 17.3611)) = 13.1767, each
    wins with p = ½. The winner's mean moves by σ²/c·(1 − ½) = 2.6354 → 27.6354, the
    loser's by −2.6354 → 22.3646; both σ shrink by √(1 − (σ/c)·(σ²/c²)·¼) =
    √(1 − 0.63246·0.4·0.25) → 8.0659. A tie of two equal players moves no mean (the ½
    ahead and the ½ behind cancel) and shrinks σ the same way."""
    anna, bela, cili, dora = 1, 2, 3, 4
    history = [_play("scorepad:carcassonne", "g1", "2026-01-01T20:00", {anna: 1, bela: 2}),
               _play("han", "g2", "2026-01-02T20:00", {cili: 1, dora: 1})]
    rated = ratings.ratings(history)
    pad, han = rated["scorepad:carcassonne"], rated["han"]
    assert pad[anna].mu == pytest.approx(27.6354, abs=1e-4) and pad[bela].mu == pytest.approx(22.3646, abs=1e-4)
    assert pad[anna].sigma == pytest.approx(8.0659, abs=1e-4) == pad[bela].sigma
    assert pad[anna].conservative == pytest.approx(27.6354 - 3 * 8.0659, abs=1e-3)
    assert han[cili].mu == pytest.approx(25.0) == han[dora].mu  # the tie
    assert han[cili].sigma == pytest.approx(8.0659, abs=1e-4)
    assert set(rated) == {"scorepad:carcassonne", "han"}  # one rating per person per game
    assert [p["game_id"] for p in pad[anna].trend] == ["g1"]
    chance = ratings.chance_ahead(pad, anna, bela)
    assert 0.5 < chance < 1 and chance + ratings.chance_ahead(pad, bela, anna) == pytest.approx(1, abs=1e-3)
    assert ratings.chance_ahead(pad, anna, cili) is None  # Cili never played it


def test_ties_share_a_rank_and_order_is_the_date_order():
    anna, bela, cili = 1, 2, 3
    tie = _play("han", "g1", "2026-01-01", {anna: 1, bela: 2, cili: 2})
    rated = ratings.ratings([tie])["han"]
    assert rated[bela].mu == pytest.approx(rated[cili].mu) and rated[anna].mu > rated[bela].mu
    later = _play("han", "g0", "2026-02-01", {cili: 1, anna: 2})
    # given out of order, the plays are still rated oldest first
    assert ratings.ratings([later, tie])["han"][cili].mu == pytest.approx(ratings.ratings([tie, later])["han"][cili].mu)
    assert ratings.ratings([_play("han", "g", "2026", {anna: 1})]) == {}  # nobody to be ahead of


def test_a_merged_person_is_one_player_with_their_better_place():
    anna = 1
    play = {"key": "han", "game_id": "g", "ended_at": "2026",
            "seats": [{"seat": 0, "person": anna, "rank": 3}, {"seat": 1, "person": anna, "rank": 1},
                      {"seat": 2, "person": 2, "rank": 2}, {"seat": 3, "person": None, "rank": 4}]}
    rated = ratings.ratings([play])["han"]
    assert set(rated) == {anna, 2} and rated[anna].plays == 1 and rated[anna].mu > rated[2].mu


WORKER = plays.Plays()  # what one server process keeps (per database file)


def _fresh(db):
    """What a server that never saw these plays works out: the read model rebuilt from
    the logs and the ratings from nothing."""
    plays.rebuild(db)
    return _numbers(plays.rated(db, roster.load(db)))  # no worker's cache: from the plays alone


def _numbers(rated: dict) -> dict:
    return {key: {p: (round(r.mu, 9), round(r.sigma, 9), r.plays) for p, r in table.items()}
            for key, table in rated.items()}


def test_merge_and_revert_change_the_ratings_as_a_rebuild_does(app, db):
    pad_played(db, [30, 20, 10], ["Anna", "Béla", "Cili"])
    pad_played(db, [5, 25, 15], ["Anna", "Béla", "Dóra"])
    pad_played(db, [12, 12], ["Cili", "Béla"])
    now = roster.load(db)
    cili, dora = now.by_name("Cili")["id"], now.by_name("Dóra")["id"]
    before = _numbers(plays.rated(db, now, cache=WORKER))
    assert set(before["scorepad"]) == {now.by_name(n)["id"] for n in ("Anna", "Béla", "Cili", "Dóra")}

    roster.append(db, [("people-merged", {"source": dora, "into": cili})], "dev", by=roster.ORGANISER)
    merged = _numbers(plays.rated(db, roster.load(db), cache=WORKER))
    assert dora not in merged["scorepad"] and merged["scorepad"][cili][2] == 3  # one person, 3 plays
    assert merged != before and merged == _fresh(db)

    roster.append(db, [("change-reverted", {"target": roster.load(db).seq})], "dev", by=roster.ORGANISER)
    assert _numbers(plays.rated(db, roster.load(db), cache=WORKER)) == before == _fresh(db)


def test_a_finished_play_updates_the_ratings(app, db):
    pad_played(db, [30, 20], ["Anna", "Béla"])
    anna = roster.load(db).by_name("Anna")["id"]
    assert plays.rated(db, roster.load(db), cache=WORKER)["scorepad"][anna].plays == 1
    pad_played(db, [30, 20], ["Anna", "Béla"])
    assert plays.rated(db, roster.load(db), cache=WORKER)["scorepad"][anna].plays == 2


@pytest.mark.parametrize("lang, words", [("en", ("Ratings", "provisional", "chance that")),
                                         ("hu", ("Értékszám", "előzetes", "esély, hogy"))])
def test_the_pages_and_the_api_show_the_ratings(client, db, lang, words):
    pad_played(db, [30, 20], ["Anna", "Béla"])
    pad_played(db, [10, 20], ["Anna", "Béla"])
    now = roster.load(db)
    anna, bela = now.by_name("Anna")["id"], now.by_name("Béla")["id"]
    client.set_cookie("lang", lang)
    game = client.get("/stats/games/scorepad").get_data(as_text=True)
    assert words[0] in game and 'data-testid="game-ratings"' in game and words[1] in game
    person = client.get(f"/stats/people/{anna}").get_data(as_text=True)
    assert 'data-testid="person-rating-scorepad"' in person and 'class="stat-trend"' in person
    together = client.get(f"/stats/together?people={anna}&people={bela}").get_data(as_text=True)
    assert words[2] in together and 'data-testid="chance-scorepad"' in together
    body = client.get("/api/stats").get_json()
    rows = body["ratings"]["scorepad"]
    assert [r["person"] for r in rows] and {r["person"] for r in rows} == {anna, bela}
    assert all(r["provisional"] and r["plays"] == 2 and r["low"] < r["mu"] < r["high"] for r in rows)
    assert client.get("/api/stats?kind=han").get_json()["ratings"] == {}


def test_ratings_continued_from_earlier_ones_equal_ratings_from_nothing():
    """A worker keeps the ratings and continues them when a game ends; after a newer play,
    a play taken out in the middle (a void), a person merged (other people at a play),
    the numbers are those of rating every play from nothing."""
    import random
    rng = random.Random(7)
    history = []
    for i in range(60):
        people = rng.sample(range(1, 8), rng.randint(2, 4))
        history.append(_play(rng.choice(["han", "maharaja"]), f"g{i:02d}", f"2026-01-{1 + i // 3:02d}T{i:02d}",
                             {p: rng.randint(1, len(people)) for p in people}))

    def numbers(memo):
        return {k: {p: (r.mu, r.sigma, r.plays, r.trend) for p, r in t.items()} for k, (_, t) in memo.items()}

    earlier = ratings.rate(history[:40])
    for now in (history[:41], history, history[:10] + history[11:],
                [{**p, "seats": [{**s, "person": 1 if s["person"] == 2 else s["person"]} for s in p["seats"]]}
                 for p in history]):
        continued = ratings.rate(now, earlier)
        assert numbers(continued) == numbers(ratings.rate(now))
        earlier = continued


def test_a_forged_game_is_left_out_of_the_ratings(app, client, db):
    """Issue 25 §3 holds for the ratings too: a finished game whose record no longer
    verifies rates nobody, on the pages and in the API."""
    pad_played(db, [9, 5], ["Anna", "Béla"])
    forged = pad_played(db, [7, 5], ["Anna", "Béla"])
    anna = roster.load(db).by_name("Anna")["id"]
    assert client.get("/api/stats").get_json()["ratings"]["scorepad"][0]["plays"] == 2
    tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 3", ['{"seat": 1, "points": 99}', forged])
    app.extensions["tablescribe"].forget()  # a server started after the change
    rows = client.get("/api/stats").get_json()["ratings"]["scorepad"]
    assert [(r["person"], r["plays"]) for r in rows][0] == (anna, 1) and all(r["plays"] == 1 for r in rows)


@pytest.mark.parametrize("lang", ["de", "hu", "en"])
def test_the_person_page_writes_one_rating_in_its_text_and_at_its_lines_end(client, db, lang):
    """Issue 39 §11: a German page said 3,3 in the text and 3.2 at the end of the line (the
    line's last point rounded twice, and written with a decimal point)."""
    import re
    for scores in ([30, 20], [10, 20], [25, 24], [13, 40]):
        pad_played(db, scores, ["Anna", "Béla"])
    anna = roster.load(db).by_name("Anna")["id"]
    client.set_cookie("lang", lang)
    person = client.get(f"/stats/people/{anna}").get_data(as_text=True)
    text = re.search(r'<strong class="rating">([^<]+)</strong>', person).group(1)
    at_the_end = re.search(r'class="stat-trend".*?<text [^>]*>([^<]+)</text></svg>', person, re.S).group(1)
    assert at_the_end == text
