"""Photos decoded where their memory cannot stay in a server worker (docs/decisions.md).

A 2 KB lossless WebP can name 16,383 × 3,000 pixels: decoded whole it took a worker 7 s of
CPU and a gigabyte it never gave back, and eight at once starved every table of that worker.
So the pixel budget is checked from the header first (events/application/pixels.py:check, no pixel
decoded), and the decoding runs in a process of its own (``python -m web.photo_process``)
with a memory limit, a CPU-time limit and a lower priority; the worker only waits for its
answer (under gevent a cooperative wait: its tables run meanwhile). Each worker runs at most
``PHOTOS_AT_ONCE`` of them; another upload meanwhile is answered 503 with Retry-After before
anything is decoded. An image that needs more than the limit is refused as too large.
The very same path prepares the photos an imported game carries (events/application/export.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

from events.application import photos
from events.application.photos import PhotoRefused, Prepared
from events.application.pixels import Pixels

PHOTOS_AT_ONCE = 2               # decoding processes a server worker runs at once
MEMORY = 1536 * 2**20            # a decoding process's address space: a 49 MP lossless WebP peaks at ~0.8 GB
CPU_SECONDS = 30                 # a decoding process's CPU time (a 49 MP WebP: 3-7 s)
TIMEOUT = 120                    # s of waiting for its answer on a loaded machine
NICER_BY = 19                    # its nice value above the worker's (the most there is): the tables get the CPU first
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class TooManyPhotos(RuntimeError):
    """Every decoding slot of this worker is busy: nothing was decoded; 503, try again soon."""


class Slots:
    """A worker's slots for decoding processes; the app keeps one (web/db.py:Caches)."""

    def __init__(self, at_once: int = PHOTOS_AT_ONCE) -> None:
        self._free = threading.BoundedSemaphore(at_once)

    def __enter__(self) -> "Slots":
        if not self._free.acquire(blocking=False):
            raise TooManyPhotos
        return self

    def __exit__(self, *exc) -> None:
        self._free.release()


def prepare(raw: bytes, slots: Slots | None = None, memory: int = MEMORY) -> Prepared:
    """The upload as it will be stored, or ``PhotoRefused``: its header checked here, its
    pixels decoded in a bounded process of its own (in one of ``slots``: ``TooManyPhotos``
    when none is free)."""
    photos.check(raw)
    if slots is None:
        return Prepared.of(_in_a_process(raw, memory))
    with slots:
        return Prepared.of(_in_a_process(raw, memory))


def _in_a_process(raw: bytes, memory: int) -> Pixels:
    command = [sys.executable, "-m", "web.photo_process", str(memory), str(CPU_SECONDS), str(NICER_BY)]
    try:
        child = subprocess.run(command, input=raw, capture_output=True, timeout=TIMEOUT, cwd=ROOT, check=False)
    except subprocess.TimeoutExpired:  # run() killed it
        raise PhotoRefused(photos.too_big()) from None
    head, _, rest = child.stdout.partition(b"\n")
    if child.returncode != 0 or not head:  # killed past its CPU time, or out of memory outside Python
        raise PhotoRefused(photos.too_big())
    answer = json.loads(head)
    if "refused" in answer:
        raise PhotoRefused(photos.problem_of(answer["refused"], answer["size"]))
    cut = answer["image"]
    return Pixels(rest[:cut], rest[cut:cut + answer["thumb"]], answer["width"], answer["height"])
