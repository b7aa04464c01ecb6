"""The two Five Tribes example games replay through `flask --app app replay` to the
standings written in docs/rules/five-tribes.md §12."""
import json
import pathlib
import re

import pytest

from tests.conftest import replay_cli

ROOT = pathlib.Path(__file__).parents[3]
DOC = ROOT / "docs" / "rules" / "five-tribes.md"
COLUMNS = ["gold", "viziers", "vizier-bonus", "elders", "djinns", "palms", "palaces", "tiles", "goods"]


def documented(example: str) -> list[dict]:
    """The standings table that follows the example's name in the rules page."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split(f"`examples/{example}`", 1)[1].split("\n\n", 2)[1]
    rows = []
    for line in block.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append({"rank": int(cells[0]), "player": cells[1], "score": int(cells[2]),
                     "breakdown": dict(zip(COLUMNS, map(int, cells[3:])))})
    return rows


def replay(example: str, at: int | None = None) -> dict:
    return replay_cli(ROOT / "examples" / example, at)


@pytest.mark.parametrize("example", ["five-tribes-3p.json", "five-tribes-3p-v1.json", "five-tribes-sheet-4p.json"])
def test_example_replays_to_the_documented_standings(example):
    result = replay(example)
    assert result["finished"] is True
    got = [{"rank": r["rank"], "player": r["player"], "score": r["score"], "breakdown": r["breakdown"]}
           for r in result["standings"]]
    assert got == documented(example)
    for row in got:
        assert sum(row["breakdown"].values()) == row["score"]


@pytest.mark.parametrize("example", ["five-tribes-3p.json", "five-tribes-3p-v1.json"])
def test_the_kept_example_is_a_whole_game_that_ends_on_the_last_camel(example):
    doc = json.loads((ROOT / "examples" / example).read_text(encoding="utf-8"))
    types = {e["type"] for e in doc["events"]}
    assert {"board-laid", "bid-placed", "meeples-moved", "turn-ended", "round-ended"} <= types
    assert doc["events"][-1]["type"] == "round-ended"
    assert not any(e["data"].get("no_move") for e in doc["events"] if e["type"] == "turn-ended")
    middle = replay(example, at=60)
    assert middle["finished"] is False


def test_the_kept_example_tracks_every_meeple_move_by_move():
    doc = json.loads((ROOT / "examples" / "five-tribes-3p.json").read_text(encoding="utf-8"))
    assert doc["events"][0]["data"]["rules_version"] == 2
    laid = next(e for e in doc["events"] if e["type"] == "board-laid")
    assert len(laid["data"]["meeples"]) == 30 and "seed" in laid["data"]
    moves = [e for e in doc["events"] if e["type"] == "meeples-moved"]
    assert moves and all(e["version"] == 2 and len(e["data"]["drops"]) == len(e["data"]["path"]) - 1 for e in moves)
    old = json.loads((ROOT / "examples" / "five-tribes-3p-v1.json").read_text(encoding="utf-8"))
    assert all("meeples" not in e["data"] for e in old["events"] if e["type"] == "board-laid")


def test_the_sheet_example_breakdown_is_hand_checkable():
    peti = documented("five-tribes-sheet-4p.json")[0]
    # 7 viziers × 3 (Jafaar), 30 for three opponents with fewer; Jafaar 6 + Hagis 10 + Al-Amin 5;
    # fish 3, wheat 2, silk, ivory + 2 wild goods (5 fakirs): suits of 6, 2, 1 kinds = 30 + 3 + 1.
    assert peti["breakdown"]["viziers"] == 7 * 3 and peti["breakdown"]["vizier-bonus"] == 30
    assert peti["breakdown"]["djinns"] == 21 and peti["breakdown"]["goods"] == 34
    assert re.search(r"\| 1 \| Peti \| 211 \|", DOC.read_text(encoding="utf-8"))
