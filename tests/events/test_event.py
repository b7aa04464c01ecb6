"""An event as the log holds it (events/domain/event.py): its envelope is every field the
chain hashes plus the hash, and neither kind of event can be changed once made."""
import dataclasses

import pytest

from events.domain.event import Event, NewEvent
from events.domain.hashing import HASHED_FIELDS, chain_hash


def test_the_envelope_holds_the_hashed_fields_and_the_hash_that_covers_them():
    fields = dict(seq=1, type="round-scored", version=2, data={"points": [3]}, seat=None, device="api",
                  recorded_at="2026-11-28T00:00:00Z", client_event_id="c1")
    event = Event(**fields, hash=chain_hash("", fields))
    envelope = event.envelope()
    assert set(envelope) == {*HASHED_FIELDS, "hash"}
    assert chain_hash("", envelope) == envelope["hash"]


def test_events_cannot_be_changed_once_made():
    new = NewEvent("round-scored", 1, {}, 0, "phone", "c1")
    assert new.recorded_at is None  # the store stamps it, an import keeps the original's
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.data = {"points": [1]}
