"""The domain (events/domain/: the fold, the core events, turns, the chain) is pure: it
folds a recorded game with neither Pillow nor a database driver importable."""
import json
import pathlib
import subprocess
import sys

from events.domain.event import Event
from events.domain.projection import fold, standings

ROOT = pathlib.Path(__file__).parent.parent.parent
BLOCKED = ("PIL", "sqlite3", "_sqlite3", "sqlite_utils", "psycopg", "psycopg_pool", "gevent", "flask")

# Run in a fresh interpreter: this one has imported them all already. A module set to None in
# sys.modules cannot be imported ("import of PIL halted").
_FOLD = """
import json, sys
for name in {blocked!r}:
    sys.modules[name] = None
from events.domain.event import Event
from events.domain.projection import fold, standings
doc = json.load(open({path!r}, encoding="utf-8"))
table = fold([Event(**e) for e in doc["events"]])
print(json.dumps([[r["seat"], r["score"], r["rank"]] for r in standings(table)]))
"""


def _standings(path: pathlib.Path) -> list:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [[r["seat"], r["score"], r["rank"]] for r in standings(fold([Event(**e) for e in doc["events"]]))]


def test_the_fold_needs_neither_pillow_nor_a_database():
    for path in (ROOT / "examples").glob("*.json"):
        script = _FOLD.format(blocked=BLOCKED, path=str(path))
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, f"{path.name}: {done.stderr[-800:]}"
        assert json.loads(done.stdout) == _standings(path), path.name


# The presentation half of every game (scoring/<game>/presentation.py and what it reads: the
# forms, the views, the shared form readers) and the templates' engine: a fold needs none.
PRESENTATION = ("jinja2", "markupsafe", "flask", "scoring.forms") + tuple(
    f"scoring.{package.name}.{module}" for package in sorted((ROOT / "scoring").iterdir()) if package.is_dir()
    and (package / "__init__.py").exists() for module in ("forms", "view", "presentation"))

_RULES_ONLY = """
import json, sys
for name in {blocked!r}:
    sys.modules[name] = None
from events.domain.event import Event
from events.domain.projection import fold, standings
from scoring import GAMES, RETIRED
from scoring.base import Move
said = []
for path in {paths!r}:
    doc = json.load(open(path, encoding="utf-8"))
    said.append([[r["seat"], r["score"], r["rank"]] for r in standings(fold([Event(**e) for e in doc["events"]]))])
for game in [*GAMES.values(), *RETIRED.values()]:
    players, options, moves = game.demo()
    state = game.setup(players, {{**game.default_options(), **options}})
    for seq, (type_, data) in enumerate(moves, start=2):
        move = Move(seq, type_, data, 0)
        assert game.check(state, move) == [], (game.kind, seq, type_)
        state = game.apply(state, move)
    said.append([game.kind, game.is_over(state), sorted(game.score(state))])
print(json.dumps(said))
"""


def test_the_fold_loads_no_game_presentation():
    """The rules and their presentation are two halves (scoring/base.py: ``Rules``,
    ``Presentation``): every example and every game's demo, each rules version, folds,
    checks and scores with every game's forms, views and presentation, and the template
    engine, unimportable."""
    paths = [str(p) for p in sorted((ROOT / "examples").glob("*.json"))]
    done = subprocess.run([sys.executable, "-c", _RULES_ONLY.format(blocked=PRESENTATION, paths=paths)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-1500:]
    said = json.loads(done.stdout)
    assert said[:len(paths)] == [_standings(pathlib.Path(p)) for p in paths]
