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

from events.application import photos
from events.storage import log, store
from events.storage.log import GAMES


def _photos(db) -> log.Extra:
    """What must hold of a game's photo events beside the chain: their stored images."""
    return log.Extra((photos.ATTACHED,), lambda events: photos.first_bad_photo(db, events))


def _summary(row: dict | None):
    """The summary a game's row (``SELECT *``) holds, as the recorder compares it."""
    return None if row is None else (row["last_seq"], row.get("last_hash"))


class Verified:
    """Each game's verified prefix (its last verified seq and hash) and the games found
    broken, in this server process (the recorder's ``Verified``, events/storage/log.py,
    with the photos' check); the app keeps one (web/db.py)."""

    def __init__(self) -> None:
        self.logs = log.Verified()

    def unverified_from(self, db, game_id: str) -> tuple[int, str] | None:
        """(N, why) if the record of ``game_id`` does not verify from event N, else None."""
        return self.logs.check(db, GAMES, game_id, game_id, extra=_photos(db))

    def unverified_with(self, db, game_id: str, row: dict | None, last: list) -> tuple[int, str] | None:
        """``unverified_from`` from what a page's loader read already: the game's ``row``,
        then ``last``, its last events (contiguous, to the one the row names). Reads
        nothing more when the verified prefix reaches into them (a warm page); otherwise,
        or when the row names another last event, it reads as ``unverified_from`` does."""
        broken, (seq, _) = self.logs.known(game_id)
        if broken:
            return broken
        if row is None or not last or row.get("last_seq") != last[-1].seq or seq < last[0].seq - 1:
            return self.unverified_from(db, game_id)
        return self.logs.check(db, GAMES, game_id, game_id, _summary(row), [e for e in last if e.seq > seq],
                               extra=_photos(db))

    def unverified_by_row(self, db, game_id: str, row: dict | None) -> tuple[int, str] | None:
        """``unverified_from`` with the game's ``row`` read already by a page's loader: the
        events after the verified prefix are read only when the row names a later one, so a
        warm page reads nothing more (events/storage/log.py:Verified.check)."""
        if row is None:
            return self.unverified_from(db, game_id)
        return self.logs.check(db, GAMES, game_id, game_id, _summary(row),
                               extra=_photos(db))

    def forget(self) -> None:
        self.logs.forget()


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
    summary = _summary(store.game_row(db, game_id))
    events = store.read_events(db, game_id)
    return GAMES.first_break(db, game_id, summary, events=events,
                             extra=_photos(db))[0]


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

