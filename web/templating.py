"""The app's Jinja environment: Flask's, with a template's ``row.seat`` on a plain dict read
without an exception.

Jinja reads ``x.name`` as ``getattr(x, "name")`` and, where that raises AttributeError, as
``x["name"]``. The pages' data are dicts (the standings' rows, the log's entries, the board's
parts and cells), so nearly every such read in a template raised and caught an AttributeError
first: a couple of hundred per tap's answer, 2–9% of its CPU (docs/performance.md). A plain
dict has no attributes but its class's, so for any other name Jinja's lookup ends at the
item: that is read at once, with Jinja's own answer (undefined) where the dict has no such key.
"""
from __future__ import annotations

from flask.templating import Environment

_DICT_ATTRIBUTES = frozenset(dir(dict))  # what getattr finds on a plain dict: its class's names


class TemplateEnvironment(Environment):
    def getattr(self, obj, attribute: str):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def init_app(app) -> None:
    """Before anything reads ``app.jinja_env`` (made on its first read)."""
    app.jinja_environment = TemplateEnvironment
