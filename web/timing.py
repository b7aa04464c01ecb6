"""The table's clock as the pages show it: whose turn and for how long, the break, the
turn timer, each seat's turn times (events/domain/turns.py derives them from the log). The
phones tick the running clock themselves from the times given here (static/clock.js)."""
from __future__ import annotations

import time

from events.domain import turns
from events.domain.core_types import MAX_TIMER
from events.domain.projection import TableState
from scoring.base import FormError, Problem
from scoring.i18n import msg
from web.db import get_db, get_states


def duration(value) -> str:
    """Seconds as a clock reads them: 2:35, 1:02:35; a negative value keeps its sign."""
    if value is None:
        return ""
    sign, whole = ("-" if value < 0 else ""), int(abs(value))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"


def sheet(game_id: str, table: TableState, at: int | None = None) -> dict:
    """The final sheet's and the replay's turn times, as the log stood after ``at``."""
    return clock_view(get_states().clock(get_db(), game_id, at), table, None, running=False)


def clock_view(clock: turns.Clock, table: TableState, seat: int | None, running: bool = True) -> dict:
    players = table.players
    current = clock.current
    rows = {row["seat"]: row for row in clock.seats(len(players))}
    ticking = running and current is not None and not clock.paused and not clock.over
    now = time.time()
    view = {"now": int(now * 1000), "paused": clock.paused and not clock.over and running,
            "paused_since": _ms(clock.paused_at), "over": clock.over, "seats": rows,
            "counted": clock.counted, "paused_seconds": clock.paused_seconds, "timer": clock.timer,
            "since": _ms(clock.last) if ticking else None, "current": None, "countdown": None,
            "longest": clock.longest(3), "table_seconds": clock.table_seconds(),
            "has_turns": any(t.seat is not None for t in clock.turns)}
    if current is not None and not clock.over:
        whose = current.seat
        shown = current.seconds + (max(0.0, now - clock.last) if ticking else 0)
        view["current"] = {"seat": whose, "seconds": current.seconds, "shown": shown, "first": current.first,
                           "who": players[whose]["name"] if whose is not None and whose < len(players) else None,
                           "mine": seat is not None and (whose is None or whose == seat)}
        view["countdown"] = _countdown(clock, current, rows)
        if view["countdown"]:
            view["countdown"]["shown"] = view["countdown"]["left"] - (shown - current.seconds)
    return view


def _countdown(clock: turns.Clock, current: turns.Turn, rows: dict) -> dict | None:
    """The running turn against the timer: the turn's limit, or the seat's chess-clock
    total (the sooner to run out). ``left`` at the last event; the phones count on."""
    timer = clock.timer or {}
    lefts = []
    if timer.get("turn"):
        lefts.append(("turn", timer["turn"] - current.timed))
    if timer.get("total") and current.seat in rows:
        lefts.append(("total", rows[current.seat]["left"]))
    if not lefts:
        return None
    kind, left = min(lefts, key=lambda pair: pair[1])
    return {"kind": kind, "left": left}


def _ms(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds * 1000)


def parse_duration(raw: str | None, field: dict) -> int:
    """``2``, ``2:30`` or ``1:02:30`` (minutes, min:sec, h:min:sec) as seconds; empty: 0."""
    raw = (raw or "").strip()
    if not raw:
        return 0
    parts = raw.split(":")
    if len(parts) > 3 or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts) \
            or any(int(p) > 59 for p in parts[1:]):
        raise FormError([Problem("core §8", msg("%(field)s: give minutes, min:sec or h:min:sec (e.g. 2:30), not “%(value)s”.", field=field, value=raw[:20]))])
    numbers = [int(p) for p in parts]
    seconds = numbers[0] * 60 if len(numbers) == 1 else \
        numbers[0] * 60 + numbers[1] if len(numbers) == 2 else numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
    if seconds > MAX_TIMER:
        raise FormError([Problem("core §8", msg("%(field)s: 24 hours at most.", field=field))])
    return seconds


TURN_FIELD = msg("Time per turn")
TOTAL_FIELD = msg("Chess clock time")


def timer_from_form(form) -> dict:
    return {"turn": parse_duration(form.get("turn"), TURN_FIELD),
            "total": parse_duration(form.get("total"), TOTAL_FIELD)}
