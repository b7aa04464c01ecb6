"""The Dragon's final tally as the phones show it: the entry form and the log's words
(``forms.py``); the categories and the tie-break's words are the Dragon's."""
from __future__ import annotations

from scoring.base import Presentation
from scoring.dragon.data import labels
from scoring.dragon.presentation import PRESENTATION as DRAGON
from scoring.dragon_tally.forms import describe, parse_form
from scoring.i18n import msg

PRESENTATION = Presentation(
    title=msg("In the Year of the Dragon – final tally"), describe=describe, parse_form=parse_form,
    categories=labels(), tiebreak_words=DRAGON.tiebreak_words, tiebreak_rule=DRAGON.tiebreak_rule,
    templates=frozenset({"_live_oob.html"}),
)
