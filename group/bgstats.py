"""BG Stats files (docs/people.md §8): a finished play as a ``.bgsplay`` document and as
the app's create-play link, and a BG Stats export read back as score-only plays.

Pure functions over plays as the read model gives them (group/plays.py:read) and over
parsed JSON; nothing here touches the database.
"""
from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from urllib.parse import quote

from events.runtime import greenlets
from scoring import GAMES
from scoring.base import Problem, Text, text
from scoring.i18n import msg
from scoring import text as text_policy
from scoring.schema import unencodable_path

SOURCE = "Tablescribe"
_NAMESPACE = uuid.UUID("8a3c7d0e-3f51-4b8e-9d0a-5d7f2b6c1e44")  # this app's uuids, stable per play
MAX_PLAYS = 10_000
FIRST_YEAR, LAST_YEAR = 1900, 2999  # a play's date (docs/people.md §8)
_KIND_OF_BGG = {}
for _game in GAMES.values():  # the registry's order: 31594 is the move-by-move Dragon, not its tally
    if _game.bgg_id is not None:
        _KIND_OF_BGG.setdefault(_game.bgg_id, _game.kind)


class BadBGStats(ValueError):
    """The file is refused; ``problems`` say where and why (HU/EN)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.en for p in problems))
        self.problems = problems


def _uuid(*parts) -> str:
    return str(uuid.uuid5(_NAMESPACE, "/".join(map(str, parts))))


def _utc(moment: str) -> str:
    """A stored time as BG Stats' format writes dates: UTC, "YYYY-MM-DD HH:mm:ss"
    (docs/people.md §8: its push format's playDate is the play's end in UTC)."""
    return datetime.fromisoformat(moment).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _players(play: dict, names: dict[int, str]) -> list[dict]:
    """The play's seats in seat order, each named as the roster knows the person."""
    return [{**s, "shown": names.get(s["person"], s["name"]) if s["person"] else s["name"]}
            for s in sorted(play["seats"], key=lambda s: s["seat"])]


def play_document(play: dict, game_name: str, names: dict[int, str], start: int = 0, me: int | None = None) -> dict:
    """One finished play as a ``.bgsplay`` file, field by field as BG Stats writes its own
    (docs/people.md §8): about, players, locations, games, plays, userInfo. ``start``: the
    seat that began the game; ``me``: the seat of the phone asking (``userInfo.meRefId``,
    whom BG Stats takes for its own user), the first seat's when the phone holds none."""
    seats = _players(play, names)
    stamp = _utc(play["ended_at"])
    me_id = next((i + 1 for i, s in enumerate(seats) if s["seat"] == me), 1)
    return {
        "about": f"{SOURCE}: play {play['game_id']}, exported for BG Stats",
        "players": [{"id": i + 1, "name": s["shown"], "isAnonymous": False, "bggUsername": "",
                     "uuid": _uuid("person", s["person"] or s["shown"]), "modificationDate": stamp}
                    for i, s in enumerate(seats)],
        "locations": [{"id": 1, "name": SOURCE, "uuid": _uuid("location", SOURCE), "modificationDate": stamp}],
        "games": [{"id": 1, "name": game_name, "bggId": play["bgg_id"] or 0, "highestWins": True,
                   "cooperative": False, "noPoints": False, "usesTeams": False,
                   "uuid": _uuid("game", play["key"]), "modificationDate": stamp}],
        "plays": [{"uuid": own_play_uuid(play["game_id"]), "gameRefId": 1, "locationRefId": 1,
                   "playDate": stamp, "durationMin": play["seconds"] // 60,
                   "entryDate": stamp, "modificationDate": stamp, "ignored": False, "usesTeams": False,
                   "manualWinner": False, "rounds": 0, "board": "", "bggId": 0, "scoringSetting": 0,
                   "comments": f"{SOURCE} {play['game_id']}",
                   "playerScores": [{"score": str(s["score"]), "winner": s["rank"] == 1, "rank": s["rank"],
                                     "seatOrder": s["seat"] + 1, "startPlayer": s["seat"] == start,
                                     "playerRefId": i + 1, "newPlayer": False, "role": ""}
                                    for i, s in enumerate(seats)]}],
        "userInfo": {"meRefId": me_id, "bggUsername": ""},
    }


LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def create_play_link(play: dict, game_name: str, names: dict[int, str], start: int = 0) -> str:
    """BG Stats' create-play link: on a phone with the app it opens the play there, and as
    an https link it also opens in a browser where the app is missing (docs/people.md §8).
    BG Stats' published format for pushing plays from other apps: playDate is the play's
    end in UTC; scores are numbers; ``sourceGameId`` and each ``sourcePlayerId`` are the
    ids BG Stats remembers per source, so a game and a person are matched once and found again."""
    data = {"sourceName": SOURCE, "sourcePlayId": play["game_id"],
            "playDate": _utc(play["ended_at"]), "durationMin": play["seconds"] // 60,
            "location": SOURCE, "board": "", "comments": f"{SOURCE} {play['game_id']}",
            "game": {"name": game_name, "bggId": play["bgg_id"] or 0, "highestWins": True,
                     "noPoints": False, "sourceGameId": play["key"]},
            "players": [{"name": s["shown"], "score": s["score"], "winner": s["rank"] == 1,
                         "startPlayer": s["seat"] == start, "rank": s["rank"], "role": "",
                         "sourcePlayerId": source_player_id(s)}
                        for s in _players(play, names)]}
    return LINK + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


def source_player_id(seat: dict) -> str:
    """The roster's person id, stable across renames and games ("person-7"); a seat nobody
    linked is its name as the game recorded it ("name-Anna")."""
    return f"person-{seat['person']}" if seat["person"] else f"name-{seat['name']}"


# ---- reading a BG Stats export ---------------------------------------------------------

MAX_SEATS = 30  # a play's seats: BG Stats logs parties of 15 and more
_NUMBER = re.compile(r"(-?[0-9]{1,9})(?:[.,]([0-9]{1,6}))?")  # a score: "61", "61.5" (a comma as some locales write it)
NO_POINTS = None  # a seat's score in a play without points (co-op, no-points games, a score left empty)


@dataclass
class Export:
    """What a BG Stats export holds for the statistics: the plays read, how many the file
    marks ``ignored`` (left out of BG Stats' own statistics too), and each play refused
    with its reason (the others are imported: one broken play never refuses the file)."""

    plays: list[dict]
    ignored: int = 0
    refused: list[Problem] = field(default_factory=list)


def _bad(message: Text) -> BadBGStats:
    return BadBGStats([Problem("people §8", message)])


def _by_id(doc: dict, key: str, required: bool = True) -> dict[int, dict]:
    """The file's players, games or locations by id. A malformed list refuses the file (no
    play could be read); an item whose name the text policy refuses is kept with its
    reason, and refuses only the plays that name it."""
    items = doc.get(key, [] if not required else None)
    if not isinstance(items, list):
        raise _bad(msg("\"%(key)s\" must be a list.", key=key))
    found: dict[int, dict] = {}
    for i, item in enumerate(items, start=1):
        if not isinstance(item, dict) or type(item.get("id")) is not int or item["id"] in found:
            raise _bad(msg("%(key)s #%(i)s: needs a unique integer \"id\".", key=key, i=i))
        rule = text_policy.NAME if key == "players" else text_policy.TITLE
        try:
            found[item["id"]] = {**item, "name": text_policy.clean(item.get("name"), rule)}
        except text_policy.BadText as refused:
            found[item["id"]] = {**item, "refused": msg("%(key)s #%(i)s: %(why)s", key=key, i=i, why=refused.why)}
    return found


def read_export(doc) -> Export:
    """A BG Stats export (the structure ``play_document`` writes, docs/people.md §8) →
    the plays as {source_id, date, started_at, game: {name, bggId, highestWins,
    cooperative, noPoints}, kind, scores: [{name, score, rank, winner, seat, start,
    anonymous}]}, the plays marked ignored counted, each broken play refused with its
    reason. BadBGStats only when the file as a whole is no export."""
    if not isinstance(doc, dict):
        raise _bad(msg("This is no BG Stats export (a JSON object is needed)."))
    where = unencodable_path(doc)
    if where is not None:  # a lone surrogate: JSON can carry it, UTF-8 cannot store it
        raise _bad(msg("The text at %(value)s is not valid Unicode.", value=where[:80]))
    players, games = _by_id(doc, "players"), _by_id(doc, "games")
    locations = _by_id(doc, "locations", required=False)
    plays = doc.get("plays")
    if not isinstance(plays, list) or len(plays) > MAX_PLAYS:
        raise _bad(msg("\"plays\" must be a list of at most %(MAX_PLAYS)s.", MAX_PLAYS=MAX_PLAYS))
    out = Export([])
    # 10,000 plays take a while: the worker's other connections run meanwhile (greenlets.cooperate)
    for i, play in enumerate(greenlets.cooperating(plays, 64), start=1):
        if isinstance(play, dict) and play.get("ignored") is True:
            out.ignored += 1
            continue
        try:
            out.plays.append(_read_play(i, play, players, games, locations))
        except BadBGStats as refused:
            out.refused += refused.problems
    return out


def _read_play(n: int, play, players, games, locations) -> dict:
    where = msg("play #%(n)s", n=n)
    if not isinstance(play, dict):
        raise _bad(msg("%(where)s: must be an object.", where=where))
    game = games.get(play.get("gameRefId")) if type(play.get("gameRefId")) is int else None
    if game is None:
        raise _bad(msg("%(where)s: gameRefId %(ref)s is not among the games.", where=where, ref=repr(play.get("gameRefId"))))
    _named(where, game)
    if "locationRefId" in play and play["locationRefId"] not in (None, 0):
        if play["locationRefId"] not in locations:
            raise _bad(msg("%(where)s: locationRefId %(ref)s is not among the locations.", where=where, ref=repr(play["locationRefId"])))
        _named(where, locations[play["locationRefId"]])
    ended = _date(play.get("playDate"), where)
    minutes = play.get("durationMin", 0)
    if type(minutes) is not int or not 0 <= minutes <= 60 * 24 * 14:
        raise _bad(msg("%(where)s: durationMin must be a whole number 0–20160.", where=where))
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not 1 <= len(scores) <= MAX_SEATS:
        raise _bad(msg("%(where)s: needs 1–%(most)s playerScores.", where=where, most=MAX_SEATS))
    read = [_read_score(where, i, s, players) for i, s in enumerate(scores, start=1)]
    about = _game_of(game)
    _settle_seats_and_ranks(read, about)
    source_id = play.get("uuid") if isinstance(play.get("uuid"), str) and len(play["uuid"]) <= 64 else ""
    return {"source_id": source_id, "started_at": _stamp(ended - timedelta(minutes=minutes)),
            "date": _stamp(ended), "game": about, "kind": _kind_of(game, about), "scores": read}


def _named(where: Text, item: dict) -> None:
    if "refused" in item:
        raise _bad(msg("%(where)s: %(why)s", where=where, why=item["refused"]))


def _game_of(game: dict) -> dict:
    bgg = game.get("bggId") if type(game.get("bggId")) is int and 0 < game.get("bggId") < 10**8 else None
    return {"name": game["name"], "bggId": bgg, "highestWins": game.get("highestWins", True) is not False,
            "cooperative": game.get("cooperative") is True, "noPoints": game.get("noPoints") is True}


def _kind_of(game: dict, about: dict) -> str:
    """The game kind a play counts under: one of this app's own files comes back under the
    game it was exported from (its game uuid names it, docs/people.md §8), else by its
    BoardGameGeek id, else the score pad (under the game's name)."""
    own = str(game.get("uuid") or "").casefold()
    for kind in GAMES:
        if own == _uuid("game", kind):
            return kind
    if own == _uuid("game", f"scorepad:{about['name'].casefold()}"):
        return "scorepad"
    return _KIND_OF_BGG.get(about["bggId"], "scorepad")


def own_play_uuid(game_id: str) -> str:
    """The uuid this app's ``.bgsplay`` gives the play of ``game_id``: how the file is
    known again when it comes back (docs/people.md §8)."""
    return _uuid("play", game_id)


def _stamp(moment: datetime) -> str:
    """As the logs write times: UTC, ISO 8601 with milliseconds."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")


def _date(raw, where) -> datetime:
    """A play's date as BG Stats' format has it: when the play ended, in UTC,
    "YYYY-MM-DD HH:mm:ss" (docs/people.md §8), in the years a play can have happened
    (year 1 or 9999 would leave the calendar when moved back by the play's length)."""
    try:
        if not isinstance(raw, str) or len(raw) != 19:
            raise ValueError
        moment = datetime.strptime(raw, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
        if not FIRST_YEAR <= moment.year <= LAST_YEAR:
            raise ValueError
        return moment
    except ValueError:
        raise _bad(msg("%(where)s: playDate must be \"YYYY-MM-DD HH:mm:ss\" in a year %(first)s–%(last)s, not %(raw)s.",
                       where=where, first=FIRST_YEAR, last=LAST_YEAR, raw=repr(str(raw)[:30]))) from None


def _read_score(where, i: int, s, players) -> dict:
    if not isinstance(s, dict):
        raise _bad(msg("%(where)s, score #%(i)s: must be an object.", where=where, i=i))
    player = players.get(s.get("playerRefId")) if type(s.get("playerRefId")) is int else None
    if player is None:
        raise _bad(msg("%(where)s: playerRefId %(ref)s is not among the players.", where=where, ref=repr(s.get("playerRefId"))))
    _named(where, player)
    rank = s.get("rank") if type(s.get("rank")) is int and 0 < s.get("rank") <= MAX_SEATS else None
    seat = s.get("seatOrder") if type(s.get("seatOrder")) is int else None
    return {"name": player["name"], "score": _score(where, player, s.get("score")), "rank": rank,
            "winner": s.get("winner") is True, "seat": seat, "start": s.get("startPlayer") is True,
            "anonymous": player.get("isAnonymous") is True}


def _score(where, player: dict, raw) -> int | float | None:
    """A score as BG Stats writes it (text, "61" or "61.5"; a number from other writers);
    empty or null is a play without points (co-op, a no-points game)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return NO_POINTS
    if type(raw) is int and abs(raw) < 10**9:
        return raw
    found = _NUMBER.fullmatch(raw.strip()) if isinstance(raw, str) else None
    if found is None:
        raise _bad(msg("%(where)s, %(name)s: the score %(score)s is not a number.", where=where,
                       name=player["name"], score=repr(str(raw)[:20])))
    whole, fraction = found.groups()
    return float(f"{whole}.{fraction}") if fraction and fraction.strip("0") else int(whole)


def _settle_seats_and_ranks(scores: list[dict], game: dict) -> None:
    """Seats from seatOrder when it numbers them 1..n, else in file order. Ranks as the
    file gives them; where it gives none (BG Stats writes 0), its ``winner`` flags decide
    who won — a tie the table broke by hand stays broken — and the others rank by score
    behind them; without flags, by score; a play nobody won (a co-op lost, no points and
    no winner) ranks every seat 2, so no win is counted (docs/people.md §8)."""
    orders = [s["seat"] for s in scores]
    valid = sorted(o for o in orders if o is not None) == list(range(1, len(scores) + 1))
    for i, s in enumerate(scores):
        s["seat"] = s["seat"] - 1 if valid else i
    if all(s["rank"] for s in scores):
        return
    winners = [s for s in scores if s["winner"]]
    scored = not game["noPoints"] and all(s["score"] is not NO_POINTS for s in scores)
    if not winners and (not scored or game["cooperative"]):
        for s in scores:
            s["rank"] = 2
        return
    for s in scores:
        if s["winner"]:
            s["rank"] = 1
            continue
        better = [o for o in scores if o["winner"] or _beats(o, s, game["highestWins"])] if scored else winners
        s["rank"] = len(better) + 1
    for s in scores:
        s["winner"] = s["rank"] == 1


def _beats(one: dict, other: dict, highest: bool) -> bool:
    return one["score"] > other["score"] if highest else one["score"] < other["score"]
