"""Whether a game's stored record verifies: its hash chain, and its summary row (last
sequence number and last hash) against the chain, so that events cut off the end are
noticed as surely as a changed payload; and each photo's stored image against the
digest its event records (events/application/photos.py). Every page, API answer and export of a game
whose record does not verify says so ("this record does not verify from event N").

Each server process verifies each event once, when it first reads it: the verified
prefix (its last seq and hash) is remembered in the app's ``Verified`` (web/db.py), so a page costs one indexed read of the
events since. A change made to the file behind a running server's back is therefore
caught at its next start, by ``verify-db``, and by every export (which verifies the
whole chain it sends).
"""
from __future__ import annotations

import threading

from events.application import photos
from events.domain.hashing import GENESIS, first_broken_link
from events.storage import store


def _against_summary(row: dict | None, last_seq: int, hash_at) -> tuple[int, str] | None:
    """(seq, why) when the summary row and the chain disagree, else None. ``row`` is read
    before the events: appends only add events, so a chain shorter than the row says, or
    another hash at the row's last seq, is a record changed behind the app's back.
    ``hash_at(seq)``: the chain's hash at ``seq``."""
    if row is None or not row.get("last_hash"):
        return None  # a game being created, or a row from before summaries kept the hash
    if last_seq < row["last_seq"]:
        return last_seq + 1, f"the summary says the game has {row['last_seq']} events; the record ends at {last_seq}"
    if hash_at(row["last_seq"]) != row["last_hash"]:
        return row["last_seq"], "the summary's last hash differs from the record's"
    return None


class Verified:
    """Each game's verified prefix (its last verified seq and hash) and the games found
    broken, in this server process; the app keeps one (web/db.py)."""
    MAX_GAMES = 5000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._verified: dict[str, tuple[int, str]] = {}  # game -> (last verified seq, its hash)
        self._broken: dict[str, tuple[int, str]] = {}    # game -> (first bad seq, why)

    def unverified_from(self, db, game_id: str) -> tuple[int, str] | None:
        """(N, why) if the record of ``game_id`` does not verify from event N, else None."""
        found = self._known(game_id)
        if found is not None and found[0] == "broken":
            return found[1]
        seq, prev = found[1] if found else (0, GENESIS)
        row = store.game_row(db, game_id)  # before the events: see _against_summary
        return self._check(db, game_id, seq, prev, row, store.read_events(db, game_id, after=seq))

    def unverified_with(self, db, game_id: str, row: dict | None, last: list) -> tuple[int, str] | None:
        """``unverified_from`` from what a page's loader read already: the game's ``row``,
        then ``last``, its last events (contiguous, to the one the row names). Reads
        nothing more when the verified prefix reaches into them (a warm page); otherwise,
        or when the row names another last event, it reads as ``unverified_from`` does."""
        found = self._known(game_id)
        if found is not None and found[0] == "broken":
            return found[1]
        seq, prev = found[1] if found else (0, GENESIS)
        if row is None or not last or row.get("last_seq") != last[-1].seq or seq < last[0].seq - 1:
            return self.unverified_from(db, game_id)
        return self._check(db, game_id, seq, prev, row, [e for e in last if e.seq > seq])

    def _known(self, game_id: str):
        """("broken", (seq, why)), ("verified", (seq, hash)) or None: what this process knows."""
        with self._lock:
            if game_id in self._broken:
                return "broken", self._broken[game_id]
            if game_id in self._verified:
                return "verified", self._verified[game_id]
        return None

    def _check(self, db, game_id: str, seq: int, prev: str, row, read) -> tuple[int, str] | None:
        """The events ``read`` after the verified prefix (``seq``, ``prev``) checked, then
        the summary ``row`` against the chain; the new prefix or the break remembered."""
        events = [e.envelope() for e in read]
        broken = first_broken_link(events, prev, seq + 1) or photos.first_bad_photo(db, read)
        if broken is None and events:
            seq, prev = events[-1]["seq"], events[-1]["hash"]

        def hash_at(n: int) -> str | None:
            if n == seq:
                return prev
            found = store.read_events(db, game_id, after=n - 1, upto=n)
            return found[0].hash if found else None

        broken = broken or _against_summary(row, seq, hash_at)
        with self._lock:
            if len(self._verified) >= self.MAX_GAMES:
                self._verified.clear()
            if broken:
                self._broken[game_id] = broken
            else:
                self._verified[game_id] = (seq, prev)
        return broken

    def forget(self) -> None:
        with self._lock:
            self._verified.clear()
            self._broken.clear()


def damage_in_game(db, game_id: str) -> tuple[int, str] | None:
    """``verify_whole``, for verify-db: a row that cannot even be read (its data no UTF-8 or
    no JSON) is named by its sequence number instead of ending the check in a traceback."""
    return guarded(lambda: verify_whole(db, game_id), lambda: store.event_seqs(db, game_id),
                   lambda seq: store.read_events(db, game_id, after=seq - 1, upto=seq))


def guarded(verify, seqs, read_one) -> tuple[int, str] | None:
    """``verify()``; when it fails on a damaged row, (the first row ``read_one(seq)`` cannot
    read, why), or (0, why) when no single row is to blame."""
    try:
        return verify()
    except Exception as error:  # whatever the damage: named, never a traceback
        found = None
        try:
            found = next(((seq, f"its stored row cannot be read ({damage(why)})")
                          for seq, why in ((seq, _unreadable(read_one, seq)) for seq in seqs()) if why), None)
        except Exception as listing:
            error = listing
        return found or (0, f"it cannot be read ({damage(error)})")


def _unreadable(read_one, seq: int) -> Exception | None:
    try:
        read_one(seq)
    except Exception as error:
        return error
    return None


def damage(error: BaseException) -> str:
    """An error met on a damaged row, in one short line."""
    said = " ".join(str(error).split())
    return f"{type(error).__name__}: {said[:160]}" if said else type(error).__name__


def verify_whole(db, game_id: str) -> tuple[int, str] | None:
    """The whole chain, the summary and every photo's stored bytes, read now (verify-db,
    exports, backups)."""
    row = store.game_row(db, game_id)
    events = store.read_events(db, game_id)
    broken = first_broken_link(e.envelope() for e in events) or photos.first_bad_photo(db, events)
    return broken or _against_summary(row, len(events), lambda n: events[n - 1].hash)


GAME_WARNING = ("Ez a játéknapló a(z) {seq}. eseménytől nem igazolható (a lenyomatlánc nem egyezik); "
                "az innentől mutatott pontok nem hitelesek.",
                "This record does not verify from event {seq} ({why}); "
                "the scores shown from there on cannot be trusted.")


def warning(broken: tuple[int, str], words: tuple[str, str] = GAME_WARNING) -> dict:
    """What a page, an API answer or an export says of a record that does not verify
    (``words``: HU and EN with {seq} and {why}; the roster's log has its own)."""
    seq, why = broken
    return {"from": seq, "reason": why, "hu": words[0].format(seq=seq, why=why),
            "en": words[1].format(seq=seq, why=why)}

