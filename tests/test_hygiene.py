"""The repository stands on its own: `make run` installs only what serving needs, every
package from the locked tree, and nothing cites a file outside the repository or a path of
one machine."""
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).parent.parent
OUTSIDE = re.compile(r"GAMES\.md|\bseed 0\d\d\b|seeds/|/work/|/home/|shared/research", re.IGNORECASE)
BINARY = {".png", ".svg", ".jpg", ".ico", ".woff", ".woff2", ".db"}


def _dry_run(target: str) -> list[str]:
    """The pip commands `make <target>` would run on a fresh checkout."""
    out = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if "pip install" in line]


def test_make_run_installs_only_what_serving_needs_from_the_lock():
    installs = _dry_run("run")
    assert any("--require-hashes -r requirements.txt" in line for line in installs), installs
    assert all("requirements-test.txt" not in line and ".[test]" not in line for line in installs), installs


@pytest.mark.parametrize("target", ["test", "bench"])
def test_make_test_and_bench_add_the_locked_test_extras(target):
    assert any("--require-hashes -r requirements-test.txt" in line for line in _dry_run(target))


def test_nothing_is_installed_past_the_lock():
    """Only the locks bring packages; the app itself is installed without its dependencies
    (they are in the lock), and pip is not upgraded past the locked one."""
    for line in _dry_run("test"):
        assert "--require-hashes" in line or "--no-deps -e ." in line, line


def _locked(name: str) -> dict[str, str]:
    """package -> version of a lock file, names normalised as pip does."""
    text = (ROOT / name).read_text(encoding="utf-8")
    pins = re.findall(r"^([A-Za-z0-9._-]+)==([^\s;]+)", text, re.MULTILINE)
    assert text.count("--hash=sha256:") >= len(pins) > 0
    return {re.sub(r"[-_.]+", "-", package).lower(): version for package, version in pins}


def _pinned_in_pyproject(extra: str | None = None) -> dict[str, str]:
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return {re.sub(r"[-_.]+", "-", re.sub(r"\[.*\]", "", pin.split("==")[0])).lower(): pin.split("==")[1]
            for pin in pins}


def test_the_locks_hold_what_pyproject_pins():
    """A pin changed in pyproject.toml without `make lock` fails here, not on a fresh machine."""
    runtime, test = _locked("requirements.txt"), _locked("requirements-test.txt")
    for package, version in _pinned_in_pyproject().items():
        assert runtime.get(package) == version, f"{package}=={version}: run `make lock`"
    for package, version in _pinned_in_pyproject("test").items():
        assert test.get(package) == version, f"{package}=={version} (test): run `make lock`"
    assert {p: v for p, v in test.items() if p in runtime} == runtime, \
        "the test lock must keep the runtime lock's versions: run `make lock`"


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
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in {"events", "group", "web", "scoring", "app"}:
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{name}:{node.lineno} imports {private} from {node.module}"


# Which top-level package may import which (docs/architecture.md, "Layers"): the game
# rules know nothing else, the log knows the rules' contract, the group's history reads
# the log, and only the web layer (and the app, bench, scripts) sees everything.
MAY_IMPORT = {
    "scoring": {"scoring"},
    "events": {"events", "scoring"},
    "group": {"group", "events", "scoring"},
    "services": {"services", "group", "events", "scoring"},
}


def test_each_layer_imports_only_the_layers_below_it():
    import ast
    for package, allowed in MAY_IMPORT.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
                for name in names:
                    top = name.split(".")[0]
                    if top in {"scoring", "events", "group", "services", "web", "app", "bench"}:
                        assert top in allowed, f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"


# Inside the log (docs/architecture.md, "Layers"): the domain is pure and knows only itself;
# storage keeps the domain's events; the application uses both; the runtime wakes streams
# from the store. gevent's helpers (events/runtime/greenlets.py) import nothing of ours, so
# the store and the application may call them.
EVENTS_MAY_IMPORT = {
    "domain": {"domain"},
    "storage": {"domain", "storage", "runtime.greenlets"},
    "application": {"domain", "storage", "application", "runtime.greenlets"},
    "runtime": {"runtime", "storage"},
}


def test_the_log_packages_import_only_what_their_kind_may():
    for package, allowed in EVENTS_MAY_IMPORT.items():
        for path in sorted((ROOT / "events" / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for module in _imports_of(path, name):
                inner = module.removeprefix("events.")
                if module.startswith("events.") and "." in inner:  # a module (its package comes with it)
                    assert any(inner == a or inner.startswith(a + ".") for a in allowed), \
                        f"{path.relative_to(ROOT)} imports {module}"


def _imports_of(path: pathlib.Path, package: str) -> set[str]:
    """The project modules ``path`` imports, at its top or inside a function."""
    import ast
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found |= {base} | {f"{base}.{a.name}" for a in node.names}
    return found


def test_no_two_modules_import_each_other_even_inside_a_function():
    """A cycle (bench/run.py ↔ bench/wal_pages.py once) makes a module that cannot be read,
    or imported, without the other; a late import only hides it."""
    modules = {}
    for path in sorted(ROOT.glob("*.py")) + sorted(p for folder in ("events", "group", "services", "scoring", "web", "bench", "scripts")
                                                   for p in (ROOT / folder).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph = {name: {m for m in _imports_of(path, name) if m in modules and m != name} for name, path in modules.items()}
    seen, stack, cycles = set(), [], []

    def visit(name):
        if name in stack:
            cycles.append(stack[stack.index(name):] + [name])
            return
        if name in seen:
            return
        seen.add(name)
        stack.append(name)
        for other in sorted(graph[name]):
            visit(other)
        stack.pop()

    for name in sorted(graph):
        visit(name)
    # a package's __init__ importing its own submodules is how a package is read, not a cycle
    cycles = [c for c in cycles if not all(m.startswith(c[0] + ".") or m == c[0] for m in c)]
    assert not cycles, " ; ".join(" → ".join(c) for c in cycles)


def test_no_test_module_is_named_after_a_round_of_work():
    """A test module says what it tests (tests/group/test_statistics.py), not when it was
    written (test_statistics_round_three.py): a newcomer looks for the module's name."""
    rounds = re.compile(r"round_(one|two|three|four|five|six|seven|eight|nine|ten|\d+)\b")
    named = [p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py") if rounds.search(p.stem)]
    assert not named, named


def test_product_code_names_no_issue():
    """Why the code is as it is lives in docs/decisions.md, named by its heading; an "issue N
    §k" in the code sends a newcomer to a tracker they may not have."""
    cited = re.compile(r"\bissue \d+")
    found = [f"{p.relative_to(ROOT)}:{n}" for folder in ("events", "group", "scoring", "services", "web", "static", "templates")
             for p in sorted((ROOT / folder).rglob("*")) if p.suffix in {".py", ".html", ".js", ".css"}
             and "vendor" not in p.parts
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1) if cited.search(line)]
    found += [f"app.py:{n}" for n, line in enumerate((ROOT / "app.py").read_text(encoding="utf-8").splitlines(), start=1)
              if cited.search(line)]
    assert not found, found


# Modules with nothing to run — a package's docstring, a table of data, constants — need no
# test module of their own; each says why. Every other module must have one.
NOTHING_TO_RUN = {
    "events/__init__.py": "the package's docstring",
    "events/application/__init__.py": "the package's docstring",
    "events/domain/__init__.py": "the package's docstring",
    "events/runtime/__init__.py": "the package's docstring",
    "events/storage/__init__.py": "the package's docstring",
    "group/__init__.py": "the package's docstring",
    "services/__init__.py": "the package's docstring",
    "web/__init__.py": "the package's docstring",
    "events/domain/palette.py": "the colour table (tests/web/test_openapi.py holds the API to it)",
    "events/domain/photo_limits.py": "constants (tests/events/test_photos.py holds uploads to them)",
    "web/assets.py": "file names read from package.json (tests/test_docs.py holds them to the lock)",
}


def _product_modules() -> list[pathlib.Path]:
    """The modules of the log, the group, the services, the web and scoring's shared ones
    (each game's package is held to the one contract: tests/scoring/test_contract.py)."""
    return sorted([p for folder in ("events", "group", "services", "web") for p in (ROOT / folder).rglob("*.py")]
                  + list((ROOT / "scoring").glob("*.py")))


def _test_module_of(path: pathlib.Path) -> pathlib.Path:
    """Where a module's tests are: tests/<top folder>/test_<name>.py (events/application/table.py
    → tests/events/test_table.py); a package's own __init__ is named by the package."""
    parts = path.relative_to(ROOT).parts
    name = parts[-2] if path.stem == "__init__" else path.stem
    return ROOT / "tests" / parts[0] / f"test_{name}.py"


def test_every_module_that_does_something_has_a_test_module_of_its_name():
    """A newcomer changing web/seating.py looks for tests/web/test_seating.py: every module
    with a function or a class has one, and a module the list excuses has neither."""
    import ast
    missing, excused_wrongly = [], []
    for path in _product_modules():
        name = path.relative_to(ROOT).as_posix()
        runs = any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                   for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
        if name in NOTHING_TO_RUN:
            if runs:
                excused_wrongly.append(name)
        elif not _test_module_of(path).exists():
            missing.append(f"{name} → {_test_module_of(path).relative_to(ROOT)}")
    assert not excused_wrongly, f"excused from tests but has functions or classes: {excused_wrongly}"
    assert not missing, f"{len(missing)} modules without a test module of their name:\n" + "\n".join(missing)


# What a view may not do itself (docs/architecture.md, "Layers"): hold a transaction or a
# write lock, wait, or write the store step by step. Each write is one call into services/
# or the application layer, which forms, API and commands share.
WRITES_IN_VIEWS = {
    "write_lock", "short_write", "atomic", "transaction", "sleep", "lock_game",  # transactions, waits
    "append", "append_inside", "append_locked", "insert_events", "insert_game", "insert_unlisted",
    "new_game", "import_game", "link_game", "link_locked", "on_roster_changed",  # the steps of a service
}
SQL_WRITE = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


def _writes_in(path: pathlib.Path) -> list[str]:
    import ast
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            # a list's or a dict's own append is no write: only the store's, the roster's, the log's
            of_store = not isinstance(receiver, ast.Name) or receiver.id in {"store", "roster", "roster_log", "log",
                                                                                "recording", "time", "gevent"}
            if name in WRITES_IN_VIEWS and (name != "append" or of_store):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_WRITE.match(node.value):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value.split()[0]}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("events.storage", "group")):
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names if a.name in WRITES_IN_VIEWS]
    return found


def test_views_parse_call_one_service_and_render():
    """No module of web/ opens a transaction, takes a write lock, sleeps or writes the store
    step by step: forms, API and commands call the same service for each write."""
    found = [w for path in sorted((ROOT / "web").glob("*.py")) for w in _writes_in(path)]
    assert not found, found


SQL_TEXT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|DROP|ALTER|PRAGMA|SAVEPOINT|RELEASE|"
                      r"ROLLBACK|BEGIN|COMMIT|LISTEN|VACUUM)\b")


def test_no_module_outside_the_storage_package_holds_sql():
    """SQL is the storage package's (events/storage/): every other module of the product
    asks it by name (docs/decisions.md, "One statement, two engines")."""
    import ast
    found = []
    for folder in ("events", "group", "web", "services", "scoring"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith("events/storage/"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_TEXT.match(node.value):
                    found.append(f"{name}:{node.lineno}: {node.value[:60]}")
    assert not found, "SQL outside events/storage/:\n" + "\n".join(found)


# A test makes its app through the one harness (tests/conftest.py: ``app_on``, the ``app``
# fixture and an ``app_config`` override), so a newcomer changing how tests make apps changes
# one place. Only a test about making an app calls the factory itself; each says why here.
MAKES_ITS_OWN_APP = {
    "tests/conftest.py": "the harness itself (app_on)",
    "tests/fixtures/make_old_database.py": "a script, not a test: it makes the old fixture as its day's app did",
    "tests/web/test_make_run.py": "the factory with no config reads the time zone from the environment",
    "tests/web/test_logs.py": "the server's own secret key from the instance, as `make run` has it",
}


def _calls_of(path: pathlib.Path, function: str) -> list[int]:
    """The lines where ``path`` calls ``function`` (by name or as a module's attribute)."""
    import ast
    return [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and function in {getattr(node.func, "id", None), getattr(node.func, "attr", None)}]


def test_test_modules_make_their_apps_through_the_harness():
    found = [f"{p.relative_to(ROOT).as_posix()}:{line}" for p in sorted((ROOT / "tests").rglob("*.py"))
             if p.relative_to(ROOT).as_posix() not in MAKES_ITS_OWN_APP for line in _calls_of(p, "create_app")]
    assert not found, "make the app with tests/conftest.py's app_on or an app_config override:\n" + "\n".join(found)
    excused_wrongly = [name for name in MAKES_ITS_OWN_APP if not _calls_of(ROOT / name, "create_app")]
    assert not excused_wrongly, f"excused but makes no app of its own: {excused_wrongly}"



# Helpers still read from another test module, to be moved into a harness module under a
# public name as tests/conftest.py's scored_pad and tests/browser/phones.py's sit_in were: the list
# only shrinks (a pair no longer imported must leave it), and no new pair may join it.
NOT_YET_MOVED = {
    ("tests/browser/test_offline.py", "tests.browser.test_five_tribes"),
    ("tests/browser/test_whole_games.py", "tests.browser.test_five_tribes"),
    ("tests/browser/test_whole_games.py", "tests.web.test_label_is_record"),
}


def test_no_test_module_imports_from_another_test_module():
    """A helper two test modules share lives in a harness module (tests/conftest.py,
    tests/browser/taps.py, tests/web/as_a_browser.py…) under a public name, where a newcomer
    looks for it, not inside one test module that another reaches into."""
    imported = {(p.relative_to(ROOT).as_posix(), module): lineno for p in sorted((ROOT / "tests").rglob("*.py"))
                for lineno, module in _test_modules_imported_by(p)}
    found = [f"{name}:{lineno} imports {module}" for (name, module), lineno in imported.items()
             if (name, module) not in NOT_YET_MOVED]
    assert not found, "\n".join(found)
    moved = sorted(pair for pair in NOT_YET_MOVED if pair not in imported)
    assert not moved, f"moved already: take them off NOT_YET_MOVED: {moved}"


def _test_modules_imported_by(path: pathlib.Path) -> list[tuple[int, str]]:
    import ast
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                   else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        found += [(node.lineno, m) for m in modules if m.startswith("tests.") and m.split(".")[-1].startswith("test_")]
    return found
