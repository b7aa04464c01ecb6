"""Recording moves at a table: the one path every phone form and API call takes.

``record`` = idempotency check → fold to the state the phone saw → payload schema
→ the game's rules → append. Refusals raise; nothing is appended unless all pass.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from functools import lru_cache

from events.application import boards, photos
from events.application.seats import HOST_SEAT, hash_token
from events.application.states import States, UnknownGame, folded_after, uncached
from events.domain.core_types import CORE_EVENTS, CORE_VERSION
from events.domain.event import Event, NewEvent
from events.domain.projection import TableState, fold, places, rules_check, upcast
from events.storage import store
from events.storage.store import StaleSequence, WithTheEvent, with_the_event
from scoring import get_game, rules_for, text
from scoring.base import FormError, Problem
from scoring.i18n import msg
from scoring.schema import schema_said_all, strict_validator

from events.domain.palette import COLOUR_IDS
from scoring.schema import unencodable_path

MAX_NAME = text.NAME.most
# Game ids: letters and digits only, a letter first, so every command line (no leading
# "-"), URL and file name takes one as it is; 10 characters ≈ 51 random bits.
ID_FIRST, ID_REST = "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz0123456789"


class Refused(Exception):
    """The move breaks a rule or is malformed; ``problems`` say why."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.en for p in problems))
        self.problems = problems


class ReusedId(Exception):
    """The submission id was already used for a different move: answering with the
    earlier event would pass it off as this one."""

    def __init__(self, earlier: Event):
        super().__init__(f"client_event_id {earlier.client_event_id!r} was already used for event {earlier.seq}")
        self.earlier = earlier
        self.problem = Problem(
            "core §2", msg("This submission id already belongs to event #%(seq)s, a different move; reload the page and send again.", seq=earlier.seq))


STALE = Problem("core §2", msg("Someone else recorded a move meanwhile. Check the board and send again."))

# What ``record`` raises when it records nothing; ``not_recorded`` turns each into the answer.
NOT_RECORDED = (StaleSequence, ReusedId, Refused)


@dataclass(frozen=True)
class NotRecorded:
    """The one answer to a move that was not recorded, for every route that records:
    ``status`` (409: the phone's copy is behind, or its submission id is another move's;
    422: the rules or the payload refuse it), the ``problems`` to show, a one-line
    ``summary`` ({"hu", "en"}) and whether the phone needs the fresh table (``stale``)."""
    status: int
    problems: list[Problem]
    summary: dict
    stale: bool = False
    seq: int | None = None  # the event the phone's copy lacks (stale) or that owns its id (reused)


def not_recorded(err: Exception) -> NotRecorded:
    if isinstance(err, StaleSequence):
        return NotRecorded(409, [STALE], msg("stale: someone recorded first"),
                           stale=True, seq=err.current_seq)
    if isinstance(err, ReusedId):
        return NotRecorded(409, [err.problem], msg("client_event_id reused for a different move"),
                           stale=True, seq=err.earlier.seq)
    return NotRecorded(422, err.problems, msg("the rules refuse this move"))


__all__ = ["NOT_RECORDED", "NotRecorded", "Refused", "ReusedId", "UnknownGame", "StaleSequence", "new_game",
           "not_recorded", "record", "load"]

load = uncached  # the table folded from the store, for commands and scripts; a server asks its cache


def new_game_id() -> str:
    return secrets.choice(ID_FIRST) + "".join(secrets.choice(ID_REST) for _ in range(9))


def new_game(db, kind: str, players: list[dict], options: dict | None, device: str,
             origin: str | None = None, phones_for: tuple[int, ...] | None = None, timer: dict | None = None,
             also=None) -> dict:
    """Create a game. Seat tokens are issued for the seats in ``phones_for`` (the phone
    form: only the creator's seat 0, the others join by QR code), or for every seat (the
    API hands them all to its caller). ``timer``: the turn timer chosen with the game, its
    first move. ``also(db, game_id)``: what else commits with the game (its roster links).
    The game's row, its seats, its first events and ``also`` are one transaction: all or
    nothing. Raises Refused before writing anything when the set-up or the timer is refused."""
    game, players, options, completing = _set_up(db, kind, players, options)
    timer = timer if timer and any(timer.values()) else None
    if timer is not None:
        problems = check_move(fold([_created_event(kind, game, players, options, origin or "")]), "timer-set", timer)
        if problems:
            raise Refused(problems)
    if completing:  # a profile's version, a fact of its own: saved before the game that pins it
        options["board"] = _refused_if_bad(boards.save_completed, db, game, options["board"])
    game_id, join_code = new_game_id(), secrets.token_urlsafe(16)
    tokens = [secrets.token_urlsafe(24) if phones_for is None or i in phones_for else None
              for i in range(len(players))]
    created = _created_event(kind, game, players, options, origin or game_id)
    firsts = [NewEvent(created.type, created.version, created.data, None, device, secrets.token_hex(16))]
    if timer is not None:  # a fact like any move, recorded by the host's seat
        firsts.append(NewEvent("timer-set", CORE_VERSION, timer, HOST_SEAT, device,
                               f"{game_id}-timer"))
    with store.write_lock(db):
        store.insert_game(db, game_id, kind, players, join_code, [t and hash_token(t) for t in tokens])
        store.insert_events(db, game_id, firsts, finished=False)
        if also is not None:
            also(db, game_id)
    return {"id": game_id, "seq": len(firsts), "join_code": join_code,
            "seats": [{"seat": i, "player": p["name"], "token": t}
                      for i, (p, t) in enumerate(zip(players, tokens))]}


def _set_up(db, kind: str, players: list[dict], options: dict | None):
    """(game, players, options, completing) as the game will record them, or Refused."""
    game = get_game(kind)
    if game is None:
        raise Refused([Problem("core §1", msg("Unknown game kind %(kind)s.", kind=repr(kind)))])
    players = [{"name": _tidy_name(p.get("name", "")), "colour": str(p.get("colour") or "")}
               for p in players]
    options = {**game.default_options(), **(options or {})}
    problems = text_problems({"players": players, "options": options})
    options = text.normalized(options)  # the one text policy's composed form (scoring/text.py)
    if problems:
        raise Refused(problems)
    completing = boards.asks_completion(game, options.get("board"))
    if completing:  # the table answered what the board profile lacks (Boards.complete)
        options["board"] = _refused_if_bad(boards.completed, db, game, options["board"])
    problems = check_setup(game, players, options)
    if problems:
        raise Refused(problems)
    return game, players, options, completing


def _created_event(kind: str, game, players: list[dict], options: dict, origin: str) -> Event:
    data = {"kind": kind, "rules_version": game.rules_version, "players": players,
            "options": options, "origin": origin}
    return Event(1, "game-created", CORE_VERSION, data, None, "", "", "", "")


def _tidy_name(raw) -> str:
    """A player's name as the text policy stores it (NFC, one space between words); left as
    typed when the policy refuses it, so ``check_setup`` says why."""
    raw = str(raw)
    return text.clean_or_none(raw, text.NAME) or raw.strip()


def _refused_if_bad(step, *args):
    try:
        return step(*args)
    except boards.BadProfile as bad:
        raise Refused(bad.problems) from None


def check_setup(game, players: list[dict], options: dict) -> list[Problem]:
    problems = []
    if not game.min_players <= len(players) <= game.max_players:
        problems.append(Problem("core §1", msg("This game takes %(min_players)s–%(max_players)s players.", min_players=game.min_players, max_players=game.max_players)))
    for i, p in enumerate(players):
        why = text.why_not(p["name"], text.NAME)  # the one text policy (scoring/text.py)
        if why is not None:
            problems.append(Problem("core §1", msg("Player %(n)s: %(why)s", n=i + 1, why=why)))
    bad_option = text.payload_why_not(options)
    if bad_option is not None:
        problems.append(Problem("core §1", bad_option[1]))
    odd = sorted({p["colour"] for p in players if p["colour"] and p["colour"] not in COLOUR_IDS})
    if odd:
        problems.append(Problem("core §1", msg("Unknown colour %(value)s; the palette has %(value2)s.", value=', '.join(odd)[:80], value2=', '.join(sorted(COLOUR_IDS)))))
    declared = {o.name: o for o in game.options}
    for name, value in options.items():
        option = declared.get(name)
        if option is None or (option.choices is not None and value not in option.choices) or \
                (option.choices is None and type(value) is not type(option.default)):
            problems.append(Problem("core §1", msg("Invalid option: %(name)s.", name=name)))
    if not problems and game.check_setup:
        problems += game.check_setup(players, options)
    return problems


@lru_cache(maxsize=None)
def _validator(kind: str, rules_version: int, type_: str):
    """The payload's validator; a core type's when ``kind`` is empty, else the type's
    schema in the rules the game is folded with (a retired version's, if pinned)."""
    schema = CORE_EVENTS[type_].schema if kind == "" else rules_for(kind, rules_version).event_types[type_].schema
    return strict_validator(schema)


def text_problems(value) -> list[Problem]:
    """A refusal naming where a text is not valid Unicode (it could not be stored or hashed)."""
    where = unencodable_path(value)
    if where is None:
        return []
    return [Problem("core §2", msg("The text at %(where)s is not valid Unicode (a lone surrogate).", where=where))]


def _check_shape(table: TableState, type_: str, data) -> list[Problem]:
    game = table.rules
    problems = text_problems({"type": type_, "data": data})
    if problems:
        return problems
    bad_text = text.payload_why_not(data)  # notes, reasons, captions…: the one text policy
    if bad_text is not None:
        return [Problem("core §2", bad_text[1])]
    if type_ not in CORE_EVENTS and type_ not in game.event_types:
        return [Problem("core §2", msg("Unknown event type %(type)s.", type=repr(type_)))]
    if not isinstance(data, dict):
        return [Problem("core §2", msg("data must be a JSON object."))]
    key = ("", 0, type_) if type_ in CORE_EVENTS else (table.kind, table.rules_version, type_)
    errors = sorted(_validator(*key).iter_errors(data), key=lambda e: list(e.path))
    return [Problem("core §2", msg("Invalid data: %(why)s", why=why)) for why in schema_said_all(errors)]


def parse_move(table: TableState, form) -> tuple[str, dict]:
    """The game's form reader on ``table``: ``(type, data)``, or ``FormError`` with its
    problems naming the players the form names by seat."""
    try:
        return table.rules.parse_form(table.game, form)
    except FormError as err:
        raise FormError([p.naming(table.players, places(table)) for p in err.problems]) from None


def check_move(table: TableState, type_: str, data) -> list[Problem]:
    """Every problem with recording this move now; empty means it may be appended."""
    problems = _check_shape(table, type_, data)
    if problems:
        return problems
    if type_ in CORE_EVENTS:
        return CORE_EVENTS[type_].check(table, data)
    game = table.rules
    spec = game.event_types[type_]
    move = upcast(game, Event(table.seq + 1, type_, spec.version, data, None, "", "", "", ""))
    return rules_check(table, move)


def record(db, game_id: str, type_: str, data, expected_seq: int, seat: int | None,
           device: str, client_event_id: str, states: States | None = None,
           blobs=(), table: TableState | None = None) -> tuple[Event, bool]:
    """Append a move; returns (event, created). A resubmission of the same move (same
    ``client_event_id``, type, payload and seat) returns the original event. Raises
    UnknownGame, StaleSequence, Refused, ReusedId. ``states``: the app's cache of folded
    states (web/db.py), which it keeps up to date; without it the game is folded whole.
    ``blobs``: the bytes a photo event names, stored with it (events/application/photos.py).
    ``table``: the state the caller loaded for this request, checked against instead of
    loading it again; a move recorded meanwhile still makes the append stale (the log's
    last seq is compared under the write lock)."""
    data = text.normalized(data)  # what is typed is stored composed (NFC), as every phone types it
    problems = text_problems({"client_event_id": client_event_id, "device": device}) \
        or photos.unbacked(type_, data, blobs)
    if problems:
        raise Refused(problems)
    earlier = store.find_by_client_id(db, game_id, client_event_id)
    if earlier:
        return _resubmitted(earlier, type_, data, seat), False
    try:
        return _record(db, game_id, type_, data, expected_seq, seat, device, client_event_id, states, blobs, table)
    except StaleSequence:
        # A double tap racing itself: the twin appended first, so this is no stale
        # view but the same submission; answer as the first answer did.
        earlier = store.find_by_client_id(db, game_id, client_event_id)
        if earlier:
            return _resubmitted(earlier, type_, data, seat), False
        raise


def attach_photo(db, game_id: str, data: dict, seat: int | None, device: str, client_event_id: str,
                 blobs, states: States | None = None) -> Event:
    """A photo joins the game as it is when it arrives: a move recorded while it was on its
    way does not refuse it (it depends on no score), so the record is tried at the game's
    current number, three times if other phones win the race. ``blobs``: its image and
    thumbnail, stored in the event's transaction. Raises Refused, ReusedId."""
    for attempt in range(3):
        current = states.load(db, game_id).seq if states is not None else store.last_seq(db, game_id)
        try:
            return record(db, game_id, "photo-attached", data, current, seat, device, client_event_id,
                          states=states, blobs=blobs)[0]
        except StaleSequence:
            if attempt == 2:
                raise Refused([STALE]) from None


NOTHING_TO_UNDO = Problem("core §3", msg("There is no move to undo."))
REASON_NEEDED = Problem("core §3", msg("Give a reason for the void."))


def undo(db, game_id: str, table: TableState, expected_seq: int, seat: int | None, device: str,
         client_event_id: str, states: States | None = None) -> Event:
    """Take back the last live move of ``table`` (the table the phone saw): a void of it,
    marked as an undo. Raises Refused when there is none, and what ``record`` raises."""
    if table.last_live_move is None:
        raise Refused([NOTHING_TO_UNDO])
    data = {"target": table.last_live_move, "reason": "undo", "undo": True}
    return record(db, game_id, "event-voided", data, expected_seq, seat, device, client_event_id, states=states)[0]


def void(db, game_id: str, target: int, reason: str, expected_seq: int, seat: int | None, device: str,
         client_event_id: str, states: States | None = None) -> Event:
    """Void move ``target`` for ``reason`` (said by a player: never empty). Raises Refused,
    and what ``record`` raises."""
    reason = (reason or "").strip()
    if not reason:
        raise Refused([REASON_NEEDED])
    data = {"target": target, "reason": reason}
    return record(db, game_id, "event-voided", data, expected_seq, seat, device, client_event_id, states=states)[0]


def _resubmitted(earlier: Event, type_: str, data, seat: int | None) -> Event:
    """The earlier event, when this submission is the same move again; else ReusedId."""
    same = earlier.type == type_ and earlier.seat == seat and \
        json.dumps(earlier.data, sort_keys=True) == json.dumps(data, sort_keys=True)
    if not same:
        raise ReusedId(earlier)
    return earlier


def _record(db, game_id, type_, data, expected_seq, seat, device, client_event_id, states, blobs=(), table=None):
    if table is None:
        table = states.load(db, game_id) if states else load(db, game_id)
    if expected_seq != table.seq:
        raise StaleSequence(table.seq)
    problems = check_move(table, type_, data)
    if problems:
        raise Refused(problems)
    version = CORE_VERSION if type_ in CORE_EVENTS else table.rules.event_types[type_].version
    new = NewEvent(type_, version, data, seat, device, client_event_id)
    pending = Event(table.seq + 1, type_, version, data, seat, device, "", "", "")
    after, walk = states.after(db, game_id, table, pending) if states else (folded_after(db, game_id, table, pending), None)

    def also(db, event):  # inside the append's transaction, under its write lock
        for write in with_the_event(db, game_id, event, after, lambda: store.read_events(db, game_id)):
            write(db)

    event, created = store.append(db, game_id, new, expected_seq,
                                  finished=table.rules.is_over(after.game), blobs=blobs, also=also)
    if not created:  # the same id appended meanwhile (under the write lock)
        return _resubmitted(event, type_, data, seat), False
    if states:
        states.recorded(game_id, event, walk)  # the state after it is known: the next load need not fold it again
    announce(db, game_id, event, after)
    return event, created


def announce(db, game_id: str, event: Event, table: TableState) -> None:
    """Tell what the app subscribed to "an event was recorded" (app.py:on_recorded: the
    live push, the statistics) that ``event`` is committed and ``table`` is the state after
    it. The subscribers come with the connection (``store.connect(..., on_recorded=)``),
    so every path that records through the app's connection runs them: a phone, the API,
    an import, the command line, the benchmark, the example scripts."""
    for subscriber in getattr(db, "on_recorded", ()):  # a sqlite_utils.Database made elsewhere: none
        if not isinstance(subscriber, WithTheEvent):  # those committed with the event
            subscriber(db, game_id, event, table)
