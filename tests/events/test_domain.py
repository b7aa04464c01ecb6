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
