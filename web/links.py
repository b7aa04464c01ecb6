"""The addresses the templates link to, each built once per process.

A tap's answer links to its game a dozen times (the move form, Undo, the clock's pause,
the timeline, the score race…), and werkzeug builds each address afresh by walking its
rule: the same few strings per game, tap after tap. An address in a page (not
``_external``, no ``_anchor``, ``_method`` or ``_scheme``) depends only on the endpoint, its
values and where the app is mounted (``SCRIPT_NAME``), so it is kept under those; anything
else is built as before. Derived, bounded, owned by the app (``Caches``).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from flask import has_request_context, request, url_for

LINKS = 8192  # (endpoint, values) pairs a server process keeps: a few dozen per game


class Links:
    """The templates' ``url_for``: Flask's, with the page addresses it made kept."""

    def __init__(self, size: int = LINKS):
        self.size = size
        self._kept: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()

    def url_for(self, endpoint: str, **values) -> str:
        key = self._key(endpoint, values)
        if key is None:
            return url_for(endpoint, **values)
        with self._lock:
            address = self._kept.get(key)
            if address is not None:
                self._kept.move_to_end(key)
                return address
        address = url_for(endpoint, **values)
        with self._lock:
            self._kept[key] = address
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return address

    @staticmethod
    def _key(endpoint: str, values: dict) -> tuple | None:
        """What the address depends on, or None when it may depend on more (the request's
        blueprint, host or scheme) or a value cannot be a key."""
        if endpoint.startswith(".") or not has_request_context() or any(k.startswith("_") for k in values):
            return None
        # each value's type too: 1 and True are one key of a dict, two different addresses
        key = (request.script_root, endpoint, tuple(sorted((k, type(v), v) for k, v in values.items())))
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def __len__(self) -> int:
        return len(self._kept)

    def forget(self) -> None:
        with self._lock:
            self._kept.clear()


def use_in_templates(app, links: Links) -> None:
    app.jinja_env.globals["url_for"] = links.url_for
