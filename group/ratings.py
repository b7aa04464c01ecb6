"""Skill ratings: who is strongest at which game, and how sure we are (docs/people.md §9).

A pure function of the plays the read model gives (group/plays.py): every finished,
verified play of a game, oldest first, updates the ratings of the people who sat at it
with the Weng–Lin Plackett–Luce model of the ``openskill`` library. Nothing here folds a
game or reads the database, so the ratings equal a rebuild by construction: the same
plays in the same order give the same numbers.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

# The library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), written out so that
# docs/people.md §9 can name them and a library upgrade cannot change them unseen.
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
PROVISIONAL_BELOW = 5  # fewer plays of a game than this: the rating is marked provisional


def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass
class Rating:
    """One person's rating at one game: mean, uncertainty and how it moved."""
    mu: float = MU
    sigma: float = SIGMA
    plays: int = 0
    trend: list[dict] = field(default_factory=list)  # after each play: {game_id, ended_at, conservative}

    @property
    def conservative(self) -> float:
        """The number the pages rank by: mean − 3σ, so few plays never rank high by luck."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.plays < PROVISIONAL_BELOW

    def copy(self) -> "Rating":
        return Rating(self.mu, self.sigma, self.plays, list(self.trend))

    def as_dict(self) -> dict:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "rating": round(self.conservative, 2),
                "low": round(self.mu - 3 * self.sigma, 2), "high": round(self.mu + 3 * self.sigma, 2),
                "plays": self.plays, "provisional": self.provisional}


def _teams(play: dict) -> list[tuple[int, int]]:
    """(person, rank) of each person at the play, once each: a person who sat twice (two
    seats later merged into one person) counts with their better place. Seats linked to
    no person are not rated: a rating compares the group's people."""
    best: dict[int, int] = {}
    for seat in play["seats"]:
        person = seat["person"]
        if person is not None:
            best[person] = min(seat["rank"], best.get(person, seat["rank"]))
    return sorted(best.items())


def ratings(plays: list[dict], previous: dict | None = None) -> dict[str, dict[int, Rating]]:
    """Per game key (the statistics' grouping: a kind, a score pad per named game), each
    person's rating after every play, oldest first. Ties share a rank, as the standings do."""
    return {key: table for key, (_, table) in rate(plays, previous).items()}


def rate(plays: list[dict], previous: dict | None = None) -> dict[str, tuple[list, dict[int, Rating]]]:
    """The ratings per game key with what they were worked out from (the plays' order,
    places and people): ``previous`` (an earlier answer of this function) is reused for a
    game whose plays did not change and continued for one that only gained newer plays, so
    a game ending costs its own play, not the group's history; anything else (a void, a
    merge, a revert) is rated again from that game's first play. Either way the numbers
    are those of rating every play from nothing."""
    rater = model()
    per_key: dict[str, list[tuple]] = defaultdict(list)
    for play in sorted(plays, key=lambda p: (p["ended_at"], p["game_id"])):
        teams = _teams(play)
        if len(teams) >= 2:  # nobody to be ahead of otherwise
            per_key[play["key"]].append((play["game_id"], play["ended_at"], tuple(teams)))
    out = {}
    for key, signature in per_key.items():
        done, table = (previous or {}).get(key, ([], {}))
        if signature[:len(done)] != done:
            done, table = [], {}
        table = {person: r.copy() for person, r in table.items()} if len(done) < len(signature) else table
        for game_id, ended_at, teams in signature[len(done):]:
            _rate_play(rater, table, game_id, ended_at, teams)
        out[key] = (signature, table)
    return out


def _rate_play(rater, table: dict[int, Rating], game_id: str, ended_at: str, teams) -> None:
    current = [table.setdefault(person, Rating()) for person, _ in teams]
    rated = rater.rate([[rater.rating(mu=r.mu, sigma=r.sigma)] for r in current],
                       ranks=[rank for _, rank in teams])
    for rating, [new] in zip(current, rated):
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.plays += 1
        rating.trend.append({"game_id": game_id, "ended_at": ended_at, "rating": round(rating.conservative, 2)})


def ranked(table: dict[int, Rating]) -> list[tuple[int, Rating]]:
    """A game's people, best first: settled ratings before provisional ones."""
    return sorted(table.items(), key=lambda item: (item[1].provisional, -item[1].conservative, item[0]))


def chance_ahead(table: dict[int, Rating], a: int, b: int) -> float | None:
    """The chance that ``a`` finishes ahead of ``b`` at this game, by the model; None when
    either has never played it."""
    if a not in table or b not in table:
        return None
    rater = model()
    win_a, _ = rater.predict_win([[rater.rating(mu=table[a].mu, sigma=table[a].sigma)],
                                  [rater.rating(mu=table[b].mu, sigma=table[b].sigma)]])
    return round(win_a, 3)
