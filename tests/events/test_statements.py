"""The store's statements (events/storage/statements.py): each written in the SQL both
engines take, and each read by SQLite against today's schema."""
from events.storage import statements, store
from events.storage.sql import Statement

SQLITE_ONLY = {"INTEGRITY_CHECK", "DATA_VERSION", "DATABASE_LIST", "BUSY_TIMEOUT_30S", "CHECKPOINT", "SYNC_WAL"}


def _every() -> dict[str, Statement]:
    found = {}
    for name, value in vars(statements).items():
        if isinstance(value, Statement):
            found[name] = value
        elif isinstance(value, dict):
            found.update({f"{name}[{k}]": v for k, v in value.items() if isinstance(v, Statement)})
    return found


def test_every_statement_is_written_in_the_dialect_both_engines_take():
    for name, statement in _every().items():
        assert "?" not in statement.text and "OR IGNORE" not in statement.text.upper(), name


def test_every_statement_is_read_by_sqlite_against_todays_schema(tmp_path):
    path = str(tmp_path / "s.db")
    store.prepare(path)
    db = store.connect(path)
    for name, statement in _every().items():
        if name in SQLITE_ONLY:
            continue
        params = {n: ["x"] if n == "game_ids" else "x" for n in statement.names}
        text, values = statement.bind("sqlite", params)
        db.execute(f"EXPLAIN {text}", values)  # parsed, its names resolved: nothing run
