"""The store's statements beside the logs' (events/storage/log.py) and the store's own
(events/storage/store.py), by the tables they touch: each written once, with named
parameters, in the SQL both engines accept (events/storage/sql.py renders it per engine).
The modules that use them (seats, trust, board profiles, the statistics' read model,
copy-db, backups, the live watcher) hold no SQL of their own."""
from events.storage.sql import Statement

# ---- SQLite's own: the file's health, its changes, its backups ------------------------
INTEGRITY_CHECK = Statement("PRAGMA integrity_check")
DATA_VERSION = Statement("PRAGMA data_version")  # changes when another connection commits
DATABASE_LIST = Statement("PRAGMA database_list")
BUSY_TIMEOUT_30S = Statement("PRAGMA busy_timeout=30000")
CHECKPOINT = Statement("PRAGMA wal_checkpoint(TRUNCATE)")
SYNC_WAL = Statement("PRAGMA wal_checkpoint(PASSIVE)")  # syncs the WAL first: what a NORMAL commit left unsynced

# ---- the live watcher (events/runtime/live.py) ---------------------------------------
LAST_SEQS = Statement("SELECT id, last_seq FROM games WHERE id IN (:game_ids)")

# ---- seats: tokens, locks, hand-overs (events/application/seats.py) ------------------
SEAT_TOKENS_OF_GAME = Statement("SELECT token_hash, seat FROM seat_tokens WHERE game_id = :game_id")
LOCKED_SEATS = Statement("SELECT seat FROM seat_locks WHERE game_id = :game_id")
LOCK_SEAT = Statement("INSERT INTO seat_locks (game_id, seat, locked_at) VALUES (:game_id, :seat, :at)"
                      " ON CONFLICT DO NOTHING")
UNLOCK_SEAT = Statement("DELETE FROM seat_locks WHERE game_id = :game_id AND seat = :seat")
PHONES_PER_SEAT = Statement("SELECT seat, COUNT(*) FROM seat_tokens WHERE game_id = :game_id GROUP BY seat")
REVOKED_SEAT = Statement("SELECT seat FROM revoked_seat_tokens WHERE token_hash = :token_hash AND game_id = :game_id")
REVOKE_SEAT_TOKENS = Statement(
    "INSERT INTO revoked_seat_tokens (token_hash, game_id, seat, revoked_at)"
    " SELECT token_hash, game_id, seat, :at FROM seat_tokens WHERE game_id = :game_id AND seat = :seat"
    " ON CONFLICT DO NOTHING")
DELETE_SEAT_TOKENS = Statement("DELETE FROM seat_tokens WHERE game_id = :game_id AND seat = :seat")
USE_UP_HANDOVERS = Statement("UPDATE seat_handovers SET used_at = :at"
                             " WHERE game_id = :game_id AND seat = :seat AND used_at IS NULL")
ISSUE_HANDOVER = Statement("INSERT INTO seat_handovers (code_hash, game_id, seat, issued_at)"
                           " VALUES (:code_hash, :game_id, :seat, :at)")
OPEN_HANDOVER = Statement("SELECT seat FROM seat_handovers"
                          " WHERE code_hash = :code_hash AND game_id = :game_id AND used_at IS NULL")
# One statement claims the link, so two phones racing for it cannot both win.
CLAIM_HANDOVER = Statement("UPDATE seat_handovers SET used_at = :at"
                           " WHERE code_hash = :code_hash AND game_id = :game_id AND used_at IS NULL")
HANDOVER_SEAT = Statement("SELECT seat FROM seat_handovers WHERE code_hash = :code_hash")

# ---- trust: servers' keys, accepted games, imports' signatures (events/application/trust.py)
TRUST_OWN_KEY = Statement("INSERT INTO trusted_keys (public_key, name, added_at, own) VALUES (:public_key, '', :at, 1)"
                          " ON CONFLICT (public_key) DO UPDATE SET own = 1")
TRUST_KEY = Statement("INSERT INTO trusted_keys (public_key, name, added_at, own) VALUES (:public_key, :name, :at, 0)"
                      " ON CONFLICT (public_key) DO UPDATE SET name = excluded.name")
DISTRUST_KEY = Statement("DELETE FROM trusted_keys WHERE public_key = :public_key AND own = 0")
TRUSTED_KEYS = Statement("SELECT public_key, name, added_at, own FROM trusted_keys ORDER BY own DESC, name, public_key")
OWN_KEYS = Statement("SELECT public_key FROM trusted_keys WHERE own = 1")
ACCEPT_GAME = Statement("INSERT INTO accepted_games (game_id, accepted_at) VALUES (:game_id, :at)"
                        " ON CONFLICT (game_id) DO NOTHING")
WITHDRAW_GAME = Statement("DELETE FROM accepted_games WHERE game_id = :game_id")
_UNCOUNTED = ("FROM games g LEFT JOIN trusted_keys k ON k.public_key = g.signer"
              " LEFT JOIN accepted_games a ON a.game_id = g.id"
              " WHERE g.imported_from IS NOT NULL AND k.public_key IS NULL AND a.game_id IS NULL")
NOT_COUNTED = Statement(f"SELECT g.id, g.import_check {_UNCOUNTED} ORDER BY g.id")
NOT_COUNTED_GAME = Statement(f"SELECT g.import_check {_UNCOUNTED} AND g.id = :game_id")
IMPORTED_GAMES = Statement(
    "SELECT g.id, g.kind, g.players, g.updated_at, g.import_check, g.signer, g.origin,"
    " k.public_key AS trusted_key, a.accepted_at FROM games g"
    " LEFT JOIN trusted_keys k ON k.public_key = g.signer LEFT JOIN accepted_games a ON a.game_id = g.id"
    " WHERE g.imported_from IS NOT NULL ORDER BY g.updated_at DESC, g.id")
GAME_OF_ORIGIN = Statement("SELECT id FROM games WHERE origin = :origin ORDER BY id LIMIT 1")
IMPORT_OF_GAME = Statement("SELECT imported_from, origin FROM games WHERE id = :game_id")
MARK_IMPORT = Statement("UPDATE games SET origin = :origin, signer = :signer, import_check = :import_check"
                        " WHERE id = :game_id")

# ---- board profiles, insert-only (events/application/boards.py) -----------------------
_PROFILE = "SELECT profile_id, version, data, created_at FROM board_profiles"
PROFILE_IDS = Statement("SELECT DISTINCT profile_id FROM board_profiles WHERE kind = :kind")
BUILTIN_PROFILE = Statement("INSERT INTO board_profiles (kind, profile_id, version, data, created_at)"
                            " VALUES (:kind, :profile_id, 1, :data, :at) ON CONFLICT DO NOTHING")
PROFILES = Statement(f"{_PROFILE} WHERE kind = :kind ORDER BY profile_id, version")
LATEST_PROFILE = Statement(f"{_PROFILE} WHERE kind = :kind AND profile_id = :profile_id"
                           " ORDER BY version DESC LIMIT 1")
PROFILE_VERSION = Statement(f"{_PROFILE} WHERE kind = :kind AND profile_id = :profile_id AND version = :version")
LAST_PROFILE_VERSION = Statement("SELECT MAX(version) FROM board_profiles WHERE kind = :kind AND profile_id = :profile_id")
INSERT_PROFILE = Statement("INSERT INTO board_profiles (kind, profile_id, version, data, created_at)"
                           " VALUES (:kind, :profile_id, :version, :data, :at)")

# ---- the statistics' read model (group/plays.py) ---------------------------------------
STAT_COLUMNS = ("game_id", "seat", "kind", "title", "bgg_id", "name", "players", "score", "rank",
                "breakdown", "started_at", "ended_at", "imported",
                "played_seconds", "turns", "turn_seconds", "longest_turn", "longest_turn_at", "score_given")
STATS_CHANGED = Statement("UPDATE stat_version SET version = version + 1")
STATS_CHANGE_OF = Statement("INSERT INTO stat_changes (version, game_id) SELECT version, :game_id FROM stat_version")
STATS_VERSION = Statement("SELECT version FROM stat_version")
STATS_CHANGED_SINCE = Statement("SELECT DISTINCT game_id FROM stat_changes WHERE version > :version")
DELETE_STAT_SEATS = Statement("DELETE FROM stat_seats WHERE game_id = :game_id")
DELETE_EVERY_STAT_SEAT = Statement("DELETE FROM stat_seats")
INSERT_STAT_SEAT = Statement(f"INSERT INTO stat_seats ({', '.join(STAT_COLUMNS)})"
                             f" VALUES ({', '.join(':' + c for c in STAT_COLUMNS)})")
EVERY_STAT_SEAT = Statement(f"SELECT {', '.join(STAT_COLUMNS)} FROM stat_seats ORDER BY game_id, seat")
STAT_SEATS_OF = Statement(f"SELECT {', '.join(STAT_COLUMNS)} FROM stat_seats WHERE game_id = :game_id"
                          " ORDER BY game_id, seat")
FINISHED_GAMES = Statement("SELECT id FROM games WHERE finished = 1 ORDER BY id")
OWN_PLAYS = Statement("SELECT DISTINCT game_id FROM stat_seats WHERE imported = 0")
OWN_PLAYS_ENDED = Statement("SELECT DISTINCT game_id, ended_at FROM stat_seats WHERE imported = 0 ORDER BY game_id")

# ---- copy-db (services/transfer.py): rows copied as stored, a row already there kept ---
GAME_COLUMNS = ("id", "kind", "created_at", "players", "last_seq", "updated_at", "finished",
                "join_code", "imported_from", "last_hash", "origin", "signer", "import_check")
SEAT_TABLES = {
    "seat_tokens": ("token_hash", "game_id", "seat", "issued_at"),
    "seat_locks": ("game_id", "seat", "locked_at"),
    "seat_handovers": ("code_hash", "game_id", "seat", "issued_at", "used_at"),
    "revoked_seat_tokens": ("token_hash", "game_id", "seat", "revoked_at"),
}
TRUST_TABLES = {"trusted_keys": ("public_key", "name", "added_at", "own"),
                "accepted_games": ("game_id", "accepted_at")}
PROFILE_COLUMNS = ("kind", "profile_id", "version", "data", "created_at")
_COPIED = {"games": GAME_COLUMNS, "board_profiles": PROFILE_COLUMNS, **SEAT_TABLES, **TRUST_TABLES}


def _insert(table: str, columns: tuple[str, ...], keep: bool) -> Statement:
    return Statement(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"
                     + (" ON CONFLICT DO NOTHING" if keep else ""))


COPY_INTO = {table: _insert(table, columns, keep=table != "games") for table, columns in _COPIED.items()}
EVERY_GAME = Statement("SELECT * FROM games ORDER BY id")
EVERY_PROFILE = Statement(f"SELECT {', '.join(PROFILE_COLUMNS)} FROM board_profiles ORDER BY id")
EVERY_TRUSTED = {table: Statement(f"SELECT {', '.join(columns)} FROM {table}") for table, columns in TRUST_TABLES.items()}
SEATS_OF_GAME = {table: Statement(f"SELECT {', '.join(columns)} FROM {table} WHERE game_id = :game_id")
                 for table, columns in SEAT_TABLES.items()}
