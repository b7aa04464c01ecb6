"""Each page kind reads the store a bounded number of times once its caches are warm: its
one loader reads what the page shows and the templates only render it (docs/architecture.md,
"One read model per page")."""
import pytest

from events.storage import store
from scoring import GAMES

# A warm table page: the game's last row (is the cached state current?), the phone's seat
# token, the game's row (join code, summary for the record's check) and the log's last events.
TABLE_PAGE_READS = 4


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """Every SELECT the app's requests run on SQLite, in order."""
    seen: list[str] = []
    connect = store.connect

    def traced(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.conn.set_trace_callback(lambda sql: seen.append(sql) if sql.lstrip().upper().startswith(("SELECT", "WITH")) else None)
        return db
    monkeypatch.setattr(store, "connect", traced)
    return seen


def _warm_reads(phone, path: str, reads: list[str]) -> list[str]:
    assert phone.get(path).status_code == 200  # the first request fills the caches
    reads.clear()
    assert phone.get(path).status_code == 200
    return list(reads)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_warm_table_page_reads_the_store_at_most_four_times(table_of, reads, kind):
    table = table_of(kind, demo=True)
    done = _warm_reads(table.phone(0), f"/games/{table.id}", reads)
    assert len(done) <= TABLE_PAGE_READS, "\n".join(done)


def test_a_warm_table_page_of_a_spectator_reads_no_more(table_of, reads, app):
    table = table_of("han", demo=True)
    done = _warm_reads(app.test_client(), f"/games/{table.id}", reads)
    assert len(done) <= TABLE_PAGE_READS, "\n".join(done)
