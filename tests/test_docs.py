"""The docs say what the code does."""
import pathlib
import re

ROOT = pathlib.Path(__file__).parent.parent


def test_every_api_route_is_documented(app):
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            documented = re.sub(r"<[^>]+>", "<id>", rule.rule)
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert f"`{method} {documented}" in api, f"{method} {rule.rule} missing from docs/api.md"


def test_readme_quick_start_has_exactly_the_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make run", "make test"]


# Set by `make run` itself for gunicorn.conf.py (the announcement once it serves): no host sets it.
SET_BY_MAKE_RUN = {"TABLESCRIBE_ANNOUNCE"}
APP_SOURCES = ("app.py", "gunicorn.conf.py", "scripts/announce.py", "web", "events", "group", "scoring")


def _settings_read_by_the_app() -> set[str]:
    read = re.compile(r'os\.environ(?:\.get\(|\[)"([A-Z][A-Z0-9_]*)"|envvar="([A-Z][A-Z0-9_]*)"')
    files = [p for name in APP_SOURCES for p in ([ROOT / name] if name.endswith(".py") else (ROOT / name).rglob("*.py"))]
    return {a or b for path in files for a, b in read.findall(path.read_text(encoding="utf-8"))}


def test_readme_lists_every_setting_the_app_reads_and_no_other():
    """Issue 39 §2: a host who has only the README finds every setting; each listed one is
    read by the app or by the Makefile (PYTHON)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Settings", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", table, re.M))
    makefile = set(re.findall(r"^([A-Z][A-Z0-9_]*) \?=", (ROOT / "Makefile").read_text(), re.M))
    read = _settings_read_by_the_app()
    assert read - SET_BY_MAKE_RUN <= listed, f"settings missing from the README: {read - SET_BY_MAKE_RUN - listed}"
    assert listed <= read | makefile, f"README settings nothing reads: {listed - read - makefile}"


def test_readme_first_screen_says_what_happens_at_the_table():
    """The first ~60 lines (a phone's or a laptop's first screen of the rendered page) hold
    the two commands and what comes next, before any screenshot."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme[:readme.index("<img")]
    for needed in ("make run", "make test", "organiser's link", "Wi-Fi", "firewall", "Ctrl-C",
                   "restore", "DATABASE_URL", "copy-db", "docs/scaling.md", "final tally", "HU · EN · DE"):
        assert needed in first, f"{needed!r} is not on the README's first screen"
    assert first.count("\n") < 60


def test_vendor_files_are_named_by_the_versions_pinned_in_package_json_and_the_lock():
    import json
    from web import assets
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    for package, file in (("htmx.org", assets.HTMX_FILE), ("htmx-ext-sse", assets.SSE_FILE),
                          ("idiomorph", assets.MORPH_FILE), ("nosleep.js", assets.NOSLEEP_FILE)):
        assert lock[f"node_modules/{package}"]["version"] == pinned[package]
        assert f"-{pinned[package]}." in file


def _layers_table() -> dict[str, str]:
    """docs/architecture.md's "Layers" list: folder → what its item says."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    items = re.split(r"^- ", section, flags=re.M)[1:]
    return {m.group(1): item for item in items if (m := re.match(r"`([a-z_]+)/`", item))}


def _module_table(folder: str) -> str:
    """docs/architecture.md's list of one folder's modules ("### `events/`, by kind",
    "### `web/`, by module"): its whole text, module names and what they hold."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split(f"### `{folder}/`, by", 1)[1].split("\n#", 1)[0]
    return " ".join(line for line in section.splitlines() if line.startswith(("- `", "| `")))


def test_the_layers_table_names_every_module_of_its_folder_and_no_other():
    """docs/architecture.md says where each kind of code lives: a module it does not name
    is one a newcomer cannot find, and one it names that is gone sends them looking."""
    rows = _layers_table()
    rows["events"], rows["web"] = _module_table("events"), _module_table("web")
    for folder in ("events", "group", "services", "web"):
        named = set(re.findall(r"`([a-z_0-9/]+\.py)`" if folder == "events" else r"`([a-z_0-9]+\.py)`", rows[folder]))
        present = {m.relative_to(ROOT / folder).as_posix() for m in (ROOT / folder).rglob("*.py")
                   if m.name != "__init__.py"}
        assert not present - named, f"{folder}/: {sorted(present - named)} missing from the layers table"
        assert not named - present - {"__init__.py"}, f"{folder}/: the layers table names {sorted(named - present)}, which do not exist"
    games = {p.name for p in (ROOT / "scoring").iterdir() if (p / "__init__.py").exists()}
    for game in games:
        assert f"`{game}`" in rows["scoring"], f"scoring/{game}/ is missing from the layers table"


def test_every_module_says_what_it_is():
    from scripts.module_map import FOLDERS, first_sentence, modules
    for folder in FOLDERS:
        for path in modules(folder):
            assert first_sentence(path), f"{path.relative_to(ROOT)} has no docstring"


def test_the_module_map_is_the_modules_own_docstrings():
    """The map at the end of docs/architecture.md is written by cog from the docstrings;
    a module added, removed or re-described without `cog -I . -r docs/architecture.md` fails."""
    from cogapp import Cog
    cog = Cog()
    cog.options.include_path = [str(ROOT)]
    cog.options.check = True
    cog.options.verbosity = 0
    assert cog.main(["cog", "-I", str(ROOT), "--check", str(ROOT / "docs" / "architecture.md")]) == 0, \
        "docs/architecture.md's module map is stale: run .venv/bin/cog -I . -r docs/architecture.md"


def test_every_generated_figure_in_the_docs_is_the_codes():
    """Limits and counts the docs quote are written by cog from the code (scripts/figures.py):
    a constant changed without ``cog -I . -r docs/<file>.md`` fails here."""
    from cogapp import Cog
    for doc in sorted((ROOT / "docs").glob("*.md")):
        if "[[[cog" not in doc.read_text(encoding="utf-8"):
            continue
        cog = Cog()
        assert cog.main(["cog", "-I", str(ROOT), "--check", str(doc)]) == 0, \
            f"{doc.name} is stale: run .venv/bin/cog -I . -r docs/{doc.name}"


TABLE_ROW = 300  # characters: a longer row is a paragraph squeezed into a cell; it is a list


def test_every_table_row_of_the_docs_can_be_read():
    """A table whose row runs to thousands of characters (the layers table's web/ row was
    3,800) is read by nobody: such content is a list or a section."""
    long = [f"{doc.relative_to(ROOT)}:{n}" for doc in sorted([*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"])
            for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1)
            if line.startswith("|") and len(line) > TABLE_ROW]
    assert not long, long
