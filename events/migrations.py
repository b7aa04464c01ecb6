"""Schema of the store, as idempotent sqlite-utils migrations (never drop-and-create)."""
from sqlite_utils.migrations import Migrations

migrations = Migrations("tablescribe")


@migrations()
def create_events(db):
    db.execute("""
        CREATE TABLE IF NOT EXISTS events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            version INTEGER NOT NULL,
            data TEXT NOT NULL,
            seat INTEGER,
            device TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            client_event_id TEXT NOT NULL,
            hash TEXT NOT NULL,
            UNIQUE (game_id, seq),
            UNIQUE (game_id, client_event_id)
        )""")
    # Facts are never changed: the database itself refuses updates and deletes.
    db.execute("""CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
                  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""")
    db.execute("""CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
                  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""")


@migrations()
def create_games(db):
    # A summary per game (a projection kept in the same transaction as the append)
    # so the home page never folds every game.
    db.execute("""
        CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            created_at TEXT NOT NULL,
            players TEXT NOT NULL,
            last_seq INTEGER NOT NULL,
            updated_at TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            join_code TEXT NOT NULL,
            imported_from TEXT
        )""")


@migrations()
def create_seats(db):
    # One row per phone token (a seat may be held by several phones); only the
    # token's SHA-256 is stored.
    db.execute("""
        CREATE TABLE IF NOT EXISTS seat_tokens (
            token_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            issued_at TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX IF NOT EXISTS seat_tokens_game ON seat_tokens (game_id)")


@migrations()
def create_board_profiles(db):
    # Board profiles (events/boards.py): insert-only versions, a new version is a new row.
    db.execute("""
        CREATE TABLE IF NOT EXISTS board_profiles (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            profile_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            data TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (kind, profile_id, version)
        )""")
    db.execute("""CREATE TRIGGER IF NOT EXISTS board_profiles_no_update BEFORE UPDATE ON board_profiles
                  BEGIN SELECT RAISE(ABORT, 'board profiles are insert-only'); END""")
    db.execute("""CREATE TRIGGER IF NOT EXISTS board_profiles_no_delete BEFORE DELETE ON board_profiles
                  BEGIN SELECT RAISE(ABORT, 'board profiles are insert-only'); END""")


@migrations()
def create_seat_control(db):
    # Seats the host locked (the join link no longer opens them) and one-time links
    # handing a seat to a new phone; only the link code's SHA-256 is stored.
    db.execute("""
        CREATE TABLE IF NOT EXISTS seat_locks (
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            locked_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""")
    db.execute("""
        CREATE TABLE IF NOT EXISTS seat_handovers (
            code_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            issued_at TEXT NOT NULL,
            used_at TEXT
        )""")


@migrations()
def add_last_hash(db):
    # The summary keeps the last event's hash beside its seq, so events cut off the end
    # of a game are noticed (events/integrity.py); filled in for the games already there.
    if "last_hash" not in db["games"].columns_dict:
        db.execute("ALTER TABLE games ADD COLUMN last_hash TEXT")
    db.execute("UPDATE games SET last_hash = (SELECT hash FROM events WHERE events.game_id = games.id"
               " AND events.seq = games.last_seq) WHERE last_hash IS NULL")


@migrations()
def create_revoked_seat_tokens(db):
    # The tokens a hand-over took away (only their SHA-256, as in seat_tokens): the phone
    # that held one is told its seat went to another phone, not shown a bare spectator page.
    db.execute("""
        CREATE TABLE IF NOT EXISTS revoked_seat_tokens (
            token_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            revoked_at TEXT NOT NULL
        )""")


@migrations()
def create_roster(db):
    # The roster's own append-only log (group/roster.py, docs/people.md): people and
    # which seat of which game each was; games' events are never rewritten for it.
    db.execute("""
        CREATE TABLE IF NOT EXISTS roster_events (
            seq INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            device TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            client_event_id TEXT NOT NULL UNIQUE,
            hash TEXT NOT NULL
        )""")
    _refuse_changes(db, "roster_events", "roster events are append-only")


def _refuse_changes(db, table: str, message: str) -> None:
    """Facts are never changed: the database itself refuses updates and deletes."""
    for verb in ("update", "delete"):
        db.execute(f"CREATE TRIGGER IF NOT EXISTS {table}_no_{verb} BEFORE {verb.upper()} ON {table} "
                   f"BEGIN SELECT RAISE(ABORT, '{message}'); END")


@migrations()
def create_stat_seats(db):
    # The statistics' read model (group/plays.py): one row per seat of each finished game
    # or imported play, replaced when the game ends again (after a void or rescore) and
    # rebuilt from the logs by `flask --app app rebuild-stats`. Not a fact: it may be dropped.
    db.execute("""
        CREATE TABLE IF NOT EXISTS stat_seats (
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            bgg_id INTEGER,
            name TEXT NOT NULL,
            players INTEGER NOT NULL,
            score INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            breakdown TEXT NOT NULL,
            started_at TEXT NOT NULL,
            ended_at TEXT NOT NULL,
            imported INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        )""")
    db.execute("CREATE INDEX IF NOT EXISTS stat_seats_ended ON stat_seats (ended_at)")


@migrations()
def create_stat_version(db):
    # A counter bumped with every change of stat_seats, in the same transaction: each
    # worker keeps the plays it read until the counter moves (group/plays.py).
    db.execute("CREATE TABLE IF NOT EXISTS stat_version (id INTEGER PRIMARY KEY CHECK (id = 1),"
               " version INTEGER NOT NULL)")
    db.execute("INSERT OR IGNORE INTO stat_version (id, version) VALUES (1, 0)")


@migrations()
def create_stat_changes(db):
    # Which game each stat_version step changed ("": all, a rebuild): a worker re-reads only
    # those games (group/plays.py). A row per game end, void or rescore of a finished game.
    db.execute("CREATE TABLE IF NOT EXISTS stat_changes (version INTEGER PRIMARY KEY, game_id TEXT NOT NULL)")


@migrations()
def index_first_hashes(db):
    # A game's event 1 is unique to it (its random client id and time are hashed): an import
    # whose event 1 is already here is the same game again (events/export.py: AlreadyHere).
    db.execute("CREATE INDEX IF NOT EXISTS events_first_hash ON events (hash) WHERE seq = 1")


@migrations()
def add_turn_times_to_stat_seats(db):
    # The time a finished game took without its breaks and each seat's turn times
    # (events/turns.py, docs/people.md §6); NULL in rows written before, until rebuild-stats.
    columns = db["stat_seats"].columns_dict
    for name, kind in _TURN_COLUMNS:
        if name not in columns:
            db.execute(f"ALTER TABLE stat_seats ADD COLUMN {name} {kind}")


_TURN_COLUMNS = (("played_seconds", "REAL"), ("turns", "INTEGER"), ("turn_seconds", "REAL"),
                 ("longest_turn", "REAL"), ("longest_turn_at", "INTEGER"))


@migrations()
def roster_versions_and_summary(db):
    # The roster's changes get a payload version (2: each names who made it, docs/people.md
    # §10; the rows before stay 1) and the log a summary row kept with every append, so a
    # log cut off its end is told as surely as a changed change (group/roster.py).
    if "version" not in {c.name for c in db["roster_events"].columns}:
        db.execute("ALTER TABLE roster_events ADD COLUMN version INTEGER NOT NULL DEFAULT 1")
    db.execute("CREATE TABLE IF NOT EXISTS roster_summary (id INTEGER PRIMARY KEY CHECK (id = 1),"
               " last_seq INTEGER NOT NULL, last_hash TEXT NOT NULL)")
    db.execute(_ROSTER_SUMMARY_FROM_LOG)


_ROSTER_SUMMARY_FROM_LOG = (
    "INSERT INTO roster_summary (id, last_seq, last_hash) SELECT 1, COALESCE(MAX(seq), 0),"
    " COALESCE((SELECT hash FROM roster_events ORDER BY seq DESC LIMIT 1), '') FROM roster_events"
    " WHERE NOT EXISTS (SELECT 1 FROM roster_summary)")


@migrations()
def create_photo_blobs(db):
    # Photos' bytes (events/photos.py), addressed by their SHA-256, which the photo-attached
    # event records: insert-only, like the events that name them.
    db.execute("""
        CREATE TABLE IF NOT EXISTS photo_blobs (
            sha256 TEXT PRIMARY KEY,
            media_type TEXT NOT NULL,
            size INTEGER NOT NULL,
            data BLOB NOT NULL
        )""")
    _refuse_changes(db, "photo_blobs", "photos are insert-only")


# ---- the same schema on PostgreSQL (events/pg.py) ---------------------------------------
# One step per SQLite migration above, under the same name and in the same order
# (tests/events/test_postgres.py checks it, and that both engines end with the same columns).
# Text is compared byte by byte (COLLATE "C"), as SQLite does, so lists keep their order.
# Payloads stay TEXT holding the JSON exactly as written: exports and hashes are the
# same bytes on either engine.

_APPEND_ONLY = """
    CREATE OR REPLACE FUNCTION tablescribe_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '% are %', TG_TABLE_NAME, TG_ARGV[0]; END $$"""


def _pg_refuse_changes(table: str, what: str) -> list[str]:
    """UPDATE, DELETE and TRUNCATE refused by the database itself."""
    return [f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}",
            f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table}"
            f" FOR EACH ROW EXECUTE FUNCTION tablescribe_refuse_change('{what}')",
            f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}",
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}"
            f" FOR EACH STATEMENT EXECUTE FUNCTION tablescribe_refuse_change('{what}')"]


POSTGRES: dict[str, list[str]] = {
    "create_events": [
        """CREATE TABLE IF NOT EXISTS events (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            game_id TEXT COLLATE "C" NOT NULL,
            seq BIGINT NOT NULL,
            type TEXT COLLATE "C" NOT NULL,
            version INTEGER NOT NULL,
            data TEXT NOT NULL,
            seat INTEGER,
            device TEXT COLLATE "C" NOT NULL,
            recorded_at TEXT COLLATE "C" NOT NULL,
            client_event_id TEXT COLLATE "C" NOT NULL,
            hash TEXT COLLATE "C" NOT NULL,
            UNIQUE (game_id, seq),
            UNIQUE (game_id, client_event_id)
        )""",
        _APPEND_ONLY,
        *_pg_refuse_changes("events", "append-only"),
        # Every committed event tells the servers listening (events/live.py), with its
        # game's id; PostgreSQL delivers it at COMMIT, never for a rolled-back append.
        """CREATE OR REPLACE FUNCTION tablescribe_notify_event() RETURNS trigger
           LANGUAGE plpgsql AS $$
           BEGIN PERFORM pg_notify('tablescribe_events', NEW.game_id); RETURN NULL; END $$""",
        "DROP TRIGGER IF EXISTS events_notify ON events",
        "CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH ROW"
        " EXECUTE FUNCTION tablescribe_notify_event()",
    ],
    "create_games": [
        """CREATE TABLE IF NOT EXISTS games (
            id TEXT COLLATE "C" PRIMARY KEY,
            kind TEXT COLLATE "C" NOT NULL,
            created_at TEXT COLLATE "C" NOT NULL,
            players TEXT NOT NULL,
            last_seq BIGINT NOT NULL,
            updated_at TEXT COLLATE "C" NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            join_code TEXT COLLATE "C" NOT NULL,
            imported_from TEXT
        )""",
    ],
    "create_seats": [
        """CREATE TABLE IF NOT EXISTS seat_tokens (
            token_hash TEXT COLLATE "C" PRIMARY KEY,
            game_id TEXT COLLATE "C" NOT NULL,
            seat INTEGER NOT NULL,
            issued_at TEXT COLLATE "C" NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS seat_tokens_game ON seat_tokens (game_id)",
    ],
    "create_board_profiles": [
        """CREATE TABLE IF NOT EXISTS board_profiles (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            kind TEXT COLLATE "C" NOT NULL,
            profile_id TEXT COLLATE "C" NOT NULL,
            version BIGINT NOT NULL,
            data TEXT NOT NULL,
            created_at TEXT COLLATE "C" NOT NULL,
            UNIQUE (kind, profile_id, version)
        )""",
        _APPEND_ONLY,
        *_pg_refuse_changes("board_profiles", "insert-only"),
    ],
    "create_seat_control": [
        """CREATE TABLE IF NOT EXISTS seat_locks (
            game_id TEXT COLLATE "C" NOT NULL,
            seat INTEGER NOT NULL,
            locked_at TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        """CREATE TABLE IF NOT EXISTS seat_handovers (
            code_hash TEXT COLLATE "C" PRIMARY KEY,
            game_id TEXT COLLATE "C" NOT NULL,
            seat INTEGER NOT NULL,
            issued_at TEXT COLLATE "C" NOT NULL,
            used_at TEXT
        )""",
    ],
    "add_last_hash": [
        "ALTER TABLE games ADD COLUMN IF NOT EXISTS last_hash TEXT",
    ],
    "create_revoked_seat_tokens": [
        """CREATE TABLE IF NOT EXISTS revoked_seat_tokens (
            token_hash TEXT COLLATE "C" PRIMARY KEY,
            game_id TEXT COLLATE "C" NOT NULL,
            seat INTEGER NOT NULL,
            revoked_at TEXT COLLATE "C" NOT NULL
        )""",
    ],
    "create_roster": [
        """CREATE TABLE IF NOT EXISTS roster_events (
            seq BIGINT PRIMARY KEY,
            type TEXT COLLATE "C" NOT NULL,
            data TEXT NOT NULL,
            device TEXT COLLATE "C" NOT NULL,
            recorded_at TEXT COLLATE "C" NOT NULL,
            client_event_id TEXT COLLATE "C" NOT NULL UNIQUE,
            hash TEXT COLLATE "C" NOT NULL
        )""",
        _APPEND_ONLY,
        *_pg_refuse_changes("roster_events", "append-only"),
    ],
    "create_stat_seats": [
        """CREATE TABLE IF NOT EXISTS stat_seats (
            game_id TEXT COLLATE "C" NOT NULL,
            seat INTEGER NOT NULL,
            kind TEXT COLLATE "C" NOT NULL,
            title TEXT COLLATE "C" NOT NULL,
            bgg_id BIGINT,
            name TEXT COLLATE "C" NOT NULL,
            players INTEGER NOT NULL,
            score BIGINT NOT NULL,
            rank INTEGER NOT NULL,
            breakdown TEXT NOT NULL,
            started_at TEXT COLLATE "C" NOT NULL,
            ended_at TEXT COLLATE "C" NOT NULL,
            imported INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX IF NOT EXISTS stat_seats_ended ON stat_seats (ended_at)",
    ],
    "create_stat_version": [
        "CREATE TABLE IF NOT EXISTS stat_version (id INTEGER PRIMARY KEY CHECK (id = 1),"
        " version BIGINT NOT NULL)",
        "INSERT INTO stat_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING",
    ],
    "create_stat_changes": [
        "CREATE TABLE IF NOT EXISTS stat_changes (version BIGINT PRIMARY KEY, game_id TEXT COLLATE \"C\" NOT NULL)",
    ],
    "index_first_hashes": [
        "CREATE INDEX IF NOT EXISTS events_first_hash ON events (hash) WHERE seq = 1",
    ],
    "add_turn_times_to_stat_seats": [
        f"ALTER TABLE stat_seats ADD COLUMN IF NOT EXISTS {name} {'DOUBLE PRECISION' if kind == 'REAL' else 'BIGINT'}"
        for name, kind in _TURN_COLUMNS],
    "roster_versions_and_summary": [
        "ALTER TABLE roster_events ADD COLUMN IF NOT EXISTS version INTEGER NOT NULL DEFAULT 1",
        "CREATE TABLE IF NOT EXISTS roster_summary (id INTEGER PRIMARY KEY CHECK (id = 1),"
        " last_seq BIGINT NOT NULL, last_hash TEXT COLLATE \"C\" NOT NULL)",
        _ROSTER_SUMMARY_FROM_LOG,
    ],
    "create_photo_blobs": [
        """CREATE TABLE IF NOT EXISTS photo_blobs (
            sha256 TEXT COLLATE "C" PRIMARY KEY,
            media_type TEXT COLLATE "C" NOT NULL,
            size BIGINT NOT NULL,
            data BYTEA NOT NULL
        )""",
        _APPEND_ONLY,
        *_pg_refuse_changes("photo_blobs", "insert-only"),
    ],
}

# Taken (pg_advisory_xact_lock) by whichever process migrates: several servers
# starting at once on an empty database create the schema one after the other.
_MIGRATION_LOCK = 7_405_118_319


def apply_postgres(db) -> None:
    """Apply the pending PostgreSQL steps, all in one transaction under one lock."""
    with db.atomic():
        db.execute("SELECT pg_advisory_xact_lock(?)", [_MIGRATION_LOCK])
        db.execute("CREATE TABLE IF NOT EXISTS tablescribe_migrations ("
                   "name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        done = {r[0] for r in db.execute("SELECT name FROM tablescribe_migrations").fetchall()}
        for name, statements in POSTGRES.items():
            if name in done:
                continue
            for sql in statements:
                db.conn.raw.execute(sql)  # DDL as written: no placeholders to translate
            db.execute("INSERT INTO tablescribe_migrations (name) VALUES (?)", [name])


# ---- what a migrated store holds, engine aside ---------------------------------------

_TYPES = {"integer": "INTEGER", "bigint": "INTEGER", "smallint": "INTEGER", "text": "TEXT",
          "real": "REAL", "double precision": "REAL", "float": "REAL", "blob": "BLOB", "bytea": "BLOB"}


def describe(db) -> dict[str, dict]:
    """The schema as either engine holds it, in one comparable form: per table its columns
    (name → (type, not null)), primary key, unique column sets, indexed column sets, and
    whether the database refuses updates and deletes of its rows. Both engines, built by
    the steps above, must describe the same (tests/events/test_postgres.py), and a store
    migrated in place must describe as a fresh one (tests/events/test_old_database.py)."""
    return _describe_postgres(db) if getattr(db, "engine", "sqlite") == "postgresql" else _describe_sqlite(db)


def _describe_sqlite(db) -> dict[str, dict]:
    found = {}
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                                       " AND name != '_sqlite_migrations' ORDER BY name").fetchall()]
    for table in tables:
        info = db.execute(f"PRAGMA table_info({table})").fetchall()
        columns = {r[1]: (_TYPES.get(r[2].lower(), r[2].upper()), bool(r[3]) or r[5] > 0) for r in info}
        primary = tuple(r[1] for r in sorted(info, key=lambda r: r[5]) if r[5])
        unique, indexed = set(), set()
        for index in db.execute(f"PRAGMA index_list({table})").fetchall():
            names = tuple(r[2] for r in db.execute(f"PRAGMA index_info({index[1]})").fetchall())
            if index[3] == "pk":
                continue
            (unique if index[2] else indexed).add(names)
        triggers = " ".join(r[0].upper() for r in db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", [table]).fetchall())
        found[table] = {"columns": columns, "primary": primary, "unique": sorted(unique), "indexed": sorted(indexed),
                        "append_only": "BEFORE UPDATE" in triggers and "BEFORE DELETE" in triggers}
    return found


def _describe_postgres(db) -> dict[str, dict]:
    found = {}
    rows = list(db.query("SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns"
                         " WHERE table_schema = 'public' AND table_name != 'tablescribe_migrations'"
                         " ORDER BY table_name, ordinal_position"))
    for r in rows:
        found.setdefault(r["table_name"], {"columns": {}})["columns"][r["column_name"]] = (
            _TYPES.get(r["data_type"], r["data_type"].upper()), r["is_nullable"] == "NO")
    indexes = list(db.query(
        "SELECT t.relname AS tbl, ix.indisprimary AS pk, ix.indisunique AS uq,"
        " array_to_string(array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(n, o)"
        "   JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o), ',') AS cols"
        " FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace"
        " WHERE s.nspname = 'public'"))
    triggers = list(db.query("SELECT event_object_table AS tbl, event_manipulation AS what, action_timing AS timing"
                             " FROM information_schema.triggers WHERE trigger_schema = 'public'"))
    for table, entry in found.items():
        mine = [i for i in indexes if i["tbl"] == table]
        entry["primary"] = next((tuple(i["cols"].split(",")) for i in mine if i["pk"]), ())
        entry["unique"] = sorted({tuple(i["cols"].split(",")) for i in mine if i["uq"] and not i["pk"]})
        entry["indexed"] = sorted({tuple(i["cols"].split(",")) for i in mine if not i["uq"]})
        refused = {t["what"] for t in triggers if t["tbl"] == table and t["timing"] == "BEFORE"}
        entry["append_only"] = {"UPDATE", "DELETE"} <= refused
        entry["columns"] = {name: (kind, not_null or (name,) == entry["primary"])
                            for name, (kind, not_null) in entry["columns"].items()}
    return dict(sorted(found.items()))
