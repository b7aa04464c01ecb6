"""A game as one JSON document (docs/export-format.md): export, verify, replay, import.

Verifying a file recomputes the hash chain and then re-checks every event through
the same rules a phone's move passes (``events.application.table.check_move``) against the
state folded from the events before it. The first bad event is named by number.
"""
from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone

from events.application import integrity, photos, signing, trust
from events.application.seats import hash_token
from events.application.states import Walker, reader
from events.application.table import announce, check_move, check_setup, new_game_id
from events.domain.core_types import CORE_SCHEMAS, CORE_VERSION
from events.domain.event import Event
from events.domain.hashing import GENESIS, HASHED_FIELDS, chain_hash, first_broken_link
from events.domain.projection import TableState, fold, standings, upcast
from events.runtime import greenlets
from events.storage import store
from events.storage.store import with_the_event
from scoring import get_game, knows_rules, rules_for
from scoring.base import Text
from scoring.i18n import joined
from scoring.i18n import msg
from scoring.schema import schema_said, strict_validator, unencodable_path

FORMAT = "tablescribe-export"
FORMAT_VERSION = 2    # 2: a game with photos carries their images (``photos``); 1 otherwise
READS = (1, 2)        # a reader of version 1 refuses a file with photos, saying its version

# Every stored field, typed and bounded: what the store, the pages and the hash chain take.
_ENVELOPE = strict_validator({
    "type": "object", "required": [*HASHED_FIELDS, "hash"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1, "maximum": 2**53},
        "type": {"type": "string", "minLength": 1, "maxLength": 64},
        "version": {"type": "integer", "minimum": 1, "maximum": 1000}, "data": {"type": "object"},
        "seat": {"type": ["integer", "null"], "minimum": 0, "maximum": 63},
        "device": {"type": "string", "maxLength": 64},
        "recorded_at": {"type": "string", "minLength": 10, "maxLength": 40},
        "client_event_id": {"type": "string", "minLength": 1, "maxLength": 64},
        "hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}})
# A recorded time is an ISO 8601 moment with its offset, between the app's first year and
# a day after now (a server's clock may run a little ahead of this one's).
EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
_CREATED = strict_validator(CORE_SCHEMAS["game-created"])
# Why the hash chain breaks; the English is the chain's own words (events/domain/hashing.py).
_CHAIN = {True: msg("an event is missing or out of place: this is not the number that comes next"),
          False: msg("the hash does not match the content and the previous hash")}


class BadExport(ValueError):
    """The file is refused: ``seq`` is the first bad event (0: the document itself),
    ``message`` says why (a {lang: text} mapping; ``reason`` is its English, ``hu`` its
    Hungarian); ``problems``: the rules' refusals behind it, whose rules the import page
    links and the command line names."""

    def __init__(self, seq: int, message: Text | str, problems=()):
        if isinstance(message, str):  # the command line's own reasons: English
            message = {"hu": message, "en": message}
        reason = message["en"]
        cited = "".join(f" ({p.rule})" for p in problems)
        super().__init__(f"event {seq}: {reason}{cited}" if seq else reason + cited)
        self.seq = seq
        self.reason = reason
        self.hu = message.get("hu") or reason
        self.text = message
        self.problems = list(problems)


class AlreadyHere(BadExport):
    """The file's game is on this server already (the same event 1, so the same chain):
    importing it again would count it twice. ``game_id`` is the game here."""

    def __init__(self, game_id: str):
        super().__init__(1, msg("this game is already on this server (game %(game_id)s); importing it "
                                "again would count it twice", game_id=game_id))
        self.game_id = game_id


def export_game(db, game_id: str) -> dict:
    """Every event of the game with its envelope and hash, in order; the envelope names the
    last event (``last_seq``, ``last_hash``) so a file cut at an event boundary is told on
    import; a record that does not verify (its chain, or its summary against the chain)
    says so in ``unverified``."""
    events = store.read_events(db, game_id)
    if not events:
        raise LookupError(game_id)
    carried = photos.export_blobs(db, events)
    doc = {"format": FORMAT, "format_version": FORMAT_VERSION if photos.attached(events) else 1,
           "game": {"id": game_id, "kind": events[0].data["kind"], "exported_at": store.now(),
                    "last_seq": events[-1].seq, "last_hash": events[-1].hash},
           "events": [e.envelope() for e in events]}
    if photos.attached(events):
        doc["photos"] = carried
    broken = integrity.verify_whole(db, game_id)
    if broken:
        doc["unverified"] = integrity.warning(broken)
    return doc


def sign(db, doc: dict, key) -> dict:
    """``doc`` (an export of this server, its people block in) signed with this server's
    ``key`` (events/application/signing.py), when the game counts here: a record that does not verify,
    or an imported game nobody trusted signed and the organiser did not accept, goes
    unsigned (this server does not vouch for it)."""
    origin = None if "unverified" in doc else trust.export_origin(db, doc["game"]["id"], signing.public_hex(key))
    if origin is not None:
        doc["signature"] = signing.sign(key, doc, origin)
    return doc


def as_text(doc: dict) -> str:
    """A game document as `flask export` prints it and examples/ keeps it: UTF-8 JSON, one
    space per level, with a final newline."""
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def write(doc: dict, path: str) -> None:
    """``doc`` saved as a file (``as_text``), its folder made when missing."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(as_text(doc))


def verify(doc) -> list[Event]:
    """The file's events, every one checked; raises ``BadExport`` at the first bad one."""
    return verified(doc)[0]


def verified(doc) -> tuple[list[Event], TableState]:
    """``verify``, and the state after the last event (folded on the way)."""
    try:
        return _verify(doc)
    except RecursionError:
        raise BadExport(0, msg("the data is nested too deeply")) from None


def _verify(doc) -> tuple[list[Event], TableState]:
    envelopes = _envelopes(doc)
    broken = first_broken_link(greenlets.cooperating(envelopes, 64))
    if broken:
        seq, reason = broken
        raise BadExport(seq, {**_CHAIN[reason.startswith("expected")], "en": reason})
    events = [Event(**{k: env[k] for k in (*HASHED_FIELDS, "hash")}) for env in envelopes]
    _check_complete(doc["game"], events[-1])
    _check_created(doc, events[0])
    # As the app's walk (events/application/states.py): a void refolds from the recent state just
    # before its target, not from event 1 (a 10,000-event Han game: ~0.4 s per void)
    walker = Walker(reader(events), fold(events[:1]))
    for event in greenlets.cooperating(events[1:], 1):  # ~1-5 ms each (Han)
        _check_event(walker.table, event)
        walker.step(event)
    _photos(doc, events)
    return events, walker.table


def _photos(doc: dict, events: list[Event]) -> list[photos.Blob]:
    """The images a file's photo events name, each checked against its digest."""
    if doc["format_version"] == 1 and ("photos" in doc or photos.attached(events)):
        raise BadExport(0, msg("a format version 1 file carries no photos"))
    try:
        return photos.import_blobs(doc, events)
    except photos.BadPhotos as bad:
        raise BadExport(bad.seq, bad.text) from None


def _envelopes(doc) -> list[dict]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadExport(0, msg("not a game exported from Tablescribe"))
    if type(doc.get("format_version")) is not int or doc["format_version"] not in READS:
        raise BadExport(0, msg("format version %(version)s is not supported (this is version %(ours)s)",
                               version=repr(doc.get("format_version")), ours=FORMAT_VERSION))
    game, envelopes = doc.get("game"), doc.get("events")
    if not isinstance(game, dict) or not isinstance(game.get("kind"), str):
        raise BadExport(0, msg("the game metadata is missing"))
    if not isinstance(envelopes, list) or not envelopes:
        raise BadExport(0, msg("the file has no events"))
    seen: dict[str, int] = {}
    for i, env in enumerate(greenlets.cooperating(envelopes, 16), start=1):
        _check_envelope(i, env)
        first = seen.setdefault(env["client_event_id"], i)
        if first != i:
            raise BadExport(i, msg("its client_event_id repeats event %(first)s's", first=first))
    where = unencodable_path({k: v for k, v in doc.items() if k != "events"})  # each event's: above
    if where is not None:
        raise BadExport(0, msg("%(where)s is not valid Unicode text (a lone surrogate)", where=where))
    return envelopes


def _check_envelope(i: int, env) -> None:
    bad_text = unencodable_path(env)
    if bad_text is not None:
        raise BadExport(i, msg("%(bad_text)s is not valid Unicode text (a lone surrogate)", bad_text=bad_text))
    error = next(iter(_ENVELOPE.iter_errors(env)), None)
    if error is not None:
        where = ".".join(str(p) for p in error.path)
        where = f" ({where})" if where else ""
        raise BadExport(i, msg("malformed envelope%(where)s: %(why)s", where=where, why=schema_said(error)))
    if not _sane_time(env["recorded_at"]):
        raise BadExport(i, msg("recorded_at %(at)s is not a time with its offset between %(year)s and tomorrow",
                               at=repr(env["recorded_at"]), year=EARLIEST.year))


def _sane_time(recorded_at: str) -> bool:
    try:
        moment = datetime.fromisoformat(recorded_at)
        return moment.tzinfo is not None and \
            EARLIEST <= moment.astimezone(timezone.utc) <= datetime.now(timezone.utc) + timedelta(days=1)
    except (ValueError, OverflowError):
        return False


def _check_complete(game: dict, last: Event) -> None:
    """The events end where the export said (files written before it said: not known)."""
    if "last_seq" not in game and "last_hash" not in game:
        return
    named_seq, named_hash = game.get("last_seq"), game.get("last_hash")
    if type(named_seq) is not int or not isinstance(named_hash, str):
        raise BadExport(0, msg("game.last_seq must be a whole number and game.last_hash a hash"))
    if last.seq < named_seq:
        raise BadExport(last.seq + 1, msg("the file is cut short at event %(seq)s of %(named_seq)s: the events after it are missing", seq=last.seq, named_seq=named_seq))
    if last.seq != named_seq or last.hash != named_hash:
        raise BadExport(last.seq, msg("the file's events end at event %(seq)s, not at the event %(named_seq)s its export named (another last hash)", seq=last.seq, named_seq=named_seq))


def _check_created(doc: dict, created: Event) -> None:
    def bad(message: Text):
        raise BadExport(1, message)

    if created.type != "game-created":
        bad(msg("the first event must be game-created"))
    error = next(iter(_CREATED.iter_errors(created.data)), None)
    if error is not None:
        bad(msg("invalid set-up: %(why)s", why=schema_said(error)))
    kind, version = created.data["kind"], created.data["rules_version"]
    if kind != doc["game"]["kind"]:
        bad(msg("the game is %(kind)s but the file says %(said)s", kind=repr(kind), said=repr(doc["game"]["kind"])))
    if get_game(kind) is None:
        bad(msg("unknown game kind %(kind)s", kind=repr(kind)))
    if not knows_rules(kind, version):
        bad(msg("rules version %(version)s of %(kind)s is not known here", version=version, kind=repr(kind)))
    players = [{"name": p.get("name", ""), "colour": p.get("colour", "")} for p in created.data["players"]]
    _refuse_problems(1, check_setup(rules_for(kind, version), players, created.data["options"]))


def _check_event(table: TableState, event: Event) -> None:
    def bad(message: Text):
        raise BadExport(event.seq, message)

    unknown_version = msg("%(type)s version %(version)s is not known", type=event.type, version=event.version)
    if event.seat is not None and not 0 <= event.seat < len(table.players):
        bad(msg("recorded by seat %(seat)s, which the game does not have", seat=event.seat))
    if event.type in CORE_SCHEMAS:
        data = event.data
        if event.version != CORE_VERSION:
            bad(unknown_version)
    else:
        spec = table.rules.event_types.get(event.type)
        if spec is None:
            bad(msg("unknown event type %(type)s", type=repr(event.type)))
        if not 1 <= event.version <= spec.version:
            bad(unknown_version)
        try:
            data = dict(upcast(table.rules, event).data)
        except Exception as err:  # an old payload the upcaster cannot read
            bad(msg("cannot upcast %(type)s version %(version)s: %(err)s", type=event.type, version=event.version, err=err))
    _refuse_problems(event.seq, check_move(table, event.type, data))


def _refuse_problems(seq: int, problems) -> None:
    if problems:
        raise BadExport(seq, joined("; ", [p.text for p in problems]), problems)


def replay(doc, at: int | None = None) -> dict:
    """The standings of a verified file after event ``at`` (default: the last)."""
    events = verify(doc)
    if at is not None and not 1 <= at <= len(events):
        raise BadExport(0, f"--at must be between 1 and {len(events)}")
    return summary(fold(events, upto=at))


def summary(table: TableState) -> dict:
    return {"game": table.kind, "finished": table.rules.is_over(table.game), "seq": table.seq,
            "standings": [{k: row[k] for k in ("seat", "player", "score", "rank", "breakdown")}
                          for row in standings(table)]}


def inline(work):
    """``import_game``'s default ``aside``: the work run here and now."""
    return work()


def import_game(db, doc, device: str | None = None, aside=inline, also=None,
                prepare_photo=photos.prepare) -> dict:
    """Store a verified file as a new game with its own id; the events keep their
    original times, recorders (``device`` of the importing phone is not stored) and
    hashes. Returns {"id", "join_code", "seats": [{"seat", "player", "token"}], "signature"}
    like a new game, so the phone that imported it holds the host's seat and can show the
    join code; "signature" is how the file's was found (events/application/signing.py): a
    game without a trusted one is kept, marked, and counts nowhere until accepted.
    ``aside(work)``: runs the checking and preparing (web/import_process.py: on a thread of
    lower CPU priority), the writing stays on the calling thread. ``also(db, game_id)``:
    what else commits with the game (its seats' roster links: services/games.py).
    ``prepare_photo``: what each photo the file carries goes through, as an upload does
    (web/decoding.py)."""
    events, final = aside(lambda: verified(doc))
    found = signing.verdict(doc, events)
    _refuse_if_here(db, events, found)
    created = events[0].data
    game_id, join_code = new_game_id(), secrets.token_urlsafe(16)
    raw_tokens = [secrets.token_urlsafe(24) for _ in created["players"]]
    tokens = [hash_token(t) for t in raw_tokens]
    finished = final.rules.is_over(final.game)
    # Everything is checked and prepared before the write lock (the statistics' rows
    # too): the transaction only writes rows (docs/decisions.md, "Short writes").
    events, final, blobs = aside(lambda: reencoded(events, final, _photos(doc, events), prepare_photo))
    writers, rows = aside(lambda: (with_the_event(db, game_id, events[-1], final, lambda: events),
                                   store.verified_rows(game_id, events)))
    imported_from = str(doc["game"].get("id") or created.get("origin") or "")

    def write_events(chunk: list[list]) -> None:  # nothing lists them before the game's row
        with store.write_lock(db):
            store.insert_unlisted(db, game_id, chunk)

    def write() -> None:  # the game listed, with everything that counts it, or not at all
        with store.write_lock(db):
            _refuse_if_here(db, events, found)  # again, under the lock: two imports at once
            store.insert_game(db, game_id, created["kind"], created["players"], join_code, tokens,
                              imported_from=imported_from)
            trust.mark_import(db, game_id, found)
            store.list_imported(db, game_id, events[-1], finished)
            photos.store_blobs(db, blobs)
            for writer in writers:
                writer(db)
            if also is not None:
                also(db, game_id)

    with store.unsynced(db):  # its fsync after the last write lock, before the answer
        for start in range(0, len(rows), store.IMPORT_CHUNK):  # each waiting for the lock off the hub
            began = time.perf_counter()
            store.writing(db, write_events, rows[start:start + store.IMPORT_CHUNK])
            store.leave_the_lock(db, began)
        store.writing(db, write)
    announce(db, game_id, events[-1], final)  # the live push; the statistics were written with it
    return {"id": game_id, "join_code": join_code, "signature": found.check,
            "seats": [{"seat": i, "player": p["name"], "token": t}
                      for i, (p, t) in enumerate(zip(created["players"], raw_tokens))]}


def _refuse_if_here(db, events: list[Event], found: signing.Verdict) -> None:
    """``AlreadyHere`` when the file's game is here: a signed file by its signed identity (a
    changed event 1 is no other game); an unsigned one by its event 1, as before signatures
    (such a game counts nowhere until accepted, whatever it claims)."""
    if found.check == signing.SIGNED:
        here = trust.game_of_origin(db, found.origin)
    else:
        here = store.game_of_first_hash(db, events[0].hash)
    if here is not None:
        raise AlreadyHere(here)


def reencoded(events: list[Event], final: TableState, blobs: list[photos.Blob],
              prepare_photo) -> tuple[list[Event], TableState, list[photos.Blob]]:
    """The file's photos prepared again exactly as an upload is (``prepare_photo``: decoded,
    stripped of every metadata, re-encoded), each photo event naming its new image, and the
    chain hashed again from the first photo on (the signed identity, not the chain, tells
    the game: docs/export-format.md); the state after them with the new digests."""
    if not photos.attached(events):
        return events, final, blobs
    carried = {blob.sha256: blob.data for blob in blobs}
    out, stored, prev, changed = [], [], GENESIS, False
    for event in events:
        if event.type == "photo-attached":
            try:
                prepared = prepare_photo(carried[event.data["sha256"]])
            except photos.PhotoRefused as refused:
                raise BadExport(event.seq, refused.problem.text) from None
            event = replace(event, data={**event.data, **prepared.facts()})
            stored += [prepared.image, prepared.thumb]
            changed = True
        if changed:
            event = replace(event, hash=chain_hash(prev, event.envelope()))
        prev = event.hash
        out.append(event)
    now = {e.seq: e.data for e in out if e.type == "photo-attached"}
    final = replace(final, photos={seq: {**photo, **now[seq]} for seq, photo in final.photos.items()})
    return out, final, stored
