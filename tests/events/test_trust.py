"""Which imported games count (events/application/trust.py): a game recorded here counts;
an imported one counts once it is signed by a trusted key or the organiser accepts it,
and until then it is marked and its export goes unsigned; this server's own key stays
trusted."""
import json
import os

import pytest

from events.application import signing, trust
from events.application.export import import_game
from tests.conftest import ROOT

OWN, OTHER = "a" * 64, "b" * 64


@pytest.fixture
def imported(db) -> str:
    """An example game imported from its file (unsigned)."""
    with open(os.path.join(ROOT, "examples", "han-side2-2p.json"), encoding="utf-8") as example:
        return import_game(db, json.load(example))["id"]


def test_this_servers_key_stays_trusted_and_others_come_and_go(db):
    trust.trust_own(db, OWN)
    trust.trust(db, OTHER, "Café")
    trust.trust(db, OTHER, "Café Nord")  # renamed, not twice
    keys = [(k["public_key"], k["name"], k["own"]) for k in trust.trusted(db)]
    assert (OWN, "", 1) in keys and keys[-1] == (OTHER, "Café Nord", 0)  # this server's keys first
    trust.distrust(db, OTHER)
    trust.distrust(db, OWN)
    assert OWN in trust.own_keys(db) and [k["public_key"] for k in trust.trusted(db) if k["public_key"] in (OWN, OTHER)] == [OWN]


def test_an_unsigned_import_counts_nowhere_until_accepted(db, imported, table_of):
    here = table_of().id
    assert trust.not_counted(db) == {imported: signing.UNSIGNED}
    assert trust.mark(db, imported) == {"check": signing.UNSIGNED} and trust.mark(db, here) is None
    assert trust.export_origin(db, imported, OWN) is None  # not vouched for
    assert trust.export_origin(db, here, OWN) == {"server": OWN, "game": here}
    trust.accept(db, imported)
    trust.accept(db, imported)
    assert trust.not_counted(db) == {} and trust.mark(db, imported) is None
    assert [(g["id"], g["counts"]) for g in trust.imported(db)] == [(imported, True)]
    trust.withdraw(db, imported)
    assert imported in trust.not_counted(db)


def test_a_game_signed_by_a_trusted_key_counts_and_is_found_by_its_identity(db, imported):
    with db.atomic():
        trust.mark_import(db, imported, signing.Verdict(signing.SIGNED, OTHER, f"{OTHER}:g7"))
    assert imported in trust.not_counted(db)  # signed, by a key nobody trusts yet
    trust.trust(db, OTHER, "Café")
    assert trust.not_counted(db) == {}
    assert trust.game_of_origin(db, f"{OTHER}:g7") == imported
    assert trust.export_origin(db, imported, OWN) == {"server": OTHER, "game": "g7"}  # its first identity
    trust.trust_own(db, OWN)
    assert trust.game_of_origin(db, f"{OWN}:{imported}") == imported and trust.game_of_origin(db, f"{OWN}:nope") is None
