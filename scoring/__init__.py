"""The one registry of game kinds. A game registers by adding its module here.

Each entry is a ``GameKind`` (scoring/base.py): its ``rules``, imported with the registry,
and its ``presentation``, imported from ``scoring/<game>/presentation.py`` the first time a
page, a form or the log's words ask for it — a fold never does."""
import re

from scoring import dragon, dragon_tally, five_tribes, han, maharaja, scorepad
from scoring.base import GameKind, RuleSection
from scoring.dragon import rulebook as dragon_rules
from scoring.five_tribes import rulebook as five_tribes_rules
from scoring.han import rulebook as han_rules
from scoring.maharaja import rulebook as maharaja_rules
from scoring.scorepad import rulebook as scorepad_rules

GAMES: dict[str, GameKind] = {g.kind: g for g in (
    scorepad.GAME,
    han.GAME,
    five_tribes.GAME,
    maharaja.GAME,
    dragon.GAME,
    dragon_tally.GAME,  # In the Year of the Dragon's final tally mode
)}


# Rule versions a game has since replaced, kept so old games still score as they
# did: (kind, rules_version) -> the GameKind of that version.
RETIRED: dict[tuple[str, int], GameKind] = {
    ("maharaja", 1): maharaja.GAME_V1,
    ("five-tribes", 1): five_tribes.GAME_V1,
    ("dragon", 1): dragon.GAME_V1,
    ("han", 1): han.GAME_V1,
}


def get_game(kind: str) -> GameKind | None:
    return GAMES.get(kind)


def rules_for(kind: str, version: int) -> GameKind | None:
    """The rules a game pinned: a retired version if kept, else the current module."""
    return RETIRED.get((kind, version)) or GAMES.get(kind)


def knows_rules(kind: str, version: int) -> bool:
    current = GAMES.get(kind)
    return (kind, version) in RETIRED or (current is not None and current.rules_version == version)


# The rule pages (/rules/<book>): each game's rules as a player reads them, by the name of
# its docs/rules/<book>.md, whose sections they follow. The final tally mode of the Dragon
# plays by the Dragon's rules.
RULEBOOKS: dict[str, tuple[RuleSection, ...]] = {
    "scorepad": scorepad_rules.SECTIONS,
    "han": han_rules.SECTIONS,
    "five-tribes": five_tribes_rules.SECTIONS,
    "maharaja": maharaja_rules.SECTIONS,
    "dragon": dragon_rules.SECTIONS,
}
BOOK_OF_KIND = {kind: "dragon" if kind == "dragon-tally" else kind for kind in GAMES}

# "docs/rules/han.md §2.3–2.4", "docs/rules/han.md §2.9, §6", "core §3": the first section named.
_CITATION = re.compile(r"(?:docs/rules/(?P<book>[a-z-]+)\.md|(?P<core>core)) §(?P<ref>\d+(?:\.\d+)?)")


def cited(rule: str) -> tuple[str, str] | None:
    """The rule page and section a problem's rule points to: ("han", "2.3"); None for a
    tag that names no section (such as "form")."""
    found = _CITATION.search(rule or "")
    return (found["book"] or found["core"], found["ref"]) if found else None
