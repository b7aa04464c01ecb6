"""The PostgreSQL engine behind the same store (``DATABASE_URL=postgresql://…``).

The storage package talks to its database through the few calls sqlite-utils'
``Database`` offers (``execute``, ``query``, ``atomic``, ``conn``); ``PgDatabase`` offers
the same calls on a psycopg 3 connection, so one module of SQL serves both engines.
Statements are written once in a dialect both engines accept, with named parameters
rendered per engine when the statement is made (events/storage/sql.py): what reaches
``execute`` here is PostgreSQL's text already, passed on as it is. What
differs in substance (the write lock, the schema, change notifications) is written
out per engine where it happens: ``store.write_lock``/``store.lock_game``,
``migrations.POSTGRES``, ``live.Hub``.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

SCHEMES = ("postgresql://", "postgres://")
CHANNEL = "tablescribe_events"  # NOTIFY payload: the game id (migrations.POSTGRES)


def is_url(target: str) -> bool:
    return isinstance(target, str) and target.startswith(SCHEMES)


def redacted(url: str) -> str:
    """The URL without its password, fit for a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


class Unreachable(RuntimeError):
    """PostgreSQL could not be reached; the message names DATABASE_URL, no traceback."""


_PARAM_CASTS = {bool: int}  # SQLite stores booleans as 0/1; the columns are INTEGER


def _params(params) -> list:
    if params is None:
        return None  # no parameters: psycopg leaves the text as it is (a % in DDL)
    if isinstance(params, dict):
        raise TypeError("named parameters are not used by the store")
    return [_PARAM_CASTS[type(p)](p) if type(p) in _PARAM_CASTS else p for p in params]


class _Conn:
    """What the store uses of ``db.conn``: ``execute``, ``close``, ``in_transaction``.
    A pooled connection's ``close`` gives it back to its pool (rolled back if a
    transaction was left open)."""

    def __init__(self, raw, release=None):
        self.raw = raw
        self._release = release
        self.seen = None  # store.trace: told every statement

    def _seen(self, sql: str) -> str:
        if self.seen is not None:
            self.seen(sql)
        return sql

    def execute(self, sql: str, params=None):
        return self.raw.execute(self._seen(sql), _params(params))

    def executemany(self, sql: str, rows) -> None:
        self._seen(sql)
        with self.raw.cursor() as cur:
            cur.executemany(sql, [_params(row) for row in rows])

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus
        return self.raw.info.transaction_status != TransactionStatus.IDLE

    def close(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release(self.raw)
        elif not self.raw.closed:
            self.raw.close()


class PgDatabase:
    """A psycopg 3 connection in autocommit mode (like the SQLite store's
    ``isolation_level=None``): a statement outside ``atomic``/``write_lock`` commits
    by itself."""

    engine = "postgresql"
    on_recorded: tuple = ()  # events/application/table.py:announce; the app's connections carry its subscribers

    def __init__(self, raw, url: str, release=None):
        self.conn = _Conn(raw, release)
        self.url = url  # names the database, like a SQLite file's path (caches keyed by it)

    def execute(self, sql: str, params=None):
        return self.conn.execute(sql, params)

    def query(self, sql: str, params=None):
        from psycopg.rows import dict_row
        with self.conn.raw.cursor(row_factory=dict_row) as cur:
            cur.execute(self.conn._seen(sql), _params(params))
            yield from cur.fetchall()

    @contextmanager
    def atomic(self):
        """One transaction (a savepoint inside another), like sqlite-utils' ``atomic``."""
        with self.conn.raw.transaction():
            yield self


def connect(url: str, **kwargs) -> PgDatabase:
    import psycopg
    try:
        raw = psycopg.connect(url, autocommit=True, connect_timeout=10, **kwargs)
    except psycopg.OperationalError as err:
        reason = " ".join(line.strip() for line in str(err).splitlines() if line.strip()) \
            or type(err).__name__
        raise Unreachable(f"PostgreSQL at DATABASE_URL={redacted(url)} cannot be reached: {reason}") \
            from None
    return PgDatabase(raw, url)


# Requests take their connection from a pool per server process (its app's Pools, web/db.py): a hall's
# worth of simultaneous requests waits for one of POOL_SIZE connections instead of
# asking PostgreSQL for a process each (its max_connections, 100 by default, must hold
# servers × workers × (POOL_SIZE + 1 watcher): docs/scaling.md).
POOL_SIZE = int(os.environ.get("TABLESCRIBE_PG_POOL", "16"))
POOL_WAIT = 10.0  # seconds a request waits for a connection before its 503

class Pools:
    """The connection pools of one app (``app.extensions["pg_pools"]``, web/db.py): one
    per database URL and process, a pool never shared across gunicorn's fork."""

    def __init__(self):
        self.pools: dict[tuple[str, int], object] = {}
        self.lock = threading.Lock()

    def _pool(self, url: str):
        from psycopg_pool import ConnectionPool
        key = (url, os.getpid())
        with self.lock:
            pool = self.pools.get(key)
            if pool is None:
                pool = self.pools[key] = ConnectionPool(
                    url, min_size=1, max_size=POOL_SIZE, timeout=POOL_WAIT, open=True,
                    kwargs={"autocommit": True, "connect_timeout": 10},
                    check=ConnectionPool.check_connection)  # a connection PostgreSQL dropped is replaced
            return pool

    def close(self) -> None:
        """Close every pool (a test's app, done with its database); the next call opens afresh."""
        with self.lock:
            pools, self.pools = list(self.pools.values()), {}
        for pool in pools:
            pool.close()

    def pooled(self, url: str) -> PgDatabase:
        """A connection from this process's pool; ``db.conn.close()`` gives it back."""
        from psycopg_pool import PoolTimeout
        pool = self._pool(url)
        try:
            raw = pool.getconn()
        except PoolTimeout as err:
            raise Unreachable(f"PostgreSQL at DATABASE_URL={redacted(url)}: no connection free ({err})") from None
        return PgDatabase(raw, url, release=pool.putconn)


def listen(db) -> None:
    """From now on ``db``'s connection is told of every committed event (its game's id)."""
    db.execute(f"LISTEN {CHANNEL}")


def lost_connection_errors() -> tuple[type[BaseException], ...]:
    """What a request that lost PostgreSQL mid-way raises (answered 503, app.py)."""
    import psycopg
    return (psycopg.OperationalError, Unreachable)

