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


def test_vendor_files_are_named_by_the_versions_pinned_in_package_json_and_the_lock():
    import json
    from web import assets
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    for package, file in (("htmx.org", assets.HTMX_FILE), ("htmx-ext-sse", assets.SSE_FILE),
                          ("idiomorph", assets.MORPH_FILE), ("nosleep.js", assets.NOSLEEP_FILE)):
        assert lock[f"node_modules/{package}"]["version"] == pinned[package]
        assert f"-{pinned[package]}." in file


def test_the_architecture_map_names_every_core_module():
    """docs/architecture.md says where each kind of code lives: a module it does not name
    is one a newcomer cannot find."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for folder in ("events", "group", "web"):
        for module in sorted((ROOT / folder).glob("*.py")):
            if module.name != "__init__.py":
                assert f"`{module.name}`" in text, f"{folder}/{module.name} is missing from docs/architecture.md"
    for package in sorted(p for p in (ROOT / "scoring").iterdir() if (p / "__init__.py").exists()):
        assert f"`{package.name}`" in text, f"scoring/{package.name}/ is missing from docs/architecture.md"
