"""The module map at the end of docs/architecture.md, written from each module's own
docstring (its first sentence), so the map cannot drift from the code. Regenerate it with
``.venv/bin/cog -I . -r docs/architecture.md``; tests/test_docs.py fails while it is stale."""
from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("events", "events/domain", "events/storage", "events/application", "events/runtime",
           "group", "services", "scoring", "web", "bench", "scripts")


def modules(folder: str) -> list[pathlib.Path]:
    """The folder's modules, its packages as one line each (scoring/<game>/, events/domain/)."""
    nested = folder.count("/")  # a package listed in FOLDERS: its __init__ is its parent's line
    found = sorted(p for p in (ROOT / folder).glob("*.py") if not (nested and p.name == "__init__.py"))
    return found + sorted(p / "__init__.py" for p in (ROOT / folder).iterdir() if (p / "__init__.py").exists())


def first_sentence(path: pathlib.Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    end = next((i + 1 for i, c in enumerate(text) if c == "." and (i + 1 == len(text) or text[i + 1] == " ")
                and not text[max(0, i - 3):i].endswith(("e.g", "i.e"))), len(text))
    return text[:end]


def table() -> str:
    """The module map, a list (a docstring's sentence is too long for a table's row)."""
    rows = []
    for folder in FOLDERS:
        for path in modules(folder):
            name = path.relative_to(ROOT).as_posix()
            rows.append(f"- `{name.removesuffix('__init__.py') or name}`: {first_sentence(path)}")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
