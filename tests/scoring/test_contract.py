"""One contract, every registered game: the fold, JSON round trips, pure checks,
documented and exercised event types."""
import copy
from dataclasses import replace
import json
import pathlib

import pytest

from events.domain.event import Event
from events.domain.projection import fold, standings
from scoring import GAMES
from tests.conftest import demo_events

DOCS = pathlib.Path(__file__).parents[2] / "docs" / "events.md"


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


def test_every_game_declares_a_demo(game):
    assert game.demo is not None, f"{game.kind} needs a demo game for the contract test"


def test_demo_moves_are_legal_one_by_one(game):
    from events.application.table import check_move
    events = demo_events(game)
    for event in events[1:]:
        table = fold(events, upto=event.seq - 1)
        assert check_move(table, event.type, event.data) == [], (event.seq, event.type)


def test_fold_all_at_once_equals_fold_one_by_one(game):
    from events.domain.projection import advance
    events = demo_events(game)
    whole = fold(events)
    stepwise = fold(events[:1])
    for event in events[1:]:
        stepwise = advance(stepwise, event)
    assert stepwise.game == whole.game
    assert standings(stepwise) == standings(whole)


def test_state_and_scores_survive_a_json_round_trip(game):
    events = demo_events(game)
    for n in range(1, len(events) + 1):
        table = fold(events, upto=n)
        assert json.loads(json.dumps(table.game)) == table.game
        scores = game.score(table.game)
        round_tripped = json.loads(json.dumps({s: [p.as_dict() for p in parts] for s, parts in scores.items()}))
        assert round_tripped == {str(s): [p.as_dict() for p in parts] for s, parts in scores.items()}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_the_state_holds_the_games_facts_not_the_tables_names(game):
    """The players' names are the table's (``TableState.players``): the rules name a seat with
    ``player(seat)`` and the view gets the players (issue 24, item 6)."""
    events = demo_events(game)
    names = {p["name"] for p in events[0].data["players"]}
    for n in range(1, len(events) + 1):
        state = fold(events, upto=n).game
        assert not names & set(_strings(state)), (n, names & set(_strings(state)))


def test_the_same_fact_has_the_same_key_in_every_game(game):
    """The number of players is ``n``, the rules version the state was set up by ``rules_version``."""
    players, options, _ = game.demo()
    state = game.setup(players, {**game.default_options(), **options})
    assert state["n"] == len(players)
    assert not {"seats", "rules", "names"} & set(state)
    from scoring import RETIRED
    if any(kind == game.kind for kind, _ in RETIRED):  # its rules differ by version
        assert state["rules_version"] == game.rules_version


def test_the_state_holds_no_highlighting_of_the_last_move(game):
    """What a page marks of the last move is derived from the log when it renders
    (``GameKind.last_of``), so a void or an undo changes it with the log."""
    events = demo_events(game)
    for n in range(1, len(events) + 1):
        assert not {"last", "last_path"} & set(fold(events, upto=n).game)


EXAMPLES = sorted((pathlib.Path(__file__).parents[2] / "examples").glob("*.json"))
# What a move's line in the log once read from the state, noted there by the fold under the
# move's number: who left a Dragon palace, whom a Maharaja swap took a character from, who
# made a Maharaja move. The log's words are derived from the state before the move instead.
LOG_AIDS = {"left", "taken_from", "actors"}


def _recorded_games():
    """Every shipped example game's events, and every game's demo."""
    for path in EXAMPLES:
        yield path.name, [Event(**e) for e in json.loads(path.read_text(encoding="utf-8"))["events"]]
    for kind, game in sorted(GAMES.items()):
        yield f"demo of {kind}", demo_events(game)


def test_no_folded_state_holds_words_for_the_log():
    """State holds facts; the log's words are derived (docs/architecture.md, "A game package")."""
    from events.application.states import walk
    for name, events in _recorded_games():
        for event, table in walk(events):
            assert not LOG_AIDS & set(table.game), (name, event.seq, LOG_AIDS & set(table.game))


def _maharaja_on_a_named_board():
    """Maharaja's demo on a board profile that names and colours every city and names villages."""
    from scoring.maharaja import boards
    game = GAMES["maharaja"]
    data = boards.blank()
    data["cities"] = [{"id": c["id"], "name": f"City of {c['id']}", "colour": f"hue {c['id']}"} for c in data["cities"]]
    data["villages"] = [{"number": n, "name": f"Village by the well {n}"} for n in range(1, 31)]
    events = demo_events(game)
    options = {**events[0].data["options"], "board": {"id": "named", "version": 1, "data": data}}
    return replace(events[0], data={**events[0].data, "options": options}), events[1:], data


def _shown_of_the_board(options: dict) -> set[str]:
    """The names and free-text colours a pinned board profile gives places (Han's province
    colours are the rules' own ids: what a piece costs)."""
    data = (options.get("board") or {}).get("data") or {}
    return {c[key] for c in data.get("cities", []) for key in ("name", "colour") if c[key]} | \
        {v["name"] for v in data.get("villages", []) if v["name"]} | {a["name"] for a in data.get("areas", []) if a["name"]}


def test_a_folded_state_holds_ids_not_the_names_and_colours_a_board_gives():
    """A board profile's names and colours are the presentation's, looked up by id from the
    set-up (``place_names`` of scoring/maharaja/boards.py and scoring/han/boards.py), not
    folded into the state: every shipped example and demo, and Maharaja on a named board."""
    from events.application.states import walk
    created, moves, _ = _maharaja_on_a_named_board()
    games = [*_recorded_games(), ("maharaja on a named board", [created, *moves])]
    assert sum(bool(_shown_of_the_board(events[0].data["options"])) for _, events in games) >= 3
    for name, events in games:
        shown = _shown_of_the_board(events[0].data["options"])
        for event, table in walk(events):
            assert not shown & set(_strings(table.game)), (name, event.seq, shown & set(_strings(table.game)))


def test_check_and_apply_never_mutate_their_input(game):
    from events.domain.projection import upcast
    events = demo_events(game)
    for event in events[1:]:
        state = fold(events, upto=event.seq - 1).game
        before = copy.deepcopy(state)
        move = upcast(game, event)
        game.check(state, move)
        assert state == before, f"check mutated the state at {event.type}"
        game.apply(state, move)
        assert state == before, f"apply mutated the state at {event.type}"


def test_demo_exercises_every_event_type(game):
    used = {type_ for type_, _ in game.demo()[2]}
    assert used == set(game.event_types), set(game.event_types) - used


def _events_md_section(tag: str) -> str:
    """The section of docs/events.md whose heading names ``tag`` (e.g. "`han`")."""
    sections = DOCS.read_text(encoding="utf-8").split("\n## ")[1:]
    found = [s for s in sections if tag in s.split("\n", 1)[0]]
    assert len(found) == 1, f"docs/events.md needs one section headed with {tag}"
    return found[0]


def test_every_event_type_is_documented_in_its_games_section(game):
    section = _events_md_section(f"`{game.kind}`")
    for type_ in game.event_types:
        assert f"| `{type_}` |" in section or f"\n- `{type_}`" in section, \
            f"{game.kind}: {type_} missing from its section of docs/events.md"


def test_every_core_event_type_is_documented_in_the_core_section():
    from events.domain.core_types import CORE_EVENTS
    section = _events_md_section("Core events")
    for type_ in CORE_EVENTS:
        assert f"| `{type_}` |" in section or f"\n- `{type_}`" in section, \
            f"{type_} missing from the core section of docs/events.md"


ROOT = DOCS.parent.parent
# The module names a game package may have (docs/architecture.md); one it does not need is absent.
GAME_MODULES = {"__init__.py", "data.py", "setup.py", "check.py", "apply.py", "score.py",
                "forms.py", "view.py", "demo.py", "boards.py", "rulebook.py", "turns.py", "presentation.py"}


def _package(game) -> pathlib.Path | None:
    """scoring/<game>/, the game's package; None for a game left as a flat module."""
    package = ROOT / "scoring" / game.kind.replace("-", "_")
    return package if (package / "__init__.py").exists() else None


def test_every_game_package_has_only_the_agreed_module_names():
    for package in sorted(p for p in (ROOT / "scoring").iterdir() if (p / "__init__.py").exists()):
        modules = {p.name for p in package.iterdir() if p.suffix == ".py" or p.is_dir() and p.name != "__pycache__"}
        assert modules <= GAME_MODULES, f"{package.name}: {sorted(modules - GAME_MODULES)} are not agreed module names"
        for module in modules:
            assert (package / module).read_text(encoding="utf-8").strip(), f"{package.name}/{module} is empty"


def test_every_template_hook_a_game_provides_is_declared(game):
    from scoring.base import TEMPLATE_HOOKS
    folder = ROOT / "templates" / "games" / game.kind
    assert (folder / "_form.html").exists(), f"{game.kind}: templates/games/{game.kind}/_form.html is required"
    assert set(game.templates) <= TEMPLATE_HOOKS, f"{game.kind}: unknown hooks {set(game.templates) - TEMPLATE_HOOKS}"
    for hook in game.templates:
        assert (folder / hook).exists(), f"{game.kind} declares {hook}, which templates/games/{game.kind}/ lacks"
    assert _package(game) is not None, f"{game.kind} must live in scoring/{game.kind.replace('-', '_')}/"
    provided = {hook for hook in TEMPLATE_HOOKS if (folder / hook).exists()}
    assert provided <= set(game.templates), f"{game.kind} provides {provided - set(game.templates)} undeclared"


def test_every_event_type_has_a_schema_and_labels(game):
    for type_, spec in game.event_types.items():
        assert spec.schema.get("type") == "object"
        assert spec.label["hu"] and spec.label["en"]
        assert set(spec.upcasters) == set(range(1, spec.version))


def test_describe_speaks_both_languages(game):
    events = demo_events(game)
    players = events[0].data["players"]
    from events.domain.projection import upcast
    for event in events[1:]:
        move = upcast(game, event)
        with_state = game.describe(move, players, fold(events, upto=event.seq - 1).game)
        without = game.describe(move, players)  # e.g. an event of a game that cannot be folded
        assert with_state["hu"] and with_state["en"] and without["hu"] and without["en"]
