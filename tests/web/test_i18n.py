"""Every page and every refusal of every game, in each language of the catalogs (issue 30):
no text left in another language, no message missing from the page's catalog, and no
place (%(name)s) left unfilled.

"Another language" is checked against the catalogs' own texts: a page in German holds no
stretch of a message's English (its msgid) or Hungarian that German says otherwise, and so
on for each language. A stretch is a run between placeholders long enough (16 characters,
three words) not to be a name or a shared word."""
import html
import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import render_template

from scoring import GAMES
from scoring.base import Problem
from scoring.i18n import LANGS

ROOT = Path(__file__).parent.parent.parent
PLACE = re.compile(r"%\(\w+\)[sd]|%[sd]")
LEFT_OVER = re.compile(r"%\(\w+\)[sd]")


@lru_cache(maxsize=None)
def _catalogs() -> dict[str, list]:
    """lang -> the catalog's messages (English: the msgids)."""
    out = {}
    for lang in LANGS:
        if lang == "en":
            continue
        with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
            out[lang] = [m for m in read_po(f) if m.id]
    return out


def _texts(lang: str) -> dict[tuple, list[str]]:
    """(context, msgid) -> the message's text(s) in ``lang``."""
    some = next(iter(_catalogs().values()))
    if lang == "en":
        return {(m.context, m.id): list(m.id) if isinstance(m.id, tuple) else [m.id] for m in some}
    return {(m.context, m.id): list(m.string) if isinstance(m.string, tuple) else [m.string]
            for m in _catalogs()[lang]}


def _stretches(texts) -> set[str]:
    out = set()
    for text in texts:
        for piece in PLACE.split(text):
            piece = piece.strip(" .,:;–-()")
            if len(piece) >= 16 and piece.count(" ") >= 2:
                out.add(piece)
    return out


@lru_cache(maxsize=None)
def foreign(lang: str) -> frozenset[str]:
    """Stretches of other languages' texts that ``lang`` says otherwise."""
    own = _texts(lang)
    own_text = "\n".join(t for texts in own.values() for t in texts)
    found = set()
    for other in LANGS:
        if other == lang:
            continue
        for key, texts in _texts(other).items():
            if set(texts) == set(own.get(key, ())):
                continue
            found |= {s for s in _stretches(texts) if s not in own_text}
    return frozenset(found)


def visible(page: str) -> str:
    """What a reader sees: the text without tags, scripts and attributes, entities read."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(page).split())


def assert_in_language(page: str, lang: str, where: str) -> None:
    seen = visible(page)
    strays = sorted(s for s in foreign(lang) if s in seen)
    assert not strays, f"{where} in {lang} holds text of another language: {strays[:5]}"
    unfilled = LEFT_OVER.findall(seen)
    assert not unfilled, f"{where} in {lang} leaves places unfilled: {unfilled[:5]}"


def test_the_check_finds_another_languages_text():
    """The check itself: an English sentence in a German page, a Hungarian one in an English
    page, and a place left unfilled are each caught."""
    english = next(s for s in foreign("de") if s.startswith("Someone else recorded a move"))
    with pytest.raises(AssertionError, match="another language"):
        assert_in_language(f"<p>{english}</p>", "de", "a page")
    hungarian = next(s for s in foreign("en") if s.startswith("Az űrlap lejárt"))
    with pytest.raises(AssertionError, match="another language"):
        assert_in_language(f"<p>{hungarian}</p>", "en", "a page")
    with pytest.raises(AssertionError, match="unfilled"):
        assert_in_language("<p>Runde %(round)s</p>", "de", "a page")


def _pages(table_of, client) -> list[str]:
    """Every page a table reads: home, new game per kind, each game's table, log, replay,
    final sheet, dispute, seats, rules, statistics, people, boards, import and an error."""
    urls = ["/", "/rules/", "/stats", "/stats/plays", "/stats/together", "/people", "/people/log",
            "/people/servers", "/boards/", "/import", "/no-such-page"]
    for kind, game in GAMES.items():
        urls.append(f"/games/new?kind={kind}")
        table = table_of(kind, demo=True)
        client.set_cookie(f"seat_{table.id}", table.tokens[0])  # the host's phone: its seats page too
        urls += [f"/games/{table.id}", f"/games/{table.id}/timeline", f"/games/{table.id}/replay",
                 f"/games/{table.id}/final", f"/games/{table.id}/seats", f"/stats/games/{kind}"]
        if game.boards is not None:
            urls.append(f"/boards/{kind}/")
    urls += [f"/rules/{book}" for book in ("scorepad", "han", "five-tribes", "maharaja", "dragon")]
    disputed = table_of(moves=[("points-recorded", {"seat": 0, "points": 5}),
                               ("dispute-opened", {"target": 2, "comment": "five?"})])
    urls.append(f"/games/{disputed.id}/disputes/3")
    return urls


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_speaks_one_language(app, client, table_of, lang):
    urls = _pages(table_of, client)
    client.set_cookie("lang", lang)
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 404), (url, response.status_code)
        assert_in_language(response.get_data(as_text=True), lang, url)
        assert f'<html lang="{lang}"' in response.get_data(as_text=True), url


def _refusal_messages() -> list[tuple]:
    """Every message a game's rules, forms or set-up can refuse with (the catalog's entries
    from scoring/<game>/check, forms, setup, boards and the shared readers), as (context, msgid)."""
    places = re.compile(r"^scoring/(\w+/)?(check|forms|setup|boards|schema)\.py$")
    some = next(iter(_catalogs().values()))
    return [(m.context, m.id) for m in some
            if not isinstance(m.id, tuple) and any(places.match(path) for path, _ in m.locations)]


def _filled(msgid: str) -> dict:
    return {name: (3 if kind == "d" else f"X{i}") for i, (name, kind) in
            enumerate(re.findall(r"%\((\w+)\)([sd])", msgid))}


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_of_every_game_speaks_the_pages_language(app, lang):
    """Each refusal message, filled in, shown as a refused form shows it (the _problems
    partial with its rule link), in each language."""
    from scoring.i18n import msg, msgp
    refusals = _refusal_messages()
    assert len(refusals) > 300  # every game's: a change in how they are found fails here
    problems = [Problem("docs/rules/han.md §4", msgp(ctx, mid, **_filled(mid)) if ctx else msg(mid, **_filled(mid)))
                for ctx, mid in refusals]
    with app.test_request_context(f"/?lang={lang}"):
        page = render_template("_problems.html", problems=problems)
    assert_in_language(page, lang, "the refusals")
    if lang != "en":  # a message the catalog lacks would show its English
        english = {s for _, mid in refusals for s in _stretches([mid])}
        own = "\n".join(t for texts in _texts(lang).values() for t in texts)
        assert not [s for s in english if s in visible(page) and s not in own]


@pytest.mark.parametrize("lang", LANGS)
def test_real_refusals_through_the_api_and_the_forms(app, client, table_of, lang):
    """Refusals as they happen: a move out of turn, a move after the end, a form the game
    cannot read, for every game, through the API (the client's language) and the form."""
    from events.storage import store
    for kind, game in GAMES.items():
        table = table_of(kind, demo=True)
        seq = store.last_seq(table.db, table.id)
        phone = table.phone(0, lang)
        page = phone.post(f"/games/{table.id}/moves", data={"action": "no-such-action", "expected_seq": seq})
        assert page.status_code in (409, 422), (kind, page.status_code)
        assert_in_language(page.get_data(as_text=True), lang, f"{kind}'s refused form")
        answer = client.post(f"/api/games/{table.id}/events", json={
            "type": next(iter(game.event_types)), "data": {}, "expected_seq": seq,
            "client_event_id": f"bad-{kind}"}, headers={"X-Seat-Token": table.tokens[0], "Accept-Language": lang})
        assert answer.status_code in (409, 422), (kind, answer.status_code)
        body = answer.get_json()
        for problem in body.get("problems", []):
            assert set(LANGS) <= set(problem), problem  # every language, the page picks
            assert_in_language(f"<p>{problem[lang]}</p>", lang, f"{kind}'s API refusal")
        assert_in_language(f"<p>{body['error']}</p>", lang, f"{kind}'s API error")


def test_what_the_schema_finds_wrong_is_said_in_every_language(client, table_of):
    """A payload of the wrong shape is refused in the phone's language, naming the field
    and what it must be (jsonschema itself speaks English only)."""
    from events.storage import store
    table = table_of()
    answer = client.post(f"/api/games/{table.id}/events", json={
        "type": "points-recorded", "data": {"seat": 1, "points": "three", "colour": "red"},
        "expected_seq": store.last_seq(table.db, table.id), "client_event_id": "shape"},
        headers={"X-Seat-Token": table.tokens[0]})
    assert answer.status_code == 422
    said = [problem for problem in answer.get_json()["problems"]]
    assert [p["de"] for p in said] == ["Ungültige Daten: die Daten: unbekanntes Feld colour",
                                       "Ungültige Daten: „points“ muss eine ganze Zahl sein"]
    assert [p["hu"] for p in said] == ["Hibás adat: az adat: ismeretlen mező: colour",
                                       "Hibás adat: „points”: egész szám kell"]
    assert [p["en"] for p in said] == ["Invalid data: the data: unknown field colour",
                                       "Invalid data: “points” must be a whole number"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_done_line_after_a_move_a_void_and_an_undo_speaks_the_pages_language(table_of, lang):
    """The "✓ #2: Round 1: …" line the tapping phone gets was made in Hungarian and English
    only, so a German phone read "✓ Voided #2: Round 1: Anna +5" in English."""
    table = table_of(moves=[("points-recorded", {"seat": 0, "points": 5}),
                            ("points-recorded", {"seat": 1, "points": 3})])
    phone = table.phone(0, lang)
    said = []
    for seq, answer in ((3, phone.post(f"/games/{table.id}/events/2/void", data={"reason": "x", "expected_seq": 3})),
                        (4, phone.post(f"/games/{table.id}/undo", data={"expected_seq": 4}))):
        assert answer.status_code in (302, 303), answer.status_code
        page = phone.get(f"/games/{table.id}?done={seq + 1}").get_data(as_text=True)
        line = re.search(r'data-testid="ack"[^>]*>(.*?)</p>', page, re.S)
        assert line, f"no done line for #{seq + 1}"
        said.append(visible(line.group(1)))
        assert_in_language(line.group(1), lang, f"the done line of #{seq + 1}")
    voided, undone = _texts(lang)[(None, "Voided")][0], _texts(lang)[(None, "Undone")][0]
    assert said[0].startswith(f"✓ {voided} #2"), said
    assert said[1].startswith(f"✓ {undone} #3"), said  # the last live move


@pytest.mark.parametrize("lang", LANGS)
def test_a_move_not_recorded_says_so_in_the_pages_language(table_of, lang):
    """The line over a refused tap's reasons ("Not recorded:") was a Hungarian and English
    pair in the template, so a German phone read it in English over German reasons."""
    table = table_of()
    answer = table.phone(1, lang).post(f"/games/{table.id}/moves", data={
        "round": "1", "points_0": "x", "points_1": "2", "expected_seq": "1"}, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    lead = _texts(lang)[(None, "Not recorded:")][0]
    assert f"<p>{lead}</p>" in page
    others = {_texts(other)[(None, "Not recorded:")][0] for other in LANGS} - {lead}
    assert not [text for text in others if f"<p>{text}</p>" in page]


@pytest.mark.parametrize("lang", LANGS)
def test_a_file_that_is_no_export_is_refused_without_the_formats_inner_name(client, lang):
    """English and German said "not a tablescribe-export document": the value of the
    file's ``format`` field, a name no player knows."""
    import io
    client.set_cookie("lang", lang)
    answer = client.post("/import", data={"file": (io.BytesIO(b'{"games": []}'), "bgstats.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 422
    refusal = visible(re.search(r'data-testid="refusal">(.*?)</div>', answer.get_data(as_text=True), re.S).group(1))
    assert "Tablescribe" in refusal and "tablescribe-export" not in refusal, refusal


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_imported_twice_is_refused_as_already_here_not_as_a_bad_event(client, lang):
    """The second import of a file said "Refused: event #1 is bad: this game is already on
    this server": nothing is wrong with its event 1, the game is simply here."""
    import io
    client.set_cookie("lang", lang)
    with open(ROOT / "examples" / "dragon-4p.json", "rb") as f:
        content = f.read()
    answers = [client.post("/import", data={"file": (io.BytesIO(content), "dragon.json")},
                           content_type="multipart/form-data") for _ in range(2)]
    assert [a.status_code for a in answers] == [303, 409]
    page = answers[1].get_data(as_text=True)
    refusal = re.search(r'data-testid="refusal">(.*?)</div>', page, re.S).group(1)
    assert "<strong>#1</strong>" not in refusal and 'data-testid="already-here"' in refusal
    assert visible(refusal).startswith(_texts(lang)[(None, "Refused")][0] + ":"), visible(refusal)
