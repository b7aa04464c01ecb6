"""Generic score pad: points per player per round, for any game without a module.
Rules as implemented: docs/rules/scorepad.md."""
from __future__ import annotations

from scoring.base import GameKind, text
from scoring.i18n import msg
from scoring.scorepad.apply import apply
from scoring.scorepad.check import check
from scoring.scorepad.data import EVENT_TYPES, OPTIONS
from scoring.scorepad.demo import demo
from scoring.scorepad.forms import describe, parse_form
from scoring.scorepad.score import is_over, score, totals
from scoring.scorepad.turns import turn
from scoring.scorepad.setup import check_setup, setup
from scoring.scorepad.view import sheet, view

def named(options) -> dict | None:
    """A pad kept for a named game is called by that name (docs/rules/scorepad.md §7)."""
    title = str(options.get("title") or "").strip()
    return text(title, title) if title else None


GAME = GameKind(
    kind="scorepad", title=msg("Generic score pad"),
    min_players=1, max_players=12, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=parse_form, demo=demo, view=view, has_board=True,
    templates=frozenset({"_board.html", "_live_oob.html"}),
    totals=totals, options=OPTIONS, check_setup=check_setup, turn=turn, named=named, sheet=sheet,
)
