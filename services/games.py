"""Starting a game, or importing one: its row and seats, its events (the set-up and the turn timer chosen with it, or the file's whole log) and its seats' links to the roster's people, in one transaction, so a game never exists without the links asked for."""
from __future__ import annotations

from events.application.export import import_game, inline
from events.application.table import new_game
from group import roster


def start_game(db, kind: str, players: list[dict], options: dict | None, device: str, *,
               people: list[int | str | None] | None = None, timer: dict | None = None,
               phones_for: tuple[int, ...] | None = None, rosters: roster.Rosters | None = None) -> dict:
    """A new game (events/application/table.py:new_game) whose seats are linked to
    ``people`` (a person's id or a name per seat; default: the players' names). Raises
    Refused, writing nothing, when the set-up or the timer is refused."""
    people = people if people is not None else [p.get("name") for p in players]
    rosters = rosters if rosters is not None else roster.Rosters()
    rosters.load(db)  # folded before the write lock (group/roster.py:link_game says why)

    def link(db_, game_id: str) -> None:
        roster.link_locked(db_, game_id, people, device, None, rosters)
    return new_game(db, kind, players, options, device, phones_for=phones_for, timer=timer, also=link)


def import_game_file(db, doc: dict, device: str, people: list[int | str | None], *, by: dict | None = None,
                     rosters: roster.Rosters | None = None, aside=inline, prepare_photo=None) -> dict:
    """A game exported elsewhere stored here (events/application/export.py:import_game)
    with its seats linked to ``people``, made by ``by`` (default: the game itself). Raises
    BadExport (AlreadyHere for a game here before), writing nothing. ``prepare_photo``: what
    each photo the file carries goes through (the web's bounded process, web/decoding.py)."""
    rosters = rosters if rosters is not None else roster.Rosters()
    rosters.load(db)

    def link(db_, game_id: str) -> None:
        roster.link_locked(db_, game_id, people, device, by, rosters)
    if prepare_photo is None:
        return import_game(db, doc, device, aside, also=link)
    return import_game(db, doc, device, aside, also=link, prepare_photo=prepare_photo)
