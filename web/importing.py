"""Large imports read, checked and written in a process of their own (docs/decisions.md, "Short writes").

A gunicorn worker serves many tables on one hub, and its greenlets share one GIL. Checking
the largest game file on it (Han at 10,000 events: every event re-checked and folded, 6 s of
CPU on a quiet machine) left that worker's other tables the leftovers of its CPU, however
often the check yielded, and parsing the file took 0.25-0.45 s in one piece. So a file of
``IMPORT_IN_A_PROCESS_FROM`` bytes or more goes, as it was uploaded, to a child process
(``python -m web.import_process``) that parses, checks and writes it with the very functions the
worker would run (``JOBS``); the worker only waits for the child's answer (under gevent a
cooperative wait: its other connections run meanwhile) and renders it. The operating system
shares the CPU between the child and the workers, as between any two processes.

Nothing is given up: the child runs the same checks and writes in the same transactions.
It shares nothing with the worker but the database, so what it writes reaches the worker's
caches as any other process's writes do (each cache checks the store's last event). A
smaller file costs less to check than a process costs to start (~0.5 s of CPU): it is
checked on the worker, by the same function.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from importlib import import_module

from flask import current_app

from scoring.base import Problem
from web.db import caches, get_db

# What each kind of upload runs, "module:function"; called as function(db, raw, options,
# rosters, aside=...) and answering a JSON-able dict: the import page renders it.
JOBS = {"game": "web.audit:import_file", "bgstats": "web.bgstats:import_file"}
IMPORT_IN_A_PROCESS_FROM = 256 * 2**10  # bytes (~300 Han events, ~0.2 s to check on the worker)
TIMEOUT = 600  # s: a 10,000-play BG Stats file takes ~60 s on this machine at load 8
# Import processes a server worker runs at once: each is a Python of its own (~60 MB, a core
# while it checks), so a phone posting large files in a loop must not start one per upload.
IMPORTS_AT_ONCE = 2
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class TooManyImports(RuntimeError):
    """Every import process of this worker is busy: nothing was read; 503, try again later."""


class ImportFailed(RuntimeError):
    """The child process ended without an answer (a bug or a crash: a 500, logged)."""


def run(name: str, upload, options: dict) -> dict:
    """The answer of ``JOBS[name]`` for the uploaded file ``upload`` (werkzeug's FileStorage),
    in a process of its own when the file is large. A large file is read only once it has
    its slot: until then it stays where werkzeug put it (a temporary file), so a loop of
    large uploads holds at most ``IMPORTS_AT_ONCE`` of them in a worker's memory. A database
    too busy to take the write lock in time raises SQLite's "database is locked", as a
    move's append does (app.py answers 503 + Retry-After)."""
    if _size(upload.stream) < current_app.config.get("IMPORT_IN_A_PROCESS_FROM", IMPORT_IN_A_PROCESS_FROM):
        return job(name)(get_db(), upload.read(), options, caches().roster)
    slots = _import_slots()
    if not slots.acquire(blocking=False):
        raise TooManyImports
    try:
        return _in_a_process(current_app.config["DATABASE"], name, upload.read(), options)
    finally:
        slots.release()


def _size(stream) -> int:
    """The bytes left in an upload's stream, without reading them."""
    here = stream.tell()
    end = stream.seek(0, os.SEEK_END)
    stream.seek(here)
    return end - here


_slots_lock = threading.Lock()


def _import_slots() -> threading.BoundedSemaphore:
    """The app's ``IMPORTS_AT_ONCE`` slots for import processes (a worker's own)."""
    with _slots_lock:
        return current_app.extensions.setdefault(
            "import_slots", threading.BoundedSemaphore(current_app.config.get("IMPORTS_AT_ONCE", IMPORTS_AT_ONCE)))


def problems_of(answer: dict) -> list[Problem]:
    """The problems of a job's answer (``as_dict`` each), as the templates take them."""
    return [Problem(p["rule"], {k: v for k, v in p.items() if k != "rule"}) for p in answer.get("problems", ())]


def job(name: str):
    """The function ``JOBS`` names for ``name``."""
    module, _, function = JOBS[name].partition(":")
    return getattr(import_module(module), function)


def _in_a_process(database: str, name: str, raw: bytes, options: dict) -> dict:
    """``web/import_process.py`` run on ``raw``: the request line, then the bytes."""
    request = json.dumps({"database": database, "job": name, "options": options}).encode()
    child = subprocess.run([sys.executable, "-m", "web.import_process"], input=request + b"\n" + raw,
                           capture_output=True, timeout=TIMEOUT, cwd=ROOT, check=False)
    if child.returncode != 0 or not child.stdout:
        raise ImportFailed(f"the import process ended with {child.returncode}: "
                           f"{child.stderr.decode(errors='replace')[-2000:]}")
    answer = json.loads(child.stdout)
    if "busy" in answer:
        raise sqlite3.OperationalError(answer["busy"])
    return answer
