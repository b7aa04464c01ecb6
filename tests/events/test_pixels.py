"""The pixel work (events/application/pixels.py): an upload's size read from its header
alone and refused past the pixel budget before any decode (a WebP's canvas from its first
chunk); a decode that would need more memory than the process may take refused as too
big; what is stored a JPEG and a thumbnail within their sides; each refusal a code."""
import io
import struct

import pytest
from PIL import Image

from events.application import pixels
from tests.events.images import bomb, gps_jpeg, hostile_webp


def _webp(kind: bytes, chunk: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + 8 + len(chunk)) + b"WEBP" + kind + struct.pack("<I", len(chunk)) + chunk


def test_the_size_is_read_from_the_header_without_decoding(monkeypatch):
    monkeypatch.setattr(pixels, "_decoded", lambda raw: pytest.fail("decoded"))
    assert pixels.check(gps_jpeg((400, 200))) == (400, 200)
    with pytest.raises(pixels.Refused) as refused:
        pixels.check(bomb())
    assert refused.value.code == pixels.TOO_BIG and refused.value.size == (10_000, 6_000)


def test_a_webps_canvas_is_read_from_its_first_chunk():
    vp8x = bytes(4) + (1999).to_bytes(3, "little") + (2999).to_bytes(3, "little")
    assert pixels.check(_webp(b"VP8X", vp8x)) == (2000, 3000)
    assert pixels.check(hostile_webp()) == (16_383, 3_000)  # 49 MP in 2 kB: within the pixel budget…
    with pytest.raises(pixels.Refused) as refused:
        pixels.prepare(hostile_webp(), memory=512 * 2**20)  # …but not within a decoding process's memory
    assert refused.value.code == pixels.TOO_BIG
    with pytest.raises(pixels.Refused) as refused:
        pixels.check(_webp(b"VP8X", b"\0\0"))
    assert refused.value.code == pixels.BROKEN


@pytest.mark.parametrize("raw, code", [(b"", pixels.EMPTY), (b"GIF89a" + bytes(100), pixels.NOT_AN_IMAGE),
                                       (b"\0\0\0\x18ftypheic" + bytes(200), pixels.HEIC)])
def test_each_refusal_is_a_code(raw, code):
    with pytest.raises(pixels.Refused) as refused:
        pixels.check(raw)
    assert refused.value.code == code


def test_a_decode_past_the_processs_memory_is_refused_before_it_starts():
    raw = gps_jpeg((1200, 900))
    need = pixels.memory_needed(raw, (1200, 900))
    with pytest.raises(pixels.Refused) as refused:
        pixels.prepare(raw, memory=need - 1)
    assert refused.value.code == pixels.TOO_BIG
    assert pixels.prepare(raw, memory=need).width == 900  # turned upright (EXIF orientation 6)


def test_what_is_stored_is_a_jpeg_and_a_thumbnail_within_their_sides():
    out = io.BytesIO()
    Image.new("RGB", (4032, 3024), (10, 200, 10)).save(out, "PNG")
    done = pixels.prepare(out.getvalue())
    stored, thumb = Image.open(io.BytesIO(done.image)), Image.open(io.BytesIO(done.thumb))
    assert stored.format == thumb.format == "JPEG"
    assert (done.width, done.height) == stored.size and max(stored.size) == pixels.MAX_SIDE
    assert max(thumb.size) == pixels.THUMB_SIDE
