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
    # The roster's own append-only log (events/roster.py, docs/people.md): people and
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
    # The statistics' read model (events/stats.py): one row per seat of each finished game
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
