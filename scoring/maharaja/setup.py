"""Maharaja's set-up: the board as the box is opened, then the set-up steps the table
records (governor track, characters, starting houses; docs/rules/maharaja.md §2–§5)."""
from __future__ import annotations

from scoring.base import Problem
from scoring.i18n import msg
from scoring.maharaja import boards
from scoring.maharaja.apply import advance
from scoring.maharaja.data import (CITIES, HOUSES_PER_COLOUR, OUTER_SITES, START_GOLD, START_HOUSES,
                                   TRACK_BOXES, VILLAGES, rule)


def check_setup(players: list[dict], options: dict) -> list[Problem]:
    pinned = options.get("board") or {}
    if pinned:
        data = pinned.get("data")
        problems = boards.validate(data) if isinstance(data, dict) else \
            [Problem(boards.RULE, msg("Not a board profile."))]
        if problems:
            return problems
    homes = options.get("homes", "")
    if homes and sorted(homes) != list(CITIES):
        return [Problem(rule(2), msg("Homes: each letter A–G exactly once (e.g. CAGBEDF), not “%(homes)s”.", homes=homes))]
    return []


def outer_sites(players: int, options: dict) -> int:
    """Outer palace sites free per city: with fewer than 5 players and the neutral
    palaces, one site per unused colour is taken (§2)."""
    if options.get("neutral_palaces") and players < 5:
        return OUTER_SITES - (5 - players)
    return OUTER_SITES


RULES_VERSION = 2  # 2: a journey passes a village; a home point alone breaks no monopoly (§8, §15)


def setup(players: list[dict], options: dict, rules_version: int = RULES_VERSION) -> dict:
    """The board before the first event; ``rules_version`` is the rules version the game pinned
    (1 for games recorded before the decisions of version 2)."""
    n = len(players)
    short = options.get("short", False)
    state = {
        "rules_version": rules_version, "n": n, "phase": "setup", "round": 0,
        "short": short, "auction": options.get("auction", False),
        "yogi": options.get("yogi", False), "homes": options.get("homes", ""),
        "secret_gold": options.get("secret_gold", True),
        "palaces_each": 6 if short else 7, "village_cap": 1 if n == 2 else 2,
        "outer_sites": outer_sites(n, options),
        "track": [None] * TRACK_BOXES, "maharaja": None, "last_round": False,
        "characters": [None] * (7 if options.get("yogi") else 6),
        "gold": [START_GOLD] * n, "reserve": [START_HOUSES] * n,
        "bank_houses": [HOUSES_PER_COLOUR - START_HOUSES] * n,
        "palaces": [], "architects": [None] * n, "chips": [0] * n, "chips_bank": 7,
        "cities": {c: {"houses": [0] * n, "inner": None, "outer": []} for c in CITIES},
        "villages": [[] for _ in range(VILLAGES)], "start_houses": 0,
        "acted": [], "turn": None, "picks": [], "evaluations": [], "renounced": [],
        "next": None, **_from_board((options.get("board") or {}).get("data")),
    }
    return advance(state)


def setup_v1(players: list[dict], options: dict) -> dict:
    return setup(players, options, rules_version=1)


def _from_board(data: dict | None) -> dict:
    """What the rules keep of a pinned city-board profile: its roads. The names and colours
    the table gave cities and villages are the presentation's, read from the options
    (``boards.place_names``)."""
    return {"roads": data["roads"] if data else []}
