"""The roster: the people who play on this server, as their own append-only log.

Games keep the names their first event recorded; who a seat *was* lives here, in
``roster_events`` (hash-chained, never updated or deleted, like a game's log). Every
change is an event (docs/people.md): a person added, renamed or merged into another,
a seat linked to a person or unlinked, a play imported from BG Stats, and a change
reverted. The roster is the fold of that log; a revert re-folds without its target,
re-checking every later event, so a revert that would leave the log contradictory is
refused instead.
"""
from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field

from events.application import integrity
from events.runtime import greenlets
from events.domain.hashing import GENESIS
from events.storage import log, store
from events.storage.log import ROSTER
from scoring.base import Problem
from scoring.i18n import joined
from scoring.i18n import msg
from scoring import text

MAX_NAME = text.NAME.most
# 2: every change names who made it (``data.by``); a version-1 change names nobody.
# 3: a ``play-imported`` seat's score may be a decimal or null (no points), a seat may be
# ``anonymous`` and the play ``cooperative`` or ``noPoints``; a version-2 play, whose scores
# are whole numbers and whose seats are all named, reads as it is.
VERSION = 3
TYPES = ("person-added", "person-renamed", "people-merged", "seat-linked", "seat-unlinked",
         "play-imported", "change-reverted")


class RosterRefused(ValueError):
    """The change breaks a rule of docs/people.md; ``problems`` say why (HU/EN)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.en for p in problems))
        self.problems = problems


class RosterConflict(RosterRefused):
    """A form's ``client_event_id`` was used before for another change (the back button
    brought back an old form): nothing is written, the phone is told (409)."""


ONE_SEAT = Problem("people §4", msg("One person sits at one seat of a play."))
REUSED_ID = Problem("people §5", msg("This form was already sent with another change; reload the page and try again."))


@dataclass(frozen=True)
class RosterEvent:
    seq: int
    type: str
    data: dict
    device: str
    recorded_at: str
    client_event_id: str
    hash: str
    version: int = VERSION

    def envelope(self) -> dict:
        return {"seq": self.seq, "type": self.type, "version": self.version, "data": self.data,
                "seat": None, "device": self.device, "recorded_at": self.recorded_at,
                "client_event_id": self.client_event_id, "hash": self.hash}

    @property
    def by(self) -> dict | None:
        """Who made the change (docs/people.md §10): ``{"role": "organiser"}``, ``{"role":
        "seat", "game", "seat"}`` (a seated phone linking its own seat) or ``{"role":
        "game", "game"}`` (a game's creation or import linking its seats by the names it
        recorded). Version 1 changes, from before roles, upcast to None: nobody recorded."""
        return self.data.get("by") if self.version >= 2 else None


ORGANISER = {"role": "organiser"}


def by_seat(game_id: str, seat: int) -> dict:
    return {"role": "seat", "game": game_id, "seat": seat}


def by_game(game_id: str) -> dict:
    return {"role": "game", "game": game_id}


@dataclass
class Roster:
    """The folded log. A person's id is the number of the event that added them."""

    seq: int = 0
    hash: str = GENESIS  # of the last event folded: a cached roster is current only if it matches
    people: dict[int, dict] = field(default_factory=dict)      # id -> {id, name, merged_into, since}
    links: dict[str, dict[int, int]] = field(default_factory=dict)  # game -> {seat: person as linked}
    imported: dict[int, dict] = field(default_factory=dict)    # event seq -> play-imported data
    reverted: dict[int, int] = field(default_factory=dict)     # target seq -> reverting seq

    def canonical(self, person: int) -> int:
        """Where a person ended up after merges (a merged person's plays count for the survivor)."""
        seen = set()
        while self.people[person]["merged_into"] is not None and person not in seen:
            seen.add(person)
            person = self.people[person]["merged_into"]
        return person

    def active(self) -> list[dict]:
        return sorted((p for p in self.people.values() if p["merged_into"] is None),
                      key=lambda p: p["name"].casefold())

    def by_name(self, name: str) -> dict | None:
        key = name.casefold()
        return next((p for p in self.people.values()
                     if p["merged_into"] is None and p["name"].casefold() == key), None)

    def person_of(self, game_id: str, seat: int) -> int | None:
        linked = self.links.get(game_id, {}).get(seat)
        return None if linked is None else self.canonical(linked)

    def seats_of(self, game_id: str) -> dict[int, int]:
        return {seat: self.canonical(p) for seat, p in self.links.get(game_id, {}).items()}


# ---- the rules of a change (docs/people.md) ------------------------------------------

def clean_name(raw) -> str | None:
    """A name as stored (the one text policy, scoring/text.py: NFC, one space between
    words), or None when the policy refuses it: empty, too long, holding a control or
    direction character, an unpaired surrogate or the replacement character (what invalid
    UTF-8 turns into). ``name_or_why`` says why."""
    return text.clean_or_none(raw, text.NAME)


def name_or_why(raw) -> tuple[str | None, Problem | None]:
    """(the name as stored, None), or (None, why the policy refuses it, citing people §1)."""
    try:
        return text.clean(raw, text.NAME), None
    except text.BadText as refused:
        return None, Problem("people §1", refused.why)


BAD_NAME = Problem("people §1", msg("A name is 1–%(MAX_NAME)s characters without control characters.", MAX_NAME=MAX_NAME))


def _person(roster: Roster, person) -> list[Problem]:
    if type(person) is not int or person not in roster.people:
        return [Problem("people §2", msg("There is no person %(person)s.", person=repr(person)))]
    if roster.people[person]["merged_into"] is not None:
        into = roster.people[roster.canonical(person)]["name"]
        return [Problem("people §3", msg("%(name)s was merged into %(into)s.", name=roster.people[person]['name'], into=into))]
    return []


def _name_free(roster: Roster, name: str, person: int | None = None) -> list[Problem]:
    other = roster.by_name(name)
    if other is not None and other["id"] != person:
        return [Problem("people §1", msg("There is already a person called %(name)s (#%(id)s).", name=other['name'], id=other['id']))]
    return []


def _check_added(roster: Roster, d: dict) -> list[Problem]:
    name = clean_name(d.get("name"))
    return [BAD_NAME] if name is None or name != d["name"] else _name_free(roster, name)


def _check_renamed(roster: Roster, d: dict) -> list[Problem]:
    problems = _person(roster, d.get("person"))
    name = clean_name(d.get("name"))
    if problems or name is None or name != d["name"]:
        return problems or [BAD_NAME]
    return _name_free(roster, name, d["person"])


def _check_merged(roster: Roster, d: dict) -> list[Problem]:
    if d.get("source") == d.get("into"):
        return [Problem("people §3", msg("A person cannot be merged into himself."))]
    return _person(roster, d.get("source")) + _person(roster, d.get("into"))


def _check_linked(roster: Roster, d: dict) -> list[Problem]:
    problems = _person(roster, d.get("person"))
    seats = roster.links.get(d.get("game"), {}) if isinstance(d.get("game"), str) else {}
    linked = seats.get(d.get("seat"))
    if linked is not None:
        who = roster.people[roster.canonical(linked)]["name"]
        problems.append(Problem("people §4", msg("This seat is already linked to %(who)s; unlink it first.", who=who)))
    elif not problems and d["person"] in {roster.canonical(p) for p in seats.values()}:
        seat = next(s for s, p in seats.items() if roster.canonical(p) == d["person"])
        problems.append(Problem("people §4", msg("%(name)s already sits at seat %(value)s of this game.", name=roster.people[d['person']]['name'], value=seat + 1)))
    return problems


def _check_unlinked(roster: Roster, d: dict) -> list[Problem]:
    game = d.get("game")
    if not isinstance(game, str) or d.get("seat") not in roster.links.get(game, {}):
        return [Problem("people §4", msg("This seat is linked to nobody."))]
    return []


def _check_imported(roster: Roster, d: dict) -> list[Problem]:
    """Each seat a person of the roster, one seat each; an anonymous seat is nobody's."""
    seats = [seat for seat in d.get("seats", []) if not seat.get("anonymous")]
    problems = [p for seat in seats for p in _person(roster, seat.get("person"))]
    people = [seat.get("person") for seat in seats]
    if not problems and len(set(people)) != len(people):
        problems.append(ONE_SEAT)
    return problems


def _check_reverted(roster: Roster, d: dict, events: list[RosterEvent]) -> list[Problem]:
    target = d.get("target")
    if type(target) is not int or not 1 <= target <= len(events) \
            or events[target - 1].type == "change-reverted":
        return [Problem("people §5", msg("Only a change of the roster can be reverted."))]
    if target in roster.reverted:
        return [Problem("people §5", msg("Change #%(target)s is already reverted.", target=target))]
    try:
        fold(events, extra_reverted={target})
    except RosterRefused as err:
        return [Problem("people §5", msg("Change #%(target)s cannot be reverted: a later change depends on it: %(why)s",
                                         target=target, why=joined("; ", [p.text for p in err.problems])))]
    return []


CHECKS = {"person-added": _check_added, "person-renamed": _check_renamed,
          "people-merged": _check_merged, "seat-linked": _check_linked,
          "seat-unlinked": _check_unlinked, "play-imported": _check_imported}


# ---- the fold -------------------------------------------------------------------------

def _apply(roster: Roster, seq: int, type_: str, d: dict, recorded_at: str) -> None:
    if type_ == "person-added":
        roster.people[seq] = {"id": seq, "name": d["name"], "merged_into": None, "since": recorded_at}
    elif type_ == "person-renamed":
        roster.people[d["person"]]["name"] = d["name"]
    elif type_ == "people-merged":
        roster.people[d["source"]]["merged_into"] = d["into"]
    elif type_ == "seat-linked":
        # a game's seats are replaced, never changed in place: a copy of the roster shares
        # them with the cached one (_copy), so copying stays cheap with 10,000 plays imported
        roster.links[d["game"]] = {**roster.links.get(d["game"], {}), d["seat"]: d["person"]}
    elif type_ == "seat-unlinked":
        roster.links[d["game"]] = {s: p for s, p in roster.links[d["game"]].items() if s != d["seat"]}
    elif type_ == "play-imported":
        roster.imported[seq] = d
        roster.links[imported_game_id(seq)] = {s["seat"]: s["person"] for s in d["seats"] if s["person"] is not None}


def imported_game_id(seq: int) -> str:
    """The id an imported play has in the statistics (it is no game of this server)."""
    return f"bgs-{seq}"


def fold(events: list[RosterEvent], extra_reverted: set[int] = frozenset(),
         checked: bool = True) -> Roster:
    """The roster after every event. ``checked``: re-check each event against the roster
    before it (a revert must leave a consistent log); raises RosterRefused if one fails."""
    reverted = {e.data["target"]: e.seq for e in events if e.type == "change-reverted"}
    reverted.update({t: 0 for t in extra_reverted})
    roster = Roster(reverted=reverted)
    for e in greenlets.cooperating(events, 256):  # a worker folding 10,000 imported plays serves its tables meanwhile
        roster.seq, roster.hash = e.seq, e.hash
        if e.type == "change-reverted" or e.seq in reverted:
            continue
        if checked and (extra_reverted or reverted):
            problems = CHECKS[e.type](roster, e.data)
            if problems:
                raise RosterRefused(problems)
        _apply(roster, e.seq, e.type, e.data, e.recorded_at)
    return roster


# ---- storage --------------------------------------------------------------------------

ROSTER_LOCK = "roster"  # one roster: its appends take turns (store.lock_game; PostgreSQL)


def _event(seat=None, **envelope) -> RosterEvent:
    return RosterEvent(**envelope)


def read_log(db, after: int = 0, upto: int | None = None) -> list[RosterEvent]:
    return ROSTER.read(db, None, after, upto, make=_event)


def seqs(db) -> list[int]:
    return ROSTER.seqs(db)


def last_seq(db) -> int:
    return ROSTER.head(db)[0]


def load(db, cache: "Rosters | None" = None) -> Roster:
    """The roster now: from the app's cache (``cache``, web/db.py), else folded from its log."""
    return cache.load(db) if cache is not None else fold(read_log(db), checked=False)


class Rosters:
    """The roster as a server process last folded it, per database, extended by the events
    since (a revert folds the whole log again); the app keeps one (web/db.py)."""

    def __init__(self) -> None:
        self._kept: dict[str, Roster] = {}
        self.verified = log.Verified()  # the log's verified prefix, per database
        self.lock = threading.Lock()

    def load(self, db) -> Roster:
        key = db_key(db)
        with self.lock:
            cached = self._kept.get(key) or Roster()
        afresh, newer = ROSTER.catch_up(db, None, cached.seq, cached.hash, make=_event)
        if afresh or any(e.type == "change-reverted" for e in newer):  # a revert folds the whole log again
            return self._remember(key, fold(newer if afresh else read_log(db), checked=False))
        if not newer:
            return cached
        roster = _copy(cached)
        for e in greenlets.cooperating(newer, 256):
            roster.seq, roster.hash = e.seq, e.hash
            _apply(roster, e.seq, e.type, e.data, e.recorded_at)
        return self._remember(key, roster)

    def _remember(self, key: str, roster: Roster) -> Roster:
        with self.lock:
            self._kept[key] = roster
        return roster

    def forget(self) -> None:
        with self.lock:
            self._kept.clear()
        self.verified.forget()


def db_key(db) -> str:
    return store.database_key(db)


def _copy(roster: Roster) -> Roster:
    """A roster to apply changes to, leaving ``roster`` (a cached one) as it is. Each game's
    seats are shared: ``_apply`` replaces them, never changes them in place (a BG Stats
    import extends a roster of 10,000 games' seats several times per batch, under the lock)."""
    return Roster(seq=roster.seq, hash=roster.hash, people={k: dict(v) for k, v in roster.people.items()},
                  links=dict(roster.links), imported=dict(roster.imported),
                  reverted=dict(roster.reverted))


def append(db, changes: list[tuple[str, dict]], device: str,
           client_event_id: str | None = None, *, by: dict) -> list[RosterEvent]:
    """Check and append changes in order, all or nothing, under the write lock (the
    roster read inside it cannot change before the commit). ``by``: who makes them
    (ORGANISER, by_seat, by_game), recorded in each. Raises RosterRefused."""
    with store.write_lock(db):
        return append_locked(db, changes, device, client_event_id, by=by)


def append_locked(db, changes, device: str, client_event_id: str | None = None, *,
                  by: dict, rosters: "Rosters | None" = None) -> list[RosterEvent]:
    """``append`` inside the caller's ``store.write_lock`` (a game created with its links).
    ``rosters``: a cache to start from (a BG Stats import's batches), checked against the
    log's last event under the lock like any load; without one the whole log is folded."""
    store.lock_game(db, ROSTER_LOCK)
    changes = [(type_, {**data, "by": by} if isinstance(data, dict) else data) for type_, data in changes]
    if client_event_id:
        first = ROSTER.by_client_id(db, None, client_event_id, make=_event)
        if first:  # a resubmitted form: its changes are already in, if they are these
            done = read_log(db, after=first.seq - 1)[:len(changes)]
            if [(e.type, e.data) for e in done] != [(t, json.loads(json.dumps(d))) for t, d in changes]:
                raise RosterConflict([REUSED_ID])
            return done
    # Under the write lock the log cannot change: a cache whose last event is the log's is
    # current (Rosters.load checks it); a copy, as the changes below are applied to it.
    # Folding the whole log instead made a 10,000-play import quadratic (~0.2 s per batch
    # under the lock by its end: docs/decisions.md, "Short writes").
    roster = _copy(rosters.load(db)) if rosters is not None else load(db)
    written = []
    for i, (type_, data) in enumerate(changes):
        problems = _check(db, roster, type_, data)
        if problems:
            raise RosterRefused(problems)
        cid = f"{client_event_id}-{i}" if client_event_id and i else client_event_id
        event = _insert(db, type_, data, device, cid or secrets.token_hex(16))
        written.append(event)
        if type_ == "change-reverted":
            roster = fold(read_log(db), checked=False)
        else:
            roster.seq, roster.hash = event.seq, event.hash
            _apply(roster, event.seq, type_, data, event.recorded_at)
    return written


def _check(db, roster: Roster, type_: str, data) -> list[Problem]:
    if type_ not in TYPES or not isinstance(data, dict):
        return [Problem("people §5", msg("Unknown roster change."))]
    if type_ == "change-reverted":
        return _check_reverted(roster, data, read_log(db))
    if type_ == "seat-linked":
        seat_problems = _check_seat(db, data.get("game"), data.get("seat"))
        if seat_problems:
            return seat_problems
    return CHECKS[type_](roster, data)


def _check_seat(db, game_id, seat) -> list[Problem]:
    row = store.game_row(db, game_id) if isinstance(game_id, str) else None
    if row is None:
        return [Problem("people §4", msg("There is no such game."))]
    seats = len(json.loads(row["players"]))
    if type(seat) is not int or not 0 <= seat < seats:
        return [Problem("people §4", msg("The game has %(seats)s seats; there is no seat %(seat)s.", seats=seats, seat=repr(seat)))]
    return []


def _insert(db, type_: str, data: dict, device: str, client_event_id: str) -> RosterEvent:
    """One change, its chain hash and the summary row, in the caller's transaction."""
    return _event(**ROSTER.record(db, None, {
        "type": type_, "version": VERSION, "data": data, "seat": None, "device": device,
        "recorded_at": store.now(), "client_event_id": client_event_id}))


# ---- whether the log verifies (docs/people.md §10) -------------------------------------

def unverified_from(db, whole: bool = False, cache: Rosters | None = None) -> tuple[int, str] | None:
    """(N, why) when the roster's log does not verify from change N: its hash chain, or its
    summary row against the chain (changes cut off the end). A process keeping the app's
    ``cache`` verifies each change once (``whole``: all of it again, as verify-db does)."""
    verified = cache.verified if cache is not None else log.Verified()
    return verified.check(db, ROSTER, None, db_key(db), whole=whole)


ROSTER_WARNING = ("A névsor naplója a(z) {seq}. változástól nem igazolható (a lenyomatlánc nem egyezik); "
                  "az innentől mutatott nevek és összekapcsolások nem hitelesek.",
                  "The roster's log does not verify from change {seq} ({why}); "
                  "the names and links shown from there on cannot be trusted.")


def warning(broken: tuple[int, str]) -> dict:
    """What /people, /stats and the roster log say of a log that does not verify."""
    return integrity.warning(broken, ROSTER_WARNING)


# ---- what game creation and import ask for ------------------------------------------

def resolve_players(roster: Roster, players: list[dict]) -> tuple[list[dict], list[int | str]]:
    """Players given as ``{"name"}`` or ``{"person": id}`` → the names the game records and
    who each seat is: a person's id, or a name (the roster person of that name, or a new
    one). Raises RosterRefused for an unknown or merged person id."""
    names, people = [], []
    for player in players:
        if "person" in player:
            problems = _person(roster, player["person"])
            if problems:
                raise RosterRefused(problems)
            person = roster.people[player["person"]]
            names.append({**{k: v for k, v in player.items() if k != "person"}, "name": person["name"]})
            people.append(person["id"])
        else:
            name, why = name_or_why(str(player.get("name", "")))  # e.g. an unpaired surrogate from JSON
            if why is not None:
                raise RosterRefused([why])
            names.append(player)
            people.append(str(player.get("name", "")).strip())
    return names, people


def link_game(db, game_id: str, people: list[int | str | None], device: str,
              by: dict | None = None, rosters: Rosters | None = None) -> list[RosterEvent]:
    """Link each seat of a game to ``people[seat]``: a person's id, or a name (the roster
    person of that name, or a new one); None leaves the seat unlinked, as does a name
    that is no usable name or a person already seated in this game. One transaction.
    ``by``: who links them (default: the game itself, by the names it recorded).
    ``rosters``: the app's roster cache (a fresh one if none)."""
    # Folded before the write lock, checked and extended under it: folding the whole log
    # for each seat under the lock held every table's moves for seconds once a group had
    # imported its BG Stats history (10,000 plays), at every new game (docs/decisions.md, "Short writes").
    rosters = rosters if rosters is not None else Rosters()
    rosters.load(db)
    with store.write_lock(db):
        return link_locked(db, game_id, people, device, by, rosters)


def link_locked(db, game_id: str, people: list[int | str | None], device: str,
                by: dict | None, rosters: Rosters) -> list[RosterEvent]:
    """``link_game`` inside the caller's ``store.write_lock`` (a new game with its links:
    services/games.py); ``rosters`` loaded before the lock was taken."""
    by = by or by_game(game_id)
    store.lock_game(db, ROSTER_LOCK)
    written: list[RosterEvent] = []
    seated: set[int] = set()
    for seat, who in enumerate(people):
        if isinstance(who, str):
            name = clean_name(who)
            if name is None:
                continue
            found = rosters.load(db).by_name(name)
            if found is None:
                written += append_locked(db, [("person-added", {"name": name})], device, by=by,
                                         rosters=rosters)
            who = found["id"] if found else written[-1].seq
        if who is None or who in seated:
            continue
        seated.add(who)
        try:
            written += append_locked(db, [("seat-linked", {"game": game_id, "seat": seat,
                                                           "person": who})], device, by=by, rosters=rosters)
        except RosterRefused:  # merged meanwhile: the seat stays unlinked, linkable later
            continue
    return written


# ---- a game's export carries who sat where (docs/export-format.md) -------------------

def export_links(db, game_id: str) -> list[dict]:
    """``[{"seat", "name"}]``: the roster names of the game's linked seats. Names, not ids:
    ids are this server's; the importing server finds or adds people by name."""
    roster = load(db)
    return [{"seat": seat, "name": roster.people[person]["name"]}
            for seat, person in sorted(roster.seats_of(game_id).items())]


def export_with_links(db, game_id: str) -> dict:
    """A game's export (events/application/export.py) with the roster names of its linked seats. The
    block is left out when no seat is linked, so a game recorded before the roster exports
    byte for byte as it did."""
    from events.application.export import export_game
    doc = export_game(db, game_id)
    links = export_links(db, game_id)
    if links:
        doc["people"] = links
    return doc


def import_links(doc) -> list[str | None]:
    """Who each seat of an imported game was: the file's ``people`` (an export of this
    app), else the names the game recorded. Raises RosterRefused for a malformed block;
    a file malformed otherwise is refused by its import with its reason."""
    players = _created_players(doc)
    block = doc.get("people") if isinstance(doc, dict) else None
    if block is None:
        return [p.get("name") for p in players]
    bad = Problem("people §4", msg("The export's \"people\" is malformed: [{seat, name}] with seats the game has."))
    if not isinstance(block, list) or len(block) > len(players):
        raise RosterRefused([bad])
    linked: list[str | None] = [None] * len(players)
    for item in block:
        seat = item.get("seat") if isinstance(item, dict) else None
        name = clean_name(item.get("name")) if isinstance(item, dict) else None
        if type(seat) is not int or not 0 <= seat < len(players) or name is None or linked[seat]:
            raise RosterRefused([bad])
        linked[seat] = name
    return linked


def _created_players(doc) -> list[dict]:
    """The players of a file's first event, as far as they can be read before it is verified."""
    try:
        players = doc["events"][0]["data"]["players"]
        return [p if isinstance(p, dict) else {} for p in players] if isinstance(players, list) else []
    except (KeyError, IndexError, TypeError):
        return []
