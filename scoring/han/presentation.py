"""Han as the phones show it: the move forms, the new-game form's board choice and the
log's words (``forms.py``), the board with the last move's provinces (``view.py``), the
board editor (``boards.py``), the score's categories and the tie-break in words."""
from scoring.base import BoardEditor, Presentation
from scoring.han import boards
from scoring.han.data import CATEGORIES
from scoring.han.forms import describe, parse_form, parse_options
from scoring.han.score import TIEBREAK_RULE, tiebreak_words
from scoring.han.view import board_parts, form_data, view
from scoring.i18n import msg

PRESENTATION = Presentation(
    title=msg("Han"), describe=describe, parse_form=parse_form, categories=CATEGORIES,
    tiebreak_rule=TIEBREAK_RULE, tiebreak_words=tiebreak_words, has_board=True, parse_options=parse_options,
    view=view, last_of=(), templates=frozenset({"_board.html", "_setup.html", "_live_oob.html", "_form_fields.html",
                                             "_board_part.html"}), board_parts=board_parts, form_data=form_data,
    board_editor=BoardEditor(from_form=boards.from_form, missing=boards.missing),
)
