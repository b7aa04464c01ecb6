"""The game contract's shared pieces (scoring/base.py): a refusal names a seat that the
table fills in with its player's name, a form error carries its problems, a state is
copied deep as JSON is, a game's default options and the title a table is given; the
contract's two halves — a game kind's rules read as its own fields, its presentation
loaded only when first asked for, a retired version made by ``changed``."""
import subprocess
import sys

import pytest

from scoring import GAMES, RETIRED
from scoring.base import (FormError, GameKind, Presentation, Problem, RuleSection, Rules, ScorePart, clone, msg,
                          player, text)


def test_a_problem_names_each_seat_by_the_tables_player_and_an_unknown_seat_by_its_number():
    problem = Problem("docs/rules/han.md §2", text(f"{player(1)} után {player(5)}", f"after {player(1)}, {player(5)}"))
    named = problem.naming([{"name": "Anna"}, {"name": "Béla"}])
    assert (named.hu, named.en) == ("Béla után #6", "after Béla, #6")
    assert named.rule == problem.rule and named.as_dict() == {"rule": problem.rule, "hu": named.hu, "en": named.en}


def test_a_problem_naming_no_seat_is_left_as_it_is():
    problem = Problem("form", msg("Unknown action."))
    assert problem.naming([{"name": "Anna"}]) is problem


def test_a_form_error_carries_its_problems_and_says_them_in_english():
    problems = [Problem("form", text("egy", "one")), Problem("form", text("kettő", "two"))]
    error = FormError(problems)
    assert error.problems == problems and str(error) == "one; two"


def test_clone_is_a_deep_json_copy_even_beyond_64_bits():
    state = {"seats": [[1, 2]], 3: (4,)}
    copied = clone(state)
    copied["seats"][0].append(9)
    assert state["seats"] == [[1, 2]] and copied["3"] == [4]
    assert clone({"big": 2 ** 70}) == {"big": 2 ** 70}


def test_a_score_part_and_a_rule_section_as_pages_read_them():
    assert ScorePart("camels", 4, (2, 5), text("t", "t")).as_dict() == {
        "category": "camels", "points": 4, "events": [2, 5], "label": {"hu": "t", "en": "t"}}
    assert RuleSection("2.3", text("a", "a"), ()).anchor == "s2-3"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_table_set_up_with_the_default_options_is_called_by_its_games_title(kind):
    game = GAMES[kind]
    assert set(game.default_options()) == {o.name for o in game.options}
    assert game.title_for(game.default_options()) == game.title


def test_a_score_pad_is_titled_by_the_game_it_is_kept_for():
    pad = GAMES["scorepad"]
    assert pad.title_for({**pad.default_options(), "title": " Carcassonne "})["en"] == "Carcassonne"


_LAZY = """
import sys
from scoring import GAMES
game = GAMES["maharaja"]
state = game.setup([{"name": "A"}, {"name": "B"}], game.default_options())
game.score(state), game.is_over(state)
before = "scoring.maharaja.presentation" in sys.modules
title = game.title["en"]
print(before, "scoring.maharaja.presentation" in sys.modules, title)
"""


def test_the_presentation_is_loaded_when_first_asked_for():
    done = subprocess.run([sys.executable, "-c", _LAZY], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "True", "Maharaja"], done.stderr[-800:]


def test_each_half_holds_its_own_fields():
    for game in GAMES.values():
        assert isinstance(game.rules, Rules) and isinstance(game.presentation, Presentation)
        assert game.apply is game.rules.apply and game.describe is game.presentation.describe


def test_changed_replaces_each_field_in_its_half():
    game = GAMES["scorepad"]
    other = game.changed(rules_version=7, title={"hu": "x", "en": "x"})
    assert isinstance(other, GameKind) and other.rules_version == 7 and other.title["en"] == "x"
    assert game.rules_version == 1 and game.title["en"] != "x" and other.describe is game.describe


def test_a_retired_version_shares_the_current_presentation():
    for (kind, version), retired in RETIRED.items():
        assert retired.rules_version == version and retired.presentation is GAMES[kind].presentation
