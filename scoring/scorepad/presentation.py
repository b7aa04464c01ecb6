"""The score pad as the phones show it: its title (or the name of the game it keeps), the
move form and the log's words (``forms.py``), the board and the final sheet (``view.py``)."""
from __future__ import annotations

from scoring.base import Presentation, text
from scoring.i18n import msg
from scoring.scorepad.forms import describe, parse_form
from scoring.scorepad.view import sheet, view


def named(options) -> dict | None:
    """A pad kept for a named game is called by that name (docs/rules/scorepad.md §7)."""
    title = str(options.get("title") or "").strip()
    return text(title, title) if title else None


PRESENTATION = Presentation(
    title=msg("Generic score pad"), describe=describe, parse_form=parse_form, view=view, has_board=True,
    templates=frozenset({"_board.html", "_live_oob.html", "_board_parts.html"}), named=named, sheet=sheet,
)
