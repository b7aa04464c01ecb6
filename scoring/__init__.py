"""The one registry of game kinds. A game registers by adding its module here."""
from scoring import dragon, dragon_tally, five_tribes, han, maharaja, scorepad
from scoring.base import GameKind

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
