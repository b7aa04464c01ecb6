"""services/people.py: a roster change and the statistics' rows it moves are one write."""
import pytest

from group import plays, roster
from services.people import link_seat
from tests.conftest import become_organiser


class StatisticsFailed(Exception):
    pass


def test_a_roster_change_whose_statistics_fail_is_not_written(app, client, db, monkeypatch):
    """Before, the change was committed first and the statistics' rows written after it: a
    failure there left the roster changed and the statistics behind it."""
    become_organiser(app, client)

    def fail(*args, **kwargs):
        raise StatisticsFailed("the statistics' write failed")
    monkeypatch.setattr(plays, "on_roster_changed", fail)
    with pytest.raises(StatisticsFailed):
        client.post("/people", data={"name": "Cili"})
    assert roster.load(db).by_name("Cili") is None


def test_a_seat_linked_by_a_new_name_adds_the_person_with_the_link(table_of, db):
    table = table_of()
    written = link_seat(db, table.id, 1, "dev", "c1", by=roster.ORGANISER, name="Dóra")
    assert [e.type for e in written] == ["person-added", "seat-linked"]
    assert roster.load(db).seats_of(table.id)[1] == roster.load(db).by_name("Dóra")["id"]
