"""The recorded 4-player example game: replayed by the CLI, its standings as documented;
the same game recorded under rules and payload version 1 still imports and replays to them."""
import json
import os
import re

import pytest

from events.application.export import verify
from events.domain.projection import fold
from scoring.maharaja import GAME as M
from tests.conftest import replay_cli

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLE = os.path.join(ROOT, "examples", "maharaja-4p.json")
RECORDED_V1 = os.path.join(ROOT, "examples", "maharaja-4p-v1.json")  # villages as numbers, rules 1
DOC = os.path.join(ROOT, "docs", "rules", "maharaja.md")


def _documented() -> list[tuple[int, str, int, int]]:
    text = open(DOC, encoding="utf-8").read().split("## 19.")[1]
    return [(int(r), p, int(pal), int(g)) for r, p, pal, g in
            re.findall(r"^\| (\d) \| (\w+) \| (\d+) \| (\d+) \|$", text, re.M)]


@pytest.mark.parametrize("example", [EXAMPLE, RECORDED_V1])
def test_example_replays_through_the_cli_to_the_documented_standings(example):
    result = replay_cli(example)
    assert result["game"] == "maharaja" and result["finished"] is True
    table = fold(verify(json.load(open(example, encoding="utf-8"))))
    rows = [(r["rank"], r["player"], r["score"], table.game["gold"][r["seat"]]) for r in result["standings"]]
    assert rows == _documented() and len(rows) == 4


def test_example_ends_after_the_evaluation_of_the_round_with_a_7th_palace():
    events = verify(json.load(open(EXAMPLE, encoding="utf-8")))
    g = fold(events).game
    assert M.is_over(g)
    finisher = next(s for s in range(4) if sum(1 for p in g["palaces"] if p["seat"] == s) == 7)
    seventh = max(p["seq"] for p in g["palaces"] if p["seat"] == finisher)
    then = fold(events, upto=seventh).game
    assert then["round"] == g["round"] == g["evaluations"][-1]["round"] and not M.is_over(then)


def test_the_version_1_recording_keeps_its_payloads_and_rules():
    doc = json.load(open(RECORDED_V1, encoding="utf-8"))
    assert doc["events"][0]["data"]["rules_version"] == 1
    journeys = [e for e in doc["events"] if e["type"] == "architect-travelled"]
    assert journeys and all(e["version"] == 1 and all(isinstance(v, int) for v in e["data"]["via"]) for e in journeys)
    table = fold(verify(doc))
    assert table.game["rules_version"] == 1 and table.game["outer_sites"] == 6
