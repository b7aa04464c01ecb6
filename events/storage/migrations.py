"""The store's schema: its migrations in order, each described once (``events/storage/schema.py``)
and built from that description on both engines — as sqlite-utils migrations on SQLite,
as the same steps under the same names on PostgreSQL (``POSTGRES``, applied by
``apply_postgres``); idempotent, never drop-and-create. A new migration is one more entry
of ``MIGRATIONS``: nothing is written twice (docs/architecture.md, "Two engines")."""
from __future__ import annotations

from sqlite_utils.migrations import Migrations

from events.storage.schema import (BIGINT, BLOB, INTEGER, PLAIN_TEXT, REAL, SERIAL, TEXT, AddColumns, Column, Data, Index,
                           PostgresOnly, Step, Table, Unchangeable)


def _columns(*specs) -> tuple[Column, ...]:
    """Columns from ``Column``s and (name, type) pairs: NOT NULL, no default."""
    return tuple(spec if isinstance(spec, Column) else Column(*spec) for spec in specs)


MIGRATIONS: dict[str, tuple[Step, ...]] = {
    "create_events": (
        Table("events", _columns(
            ("id", SERIAL), ("game_id", TEXT), ("seq", BIGINT), ("type", TEXT), ("version", INTEGER),
            ("data", PLAIN_TEXT), Column("seat", INTEGER, null=True), ("device", TEXT), ("recorded_at", TEXT),
            ("client_event_id", TEXT), ("hash", TEXT)),
            unique=(("game_id", "seq"), ("game_id", "client_event_id"))),
        Unchangeable("events", "append-only"),
        # Every committed event tells the servers listening (events/runtime/live.py), with its game's
        # id; PostgreSQL delivers it at COMMIT, never for a rolled-back append.
        PostgresOnly((
            """CREATE OR REPLACE FUNCTION tablescribe_notify_event() RETURNS trigger
               LANGUAGE plpgsql AS $$
               BEGIN PERFORM pg_notify('tablescribe_events', NEW.game_id); RETURN NULL; END $$""",
            "DROP TRIGGER IF EXISTS events_notify ON events",
            "CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH ROW"
            " EXECUTE FUNCTION tablescribe_notify_event()"),
            why="SQLite's servers share one file: the watcher reads PRAGMA data_version instead"),
    ),
    # A summary per game (a projection kept in the same transaction as the append) so the
    # home page never folds every game.
    "create_games": (
        Table("games", _columns(
            Column("id", TEXT, primary=True), ("kind", TEXT), ("created_at", TEXT), ("players", PLAIN_TEXT),
            ("last_seq", BIGINT), ("updated_at", TEXT), Column("finished", INTEGER, default="0"),
            ("join_code", TEXT), Column("imported_from", PLAIN_TEXT, null=True))),
    ),
    # One row per phone token (a seat may be held by several phones); only the token's
    # SHA-256 is stored.
    "create_seats": (
        Table("seat_tokens", _columns(
            Column("token_hash", TEXT, primary=True), ("game_id", TEXT), ("seat", INTEGER), ("issued_at", TEXT))),
        Index("seat_tokens_game", "seat_tokens", ("game_id",)),
    ),
    # Board profiles (events/application/boards.py): insert-only versions, a new version is a new row.
    "create_board_profiles": (
        Table("board_profiles", _columns(
            ("id", SERIAL), ("kind", TEXT), ("profile_id", TEXT), ("version", BIGINT), ("data", PLAIN_TEXT),
            ("created_at", TEXT)),
            unique=(("kind", "profile_id", "version"),)),
        Unchangeable("board_profiles", "insert-only", noun="board profiles"),
    ),
    # Seats the host locked (the join link no longer opens them) and one-time links handing
    # a seat to a new phone; only the link code's SHA-256 is stored.
    "create_seat_control": (
        Table("seat_locks", _columns(("game_id", TEXT), ("seat", INTEGER), ("locked_at", TEXT)),
              primary=("game_id", "seat")),
        Table("seat_handovers", _columns(
            Column("code_hash", TEXT, primary=True), ("game_id", TEXT), ("seat", INTEGER), ("issued_at", TEXT),
            Column("used_at", PLAIN_TEXT, null=True))),
    ),
    # The summary keeps the last event's hash beside its seq, so events cut off the end of a
    # game are noticed (events/application/integrity.py); filled in for the games already there.
    "add_last_hash": (
        AddColumns("games", (Column("last_hash", PLAIN_TEXT, null=True),)),
        Data("UPDATE games SET last_hash = (SELECT hash FROM events WHERE events.game_id = games.id"
             " AND events.seq = games.last_seq) WHERE last_hash IS NULL"),
    ),
    # The tokens a hand-over took away (only their SHA-256, as in seat_tokens): the phone that
    # held one is told its seat went to another phone, not shown a bare spectator page.
    "create_revoked_seat_tokens": (
        Table("revoked_seat_tokens", _columns(
            Column("token_hash", TEXT, primary=True), ("game_id", TEXT), ("seat", INTEGER), ("revoked_at", TEXT))),
    ),
    # The roster's own append-only log (group/roster.py, docs/people.md): people and which
    # seat of which game each was; games' events are never rewritten for it.
    "create_roster": (
        Table("roster_events", _columns(
            Column("seq", BIGINT, primary=True), ("type", TEXT), ("data", PLAIN_TEXT), ("device", TEXT),
            ("recorded_at", TEXT), Column("client_event_id", TEXT, unique=True), ("hash", TEXT))),
        Unchangeable("roster_events", "append-only", noun="roster events"),
    ),
    # The statistics' read model (group/plays.py): one row per seat of each finished game or
    # imported play, replaced when the game ends again (after a void or rescore) and rebuilt
    # from the logs by `flask --app app rebuild-stats`. Not a fact: it may be dropped.
    "create_stat_seats": (
        Table("stat_seats", _columns(
            ("game_id", TEXT), ("seat", INTEGER), ("kind", TEXT), ("title", TEXT), Column("bgg_id", BIGINT, null=True),
            ("name", TEXT), ("players", INTEGER), ("score", BIGINT), ("rank", INTEGER), ("breakdown", PLAIN_TEXT),
            ("started_at", TEXT), ("ended_at", TEXT), Column("imported", INTEGER, default="0")),
            primary=("game_id", "seat")),
        Index("stat_seats_ended", "stat_seats", ("ended_at",)),
    ),
    # A counter bumped with every change of stat_seats, in the same transaction: each worker
    # keeps the plays it read until the counter moves (group/plays.py).
    "create_stat_version": (
        Table("stat_version", _columns(Column("id", INTEGER, primary=True, check="id = 1"), ("version", BIGINT))),
        Data("INSERT INTO stat_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING"),
    ),
    # Which game each stat_version step changed ("": all, a rebuild): a worker re-reads only
    # those games (group/plays.py). A row per game end, void or rescore of a finished game.
    "create_stat_changes": (
        Table("stat_changes", _columns(Column("version", BIGINT, primary=True), ("game_id", TEXT))),
    ),
    # A game's event 1 is unique to it (its random client id and time are hashed): an import
    # whose event 1 is already here is the same game again (events/application/export.py: AlreadyHere).
    "index_first_hashes": (
        Index("events_first_hash", "events", ("hash",), where="seq = 1"),
    ),
    # The time a finished game took without its breaks and each seat's turn times
    # (events/domain/turns.py, docs/people.md §6); NULL in rows written before, until rebuild-stats.
    "add_turn_times_to_stat_seats": (
        AddColumns("stat_seats", tuple(Column(name, kind, null=True) for name, kind in (
            ("played_seconds", REAL), ("turns", BIGINT), ("turn_seconds", REAL), ("longest_turn", REAL),
            ("longest_turn_at", BIGINT)))),
    ),
    # The roster's changes get a payload version (2: each names who made it, docs/people.md
    # §10; the rows before stay 1) and the log a summary row kept with every append, so a log
    # cut off its end is told as surely as a changed change (group/roster.py).
    "roster_versions_and_summary": (
        AddColumns("roster_events", (Column("version", INTEGER, default="1"),)),
        Table("roster_summary", _columns(Column("id", INTEGER, primary=True, check="id = 1"), ("last_seq", BIGINT),
                                         ("last_hash", TEXT))),
        Data("INSERT INTO roster_summary (id, last_seq, last_hash) SELECT 1, COALESCE(MAX(seq), 0),"
             " COALESCE((SELECT hash FROM roster_events ORDER BY seq DESC LIMIT 1), '') FROM roster_events"
             " WHERE NOT EXISTS (SELECT 1 FROM roster_summary)"),
    ),
    # Photos' bytes (events/application/photos.py), addressed by their SHA-256, which the photo-attached
    # event records: insert-only, like the events that name them.
    "create_photo_blobs": (
        Table("photo_blobs", _columns(
            Column("sha256", TEXT, primary=True), ("media_type", TEXT), ("size", BIGINT), ("data", BLOB))),
        Unchangeable("photo_blobs", "insert-only", noun="photos"),
    ),
    # The organiser's link (web/organiser.py): a salt mixed into its secret, replaced by
    # `flask --app app new-organiser-link` to end the old link; no row: the first link.
    "create_organiser_link": (
        Table("organiser_link", _columns(Column("id", INTEGER, primary=True, check="id = 1"), ("salt", TEXT))),
    ),
    # An imported play's score as BG Stats gave it where no whole number holds it: "" for a
    # play without points (co-op, no-points games), "61.5" for a decimal score; NULL for
    # every whole score (group/plays.py, docs/people.md §8).
    "add_given_scores_to_stat_seats": (
        AddColumns("stat_seats", (Column("score_given", PLAIN_TEXT, null=True),)),
    ),
    # Each game's walked states as of one event (events/storage/snapshots.py), so a worker starting
    # afresh folds on from there: derived data, not events — a row is replaced as the game
    # grows or when its code version is stale, and all may be dropped.
    "create_state_snapshots": (
        Table("state_snapshots", _columns(
            Column("game_id", TEXT, primary=True), ("seq", BIGINT), ("hash", TEXT), ("rules_version", INTEGER),
            ("code_version", TEXT), ("mac", TEXT), ("data", BLOB), ("made_at", TEXT))),
    ),
    # Signed exports (events/application/signing.py, trust.py): an imported game's signed identity
    # ("server key:game id"), the key that signed it and how its signature was found; the
    # servers' keys the group trusts (this server's own among them) and the imported games
    # the organiser accepted. The games imported before signatures were counted: they stay so.
    "signed_imports": (
        AddColumns("games", (Column("origin", TEXT, null=True), Column("signer", TEXT, null=True),
                             Column("import_check", PLAIN_TEXT, null=True))),
        Index("games_origin", "games", ("origin",)),
        Table("trusted_keys", _columns(Column("public_key", TEXT, primary=True), ("name", PLAIN_TEXT),
                                       ("added_at", TEXT), Column("own", INTEGER, default="0"))),
        Table("accepted_games", _columns(Column("game_id", TEXT, primary=True), ("accepted_at", TEXT))),
        Data("INSERT INTO accepted_games (game_id, accepted_at) SELECT id, created_at FROM games"
             " WHERE imported_from IS NOT NULL ON CONFLICT (game_id) DO NOTHING"),
    ),
}

# sqlite-utils runs each migration once per database file, recording its name.
migrations = Migrations("tablescribe")


def _on_sqlite(steps: tuple[Step, ...]):
    def migrate(db) -> None:
        for step in steps:
            step.sqlite(db)
    return migrate


for _name, _steps in MIGRATIONS.items():
    migrations(name=_name)(_on_sqlite(_steps))

# The same steps on PostgreSQL (events/storage/pg.py), under the same names and in the same order.
POSTGRES: dict[str, list[str]] = {name: [sql for step in steps for sql in step.postgres()]
                                  for name, steps in MIGRATIONS.items()}

# Taken (pg_advisory_xact_lock) by whichever process migrates: several servers
# starting at once on an empty database create the schema one after the other.
_MIGRATION_LOCK = 7_405_118_319


def apply_postgres(db) -> None:
    """Apply the pending PostgreSQL steps, all in one transaction under one lock."""
    with db.atomic():
        db.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")  # a constant of ours
        db.execute("CREATE TABLE IF NOT EXISTS tablescribe_migrations ("
                   "name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        done = {r[0] for r in db.execute("SELECT name FROM tablescribe_migrations").fetchall()}
        for name, statements in POSTGRES.items():
            if name in done:
                continue
            for sql in statements:
                db.conn.raw.execute(sql)  # DDL as written: no placeholders to translate
            db.execute("INSERT INTO tablescribe_migrations (name) VALUES (%s)", [name])  # PostgreSQL's only


# ---- what a migrated store holds, engine aside ---------------------------------------

_TYPES = {"integer": "INTEGER", "bigint": "INTEGER", "smallint": "INTEGER", "text": "TEXT",
          "real": "REAL", "double precision": "REAL", "float": "REAL", "blob": "BLOB", "bytea": "BLOB"}


def describe(db) -> dict[str, dict]:
    """The schema as either engine holds it, in one comparable form: per table its columns
    (name → (type, not null)), primary key, unique column sets, indexed column sets, and
    whether the database refuses updates and deletes of its rows. Both engines, built by
    the steps above, must describe the same (tests/events/test_pg.py), and a store
    migrated in place must describe as a fresh one (tests/events/test_migrations.py)."""
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
