"""The numbers behind the statistics pages and ``GET /api/stats``: pure functions over
the plays the read model gives (group/plays.py:read). Nothing here folds a game.

A winner is a seat ranked 1 (shared first places are all winners). The first player is
seat 1 of the seat order the game recorded (docs/people.md §7).
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict


def _mine(plays: list[dict], person: int) -> list[tuple[dict, dict]]:
    return [(p, s) for p in plays for s in p["seats"] if s["person"] == person]


def seats_by_person(plays: list[dict]) -> dict[int, list[tuple[dict, dict]]]:
    """Each person's (play, seat) pairs, in one pass (the API's figures for everyone)."""
    out: dict[int, list[tuple[dict, dict]]] = defaultdict(list)
    for play in plays:
        for seat in play["seats"]:
            if seat["person"] is not None:
                out[seat["person"]].append((play, seat))
    return out


def person_figures(plays: list[dict], person: int, mine: list[tuple[dict, dict]] | None = None) -> dict:
    """Plays, wins, win rate, per game average/best/worst, average per category,
    last played, time played and streaks of one person (``mine``: their seats, if known)."""
    mine = _mine(plays, person) if mine is None else mine
    wins = [p for p, s in mine if s["rank"] == 1]
    by_key: dict[str, list[tuple[dict, dict]]] = defaultdict(list)
    for play, seat in mine:
        by_key[play["key"]].append((play, seat))
    return {"plays": len(mine), "wins": len(wins), "win_rate": _rate(len(wins), len(mine)),
            "last_played": max((p["ended_at"] for p, _ in mine), default=None),
            "seconds": sum(p["seconds"] for p, _ in mine), "turns": _turn_times(mine),
            "streaks": _streaks([s["rank"] == 1 for _, s in mine]),
            "games": {key: _per_game(rows) for key, rows in sorted(by_key.items())}}


def _per_game(rows: list[tuple[dict, dict]]) -> dict:
    scored = [(p, s) for p, s in rows if s["score"] is not None]  # a play without points has no score
    scores = [s["score"] for _, s in scored]
    best = max(scored, key=lambda r: r[1]["score"], default=(_NONE, _NONE))
    worst = min(scored, key=lambda r: r[1]["score"], default=(_NONE, _NONE))
    totals: dict[str, list[int]] = defaultdict(list)
    for _, seat in rows:
        for category, points in seat["breakdown"].items():
            totals[category].append(points)
    wins = sum(1 for _, s in rows if s["rank"] == 1)
    return {"plays": len(rows), "wins": wins, "win_rate": _rate(wins, len(rows)),
            "average": _avg(scores), "best": best[1]["score"], "best_game": best[0]["game_id"],
            "worst": worst[1]["score"], "worst_game": worst[0]["game_id"],
            "title": rows[0][0]["title"], "kind": rows[0][0]["kind"],
            "categories": {c: _avg(v) for c, v in totals.items()}, "turns": _turn_times(rows)}


_NONE = {"score": None, "game_id": None}  # best and worst of a game played without points only


def _turn_times(rows: list[tuple[dict, dict]]) -> dict:
    """Turn times over the seats whose game kept them (docs/events.md, "Time at the table"):
    turns, total and average seconds, and the longest turn with its game and event."""
    timed = [(p, s) for p, s in rows if s.get("turns")]
    turns = sum(s["turns"] for _, s in timed)
    total = sum(s["turn_seconds"] for _, s in timed)
    longest = max(timed, key=lambda r: r[1]["longest_turn"] or 0, default=None)
    return {"plays": len(timed), "turns": turns, "seconds": round(total, 1),
            "average": round(total / turns, 1) if turns else None,
            "longest": None if longest is None else {"seconds": longest[1]["longest_turn"],
                                                     "game": longest[0]["game_id"],
                                                     "at": longest[1]["longest_turn_at"]}}


def _streaks(outcomes: list[bool]) -> dict:
    """The longest run of wins, of games without a win, and the run going on now."""
    longest = {True: 0, False: 0}
    run, last = 0, None
    for won in outcomes:
        run = run + 1 if won == last else 1
        last = won
        longest[won] = max(longest[won], run)
    return {"longest_wins": longest[True], "longest_losses": longest[False],
            "current": run, "current_is_win": bool(last)}


def games_summary(plays: list[dict]) -> dict[str, dict]:
    """Per game: plays and average winning score (the overview's list)."""
    winning: dict[str, list[int]] = defaultdict(list)
    counts: Counter = Counter()
    for play in plays:
        counts[play["key"]] += 1
        winning[play["key"]] += [s["score"] for s in play["seats"] if s["rank"] == 1 and s["score"] is not None]
    return {key: {"plays": counts[key], "average_winning": _avg(winning[key])} for key in sorted(counts)}


def game_figures(plays: list[dict], key: str) -> dict:
    """One game's plays, score distribution, average winning score, first-player
    advantage and how often the winner led each scoring category."""
    mine = [p for p in plays if p["key"] == key]
    scores = [s["score"] for p in mine for s in p["seats"] if s["score"] is not None]
    winning = [s["score"] for p in mine for s in p["seats"] if s["rank"] == 1 and s["score"] is not None]
    first_wins = [p for p in mine if any(s["seat"] == 0 and s["rank"] == 1 for s in p["seats"])]
    expected = sum(1 / max(p["players"], 1) for p in mine)
    return {"plays": len(mine), "scores": len(scores), "average": _avg(scores),
            "distribution": _histogram(scores), "average_winning": _avg(winning),
            "first_player_wins": len(first_wins), "first_player_rate": _rate(len(first_wins), len(mine)),
            "first_player_expected": round(expected / len(mine), 3) if mine else None,
            "deciding": _deciding(mine), "turn_times": turn_times_by_person(mine), "durations": durations(mine), "longest_turns": longest_turns(mine)}


def durations(plays: list[dict]) -> dict[int, dict]:
    """How long a game takes by its number of players: plays, average and longest seconds
    (without breaks where the game's turn times are known)."""
    by_count: dict[int, list[int]] = defaultdict(list)
    for play in plays:
        by_count[play["players"]].append(play["seconds"])
    return {n: {"plays": len(v), "average": _avg(v), "longest": max(v)} for n, v in sorted(by_count.items())}


def longest_turns(plays: list[dict], n: int = 5) -> list[dict]:
    """The longest turns: each seat's longest of its game, the longest first."""
    turns = [{"seconds": s["longest_turn"], "game": p["game_id"], "at": s["longest_turn_at"],
              "person": s["person"], "name": s["name"]}
             for p in plays for s in p["seats"] if s.get("longest_turn")]
    return sorted(turns, key=lambda t: (-t["seconds"], t["game"]))[:n]


def turn_times_by_person(plays: list[dict]) -> list[dict]:
    """Per person: turns, total and average turn time in these plays (one game's page)."""
    rows: dict[int, list[tuple[dict, dict]]] = defaultdict(list)
    for play in plays:
        for seat in play["seats"]:
            if seat["person"] is not None:
                rows[seat["person"]].append((play, seat))
    figures = [{"person": person, **_turn_times(mine)} for person, mine in rows.items()]
    return sorted((f for f in figures if f["turns"]), key=lambda f: (-(f["average"] or 0), f["person"]))


def _deciding(plays: list[dict]) -> dict[str, dict]:
    """Per category: in how many games (that scored it) a winner had the most of it."""
    led, scored = Counter(), Counter()
    for play in plays:
        categories = {c for s in play["seats"] for c in s["breakdown"]}
        for category in categories:
            top = max(s["breakdown"].get(category, 0) for s in play["seats"])
            scored[category] += 1
            if any(s["rank"] == 1 and s["breakdown"].get(category, 0) == top for s in play["seats"]):
                led[category] += 1
    return {c: {"games": scored[c], "winner_led": led[c], "rate": _rate(led[c], scored[c])}
            for c in sorted(scored, key=lambda c: (-_rate(led[c], scored[c]), c))}


def _histogram(scores: list[int | float], bins: int = 10) -> list[dict]:
    if not scores:
        return []
    scores = [math.floor(s) for s in scores]  # a decimal score (61.5) counts in its whole number's bin
    low, high = min(scores), max(scores)
    width = max(1, -(-(high - low + 1) // bins))
    counts = Counter((s - low) // width for s in scores)
    return [{"low": low + i * width, "high": low + (i + 1) * width - 1, "count": counts.get(i, 0)}
            for i in range((high - low) // width + 1)]


def head_to_head(plays: list[dict], people: list[int]) -> dict:
    """The plays where all of ``people`` sat: each one's wins there, and for each pair how
    often one finished ahead of the other, by how much on average, per game."""
    together = [p for p in plays if set(people) <= {s["person"] for s in p["seats"]}]
    pairs = []
    for i, a in enumerate(people):
        for b in people[i + 1:]:
            pairs.append(_pair(together, a, b))
    wins = {person: [p["game_id"] for p, s in _mine(together, person) if s["rank"] == 1]
            for person in people}
    return {"plays": [p["game_id"] for p in together], "wins": wins, "pairs": pairs}


def _pair(plays: list[dict], a: int, b: int) -> dict:
    """Per game, who of two finished ahead and by how many points on average; across all
    games only who finished ahead: points of different games do not add up (Han's 40 is
    not Carcassonne's 40), so the all-games row has no margin."""
    rows = defaultdict(lambda: {"a": [], "b": [], "tie": [], "margin": [], "title": ""})
    for play in plays:
        seat = {s["person"]: s for s in play["seats"]}
        sa, sb = seat[a], seat[b]
        for key in (play["key"], ""):  # "": every game together
            row = rows[key]
            row["title"] = play["title"] if key else ""
            side = "a" if sa["rank"] < sb["rank"] else "b" if sb["rank"] < sa["rank"] else "tie"
            row[side].append(play["game_id"])
            if key and sa["score"] is not None and sb["score"] is not None:
                row["margin"].append(sa["score"] - sb["score"])
    return {"a": a, "b": b, "games": {key: {"a": r["a"], "b": r["b"], "tie": r["tie"],
                                            "margin": _avg(r["margin"]), "title": r["title"]}
                                      for key, r in sorted(rows.items())}}


def totals(plays: list[dict]) -> dict[int, dict]:
    """Per person: plays, wins, the first and the last play (the roster list,
    ``GET /api/people``; plays come oldest first)."""
    out: dict[int, dict] = defaultdict(lambda: {"plays": 0, "wins": 0, "first_played": None, "last_played": None})
    for play in plays:
        for seat in play["seats"]:
            if seat["person"] is None:
                continue
            row = out[seat["person"]]
            row["plays"] += 1
            row["wins"] += seat["rank"] == 1
            row["first_played"] = row["first_played"] or play["started_at"] or play["ended_at"]
            row["last_played"] = play["ended_at"]
    return dict(out)


def _avg(values) -> float | None:
    values = list(values)
    return round(sum(values) / len(values), 1) if values else None


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def narrow(plays: list[dict], won: tuple[int, ...] = (), ahead: tuple[int, ...] = (), behind: tuple[int, ...] = (),
           games: set[str] = frozenset(), first_won: bool = False) -> list[dict]:
    """What a number counted, as the plays behind it: those of ``games`` (any when empty)
    that every person of ``won`` won, that the first player won (``first_won``), and where
    every person of ``ahead`` finished ahead of every person of ``behind``."""
    out = []
    for play in plays:
        seat = {s["person"]: s for s in play["seats"]}
        if games and play["game_id"] not in games:
            continue
        if any(p not in seat or seat[p]["rank"] != 1 for p in won):
            continue
        if first_won and not any(s["seat"] == 0 and s["rank"] == 1 for s in play["seats"]):
            continue
        if ahead and behind and not all(a in seat and b in seat and seat[a]["rank"] < seat[b]["rank"]
                                        for a in ahead for b in behind):
            continue
        out.append(play)
    return out
