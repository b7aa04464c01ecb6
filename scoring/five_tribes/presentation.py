"""Five Tribes as the phones show it: the move forms and the log's words (``forms.py``),
the sultanate's board with the last move's path (``view.py``), the score's categories."""
from __future__ import annotations

from scoring.base import Presentation
from scoring.five_tribes.forms import describe, parse_form
from scoring.five_tribes.score import CATEGORIES
from scoring.five_tribes.view import board_parts, view
from scoring.i18n import msg

PRESENTATION = Presentation(
    title=msg("Five Tribes"), describe=describe, parse_form=parse_form, categories=CATEGORIES,
    has_board=True, view=view, last_of=("meeples-moved",), templates=frozenset({"_board.html", "_live_oob.html", "_board_part.html"}),
    form_per_seat=True, board_parts=board_parts, drawn_by=("tap", "path", "drops"),
)
