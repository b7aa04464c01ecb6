"""Fixtures the browser tests share (the live server and the phones are tests/conftest.py's)."""
import json
import urllib.request

import pytest

from scoring import GAMES
from tests.conftest import api


def game_played(base: str, kind: str, names: list[str], moves: list[tuple[str, dict]], options=None) -> str:
    """A game of ``kind`` made on the live server through the API, ``moves`` recorded seat by
    seat in turn: its id."""
    players, demo_options, _ = GAMES[kind].demo()
    created = api(base, "/api/games", {"kind": kind, "options": options or demo_options,
                                       "players": [{**p, "name": n} for p, n in zip(players, names)]})
    tokens = [s["token"] for s in created["seats"]]
    for i, (type_, data) in enumerate(moves, start=1):
        api(base, f"/api/games/{created['id']}/events",
            {"type": type_, "data": data, "expected_seq": i, "client_event_id": f"m{i}"}, tokens[i % len(tokens)])
    return created["id"]


def pad_moves(points: list[int]) -> list[tuple[str, dict]]:
    """A score pad's moves: ``points`` seat by seat, then the end."""
    return [("points-recorded", {"seat": s, "points": p}) for s, p in enumerate(points)] + [("game-ended", {})]


@pytest.fixture(scope="module")
def friends(live_server):
    """Anna and Béla: three score pad games of Azul, Five Tribes and Han (with Cili)."""
    base = live_server
    ids = [game_played(base, "scorepad", ["Anna", "Béla"], pad_moves(p), {"title": "Azul", "bgg_id": 230802})
           for p in ([30, 20], [10, 25], [41, 33])]
    ids.append(game_played(base, "five-tribes", ["Anna", "Béla", "Cili"], GAMES["five-tribes"].demo()[2]))
    ids.append(game_played(base, "han", ["Béla", "Anna", "Cili"], GAMES["han"].demo()[2]))
    with urllib.request.urlopen(base + "/api/people") as response:
        people = {p["name"]: p["id"] for p in json.loads(response.read())["people"]}
    return base, ids, people
