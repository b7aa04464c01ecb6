"""The form readers every game's ``parse_form`` uses (scoring/forms.py): a field that is no
whole number, out of range, too long to read, not a choice or an unknown action is a
``FormError`` naming the field; what is valid comes back as a value."""
import pytest

from scoring.base import FormError
from scoring.forms import MAX_DIGITS, form_choice, form_int, form_list, parse_action, player_name

LABEL = {"hu": "Pont", "en": "Points"}


def refusal(call) -> str:
    with pytest.raises(FormError) as refused:
        call()
    return refused.value.problems[0].en


def test_a_whole_number_is_read_with_its_sign_and_spaces():
    assert form_int({"p": " 12 "}, "p", LABEL) == 12
    assert form_int({"p": "-3"}, "p", LABEL) == -3
    assert form_int({"p": "+7"}, "p", LABEL, low=0, high=9) == 7


@pytest.mark.parametrize("raw", ["", "1.5", "x", "١٢", "--1", None])
def test_anything_else_is_refused_naming_the_field(raw):
    assert refusal(lambda: form_int({"p": raw}, "p", LABEL)) == "Points: enter a whole number."


def test_the_limits_are_said_with_the_value_given():
    assert "at least 1" in refusal(lambda: form_int({"p": "0"}, "p", LABEL, low=1))
    assert "at most 9 is allowed (got 10)" in refusal(lambda: form_int({"p": "10"}, "p", LABEL, high=9))


def test_a_number_longer_than_any_count_is_refused_unread_and_quoted_short():
    huge = "9" * 5000
    said = refusal(lambda: form_int({"p": huge}, "p", LABEL, high=9))
    assert "at most 9" in said and len(said) < 100
    assert f"5000 digits; at most {MAX_DIGITS}" in refusal(lambda: form_int({"p": huge}, "p", LABEL))
    assert "too large a number (5000 digits" in refusal(lambda: form_int({"p": "-" + huge}, "p", LABEL, high=9))


def test_a_choice_is_one_of_the_allowed_or_empty_when_optional():
    assert form_choice({"c": "b"}, "c", ["a", "b"], LABEL) == "b"
    assert form_choice({}, "c", ["a"], LABEL, optional=True) is None
    assert refusal(lambda: form_choice({}, "c", ["a"], LABEL)) == "Points: choose one."
    assert refusal(lambda: form_choice({"c": "z"}, "c", ["a"], LABEL)) == "Points: not a valid choice."


def test_a_repeated_field_is_a_list_from_a_multidict_or_a_plain_dict():
    from werkzeug.datastructures import MultiDict
    assert form_list(MultiDict([("n", "a"), ("n", "b")]), "n") == ["a", "b"]
    assert form_list({"n": "a"}, "n") == ["a"] and form_list({"n": ["a", "b"]}, "n") == ["a", "b"]
    assert form_list({}, "n") == []


def test_a_seat_the_table_does_not_have_is_named_by_a_question_mark():
    players = [{"name": "Anna"}, {"name": "Béla"}]
    assert player_name(players, 1) == "Béla"
    assert [player_name(players, s) for s in (2, -1, True, "0", None)] == ["?"] * 5


def test_the_action_picks_the_parser_and_an_unknown_one_is_refused():
    parsers = {"score": lambda state, form: {"points": form_int(form, "p", LABEL)}}
    assert parse_action(parsers, {}, {"action": "score", "p": "4"}) == ("score", {"points": 4})
    assert parse_action(parsers, {}, {"p": "4"}, default="score") == ("score", {"points": 4})
    assert refusal(lambda: parse_action(parsers, {}, {"action": "cheat"})) == "Unknown action."
