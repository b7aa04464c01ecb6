"""Issue 26, item 4: refusals point to a rule a player can read. The rule pages
(/rules/<book>) hold every section a refusal can cite, in Hungarian and English; a refusal
on a page links to its section, the API adds the section's URL; and no text a player reads
(pages, refusals, the API's error/hu/en) names a file of the repository."""
import ast
import html
import pathlib
import re

import pytest

from events.application.table import new_game, record
from scoring import BOOK_OF_KIND, GAMES, RULEBOOKS, cited

ROOT = pathlib.Path(__file__).parents[2]
# A repository path or file name: "docs/rules/han.md", "scoring/han/check.py", "_form.html".
REPO_PATH = re.compile(r"\b(?:docs|scoring|events|web|templates|static|tests|examples|scripts|bench)/[\w./-]+"
                       r"|\b[\w-]+\.(?:md|py|html|yaml)\b")


# ---- which sections the code cites --------------------------------------------------------

def _citations() -> set[tuple[str, str]]:
    """Every (book, section) a refusal of the code can cite, read from the source: the full
    citations written out ("docs/rules/han.md §2.5", "core §3") and each game's short forms
    (``rule(4)``, ``refuse(9, …)``, ``RULE + "2.3"``, the ``R_*`` constants, a section number
    passed to a form reader)."""
    found = set()
    for path in list((ROOT / "scoring").rglob("*.py")) + list((ROOT / "events").rglob("*.py")) \
            + list((ROOT / "web").rglob("*.py")) + list((ROOT / "group").rglob("*.py")):
        if path.name == "rulebook.py":
            continue
        source = path.read_text(encoding="utf-8")
        for literal in _string_literals(source):
            for match in re.finditer(r"(?:docs/rules/[a-z-]+\.md|core) §\d+(?:\.\d+)?", literal):
                found.add(cited(match.group()))
        package = path.parent.name.replace("_", "-")
        book = BOOK_OF_KIND.get(package)
        if book is None:
            continue
        shortforms = (r"\brule\((\d+)\)", r"\brefuse\((\d+),", r'RULE \+ "([\d.]+)"',
                      r"_(?:city|character)\([^()]*,\s*(\d+)\)", r"RULES\} §(\d+)")
        for pattern in shortforms:
            found |= {(book, ref) for ref in re.findall(pattern, source)}
    return found


def _string_literals(source: str) -> list[str]:
    """The strings of the code, not its docstrings (which cite sections for the reader)."""
    tree = ast.parse(source)
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_the_source_cites_sections_of_every_book():
    books = {book for book, _ in _citations()}
    assert books == set(RULEBOOKS) | {"core"}, books


def _section_ids(page: str) -> set[str]:
    return set(re.findall(r'<section class="rule" id="(s[\d-]+)"', page))


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_every_section_a_refusal_cites_is_on_its_rule_page(client, lang):
    pages = {}
    for book, ref in sorted(_citations()):
        if book not in pages:
            response = client.get(f"/rules/{book}?lang={lang}")
            assert response.status_code == 200, book
            pages[book] = response.get_data(as_text=True)
        anchor = "s" + ref.replace(".", "-")
        assert anchor in _section_ids(pages[book]), f"§{ref} is cited but missing from /rules/{book}"


@pytest.mark.parametrize("lang, other", [("hu", "en"), ("en", "hu")])
def test_each_section_is_written_in_the_pages_language(client, lang, other):
    for book, sections in {**RULEBOOKS}.items():
        page = html.unescape(client.get(f"/rules/{book}?lang={lang}").get_data(as_text=True))
        for section in sections:
            assert section.title[lang] in page
            for sentence in section.says:
                assert sentence[lang].strip() and sentence[lang] in page, (book, section.ref)
                if sentence[lang] != sentence[other]:
                    assert sentence[other] not in page


# Sections of docs/rules/<book>.md that are not rules a table plays by: sources, examples,
# open questions, tests, what is not done, how turn times are measured.
NOT_RULES = {"han": {"7", "8", "9"}, "five-tribes": {"11", "12", "15"}, "maharaja": {"18", "19", "20"},
             "dragon": {"1", "21", "25", "26"}, "scorepad": {"6", "8"}}


def _doc_sections(book: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{book}.md").read_text(encoding="utf-8")
    refs = set(re.findall(r"^## §(\d+)", text, re.M)) | set(re.findall(r"^- \*\*§(\d+(?:\.\d+)?)", text, re.M))
    subsections = set(re.findall(r"^- \*\*§(\d+)\.\d+", text, re.M))
    numbered = set(re.findall(r"^## (\d+)\. ", text, re.M)) - subsections  # "## 5. Final tally mode"
    return (refs | numbered) - NOT_RULES[book]


@pytest.mark.parametrize("book", sorted(RULEBOOKS))
def test_every_rule_section_of_the_docs_has_its_short_text(book):
    written = {s.ref for s in RULEBOOKS[book]}
    missing = _doc_sections(book) - written
    assert not missing, f"/rules/{book} lacks §{sorted(missing)}"


def test_five_tribes_lists_every_djinn_with_its_vp_cost_and_power(client):
    from scoring.five_tribes.data import DJINNS
    page = html.unescape(client.get("/rules/five-tribes?lang=en#s6").get_data(as_text=True))
    djinns = page[page.index('id="s6"'):page.index('id="s7"')]
    for name, djinn in DJINNS.items():
        row = djinns[djinns.index(f'<th scope="row">{name}</th>'):]
        row = row[:row.index("</tr>")]
        assert f"<td>{djinn['vp']}</td>" in row and djinn["power"]["en"] in row
    assert "1 elder / 1 fakir" in djinns[djinns.index("Iblis"):djinns.index("Jafaar")]
    assert "2 elders / 1 elder + 1 fakir" in djinns[djinns.index("Echidna"):djinns.index("Enki")]
    move = page[page.index('id="s4"'):page.index('id="s5"')]
    assert "Echidna (a paid power, §6)" in move and "Iblis (a paid power, §6)" in move
    assert "Kandicha (always on): when your assassins kill a builder" in move


def test_han_says_what_pile_it_expects_after_an_early_run_out(client):
    page = html.unescape(client.get("/rules/han?lang=en").get_data(as_text=True))
    pile = page[page.index('id="s4-1"'):page.index('id="s4-2"')]
    assert "the first pile is 36" in pile and "the new pile is 26 cards" in pile and "the app expects 18" in pile


# ---- refusals: short, linked, no file names --------------------------------------------------

def _refusals(client, kind: str) -> list[dict]:
    """The API's answers to every move of the game's demo sent at the wrong time (each one
    move early) and to an empty payload of each event type."""
    game = GAMES[kind]
    players, options, moves = game.demo()
    created = client.post("/api/games", json={"kind": kind, "players": players, "options": options}).json
    token, url = created["seats"][0]["token"], f"/api/games/{created['id']}/events"
    answers = []
    for i, (type_, data) in enumerate(moves):
        for attempt, payload in ((f"early{i}", moves[i + 1] if i + 1 < len(moves) else None), (f"empty{i}", (type_, {}))):
            if payload is not None:
                answers.append(client.post(url, headers={"X-Seat-Token": token}, json={
                    "type": payload[0], "data": payload[1], "expected_seq": i + 1, "client_event_id": attempt}).json)
        client.post(url, headers={"X-Seat-Token": token}, json={
            "type": type_, "data": data, "expected_seq": i + 1, "client_event_id": f"ok{i}"})
    return answers


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_api_refusals_name_no_file_and_link_their_rule(client, kind):
    answers = [a for a in _refusals(client, kind) if "problems" in a]
    assert answers, kind
    linked = 0
    for answer in answers:
        assert not REPO_PATH.search(answer["error"]), answer["error"]
        for problem in answer["problems"]:
            assert "rule" in problem and "url" in problem
            assert not REPO_PATH.search(problem["hu"]) and not REPO_PATH.search(problem["en"]), problem
            target = cited(problem["rule"])
            if target is None:
                assert problem["url"] is None
                continue
            book, ref = target
            assert problem["url"] == f"/rules/{book}#s{ref.replace('.', '-')}", problem
            linked += 1
    assert linked, kind


def _visible(page: str) -> str:
    """What a player reads of a page: its text and the attributes read out or shown."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    shown = re.findall(r'\b(?:title|aria-label|alt|placeholder)="([^"]*)"', page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + " ".join(shown))


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_no_page_a_player_reads_names_a_file_of_the_repository(client, table_of, lang):
    client.set_cookie("lang", lang)
    urls = ["/", "/games/new", "/people", "/stats", "/rules/", "/boards/", "/boards/han/", "/boards/maharaja/"]
    urls += [f"/rules/{book}" for book in (*RULEBOOKS, "core")]
    for kind in sorted(GAMES):
        table = table_of(kind, demo=True)
        gid = table.id
        urls += [f"/games/{gid}", f"/games/{gid}/timeline", f"/games/{gid}/final", f"/games/{gid}/replay?at=2",
                 f"/games/new?kind={kind}"]
        # a refused form, shown beside the form of a seated phone
        client.set_cookie(f"seat_{gid}", table.tokens[0])
        refused = client.post(f"/games/{gid}/moves", data={"expected_seq": "1", "client_event_id": f"x-{kind}",
                                                          "action": "nonsense", "seat": "9"})
        assert refused.status_code in (409, 422), kind
        page = refused.get_data(as_text=True)
        assert not REPO_PATH.search(_visible(page)), (kind, REPO_PATH.search(_visible(page)).group())
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        found = REPO_PATH.search(_visible(response.get_data(as_text=True)))
        assert not found, (url, found.group() if found else None)


@pytest.mark.parametrize("lang, said", [("en", "Rule §2"), ("hu", "Szabály §2")])
def test_a_refused_move_links_to_its_rule(client, db, lang, said):
    created = new_game(db, "scorepad", [{"name": "Anna"}, {"name": "Béla"}], {}, "d")
    client.set_cookie(f"seat_{created['id']}", created["seats"][0]["token"])
    client.set_cookie("lang", lang)
    refused = client.post(f"/games/{created['id']}/moves", data={
        "expected_seq": "1", "client_event_id": "empty-round", "action": "round-closed"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    box = page[page.index('data-testid="problems"'):]
    box = box[:box.index("</div>")]
    assert f'<a class="rule-link" href="/rules/scorepad#s2">{said}</a>' in box, box
    assert "docs/" not in box and ".md" not in box


def test_api_errors_name_no_file(client):
    answers = [client.post("/api/games", json={"kind": "nope", "players": []}).json,
               client.post("/api/games", json=[]).json,
               client.get("/api/games/nope/state").json]
    for answer in answers:
        assert not REPO_PATH.search(answer["error"])
        for problem in answer.get("problems", []):
            assert not REPO_PATH.search(problem["hu"] + problem["en"])


def test_the_djinn_table_of_the_docs_matches_the_djinns_the_app_scores():
    from scoring.five_tribes.data import DJINNS
    text = (ROOT / "docs" / "rules" / "five-tribes.md").read_text(encoding="utf-8")
    rows = {m[0]: (int(m[1]), m[2].strip()) for m in re.findall(r"^\| ([A-Z][\w' -]+) \| (\d+) \| ([^|]+) \|", text, re.M)}
    assert {name: vp for name, (vp, _) in rows.items()} == {name: d["vp"] for name, d in DJINNS.items()}
    for name, (_, cost) in rows.items():
        assert (cost == "—") == (not DJINNS[name]["cost"]), name
