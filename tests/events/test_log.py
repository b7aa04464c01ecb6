"""The one recorder of every append-only log (events/storage/log.py): the games' and the
roster's recorded, caught up and verified by the same code, on both engines."""
import pytest

from events.domain.event import Event
from events.domain.hashing import GENESIS, chain_hash
from events.storage import store
from events.storage.log import GAMES, ROSTER, StaleSequence, Verified

app = pytest.fixture(lambda app_on_each_engine: app_on_each_engine)


@pytest.fixture
def game_id(table_of):
    return table_of(names=("A", "B")).id


def _change(n: int) -> dict:
    return {"type": "person-added", "version": 3, "data": {"name": f"Név {n}"}, "seat": None,
            "device": "dev", "recorded_at": f"2026-11-28T00:00:0{n}.000+00:00", "client_event_id": f"c{n}"}


def _record(db, log, key, n: int) -> dict:
    with store.write_lock(db):
        return log.record(db, key, _change(n))


def _logs(game_id):
    return [(GAMES, game_id), (ROSTER, None)]


def test_one_envelope_gets_one_hash_in_either_log(db, game_id):
    """The chain is the same in both logs: the roster's first change hashes as the genesis
    link, and the game's event after its set-up as the link after that event."""
    prev = store.last_event_ref(db, game_id)
    in_game, in_roster = _record(db, GAMES, game_id, 1), _record(db, ROSTER, None, 1)
    assert in_roster["hash"] == chain_hash(GENESIS, in_roster)
    assert in_game["hash"] == chain_hash(prev[1], in_game) and in_game["seq"] == prev[0] + 1
    for log, key in _logs(game_id):
        assert log.head(db, key)[1] == log.summary_row(db, key)[1]  # the summary row kept with it
        read = log.read(db, key)[-1]
        assert isinstance(read, Event) and read.data == {"name": "Név 1"} and read.seat is None


def test_a_writer_that_saw_an_old_seq_is_refused(db, game_id):
    for log, key in _logs(game_id):
        seq = log.head(db, key)[0]
        with pytest.raises(StaleSequence):
            with store.write_lock(db):
                log.record(db, key, _change(2), expected_seq=seq + 5)
        assert log.head(db, key)[0] == seq


def test_catch_up_says_what_a_cache_folds_next(db, game_id):
    for log, key in _logs(game_id):
        first = _record(db, log, key, 1)
        assert log.catch_up(db, key, first["seq"], first["hash"]) == (False, [])
        second = _record(db, log, key, 2)
        afresh, newer = log.catch_up(db, key, first["seq"], first["hash"])
        assert not afresh and [e.hash for e in newer] == [second["hash"]]
        afresh, whole = log.catch_up(db, key, second["seq"], "a rolled-back write's hash")
        assert afresh and [e.seq for e in whole] == log.seqs(db, key)
        assert log.catch_up(db, key, 0, GENESIS) == (True, log.read(db, key))


def test_each_log_tells_its_own_end_cut_off_and_keeps_its_verified_prefix(db, game_id):
    """A summary naming more than the chain holds is a log cut off its end; said in each
    log's words. A verified prefix is not read again."""
    words = {GAMES.table: "the game has", ROSTER.table: "the roster has"}
    for log, key in _logs(game_id):
        last = _record(db, log, key, 3)
        verified = Verified()
        assert verified.check(db, log, key, "x") is None
        assert verified.known("x") == (None, (last["seq"], last["hash"]))
        with store.write_lock(db):
            log.touch(db, key, last["seq"] + 1, "a hash the chain never had")
        seq, why = verified.check(db, log, key, "x")
        assert seq == last["seq"] + 1 and words[log.table] in why
        assert verified.check(db, log, key, "x") == (seq, why)  # remembered as broken
        with store.write_lock(db):
            log.touch(db, key, last["seq"], "another hash at the chain's last seq")
        assert Verified().check(db, log, key, "y")[0] == last["seq"]


def test_a_long_log_is_verified_in_chunks_as_one(db, game_id, monkeypatch):
    from events.storage import log as recorder
    monkeypatch.setattr(recorder, "VERIFY_CHUNK", 2)
    for n in range(1, 6):
        _record(db, ROSTER, None, n)
    assert Verified().check(db, ROSTER, None, "r") is None
    assert ROSTER.first_break(db, None, ROSTER.summary_row(db), seq=2, prev="not the chain's")[0][0] == 3


def test_a_cache_catching_up_on_a_long_log_gives_the_worker_away_between_chunks(db, game_id, monkeypatch):
    """The roster after a BG Stats import made in another process: the worker that read it
    first parsed 10,000 payloads in one go (~0.2 s), its other tables' moves waiting."""
    from events.storage import log as recorder
    monkeypatch.setattr(recorder, "VERIFY_CHUNK", 2)
    first = _record(db, ROSTER, None, 1)
    for n in range(2, 8):
        _record(db, ROSTER, None, n)
    turns = []
    monkeypatch.setattr(recorder, "cooperate", lambda: turns.append(1))
    afresh, new = ROSTER.catch_up(db, None, first["seq"], first["hash"])
    assert not afresh and [e.seq for e in new] == list(range(2, 8))
    assert len(turns) == 3  # between the chunks 1–2, 3–4, 5–6 and 7
    turns.clear()
    afresh, every = ROSTER.catch_up(db, None, 0, GENESIS)
    assert afresh and [e.seq for e in every] == list(range(1, 8)) and len(turns) == 3


def test_a_long_catch_up_parses_its_payloads_a_few_dozen_between_two_turns(db, game_id, monkeypatch):
    """A move needs several turns of the worker's hub (its read, its append off the hub, its
    answer): turns ~5 ms apart (a chunk of 256 payloads parsed) made the moves waiting
    behind the roster's catch-up after a BG Stats import take ~0.2 s."""
    from events.runtime import greenlets
    from events.storage import log as recorder
    monkeypatch.setattr(recorder, "PARSE_CHUNK", 2)
    for n in range(1, 8):
        _record(db, ROSTER, None, n)
    turns = []
    monkeypatch.setattr(greenlets, "cooperate", lambda: turns.append(1))
    afresh, every = ROSTER.catch_up(db, None, 0, GENESIS)
    assert [e.seq for e in every] == list(range(1, 8)) and len(turns) == 3  # after the 2nd, 4th and 6th


# Payloads orjson reads or writes otherwise than the standard library's canonical text: an
# integer beyond 64 bits, floats json writes with "e+", NaN, keys out of order, every kind
# of character a string escapes or keeps
ODD_PAYLOADS = [{"big": 2 ** 70, "negative": -(2 ** 64)}, {"large": 1e16, "small": 1e-7, "half": 0.5},
                {"z": 1, "a": {"y": [1, "é\n\t\u2028\x01\x7f"], "b": None}}, {"dice": "🎲", "quote": '"\\/'},
                {"nan": float("nan"), "inf": float("-inf")}]


def test_intact_stored_rows_verify_without_re_encoding_each_payload(db, game_id, monkeypatch):
    """A cold history page at 10,000 events spent most of its verification decoding and
    re-encoding every payload with the standard library (docs/decisions.md): an intact
    log's rows are hashed as stored, read by orjson, and ``canonical_json`` is never asked."""
    from events.domain import hashing
    for log, key in _logs(game_id):
        for n in range(1, 4):
            _record(db, log, key, n)

    def refuse(value):
        raise AssertionError("an intact row re-encoded by the standard library")
    monkeypatch.setattr(hashing, "canonical_json", refuse)
    for log, key in _logs(game_id):
        assert Verified().check(db, log, key, "intact") is None


def test_payloads_orjson_reads_or_writes_otherwise_verify_as_recorded(db, game_id):
    for log, key in _logs(game_id):
        for n, data in enumerate(ODD_PAYLOADS, start=1):
            with store.write_lock(db):
                log.record(db, key, {**_change(n), "data": data})
        assert Verified().check(db, log, key, "odd") is None
        assert log.first_break(db, key, log.summary_row(db, key))[0] is None


def test_odd_payloads_read_back_as_the_standard_library_reads_them(db, game_id):
    """Payloads are parsed by orjson where it reads them as ``json.loads`` does: an integer
    past 64 bits (orjson makes it a float) is read by the standard library."""
    import json
    odd = ODD_PAYLOADS + [{"past": -(2 ** 63) - 1, "edge": [2 ** 64 - 1, -(2 ** 63)]}]
    for log, key in _logs(game_id):
        for n, data in enumerate(odd, start=1):
            with store.write_lock(db):
                log.record(db, key, {**_change(n), "data": data})
        stored = [json.loads(row[log.stored.index("data")]) for row in log.stored_rows(db, key)][-len(odd):]
        read = [e.data for e in log.read(db, key)][-len(odd):]
        assert repr(read) == repr(stored)  # repr: nan is not nan, and 2**70 == 2.0**70
        assert read[0]["big"] == 2 ** 70 and isinstance(read[0]["big"], int)
        assert read[-1]["past"] == -(2 ** 63) - 1 and isinstance(read[-1]["past"], int)


def test_a_payloads_digits_in_a_long_run_are_never_read_by_orjson(monkeypatch):
    """orjson reads 123456789012345678901 as a float without an error; the text is read
    by the standard library whenever 19 digits stand together."""
    from events.storage import log as log_module
    for text in ('{"n": 123456789012345678901}', '{"n": -9223372036854775809}'):
        assert log_module.payload(text) == {"n": int(text.split(": ")[1][:-1])}
        assert isinstance(log_module.payload(text)["n"], int)
    monkeypatch.setattr(log_module.orjson, "loads", lambda text: (_ for _ in ()).throw(AssertionError(text)))
    assert log_module.payload('{"s": "1234567890123456789"}') == {"s": "1234567890123456789"}
