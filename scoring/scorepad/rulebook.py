"""The score pad's rules as a player reads them on /rules/scorepad: the project's own rules
(a paper score pad has no rulebook), each section as docs/rules/scorepad.md numbers it."""
from __future__ import annotations

from scoring.base import RuleSection, text
from scoring.scorepad.data import MAX_ABS_POINTS, MAX_BGG_ID, MAX_NOTE, MAX_TITLE

_points = f"{MAX_ABS_POINTS:,}".replace(",", " ")

SECTIONS = (
    RuleSection("1", text("Pontok", "Points"), (
        text(f"Egy bejegyzés egész szám −{_points} és +{_points} között; negatív is lehet.",
             f"An entry is a whole number between −{_points} and +{_points}; it may be negative."),
        text(f"A megjegyzés nem kötelező, legfeljebb {MAX_NOTE} karakter.",
             f"A note is optional, at most {MAX_NOTE} characters."),
        text("Bármelyik ülő telefon bármelyik játékosnak írhat be pontot.",
             "Any seated phone may enter points for any player."))),
    RuleSection("2", text("A kör lezárása", "Closing a round"), (
        text("Üres kört nem lehet lezárni: előbb legalább egy pontot be kell írni.",
             "A round with nothing entered cannot be closed: enter at least one score first."),)),
    RuleSection("3", text("A játék vége", "The end of the game"), (
        text("A játék vége után semmi sem írható be; a Visszavonás újra megnyitja.",
             "Once the game has ended nothing more can be entered; Undo reopens it."),)),
    RuleSection("4", text("A telefon űrlapja", "The phone form"), (
        text("Egy mező, amely nem egész szám vagy túl hosszú, az űrlap mellett kap választ, a mező nevével.",
             "A field that is not a whole number, or too long, is answered beside the form, naming the field."),)),
    RuleSection("5", text("Egy kör egy sor", "One round, one row"), (
        text("Egy mentés egy egész kört ír be, játékosonként egy mezővel; az üresen hagyott mező nem bejegyzés.",
             "One save enters a whole round, one field per player; a field left empty is no entry."),
        text("Egy cella csak üresen tölthető ki: a kitöltött cellát az azt kitöltő sor érvénytelenítése után lehet újra beírni.",
             "Only an empty cell can be filled: to change a filled cell, void the row that filled it and enter the round again."))),
    RuleSection("7", text("Melyik játék", "Which game"), (
        text(f"A játék neve nem kötelező, legfeljebb {MAX_TITLE} karakter; a BoardGameGeek-azonosító 0 és {MAX_BGG_ID} közötti egész szám (0: nincs).",
             f"The game's name is optional, at most {MAX_TITLE} characters; the BoardGameGeek id is a whole number from 0 to {MAX_BGG_ID} (0: none)."),
        text("A statisztika és a BG Stats-export ezen a néven mutatja a játékot.",
             "The statistics and the BG Stats export show the game under this name."))),
)
