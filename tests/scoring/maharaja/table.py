"""A Maharaja game moved by the rules alone, as the rules tests move one: set up with its
characters and starting houses, each move checked then applied, a turn, a round of gold."""
from scoring.base import Move
from scoring.maharaja import GAME as M

NAMES = ["Krisztina", "Péter", "Jenő", "Anita", "Zoli"]


def step(state, type_, data):
    """Check then apply one move, failing with the problems if it is refused."""
    move = Move(0, type_, data)
    problems = M.check(state, move)
    assert problems == [], (type_, data, problems)
    return M.apply(state, move)


def refused(state, type_, data) -> list[str]:
    return [p.rule for p in M.check(state, Move(0, type_, data))]


def started(characters, **options):
    """A game through set-up: governors A..G from the bottom, ``characters[seat]``,
    each seat's 4 starting houses in its own villages (seat s: v(4s+1)..v(4s+4))."""
    n = len(characters)
    players = [{"name": NAMES[i], "colour": ""} for i in range(n)]
    state = M.setup(players, {**{o.name: o.default for o in M.options}, **options})
    state = step(state, "governors-laid", {"order": list("ABCDEFG")})
    for seat, number in enumerate(characters):
        state = step(state, "character-chosen", {"seat": seat, "character": number})
    placed = [0] * n
    while state["next"]["step"] == "start-house":
        seat = state["next"]["seat"]
        state = step(state, "start-house-placed", {"seat": seat, "place": f"v{4 * seat + placed[seat] + 1}"})
        placed[seat] += 1
    return state


def turn(state, seat, actions, *moves, end=None):
    state = step(state, "actions-revealed", {"seat": seat, "actions": actions})
    for type_, data in moves:
        state = step(state, type_, data)
    return step(state, "turn-ended", end or {})


def pass_round(state):
    """Every player takes gold twice."""
    while state["next"] and state["next"]["step"] == "reveal":
        seat = state["next"]["seat"]
        state = turn(state, seat, ["gold", "gold"], ("gold-taken", {}), ("gold-taken", {}))
        if state["phase"] == "over" or state["acted"] == []:
            break
    return state
