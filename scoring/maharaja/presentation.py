"""Maharaja as the phones show it: the move forms, the new-game form and the log's words
(``forms.py``), the board and what each phone may see of the secret gold (``view.py``),
the board editor (``boards.py``), the score's categories and the tie-break in words."""
from scoring.base import BoardEditor, Presentation
from scoring.i18n import msg
from scoring.maharaja import boards, data, forms, score, view

PRESENTATION = Presentation(
    title=msg("Maharaja"), describe=forms.describe, parse_form=forms.parse_form, categories=data.LABELS,
    tiebreak_words=score.tiebreak_words,
    tiebreak_rule=msg("Equal palaces: more gold wins, then the lower character number (with secret gold it decides only once the game is over)."),
    has_board=True, parse_options=forms.parse_options, view=view.view, redact=view.redact,
    templates=frozenset({"_board.html", "_setup.html", "_live_oob.html", "_form_fields.html", "_board_part.html"}),
    board_parts=view.board_parts,
    board_editor=BoardEditor(from_form=boards.from_form, missing=boards.missing),
)
