"""The process a photo is decoded in (web/photo_process.py): the upload on stdin, one JSON
line on stdout — the stored JPEG's and thumbnail's lengths and size, or the refusal's code
— then the JPEGs' bytes; an image whose decoding needs more than its memory bound is
refused as too big, and the process still answers."""
import io
import json
import subprocess
import sys

from PIL import Image

from tests.conftest import ROOT
from tests.events.images import gps_jpeg, hostile_webp


def _decoded_by_the_process(raw: bytes, memory: int = 1024 * 2**20) -> tuple[dict, bytes]:
    done = subprocess.run([sys.executable, "-m", "web.photo_process", str(memory), "30", "0"], cwd=ROOT,
                          input=raw, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    line, _, rest = done.stdout.partition(b"\n")
    return json.loads(line), rest


def test_a_photo_comes_back_as_its_stored_jpeg_and_thumbnail():
    said, rest = _decoded_by_the_process(gps_jpeg((400, 200)))
    assert (said["width"], said["height"]) == (200, 400) and len(rest) == said["image"] + said["thumb"]
    stored = Image.open(io.BytesIO(rest[:said["image"]]))
    assert stored.format == "JPEG" and stored.size == (200, 400)
    assert Image.open(io.BytesIO(rest[said["image"]:])).format == "JPEG"


def test_what_is_no_photo_and_what_would_need_more_memory_are_refused_with_their_code():
    assert _decoded_by_the_process(b"<svg onload=alert(1)>")[0] == {"refused": "not-an-image", "size": None}
    said, rest = _decoded_by_the_process(hostile_webp(), memory=512 * 2**20)
    assert said == {"refused": "too-big", "size": [16_383, 3_000]} and rest == b""
