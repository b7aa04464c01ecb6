"""The repository stands on its own: `make run` installs only what serving needs, and
nothing cites a file outside the repository or a path of one machine."""
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).parent.parent
OUTSIDE = re.compile(r"GAMES\.md|\bseed 0\d\d\b|seeds/|/work/|/home/|shared/research", re.IGNORECASE)
BINARY = {".png", ".svg", ".jpg", ".ico", ".woff", ".woff2"}


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


def test_nothing_in_the_tree_cites_a_file_outside_the_repository():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        path = ROOT / name
        if path.suffix in BINARY or not path.exists() or name == "tests/test_hygiene.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            assert not OUTSIDE.search(line), f"{name}:{n} cites something outside the repository: {line.strip()}"


def test_no_module_imports_another_modules_private_names():
    """A name starting with "_" is its module's own: another module (a blueprint, the
    history walk) asks for a public one instead."""
    import ast
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    for name in files:
        if name.startswith("tests/") or not (ROOT / name).exists():
            continue
        for node in ast.walk(ast.parse((ROOT / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in {"events", "web", "scoring", "app"}:
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{name}:{node.lineno} imports {private} from {node.module}"
