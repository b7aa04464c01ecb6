"""Changes to the roster as the people pages make them: each checked and written with its statistics' rows in one transaction."""
from __future__ import annotations

from events.storage import store
from group import plays, roster
from group.roster import RosterEvent


def change_roster(db, changes: list[tuple[str, dict]], device: str, client_event_id: str | None, *,
                  by: dict) -> list[RosterEvent]:
    """Append roster ``changes`` (made by ``by``) and the statistics' rows they move (an
    imported play reverted leaves them): all or nothing. Raises RosterRefused."""
    with store.write_lock(db):
        written = roster.append_locked(db, changes, device, client_event_id, by=by)
        plays.on_roster_changed(db, written)
    return written


def link_seat(db, game_id: str, seat: int, device: str, client_event_id: str | None, *, by: dict,
              person: int | None = None, name: str | None = None,
              rosters: roster.Rosters | None = None) -> list[RosterEvent]:
    """Link a game's seat to ``person``, or to the person named ``name`` (a new name adds
    the person first); a phone's own seat linked to someone else is unlinked first (the
    organiser unlinks explicitly). One transaction. Raises RosterRefused."""
    with store.write_lock(db):
        known = roster.load(db, rosters)
        written: list[RosterEvent] = []
        if name is not None:
            found = known.by_name(name)
            if found is None:
                written += roster.append_locked(db, [("person-added", {"name": name})], device,
                                                client_event_id and f"{client_event_id}-added", by=by)
            person = found["id"] if found else written[-1].seq
        changes = [("seat-linked", {"game": game_id, "seat": seat, "person": person})]
        if by["role"] == "seat" and known.links.get(game_id, {}).get(seat) not in (None, person):
            changes.insert(0, ("seat-unlinked", {"game": game_id, "seat": seat}))
        written += roster.append_locked(db, changes, device, client_event_id, by=by)
    return written
