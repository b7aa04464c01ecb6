"""Who holds which seat. A phone holds a seat by a token (192 random bits, only its
SHA-256 stored). The host (the phone holding seat 0, the game's creator) can
lock seats so the join link no longer opens them, and hand a seat to a new phone
when one is lost: the seat's old tokens stop working at once and a one-time link
seats the new phone, locked or not. No game rule lives here; no event is written
(seat access is not part of the game's record)."""
from __future__ import annotations

import hashlib
import secrets
from typing import Callable

from events.storage import sql, store
from events.storage import statements as S
from scoring.base import Problem
from scoring.i18n import msg

HOST_SEAT = 0
NO_SUCH_SEAT = Problem("core §5", msg("Choose a seat."))
SEAT_LOCKED = Problem("core §5", msg("The host has locked this seat."))
GAME_OVER = Problem("core §5", msg("This game is over: its join link now only lets a phone watch. Who sat in which seat can still be set by the organiser."))
HOST_SEAT_CLOSED = Problem("core §5", msg("The host's seat passes only by the host's own hand-over (Manage seats)."))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_for_token(db, game_id: str, token: str | None) -> int | None:
    """The seat a phone's token opens, or None. The lookup is by the token's SHA-256,
    so timing reveals nothing about the stored value; the game id must match too."""
    if not token or len(token) > 128:
        return None
    return store.seat_of_token_hash(db, game_id, hash_token(token))


def seats_by_token(db, game_id: str) -> Callable[[str | None], int | None]:
    """``seat_for_token`` for every phone of the game from one read of its tokens: the
    streams woken by a move share it (events/runtime/live.py, web/stream.py)."""
    held = dict(sql.run(db, S.SEAT_TOKENS_OF_GAME, game_id=game_id).fetchall())

    def seat_of(token: str | None) -> int | None:
        if not token or len(token) > 128:
            return None
        return held.get(hash_token(token))
    return seat_of


def issue_seat_token(db, game_id: str, seat: int) -> str:
    token = secrets.token_urlsafe(24)
    with db.atomic():
        store.add_seat_token(db, game_id, seat, hash_token(token))
    return token


def locked_seats(db, game_id: str) -> set[int]:
    return set(sql.column(db, S.LOCKED_SEATS, game_id=game_id))


def closed_to_join(db, game_id: str) -> set[int]:
    """Seats the join link does not open: the host's (host powers pass only by the host's
    hand-over) and every locked seat (a handed-over seat is locked: it stays with the
    new phone, and the lost one cannot rejoin through the unchanged join link)."""
    return locked_seats(db, game_id) | {HOST_SEAT}


def join_refused(seat: int | None, players: int, closed: set[int], over: bool = False) -> tuple[Problem, int] | None:
    """Why the join link does not seat a phone at ``seat`` (of ``players``), with the HTTP
    status (403: the game is over, or the seat is closed to the link; 422: no such seat);
    None when it may. After the end a seat would only be a way to say who won (docs/decisions.md)."""
    if over:
        return GAME_OVER, 403
    if seat in closed:
        return (HOST_SEAT_CLOSED if seat == HOST_SEAT else SEAT_LOCKED), 403
    if seat is None or not 0 <= seat < players:
        return NO_SUCH_SEAT, 422
    return None


def set_lock(db, game_id: str, seat: int, locked: bool) -> None:
    with db.atomic():
        if locked:
            sql.run(db, S.LOCK_SEAT, game_id=game_id, seat=seat, at=store.now())
        else:
            sql.run(db, S.UNLOCK_SEAT, game_id=game_id, seat=seat)


def phones_per_seat(db, game_id: str) -> dict[int, int]:
    return dict(sql.run(db, S.PHONES_PER_SEAT, game_id=game_id).fetchall())


def revoked_seat(db, game_id: str, token: str | None) -> int | None:
    """The seat a hand-over took from this token (the phone is told what happened), or None."""
    if not token or len(token) > 128:
        return None
    return sql.value(db, S.REVOKED_SEAT, token_hash=hash_token(token), game_id=game_id)


def hand_over(db, game_id: str, seat: int) -> str:
    """Revoke every token of the seat, lock it against the join link, and return a fresh
    one-time link code for it (earlier unused links of the seat stop working too)."""
    code = secrets.token_urlsafe(16)  # 128 bits
    with db.atomic():
        at = store.now()
        sql.run(db, S.REVOKE_SEAT_TOKENS, game_id=game_id, seat=seat, at=at)
        sql.run(db, S.DELETE_SEAT_TOKENS, game_id=game_id, seat=seat)
        sql.run(db, S.LOCK_SEAT, game_id=game_id, seat=seat, at=at)
        sql.run(db, S.USE_UP_HANDOVERS, game_id=game_id, seat=seat, at=at)
        sql.run(db, S.ISSUE_HANDOVER, code_hash=hash_token(code), game_id=game_id, seat=seat, at=at)
    return code


def handover_seat(db, game_id: str, code: str) -> int | None:
    """The seat an unused hand-over link opens, without using it up."""
    if not code or len(code) > 128:
        return None
    return sql.value(db, S.OPEN_HANDOVER, code_hash=hash_token(code), game_id=game_id)


def take_handover(db, game_id: str, code: str) -> tuple[int, str] | None:
    """Use a hand-over link once: (seat, new token), or None for a used or unknown code."""
    if not code or len(code) > 128:
        return None
    # One statement claims the link, so two phones racing for it cannot both win.
    claimed = sql.run(db, S.CLAIM_HANDOVER, code_hash=hash_token(code), game_id=game_id, at=store.now())
    if claimed.rowcount != 1:
        return None
    seat = sql.value(db, S.HANDOVER_SEAT, code_hash=hash_token(code))
    return seat, issue_seat_token(db, game_id, seat)
