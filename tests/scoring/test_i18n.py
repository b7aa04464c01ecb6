"""scoring/i18n.py: a game's message in every language, made once from the catalogs and
copied — also when a value is itself a {lang: text} mapping (a tap's answer says its
log's moves again: "Anna: +5 points", whose points are a count in each language)."""
from scoring import i18n
from scoring.i18n import LANGS, msg, msgn


def _counting(monkeypatch) -> list[str]:
    asked = []
    real = i18n.catalog
    monkeypatch.setattr(i18n, "catalog", lambda lang: asked.append(lang) or real(lang))
    for made in (getattr(i18n, name, None) for name in ("_made", "_made_n")):
        if made is not None:
            made.cache_clear()
    return asked


def test_a_message_with_a_texts_value_is_made_once_and_copied(monkeypatch):
    asked = _counting(monkeypatch)
    points = msgn("%(points)s point", "%(points)s points", 5, points="+5")
    said = msg("%(name)s: %(pts)s%(note)s", name="Anna", pts=points, note="")
    assert said["en"] == "Anna: +5 points" and set(said) == set(LANGS)
    made = len(asked)
    again = msg("%(name)s: %(pts)s%(note)s", name="Anna", pts=msgn("%(points)s point", "%(points)s points", 5,
                                                                     points="+5"), note="")
    assert again == said and len(asked) == made  # no catalog asked again
    again["en"] = "changed"
    assert msg("%(name)s: %(pts)s%(note)s", name="Anna", pts=points, note="")["en"] == "Anna: +5 points"


def test_a_value_that_cannot_be_a_key_is_still_said(monkeypatch):
    _counting(monkeypatch)
    assert msg("Round %(r)s", r=[1, 2])["en"] == "Round [1, 2]"
    assert msgn("%(num)d card", "%(num)d cards", 2, who={"en": ["x"]})["en"] == "2 cards"
