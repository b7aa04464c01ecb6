"""The two recorded Han example games: replayed by the CLI to the standings written in
docs/rules/han.md §7, every event re-checked by the rules on the way."""
import json
import os
import re

import pytest

from events.application.export import verify
from events.domain.projection import fold, standings
from tests.conftest import replay_cli

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DOC = os.path.join(ROOT, "docs", "rules", "han.md")


def _documented(name: str) -> list[tuple]:
    section = open(DOC, encoding="utf-8").read().split(f"`examples/{name}.json`")[1].split("\n\n")[1]
    return [(int(rank), player, int(score), int(unplaced)) for rank, player, score, unplaced in
            re.findall(r"^\| (\d) \| (\w+) \| (\d+) \| .* \| (\d+) \|$", section, re.M)]


@pytest.mark.parametrize("name, players", [("han-side1-3p", 3), ("han-side2-2p", 2)])
def test_example_replays_through_the_cli_to_the_documented_standings(name, players):
    path = os.path.join(ROOT, "examples", f"{name}.json")
    result = replay_cli(path)
    assert result["game"] == "han" and result["finished"] is True
    table = fold(verify(json.load(open(path, encoding="utf-8"))))
    tiebreak = {r["seat"]: r["tiebreak"][0] for r in standings(table)}
    rows = [(r["rank"], r["player"], r["score"], tiebreak[r["seat"]]) for r in result["standings"]]
    assert rows == _documented(name) and len(rows) == players


def test_side1_example_uses_fortresses_harbours_and_a_tie_broken_by_unplaced_pieces():
    table = fold(verify(json.load(open(os.path.join(ROOT, "examples", "han-side1-3p.json"), encoding="utf-8"))))
    game, rows = table.game, standings(table)
    assert any(p["type"] == "fortress" for p in game["pieces"]) and any(p["fortified"] for p in game["pieces"])
    assert any(p.get("site") == "harbour" for p in game["pieces"])
    assert game["deck_outs"] == 2 and game["next"]["step"] == "over"
    assert rows[0]["score"] == rows[1]["score"] and rows[0]["tiebreak"] > rows[1]["tiebreak"]
    assert {c["points"] for c in game["point_cards"]} == {50}


@pytest.mark.parametrize("name", ["han-side1-3p", "han-side2-2p"])
def test_the_examples_recorded_with_payload_v1_still_import_to_the_same_standings(db, name):
    """The examples were re-recorded when draw-pile-ran-out became v2; the v1 recordings are
    kept as fixtures: they verify, import, and fold to the documented standings."""
    from events.application.export import import_game
    from events.application.states import uncached as load
    old = json.load(open(os.path.join(ROOT, "tests", "fixtures", f"{name}-v1.json"), encoding="utf-8"))
    assert {e["version"] for e in old["events"] if e["type"] == "draw-pile-ran-out"} == {1}
    copied = import_game(db, old, "importer")["id"]
    table = load(db, copied)
    rows = [(r["rank"], r["player"], r["score"], r["tiebreak"][0]) for r in standings(table)]
    assert rows == _documented(name)
    assert table.rules.is_over(table.game)
