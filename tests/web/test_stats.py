"""The statistics' pages, the API behind them and `rebuild-stats` (web/stats.py, docs/people.md
§6–§7): the numbers the read model holds, links to their games, every filter kept across
pages, every bad filter a 400 with a reason and a person who does not exist a 404."""
from __future__ import annotations

import pytest

from group import plays, roster, statistics


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
