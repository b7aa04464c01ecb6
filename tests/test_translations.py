"""The catalogs hold exactly what the code says: a text added to a template or a game without
`make messages` is missing from a catalog, a text no code says any more is stale, and every
translation fills the same places (%(name)s) as its English."""
import pathlib
import re
import shlex
import subprocess

import pytest
from babel.messages.pofile import read_po

ROOT = pathlib.Path(__file__).parent.parent
CATALOGS = sorted(ROOT.glob("translations/*/LC_MESSAGES/messages.po"))


def _key(message):
    return message.context, message.id


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """What `make messages` extracts, into a throwaway .pot: the Makefile's own command."""
    out = subprocess.run(["make", "-n", "-B", "messages"], cwd=ROOT, capture_output=True, text=True, check=True)
    extract = next(line for line in out.stdout.splitlines() if " extract " in line)
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    args = shlex.split(extract.replace("translations/messages.pot", str(pot)))
    subprocess.run(args, cwd=ROOT, check=True, capture_output=True)
    with open(pot, "rb") as f:
        return {_key(m): m for m in read_po(f) if m.id}


def _catalog(path):
    with open(path, "rb") as f:
        return read_po(f)


def test_there_are_catalogs():
    assert {p.parts[-3] for p in CATALOGS} >= {"hu"}


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parts[-3])
def test_a_catalog_has_every_message_and_no_stale_one(po, extracted):
    held = {_key(m): m for m in _catalog(po) if m.id}
    missing = sorted(set(extracted) - set(held), key=str)
    stale = sorted(set(held) - set(extracted), key=str)
    assert not missing, f"{len(missing)} messages missing from {po.parts[-3]} (run `make messages`): {missing[:5]}"
    assert not stale, f"{len(stale)} stale messages in {po.parts[-3]} (run `make messages`): {stale[:5]}"
    for key, message in held.items():
        assert isinstance(message.id, tuple) == isinstance(extracted[key].id, tuple), f"{key}: singular/plural changed"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parts[-3])
def test_every_message_is_translated_with_the_same_places(po):
    catalog = _catalog(po)
    untranslated = [m.id for m in catalog if m.id and (not m.string or not all(m.string if isinstance(m.string, tuple) else [m.string]) or m.fuzzy)]
    assert not untranslated, f"{len(untranslated)} untranslated in {po.parts[-3]}: {untranslated[:5]}"
    wrong = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check() if errors]
    assert not wrong, wrong[:5]


def test_no_template_writes_a_text_twice_inline():
    """The old pairs, t("magyar", "English"), are gone: a template that brings one back (a
    branch older than the catalogs) would fail to render (docs/translating.md says what to write)."""
    import re
    old = re.compile(r"(?<![\w.])t\(\s*['\"]")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "templates").rglob("*.html"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if old.search(line)]
    assert not found, f"t(hu, en) is gone: say _(\"English\") and run `make messages` ({found[:5]})"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parts[-3])
def test_gettext_own_checker_passes_every_catalog(po, tmp_path):
    """`msgfmt -c` (GNU gettext, installed by `make test` like chromium): the checker every
    translation tool and distribution runs; Babel's own check missed a lost placeholder."""
    out = subprocess.run(["msgfmt", "-c", "-o", str(tmp_path / "messages.mo"), str(po)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def _german():
    return _catalog(ROOT / "translations/de/LC_MESSAGES/messages.po")


def _said_for(catalog, source: str) -> list[str]:
    """Every German text of the messages ``source`` (a path fragment) says."""
    out = []
    for m in catalog:
        if m.id and any(source in path for path, _ in m.locations):
            out += list(m.string) if isinstance(m.string, tuple) else [m.string]
    return out


def test_german_game_terms_are_the_editions_words():
    """Five Tribes' German rulebook (Days of Wonder 2014, p. 1): Kaufleute, Heilige Orte,
    Rohstoffkarten and Güter, Dschinn as the plural; the Dragon's track is the
    Personenpunkteleiste and its ages go into the word (docs/rules/<game>.md)."""
    import re
    from scoring.dragon.data import person_name
    catalog = _german()
    five = " ".join(_said_for(catalog, "five"))
    for wrong in ("Händler", "Ressourcenkarte", "Heilige Stätte", "Waren"):
        assert wrong not in five, wrong
    assert not re.search(r"(?<!eines )(?<!des )Dschinns", five)  # the plural is Dschinn; "eines Dschinns" is one
    assert "Kaufleute" in five and "Rohstoffkarten" in five and "Heiliger Ort" in five
    dragon = " ".join(_said_for(catalog, "dragon"))
    assert "Personenleiste" not in dragon and "Personenpunkteleiste" in dragon
    assert person_name({"type": "scholar", "age": "young"})["de"] == "junger Gelehrter"
    everything = " ".join(s for m in catalog if m.id for s in (m.string if isinstance(m.string, tuple) else [m.string]))
    assert not re.search(r"\bTelefon", everything) and not re.search(r"festhalten|festgehalten|festzuhalten", everything)


@pytest.mark.parametrize("game", ["five-tribes", "dragon", "han", "maharaja"])
def test_the_german_terms_name_their_edition_and_page(game):
    text = (ROOT / "docs/rules" / f"{game}.md").read_text(encoding="utf-8")
    section = text.split("## Terms in German", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"\b(19|20)\d\d\b", section)  # the edition's year
    assert "| page |" in section or "no page number is given" in section
