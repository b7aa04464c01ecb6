"""Statements written once with named parameters, rendered per engine when made
(events/storage/sql.py), and run alike on both engines."""
import pytest

from events.storage import sql
from events.storage.sql import Statement

app = pytest.fixture(lambda app_on_each_engine: app_on_each_engine)


def test_named_parameters_become_each_engines_placeholders_once():
    said = Statement("SELECT a FROM t WHERE x = :x AND y = :y AND z = :x AND w::text = 'p:q 10%' -- :c")
    assert said.names == ("x", "y", "x")
    assert said.rendered == {
        "sqlite": "SELECT a FROM t WHERE x = ? AND y = ? AND z = ? AND w::text = 'p:q 10%' -- :c",
        "postgresql": "SELECT a FROM t WHERE x = %s AND y = %s AND z = %s AND w::text = 'p:q 10%%' -- :c"}
    assert said.bind("sqlite", {"x": 1, "y": 2, "unused": 3}) == (said.rendered["sqlite"], [1, 2, 1])


def test_a_list_value_is_a_list_of_placeholders():
    said = Statement("SELECT id FROM games WHERE id IN (:ids) AND kind = :kind")
    assert said.bind("postgresql", {"ids": ["a", "b"], "kind": "han"}) == (
        "SELECT id FROM games WHERE id IN (%s,%s) AND kind = %s", ["a", "b", "han"])
    assert said.bind("sqlite", {"ids": ("a",), "kind": "han"})[0] == "SELECT id FROM games WHERE id IN (?) AND kind = ?"


def test_a_statement_runs_alike_on_either_engine(db, table_of):
    game = table_of(names=("A", "B")).id
    other = table_of(names=("C", "D")).id
    found = sql.dicts(db, Statement("SELECT id, kind FROM games WHERE id IN (:ids) AND kind = :kind ORDER BY id"),
                      ids=[game, other], kind="scorepad")
    assert found == sorted([{"id": game, "kind": "scorepad"}, {"id": other, "kind": "scorepad"}], key=lambda r: r["id"])
    assert sql.value(db, Statement("SELECT '10%' || :x"), x="!") == "10%!"
    assert sql.value(db, Statement("SELECT kind FROM games WHERE id = :id"), "none", id="no such game") == "none"
    assert sql.column(db, Statement("SELECT seq FROM events WHERE game_id = :id ORDER BY seq"), id=game) == [1]
