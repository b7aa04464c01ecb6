"""The recorded 4-player game examples/dragon-4p.json: replayed through the real CLI
(`flask --app app replay`), its final standings are the ones docs/rules/dragon.md states,
and the script that made it still makes the same moves."""
import json
import pathlib
import re
import subprocess
import sys

from events.application.export import verify
from events.domain.projection import fold
from tests.conftest import replay_cli

ROOT = pathlib.Path(__file__).parents[3]
EXAMPLE = ROOT / "examples" / "dragon-4p.json"


def documented_standings() -> list[tuple[int, str, int]]:
    text = (ROOT / "docs" / "rules" / "dragon.md").read_text(encoding="utf-8")
    section = text.split("## The recorded example")[1]
    return [(int(rank), name, int(score)) for rank, name, score in
            re.findall(r"^\| (\d) \| (\w+) \| (\d+) \|", section, flags=re.M)]


def test_the_4_player_example_replays_through_the_cli_to_the_documented_standings():
    result = replay_cli(EXAMPLE)
    assert result["game"] == "dragon" and result["finished"] is True
    replayed = [(row["rank"], row["player"], row["score"]) for row in result["standings"]]
    assert replayed == documented_standings()
    assert len(replayed) == 4


def test_the_example_is_a_whole_year_with_every_kind_of_move():
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    events = verify(doc)  # hash chain + every move re-checked by the rules
    table = fold(events)
    assert table.game["next"]["step"] == "over" and table.game["month"] == 12
    kinds = {e.type for e in events}
    assert {"dragon-floors-placed", "dragon-persons-released", "dragon-money-refilled"} <= kinds
    assert sum(e.type == "dragon-actions-dealt" for e in events) == 12
    assert sum(e.type == "dragon-person-recruited" for e in events) == 4 * 11


def test_the_script_still_plays_the_same_game(tmp_path):
    out = tmp_path / "again.json"
    done = subprocess.run([sys.executable, "scripts/make_dragon_examples.py", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ours = json.loads(EXAMPLE.read_text(encoding="utf-8"))["events"]
    again = json.loads(out.read_text(encoding="utf-8"))["events"]
    assert [(e["type"], e["data"] if e["seq"] > 1 else None) for e in again] == \
        [(e["type"], e["data"] if e["seq"] > 1 else None) for e in ours]


def test_the_example_is_pinned_to_rules_version_1_and_scores_the_same_under_version_2():
    from dataclasses import replace
    from events.domain.projection import standings
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert doc["events"][0]["data"]["rules_version"] == 1
    pinned = fold(verify(doc))
    assert pinned.rules_version == 1 and pinned.game["rules_version"] == 1
    rescored = fold(verify(doc) + [replace(verify(doc)[-1], seq=len(doc["events"]) + 1, type="rules-rescored",
                                           data={"rules_version": 2})])
    assert rescored.rules_version == 2 and rescored.game["rules_version"] == 2
    assert [(r["player"], r["score"]) for r in standings(rescored)] == \
        [(r["player"], r["score"]) for r in standings(pinned)]
