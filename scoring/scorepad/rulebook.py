"""The score pad's rules as a player reads them on /rules/scorepad: the project's own rules
(a paper score pad has no rulebook), each section as docs/rules/scorepad.md numbers it."""
from __future__ import annotations

from scoring.base import RuleSection
from scoring.i18n import msg, msgp
from scoring.scorepad.data import MAX_ABS_POINTS, MAX_BGG_ID, MAX_NOTE, MAX_TITLE

_points = f"{MAX_ABS_POINTS:,}".replace(",", " ")

SECTIONS = (
    RuleSection("1", msgp("rule title", "Points"), (
        msg("An entry is a whole number between −%(_points)s and +%(_points)s; it may be negative.", _points=_points),
        msg("A note is optional, at most %(MAX_NOTE)s characters.", MAX_NOTE=MAX_NOTE),
        msg("Any seated phone may enter points for any player."))),
    RuleSection("2", msg("Closing a round"), (
        msg("A round with nothing entered cannot be closed: enter at least one score first."),)),
    RuleSection("3", msg("The end of the game"), (
        msg("Once the game has ended nothing more can be entered; Undo reopens it."),)),
    RuleSection("4", msg("The phone form"), (
        msg("A field that is not a whole number, or too long, is answered beside the form, naming the field."),)),
    RuleSection("5", msg("One round, one row"), (
        msg("One save enters a whole round, one field per player; a field left empty is no entry."),
        msg("Only an empty cell can be filled: to change a filled cell, void the row that filled it and enter the round again."))),
    RuleSection("7", msg("Which game"), (
        msg("The game's name is optional, at most %(MAX_TITLE)s characters; the BoardGameGeek id is a whole number from 0 to %(MAX_BGG_ID)s (0: none).", MAX_TITLE=MAX_TITLE, MAX_BGG_ID=MAX_BGG_ID),
        msg("The statistics and the BG Stats export show the game under this name."))),
)
