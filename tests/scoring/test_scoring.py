"""The registry (scoring/__init__.py): each kind by its name, the rules an old game pinned
(a retired version kept, else the current one), and the rule page a problem's rule cites."""
from scoring import BOOK_OF_KIND, GAMES, RETIRED, RULEBOOKS, cited, get_game, knows_rules, rules_for


def test_each_kind_is_found_by_its_name_and_an_unknown_one_is_none():
    assert all(get_game(kind).kind == kind for kind in GAMES)
    assert get_game("chess") is None


def test_an_old_game_scores_by_the_rules_it_pinned_and_a_current_one_by_todays():
    for (kind, version), retired in RETIRED.items():
        assert rules_for(kind, version) is retired and knows_rules(kind, version)
        assert rules_for(kind, GAMES[kind].rules_version) is GAMES[kind]
    assert not knows_rules("han", 99) and not knows_rules("chess", 1)


def test_every_kind_reads_its_rules_in_a_book():
    assert BOOK_OF_KIND["dragon-tally"] == "dragon"
    assert set(BOOK_OF_KIND.values()) == set(RULEBOOKS)


def test_a_rule_cites_its_book_and_first_section():
    assert cited("docs/rules/han.md §2.3–2.4") == ("han", "2.3")
    assert cited("docs/rules/five-tribes.md §2.9, §6") == ("five-tribes", "2.9")
    assert cited("core §3") == ("core", "3")
    assert cited("form") is None and cited("") is None
