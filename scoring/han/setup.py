"""Han: the state before move 1, from the players and the pinned board profile, and the
set-up refusals (docs/rules/han.md §1)."""
from __future__ import annotations

from scoring.base import Problem
from scoring.han.boards import playable, road_sites
from scoring.han.data import SIDES, deck_size, removed_default
from scoring.i18n import msg


def check_setup(players: list[dict], options: dict) -> list[Problem]:
    pinned = options["board"]
    if not (isinstance(pinned, dict) and isinstance(pinned.get("data"), dict)
            and isinstance(pinned.get("id"), str) and isinstance(pinned.get("version"), int)):
        return [Problem("docs/rules/han.md §1.5", msg("Choose a board profile."))]
    problems = playable(pinned["data"])
    if problems:
        return problems
    low, high = SIDES[pinned["data"]["side"]]["players"]
    if not low <= len(players) <= high:
        problems.append(Problem("docs/rules/han.md §1.1",
                                msg("This side is for %(low)s–%(high)s players, not %(count)s.", low=low, high=high, count=len(players))))
    if not 0 <= options["start_player"] < len(players):
        problems.append(Problem("docs/rules/han.md §1.2",
                                msg("The start player must be one of players 1–%(count)s.", count=len(players))))
    if not -1 <= options["removed_cards"] <= 30:
        problems.append(Problem("docs/rules/han.md §1.3",
                                msg("Cards removed: 0–30 (or -1), not %(removed_cards)s.", removed_cards=options['removed_cards'])))
    return problems


RULES_VERSION = 2  # 2: a lone fortress leaves a province empty (docs/rules/han.md §2.5)


def setup(players: list[dict], options: dict, rules_version: int = RULES_VERSION) -> dict:
    """The board before move 1; ``rules_version`` is the rules version the game pinned, kept in the
    state because version 1 read §2.5 differently (docs/rules/han.md §2.5)."""
    data = options["board"]["data"]
    n, side = len(players), data["side"]
    removed = options["removed_cards"] if options["removed_cards"] >= 0 else removed_default(side, n)
    return {
        "n": n, "side": side, "start": options["start_player"],
        "rules_version": rules_version,
        # Rule flow: whose turn it is and what the game waits for ("play", "final", "over").
        "next": {"seat": options["start_player"], "step": "play"},
        # the provinces by id, colour (what a piece costs) and sites; their names are the
        # presentation's, read from the pinned profile (boards.place_names)
        "areas": [{k: v for k, v in a.items() if k != "name"} for a in data["areas"]],
        "border_pairs": [list(b["areas"]) for b in data["border_sites"]],
        "harbour_areas": [h["area"] for h in data["harbours"]],
        "alliances": [list(a["areas"]) for a in data["alliances"]],
        "roads": data.get("roads") or None,
        "road_sites": road_sites(data) if data.get("roads") else None,
        "fortress": options["fortress"], "fortress_rule": options["fortress_rule"],
        "end_all_placed": options["end_all_placed"],
        "pieces": [], "scored": {}, "last_round": False, "deck_outs": 0,
        "deck": {"removed": removed, "size": deck_size(side, n, removed),
                 "drawn": 0, "discarded": 0, "reshuffle": None},
        "entered_alliances": {}, "chains": None, "tally": None,
        "point_cards": [],
        "totals": [0] * n,
    }


def setup_v1(players: list[dict], options: dict) -> dict:
    return setup(players, options, rules_version=1)
