"""The recorded 4-player example game: replayed by the CLI, its standings as documented."""
import json
import os
import re
import subprocess
import sys

from events.projection import fold
from events.export import verify
from scoring.maharaja import GAME as M

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "maharaja-4p.json")
DOC = os.path.join(ROOT, "docs", "rules", "maharaja.md")


def _documented() -> list[tuple[int, str, int, int]]:
    text = open(DOC, encoding="utf-8").read().split("## 19.")[1]
    return [(int(r), p, int(pal), int(g)) for r, p, pal, g in
            re.findall(r"^\| (\d) \| (\w+) \| (\d+) \| (\d+) \|$", text, re.M)]


def test_example_replays_through_the_cli_to_the_documented_standings():
    flask = os.path.join(os.path.dirname(sys.executable), "flask")
    out = subprocess.run([flask, "--app", "app", "replay", EXAMPLE], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    result = json.loads(out)
    assert result["game"] == "maharaja" and result["finished"] is True
    table = fold(verify(json.load(open(EXAMPLE, encoding="utf-8"))))
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
