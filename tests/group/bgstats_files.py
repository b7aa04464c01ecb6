"""BG Stats exports shaped as real ones are (tests/group/test_files_people_have.py,
tests/web/test_spreadsheet.py): what the app writes, with the wins each person should get."""
from __future__ import annotations

import uuid
from collections import Counter


PEOPLE = ["Anna", "Béla", "Csaba", "Dóra", "Emese"]
ANONYMOUS = 99
VILLAGERS = [f"Falusi {i}" for i in range(1, 16)]


def real_shaped_export() -> tuple[dict, Counter]:
    """A BG Stats export as the app writes one (ranks 0, winner flags, scores as text, an
    anonymous player, upper-case uuids from some devices), 500 plays, with the wins each
    person should get: 300 Azul (20 of them ties broken by hand), 50 Pandemic (co-op, no
    points: 30 won, 20 lost), 40 with decimal scores, 30 with the anonymous player in two
    seats, 20 Werewolf of 15 players (no points), 20 without a uuid, 30 marked ignored and
    10 broken ones (a score that is no number, a player the file does not list)."""
    players = [{"id": i + 1, "uuid": str(uuid.uuid4()), "name": n, "isAnonymous": False,
                "modificationDate": "2024-01-01 10:00:00", "bggUsername": ""} for i, n in enumerate(PEOPLE)]
    players += [{"id": 20 + i, "uuid": str(uuid.uuid4()), "name": n, "isAnonymous": False} for i, n in enumerate(VILLAGERS)]
    players.append({"id": ANONYMOUS, "uuid": str(uuid.uuid4()), "name": "Anonymous player", "isAnonymous": True})
    game = lambda id_, name, bgg, **flags: {"id": id_, "uuid": str(uuid.uuid4()), "name": name, "bggId": bgg,  # noqa: E731
                                            "highestWins": True, "cooperative": False, "noPoints": False, **flags}
    games = [game(1, "Azul", 230802), game(2, "Pandemic", 30549, cooperative=True, noPoints=True),
             game(3, "Terraforming Mars", 167791), game(4, "Werewolf", 925, noPoints=True)]
    wins: Counter = Counter()
    plays = []

    def play(n: int, game_id: int, scores: list[dict], **extra) -> dict:
        day = f"2024-{1 + n % 12:02d}-{1 + n % 28:02d} {10 + n % 12:02d}:{n % 60:02d}:00"
        found = {"uuid": str(uuid.uuid4()).upper() if n % 3 == 0 else str(uuid.uuid4()), "gameRefId": game_id,
                 "locationRefId": 0, "playDate": day, "entryDate": day, "modificationDate": day,
                 "durationMin": 30 + n % 90, "ignored": False, "manualWinner": False, "rounds": 0,
                 "board": "", "usesTeams": False, "scoringSetting": 0, "playerScores": scores}
        plays.append({**found, **extra})
        return plays[-1]

    def seat(ref: int, score, winner: bool, order: int) -> dict:
        return {"playerRefId": ref, "score": score, "winner": winner, "rank": 0, "seatOrder": order,
                "startPlayer": order == 1, "newPlayer": False, "role": ""}

    def count(names_won: list[str]) -> None:
        wins.update(names_won)

    for n in range(300):  # Azul: scores as text, the highest wins; 20 ties the table broke by hand
        a, b, c = n % 5, (n + 1) % 5, (n + 2) % 5
        points = [40 + n % 30, 45 + n % 20, 30 + n % 17]
        if n < 20:
            points = [60, 60, 30]  # a tie on points; the file's flag says who won it
        top = max(points)
        won = [i for i, p in enumerate(points) if p == top][:1]
        play(n, 1, [seat(r + 1, str(p), i in won, i + 1) for i, (r, p) in enumerate(zip((a, b, c), points))],
             manualWinner=n < 20)
        count([PEOPLE[(a, b, c)[i]] for i in won])
    for n in range(300, 350):  # Pandemic: co-op, no points ("" or null), everyone wins or nobody
        won = n < 330
        play(n, 2, [seat(r + 1, "" if n % 2 else None, won, i + 1) for i, r in enumerate((n % 5, (n + 2) % 5))])
        if won:
            count([PEOPLE[n % 5], PEOPLE[(n + 2) % 5]])
    for n in range(350, 390):  # decimal scores
        points = ["61.5", "61", "58.25"]
        play(n, 3, [seat(r + 1, p, i == 0, i + 1) for i, (r, p) in enumerate(zip((n % 5, (n + 1) % 5, (n + 3) % 5), points))])
        count([PEOPLE[n % 5]])
    for n in range(390, 420):  # the anonymous player at two seats of one play
        play(n, 1, [seat(n % 5 + 1, "50", True, 1), seat(ANONYMOUS, "40", False, 2), seat(ANONYMOUS, "35", False, 3)])
        count([PEOPLE[n % 5]])
    for n in range(420, 440):  # Werewolf: 15 players, no points, the village's side wins
        play(n, 4, [seat(20 + i, "", i < 11, i + 1) for i in range(15)])
        count(VILLAGERS[:11])
    for n in range(440, 460):  # no uuid (older exports, other apps' files)
        del play(n, 1, [seat(1, str(n), True, 1), seat(2, "10", False, 2)])["uuid"]
        count([PEOPLE[0]])
    for n in range(460, 490):  # marked ignored in BG Stats: left out of its statistics, and ours
        play(n, 1, [seat(1, "99", True, 1), seat(2, "1", False, 2)], ignored=True)
    for n in range(490, 500):  # broken: refused with the reason, the others imported
        play(n, 1, [seat(1, "lots" if n % 2 else "5", True, 1), seat(77 if n % 2 == 0 else 2, "4", False, 2)])
    doc = {"about": "This is a Play file that can be read by Board Game Stats.", "players": players,
           "locations": [], "games": games, "plays": plays, "challenges": [], "deletedObjects": [],
           "userInfo": {"meRefId": 1, "bggUsername": "", "exportDate": "2025-01-01 10:00:00",
                        "appVersion": "v5.7.1 (5070101)"}}
    return doc, wins
