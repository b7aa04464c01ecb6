"""Live regions rendered once per view of a move, and shared.

A move changes a table's live region once, but every phone of the table (and every
spectator) needs it: rendered per phone, one move on a table watched by 2,000 phones
was rendered 2,000 times. A region depends on the game's state and on the view — a
spectator or a seated phone, the seat itself where the game hides something from the
others (Maharaja's secret gold), the language — so it is rendered once per (game,
sequence number, view, part: the region, the pushed message, the log's entries) and the
same bytes go to the tapping phone's answer, every stream and every poll of that view, for ``MAX_AGE`` (a move reaches every phone well
within it; the clock in the region says the time it was rendered). Nothing a phone alone
may have is in them (its CSRF token travels in a header, web/views.py). Entries are kept within a byte budget,
least recently used first out, and a game's regions of an older move go when one of a
newer move is kept; a second request for a region being rendered waits
for it instead of rendering it again. The app keeps one (web/db.py).
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict

BUDGET = 16 * 2**20  # bytes of rendered regions per server process
MAX_AGE = 1.0        # seconds a region is shared: the clock in it says the server's time
                     # when rendered (templates/_clock.html), which a later phone must not get


class Rendered:
    def __init__(self, budget: int = BUDGET, max_age: float = MAX_AGE):
        self.budget, self.max_age = budget, max_age
        self.renders = 0  # regions rendered (the rest were shared): tests and the benchmark read it
        self._kept: OrderedDict[tuple, tuple[float, str]] = OrderedDict()  # (game, seq, view, part) -> (when, html)
        self._of_game: dict[str, set[tuple]] = {}
        self._pending: dict[tuple, threading.Event] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple, render) -> str:
        """The region ``key``, rendered by ``render()`` if no one has yet."""
        while True:
            with self._lock:
                kept = self._kept.get(key)
                if kept is not None and time.monotonic() - kept[0] <= self.max_age:
                    self._kept.move_to_end(key)
                    return kept[1]
                waiting = self._pending.get(key)
                if waiting is None:
                    done = self._pending[key] = threading.Event()
                    break
            waiting.wait(5.0)  # another request renders it; then it is kept (or that one failed)
        try:
            html = render()
            with self._lock:
                self.renders += 1
                self._keep(key, html)
            return html
        finally:
            with self._lock:
                self._pending.pop(key, None)
            done.set()

    def _keep(self, key: tuple, html: str) -> None:
        game_id, seq = key[0], key[1]
        keys = self._of_game.setdefault(game_id, set())
        for older in [k for k in keys if k[1] < seq]:
            self._drop(older)
        if any(k[1] > seq for k in keys):
            return  # a newer move's regions are already kept: this one is not needed again
        keys = self._of_game.setdefault(game_id, set())
        if key in self._kept:
            self._drop(key)
            keys = self._of_game.setdefault(game_id, set())
        self._kept[key] = (time.monotonic(), html)
        self._bytes += len(html)
        keys.add(key)
        while len(self._kept) > 1 and self._bytes > self.budget:
            self._drop(next(iter(self._kept)))

    def _drop(self, key: tuple) -> None:
        self._bytes -= len(self._kept.pop(key)[1])
        keys = self._of_game.get(key[0])
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._of_game[key[0]]

    def __len__(self) -> int:
        return len(self._kept)

    def forget(self) -> None:
        with self._lock:
            self._kept.clear()
            self._of_game.clear()
            self._bytes = 0
