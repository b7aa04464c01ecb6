"""BG Stats files (docs/people.md §8): a finished play as a ``.bgsplay`` document and as
the app's create-play link, and a BG Stats export read back as score-only plays.

Pure functions over plays as the read model gives them (group/plays.py:read) and over
parsed JSON; nothing here touches the database.
"""
from __future__ import annotations

import json
import re
import unicodedata
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import quote

from events import store
from scoring import GAMES
from scoring.base import Problem, Text, text
from scoring.i18n import msg
from scoring.schema import has_direction_control, unencodable_path

SOURCE = "Tablescribe"
_NAMESPACE = uuid.UUID("8a3c7d0e-3f51-4b8e-9d0a-5d7f2b6c1e44")  # this app's uuids, stable per play
MAX_PLAYS = 10_000
FIRST_YEAR, LAST_YEAR = 1900, 2999  # a play's date (docs/people.md §8)
_WHOLE = re.compile(r"-?[0-9]{1,9}")  # a score: a whole number as BG Stats writes it
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


def _local(moment: str, zone) -> str:
    """A stored UTC time as BG Stats writes dates: the table's wall clock, "YYYY-MM-DD HH:mm:ss"."""
    return datetime.fromisoformat(moment).astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")


def _players(play: dict, names: dict[int, str]) -> list[dict]:
    """The play's seats in seat order, each named as the roster knows the person."""
    return [{**s, "shown": names.get(s["person"], s["name"]) if s["person"] else s["name"]}
            for s in sorted(play["seats"], key=lambda s: s["seat"])]


def play_document(play: dict, game_name: str, names: dict[int, str], zone) -> dict:
    """One finished play as a ``.bgsplay`` file: top-level about, players, locations, games,
    plays, userInfo (userInfo names no "me": the server does not know whose phone it is)."""
    seats = _players(play, names)
    stamp = _local(play["ended_at"], zone)
    return {
        "about": f"{SOURCE}: play {play['game_id']}, exported for BG Stats",
        "players": [{"id": i + 1, "name": s["shown"], "isAnonymous": False,
                     "uuid": _uuid("person", s["person"] or s["shown"]), "modificationDate": stamp}
                    for i, s in enumerate(seats)],
        "locations": [{"id": 1, "name": SOURCE, "uuid": _uuid("location", SOURCE), "modificationDate": stamp}],
        "games": [{"id": 1, "name": game_name, "bggId": play["bgg_id"] or 0, "highestWins": True,
                   "cooperative": False, "noPoints": False, "uuid": _uuid("game", play["key"]),
                   "modificationDate": stamp}],
        "plays": [{"uuid": _uuid("play", play["game_id"]), "gameRefId": 1, "locationRefId": 1,
                   "playDate": _local(play["started_at"], zone), "durationMin": play["seconds"] // 60,
                   "entryDate": stamp, "modificationDate": stamp, "ignored": False,
                   "manualWinner": False, "rounds": 0, "board": "", "bggId": 0,
                   "comments": f"{SOURCE} {play['game_id']}",
                   "playerScores": [{"score": str(s["score"]), "winner": s["rank"] == 1, "rank": s["rank"],
                                     "seatOrder": s["seat"] + 1, "startPlayer": s["seat"] == 0,
                                     "playerRefId": i + 1, "newPlayer": False}
                                    for i, s in enumerate(seats)]}],
        "userInfo": {"bggUsername": ""},
    }


def create_play_link(play: dict, game_name: str, names: dict[int, str], zone) -> str:
    """The BG Stats app's create-play link: one tap on a phone with the app opens the play.
    BG Stats' published format for pushing plays from other apps (docs/people.md §8):
    scores are numbers; ``sourceGameId`` and each ``sourcePlayerId`` are the ids BG Stats
    remembers per source, so a game and a person are matched once and found again."""
    data = {"sourceName": SOURCE, "sourcePlayId": play["game_id"],
            "playDate": _local(play["started_at"], zone), "durationMin": play["seconds"] // 60,
            "location": SOURCE, "board": "", "comments": f"{SOURCE} {play['game_id']}",
            "game": {"name": game_name, "bggId": play["bgg_id"] or 0, "highestWins": True,
                     "noPoints": False, "sourceGameId": play["key"]},
            "players": [{"name": s["shown"], "score": s["score"], "winner": s["rank"] == 1,
                         "startPlayer": s["seat"] == 0, "rank": s["rank"], "role": "",
                         "sourcePlayerId": source_player_id(s)}
                        for s in _players(play, names)]}
    return "bgstats://app.bgstatsapp.com/createPlay.html?data=" + quote(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


def source_player_id(seat: dict) -> str:
    """The roster's person id, stable across renames and games ("person-7"); a seat nobody
    linked is its name as the game recorded it ("name-Anna")."""
    return f"person-{seat['person']}" if seat["person"] else f"name-{seat['name']}"


# ---- reading a BG Stats export ---------------------------------------------------------

def _bad(message: Text) -> BadBGStats:
    return BadBGStats([Problem("people §8", message)])


def _by_id(doc: dict, key: str, required: bool = True) -> dict[int, dict]:
    items = doc.get(key, [] if not required else None)
    if not isinstance(items, list):
        raise _bad(msg("\"%(key)s\" must be a list.", key=key))
    found: dict[int, dict] = {}
    for i, item in enumerate(items, start=1):
        if not isinstance(item, dict) or type(item.get("id")) is not int or item["id"] in found:
            raise _bad(msg("%(key)s #%(i)s: needs a unique integer \"id\".", key=key, i=i))
        if not isinstance(item.get("name"), str):
            raise _bad(msg("%(key)s #%(i)s: \"name\" must be text.", key=key, i=i))
        if key != "players" and not _plain(item["name"]):  # a player's name: roster.clean_name
            raise _bad(msg("%(key)s #%(i)s: the name holds a control character or a text direction mark (%(name)s); "
                           "see docs/people.md §1.", key=key, i=i, name=repr(item["name"][:40])))
        found[item["id"]] = item
    return found


def _plain(text: str) -> bool:
    """No control character or text direction control (people §1): '\u202eevil' shows as
    'live' and turns the names after it around, wherever the name is listed."""
    return not has_direction_control(text) and not any(unicodedata.category(c) == "Cc" for c in text)


def read_export(doc, zone) -> list[dict]:
    """A BG Stats export (the structure ``play_document`` writes) → plays as
    {source_id, date, started_at, game: {name, bggId, highestWins}, kind, scores: [{name,
    score, rank, winner, seat, start}]}, or BadBGStats naming the first problem: an unknown
    reference, a score that is not a whole number, a malformed field."""
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
    # 10,000 plays take a while: the worker's other connections run meanwhile (store.cooperate)
    return [_read_play(i, play, players, games, locations, zone)
            for i, play in enumerate(store.cooperating(plays, 64), start=1)]


def _read_play(n: int, play, players, games, locations, zone) -> dict:
    where = msg("play #%(n)s", n=n)
    if not isinstance(play, dict):
        raise _bad(msg("%(where)s: must be an object.", where=where))
    game = games.get(play.get("gameRefId")) if type(play.get("gameRefId")) is int else None
    if game is None:
        raise _bad(msg("%(where)s: gameRefId %(ref)s is not among the games.", where=where, ref=repr(play.get("gameRefId"))))
    if "locationRefId" in play and play["locationRefId"] not in (None, 0) and play["locationRefId"] not in locations:
        raise _bad(msg("%(where)s: locationRefId %(ref)s is not among the locations.", where=where, ref=repr(play["locationRefId"])))
    started = _date(play.get("playDate"), where, zone)
    minutes = play.get("durationMin", 0)
    if type(minutes) is not int or not 0 <= minutes <= 60 * 24 * 14:
        raise _bad(msg("%(where)s: durationMin must be a whole number 0–20160.", where=where))
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not 1 <= len(scores) <= 12:
        raise _bad(msg("%(where)s: needs 1–12 playerScores.", where=where))
    read = [_read_score(where, i, s, players) for i, s in enumerate(scores, start=1)]
    highest = game.get("highestWins", True) is not False
    _settle_seats_and_ranks(read, highest)
    bgg = game.get("bggId") if type(game.get("bggId")) is int and 0 < game.get("bggId") < 10**8 else None
    source_id = play.get("uuid") if isinstance(play.get("uuid"), str) and len(play["uuid"]) <= 64 else ""
    return {"source_id": source_id, "started_at": _stamp(started),
            "date": _stamp(started + timedelta(minutes=minutes)),
            "game": {"name": game["name"][:100], "bggId": bgg, "highestWins": highest},
            "kind": _KIND_OF_BGG.get(bgg, "scorepad"), "scores": read}


def _stamp(moment: datetime) -> str:
    """As the logs write times: UTC, ISO 8601 with milliseconds."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")


def _date(raw, where, zone) -> datetime:
    """BG Stats dates are the table's wall clock, in the years a play can have happened
    (year 1 or 9999 would leave the calendar when moved to UTC or by the play's length)."""
    try:
        if not isinstance(raw, str) or len(raw) != 19:
            raise ValueError
        moment = datetime.strptime(raw, "%Y-%m-%d %H:%M:%S").replace(tzinfo=zone)
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
    raw = s.get("score")
    text_ = raw.strip() if isinstance(raw, str) else str(raw) if type(raw) is int else None
    if text_ is None or not _WHOLE.fullmatch(text_):
        raise _bad(msg("%(where)s, %(name)s: the score %(score)s is not a whole number.", where=where, name=player["name"], score=repr(str(raw)[:20])))
    rank = s.get("rank") if type(s.get("rank")) is int and 0 < s.get("rank") <= 12 else None
    seat = s.get("seatOrder") if type(s.get("seatOrder")) is int else None
    return {"name": player["name"], "score": int(text_), "rank": rank, "winner": s.get("winner") is True,
            "seat": seat, "start": s.get("startPlayer") is True}


def _settle_seats_and_ranks(scores: list[dict], highest: bool) -> None:
    """Seats from seatOrder when it numbers them 1..n, else in file order; ranks as the
    file gives them, else by score (shared on equal scores)."""
    orders = [s["seat"] for s in scores]
    valid = sorted(o for o in orders if o is not None) == list(range(1, len(scores) + 1))
    for i, s in enumerate(scores):
        s["seat"] = s["seat"] - 1 if valid else i
    if all(s["rank"] for s in scores):
        return
    for s in scores:
        better = [o for o in scores if (o["score"] > s["score"] if highest else o["score"] < s["score"])]
        s["rank"] = len(better) + 1
