"""The repository stands on its own: `make run` installs only what serving needs, and
nothing cites a file outside the repository or a path of one machine."""
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).parent.parent
OUTSIDE = re.compile(r"GAMES\.md|\bseed 0\d\d\b|seeds/|/work/|/home/|shared/research", re.IGNORECASE)
# The core's own files; the game packages join this list as they move into scoring/<game>/.
CORE = ["app.py", "Makefile", "events", "web", "templates/_macros.html", "templates/base.html",
        "docs/architecture.md", "docs/api.md", "docs/events.md", "docs/reliability.md",
        "docs/export-format.md", "README.md",
        "scoring/maharaja", "templates/games/maharaja", "docs/rules/maharaja.md", "scripts/make_maharaja_examples.py",
        "scoring/dragon", "scoring/dragon_tally", "scoring/scorepad", "templates/games/dragon",
        "templates/games/dragon-tally", "templates/games/scorepad", "docs/rules/dragon.md",
        "docs/rules/scorepad.md", "scripts/make_dragon_examples.py", "tests/test_dragon.py",
        "tests/test_dragon_web.py", "tests/test_browser_dragon.py", "tests/test_scorepad.py"]


def _dry_run(target: str) -> list[str]:
    """The pip commands `make <target>` would run on a fresh checkout."""
    out = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if "pip install" in line and "--upgrade pip" not in line]


def test_make_run_installs_only_what_serving_needs():
    installs = _dry_run("run")
    assert installs and all(".[test]" not in line for line in installs), installs


@pytest.mark.parametrize("target", ["test", "bench"])
def test_make_test_and_bench_add_the_test_extras(target):
    assert any(".[test]" in line for line in _dry_run(target))


def test_the_core_cites_no_file_outside_the_repository():
    files = subprocess.run(["git", "ls-files", "--", *CORE], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    for name in files:
        path = ROOT / name
        if path.suffix in {".png", ".svg"} or not path.exists():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            assert not OUTSIDE.search(line), f"{name}:{n} cites something outside the repository: {line.strip()}"
