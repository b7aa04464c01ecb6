"""The one text policy (scoring/text.py, issue 35 §9): NFC, no control or direction
character, a length cap, refused with a reason in every language — never cut short."""
import unicodedata

import pytest

from scoring import text
from scoring.i18n import LANGS


@pytest.mark.parametrize("bad", ["\u202eevil", "a\u2066b", "x\u200fy", "\u061c"])
def test_a_direction_mark_is_refused_naming_it(bad):
    with pytest.raises(text.BadText) as refused:
        text.clean(bad, text.NAME)
    assert set(refused.value.why) == set(LANGS)
    assert all("U+" in said for said in refused.value.why.values())
    assert "direction" in refused.value.why["en"]


@pytest.mark.parametrize("bad", ["a\x07b", "a\x00", "a\x1cb", "a\x85b", "a\u2028b", "a\ud800", "a\ufffd", "a\ue000"])
def test_control_surrogate_private_and_replacement_characters_are_refused(bad):
    with pytest.raises(text.BadText):
        text.clean(bad, text.NAME)
    assert text.why_not(bad, text.NAME) is not None


def test_a_text_too_long_is_refused_with_its_length_not_cut():
    with pytest.raises(text.BadText) as refused:
        text.clean("x" * 5000, text.TITLE)
    assert "5000" in refused.value.why["en"] and "100" in refused.value.why["en"]


def test_the_cap_counts_the_composed_form():
    decomposed = "e\u0301" * 40  # 80 code points, 40 characters once composed
    assert text.clean(decomposed, text.NAME) == "\u00e9" * 40


def test_nfc_and_white_space():
    assert text.clean("  E\u0301va \t  Kiss ", text.NAME) == "\u00c9va Kiss"
    assert unicodedata.is_normalized("NFC", text.clean("Gu\u0308nther", text.NAME))
    assert text.clean("line one \r\nline two\t\n", text.COMMENT) == "line one\nline two"


def test_required_and_type():
    for bad in ("", "   ", None, 5):
        with pytest.raises(text.BadText):
            text.clean(bad, text.NAME)
    assert text.clean("", text.NOTE) == ""
    assert text.clean_or_none("\u202e", text.NAME) is None


def test_emoji_sequences_and_scripts_pass():
    for fine in ("👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "Zoë", "Łukasz", "Ádám", "عمر", "ไทย"):
        assert text.clean(fine, text.NAME) == unicodedata.normalize("NFC", fine)


def test_a_payload_names_the_path_of_its_bad_text():
    assert text.payload_why_not({"round": 1, "points": [1, 2], "note": "fine"}) is None
    assert text.payload_why_not({"note": "two\nlines\tand a tab", "name": "Zoë"}) is None
    where, why = text.payload_why_not({"players": [{"name": "ok"}, {"name": "\u202eevil"}]})
    assert where == "players.1.name" and set(why) == set(LANGS)
    assert text.payload_why_not({"a\x07": 1})[0] == "a\x07"


def test_normalized_keeps_what_is_already_composed():
    value = {"a": ["x", {"b": "y"}], "n": 3}
    assert text.normalized(value) is value
    assert text.normalized({"a": ["e\u0301"]}) == {"a": ["\u00e9"]}
