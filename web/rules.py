"""The rule pages: /rules/<book> holds each game's rules as a player reads them, in the
page's language, one section per rule the app checks (``#s2-3``), so a refusal links to
the rule it cites instead of naming a file of the repository."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for

from events.domain.core_types import RULEBOOK as CORE_RULES
from scoring import BOOK_OF_KIND, GAMES, RULEBOOKS, cited
from scoring.base import RuleSection
from scoring.i18n import msg

bp = Blueprint("rules", __name__, url_prefix="/rules")

CORE_TITLE = msg("For every table")


def _books() -> dict[str, tuple[RuleSection, ...]]:
    return {**RULEBOOKS, "core": CORE_RULES}


def book_title(book: str) -> dict:
    kind = next((k for k, b in BOOK_OF_KIND.items() if b == book), None)
    return GAMES[kind].title if kind else CORE_TITLE


def section(book: str, ref: str) -> RuleSection | None:
    return next((s for s in _books().get(book, ()) if s.ref == ref), None)


def rule_link(rule: str) -> dict | None:
    """Where a problem's rule is explained: {"url", "ref"} of its section on the rule page;
    None for a tag that names no section, or a section the page does not have."""
    found = cited(str(rule or ""))
    if found is None or section(*found) is None:
        return None
    book, ref = found
    return {"url": url_for("rules.book", book=book, _anchor=section(book, ref).anchor), "ref": ref}


def problem_json(problem) -> dict:
    """A problem for the API: its ``rule``, both languages, and ``url``, the rule's section
    on its page (null when it cites none)."""
    as_dict = problem if isinstance(problem, dict) else problem.as_dict()
    link = rule_link(as_dict.get("rule"))
    return {**as_dict, "url": link["url"] if link else None}


@bp.record_once
def _template_global(state) -> None:
    """A global, not a context processor: the ``problem`` macro of _macros.html uses it, and
    imported macros see globals only."""
    state.app.jinja_env.globals["rule_link"] = rule_link


@bp.get("/")
def index():
    return render_template("rules/index.html", books=[(b, book_title(b)) for b in _books()])


@bp.get("/<book>")
def book(book: str):
    sections = _books().get(book)
    if sections is None:
        abort(404)
    return render_template("rules/book.html", book=book, title=book_title(book), sections=sections,
                           kinds=[GAMES[k] for k, b in BOOK_OF_KIND.items() if b == book])
