"""In-process rate limiting per client IP, bounded in memory (docs/reliability.md §5).

A fixed window per key; at most ``max_keys`` keys are remembered (the least recently
seen are forgotten first), so a flood of addresses cannot grow memory without bound.
Each gunicorn worker counts for itself: with W workers an address gets at most W
times the limit, still far too few attempts to guess a 128-bit code."""
from __future__ import annotations

import threading
import time
from collections import OrderedDict

from flask import abort, current_app, request


class RateLimiter:
    def __init__(self, limit: int, window: float, max_keys: int = 10_000, clock=time.monotonic):
        self.limit, self.window, self.max_keys, self.clock = limit, window, max_keys, clock
        self._hits: OrderedDict[str, list] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = self.clock()
        with self._lock:
            entry = self._hits.get(key)
            if entry is None or now - entry[0] >= self.window:
                entry = [now, 0]
            entry[1] += 1
            self._hits[key] = entry
            self._hits.move_to_end(key)
            while len(self._hits) > self.max_keys:
                self._hits.popitem(last=False)
            return entry[1] <= self.limit

    def retry_after(self, key: str) -> int:
        with self._lock:
            entry = self._hits.get(key)
        return max(1, int(self.window - (self.clock() - entry[0]))) if entry else 1

    def __len__(self) -> int:
        return len(self._hits)


_limiters_lock = threading.Lock()


def limit(name: str, default: tuple[int, float]) -> None:
    """Count this request against ``name`` for the client's address; 429 when over.
    The limit is ``app.config["RATE_LIMITS"][name]`` = (requests, seconds) if set."""
    rate = tuple(current_app.config.get("RATE_LIMITS", {}).get(name, default))
    with _limiters_lock:  # one set of counters per app (and so per worker process)
        limiters = current_app.extensions.setdefault("rate_limits", {})
        limiter = limiters.setdefault((name, rate), RateLimiter(*rate))
    address = request.remote_addr or "?"
    if not limiter.allow(address):
        abort(429, retry_after=limiter.retry_after(address))
