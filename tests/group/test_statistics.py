"""group/statistics.py, the figures: a win rate per game, head to head compares points only
within one game, and a person is 'since' their first play (an import brings older plays)."""
from group import statistics


def _play(game_id, key, started, scores):
    """A finished play of ``key``: scores by person id, ranked highest first."""
    order = sorted(scores, key=lambda p: -scores[p])
    seats = [{"person": p, "seat": i, "score": scores[p], "rank": 1 + sorted(scores.values(), reverse=True).index(scores[p]),
              "breakdown": {}, "name": str(p)} for i, p in enumerate(order)]
    return {"game_id": game_id, "key": key, "kind": key, "title": "", "started_at": started, "ended_at": started,
            "seconds": 0, "players": len(seats), "seats": seats}


PLAYS = [_play("g1", "han", "2024-01-05T20:00:00+00:00", {1: 40, 2: 33}),
         _play("g2", "scorepad:carcassonne", "2026-11-20T20:00:00+00:00", {1: 90, 2: 120}),
         _play("g3", "scorepad:carcassonne", "2026-11-21T20:00:00+00:00", {1: 100, 2: 95})]


def test_head_to_head_gives_a_margin_per_game_and_none_across_games():
    pair = statistics.head_to_head(PLAYS, [1, 2])["pairs"][0]
    assert pair["games"]["han"]["margin"] == 7.0
    assert pair["games"]["scorepad:carcassonne"]["margin"] == -12.5
    assert pair["games"][""]["margin"] is None  # Han's points and Carcassonne's do not add up
    assert (len(pair["games"][""]["a"]), len(pair["games"][""]["b"])) == (2, 1)


def test_each_game_of_a_person_has_its_win_rate():
    games = statistics.person_figures(PLAYS, 1)["games"]
    assert games["han"]["win_rate"] == 1.0 and games["scorepad:carcassonne"]["win_rate"] == 0.5


def test_a_person_is_since_their_first_play():
    assert statistics.totals(PLAYS)[2]["first_played"] == "2024-01-05T20:00:00+00:00"
