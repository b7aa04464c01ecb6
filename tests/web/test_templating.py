"""The app's Jinja environment (web/templating.py): a dict's item read by ``row.seat``
without an AttributeError raised first, and every read answered as Jinja's own would."""
from __future__ import annotations

import sys
from collections import OrderedDict
from types import SimpleNamespace

from flask import Flask
from jinja2 import Environment

from web.templating import TemplateEnvironment

SOURCE = ("{{ d.seat }}|{{ d.missing is undefined }}|{{ d.items is callable }}|{{ d.get('seat') }}|"
          "{{ d['items'] }}|{{ o.seat }}|{{ sub.seat }}|{{ sub.missing is undefined }}|{{ d.keys() | list }}")
DATA = {"d": {"seat": 2, "items": "its own key"}, "o": SimpleNamespace(seat=3),
        "sub": OrderedDict(seat=4)}


def _ours() -> TemplateEnvironment:
    return TemplateEnvironment(Flask(__name__))


def test_every_read_answers_as_jinjas_own_environment():
    ours = _ours().from_string(SOURCE).render(**DATA)
    assert ours == Environment().from_string(SOURCE).render(**DATA)
    assert ours == "2|True|True|2|its own key|3|4|True|['seat', 'items']"


def test_the_app_renders_with_it(app):
    assert isinstance(app.jinja_env, TemplateEnvironment)


def _attribute_errors(render) -> int:
    raised = []

    def trace(frame, event, arg):
        if event == "exception" and arg[0] is AttributeError:
            raised.append(arg[1])
        return trace
    sys.settrace(trace)
    try:
        render()
    finally:
        sys.settrace(None)
    return len(raised)


def test_a_dicts_items_are_read_without_an_attribute_error_raised_first():
    """Jinja's own reads ``row.seat`` on a dict by getattr first: an AttributeError raised and
    caught per read, a couple of hundred per tap's answer."""
    source = "{% for row in rows %}{{ row.seat }}{{ row.name }}{% endfor %}"
    rows = [{"seat": n, "name": f"P{n}"} for n in range(5)]
    jinjas, ours = Environment().from_string(source), _ours().from_string(source)
    assert _attribute_errors(lambda: jinjas.render(rows=rows)) >= 10
    assert _attribute_errors(lambda: ours.render(rows=rows)) == 0
    assert ours.render(rows=rows) == jinjas.render(rows=rows) == "0P01P12P23P34P4"
