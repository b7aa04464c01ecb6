"""In the Year of the Dragon as the phones show it: the move forms and the log's words
(``forms.py``), the board (``view.py``), the score's categories and the tie-break in words."""
from __future__ import annotations

from scoring.base import Presentation
from scoring.dragon.data import labels
from scoring.dragon.forms import describe, parse_form
from scoring.dragon.score import tiebreak_words
from scoring.dragon.view import board_parts, view
from scoring.i18n import msg

PRESENTATION = Presentation(
    title=msg("In the Year of the Dragon"), describe=describe, parse_form=parse_form, categories=labels(),
    tiebreak_words=tiebreak_words, tiebreak_rule=msg("Ties: the player further ahead on the person track wins."),
    has_board=True, view=view,
    templates=frozenset({"_board.html", "_players.html", "_live_oob.html", "_form_fields.html", "_board_part.html"}),
    board_parts=board_parts,
)
