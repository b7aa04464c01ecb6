"""The hash chain (events/domain/hashing.py): each hash covers the previous one and the
event's envelope but not the game id; ``first_broken_link`` names the first event that is
missing, out of order or changed, and goes on from a verified prefix."""
from events.domain.hashing import GENESIS, HASHED_FIELDS, canonical_json, chain_hash, first_broken_link


def envelope(seq: int, data: dict) -> dict:
    return {"seq": seq, "type": "round-scored", "version": 1, "data": data, "seat": 0, "device": "phone",
            "recorded_at": "2026-11-28T00:00:00Z", "client_event_id": f"c{seq}"}


def chained(count: int) -> list[dict]:
    envelopes, prev = [], GENESIS
    for seq in range(1, count + 1):
        env = envelope(seq, {"points": [seq, 0]})
        env["hash"] = prev = chain_hash(prev, env)
        envelopes.append(env)
    return envelopes


def test_canonical_json_is_the_same_text_whatever_the_key_order():
    assert canonical_json({"b": 1, "a": "é"}) == canonical_json({"a": "é", "b": 1}) == '{"a":"é","b":1}'


def test_each_hashed_field_and_the_previous_hash_change_the_hash_and_the_game_id_does_not():
    env = envelope(1, {"points": [1]})
    base = chain_hash(GENESIS, env)
    assert chain_hash(GENESIS, {**env, "game_id": "another"}) == base
    assert chain_hash("0" * 64, env) != base
    for name in HASHED_FIELDS:
        assert chain_hash(GENESIS, {**env, name: "changed"}) != base, name


def test_an_intact_chain_has_no_broken_link_and_is_checked_on_from_a_prefix():
    envelopes = chained(4)
    assert first_broken_link(envelopes) is None
    assert first_broken_link(envelopes[2:], prev=envelopes[1]["hash"], expected_seq=3) is None


def test_the_first_changed_missing_or_reordered_event_is_named():
    envelopes = chained(4)
    changed = [*envelopes[:2], {**envelopes[2], "data": {"points": [99, 0]}}, envelopes[3]]
    assert first_broken_link(changed) == (3, "hash does not match its content and the previous hash")
    assert first_broken_link(envelopes[:1] + envelopes[2:]) == (3, "expected event 2, found 3")
    assert first_broken_link(envelopes[1:], expected_seq=2)[0] == 2  # from genesis, not event 1's hash
