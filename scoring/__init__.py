"""The one registry of game kinds. A game registers by adding its module here."""
from scoring import scorepad
from scoring.base import GameKind

GAMES: dict[str, GameKind] = {g.kind: g for g in (
    scorepad.GAME,
)}


def get_game(kind: str) -> GameKind | None:
    return GAMES.get(kind)
