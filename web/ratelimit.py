"""In-process rate limiting per client IP, bounded in memory (docs/reliability.md §5).

What is counted is a *wrong guess* (a link code that matched nothing): a table's phones
joining with the right code never spend the budget, however many join from one address
(a hall behind one NAT, a test run). Once an address has spent it, every attempt is
refused until the window ends, the right code included, so guessing stops there.

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

    def spent(self, key: str) -> bool:
        """Whether ``key`` has used its budget in the current window (counts nothing)."""
        with self._lock:
            entry = self._hits.get(key)
            return entry is not None and self.clock() - entry[0] < self.window and entry[1] >= self.limit

    def retry_after(self, key: str) -> int:
        with self._lock:
            entry = self._hits.get(key)
        return max(1, int(self.window - (self.clock() - entry[0]))) if entry else 1

    def __len__(self) -> int:
        return len(self._hits)


_limiters_lock = threading.Lock()


def _limiter(name: str, default: tuple[int, float]) -> RateLimiter:
    """The app's limiter ``name``: ``app.config["RATE_LIMITS"][name]`` = (requests, seconds) if set."""
    rate = tuple(current_app.config.get("RATE_LIMITS", {}).get(name, default))
    with _limiters_lock:  # one set of counters per app (and so per worker process)
        limiters = current_app.extensions.setdefault("rate_limits", {})
        return limiters.setdefault((name, rate), RateLimiter(*rate))


def refuse_if_spent(name: str, default: tuple[int, float]) -> None:
    """429 with ``Retry-After`` when the client's address has used up ``name``'s budget."""
    limiter, address = _limiter(name, default), request.remote_addr or "?"
    if limiter.spent(address):
        abort(429, retry_after=limiter.retry_after(address))


def count_wrong_guess(name: str, default: tuple[int, float]) -> None:
    """Spend one of the client's attempts at ``name`` (a code that matched nothing)."""
    _limiter(name, default).allow(request.remote_addr or "?")
