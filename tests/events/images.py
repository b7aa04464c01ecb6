"""Images made for the photo tests (tests/events/test_photos.py, tests/web/test_photos.py,
tests/browser/test_photos.py…): a phone's JPEG with GPS, a PNG, a decompression bomb, a
WebP no decoder should trust, a JPEG full of metadata, and markup that is no image."""
from __future__ import annotations

import functools
import io
import struct
import zlib

from PIL import Image


def gps_jpeg(size=(400, 200), orientation=6) -> bytes:
    """A landscape JPEG, left half red, right half blue, whose EXIF asks for a quarter turn
    clockwise (orientation 6, as a phone held upright writes it) and carries GPS."""
    image = Image.new("RGB", size, (220, 20, 20))
    image.paste((20, 20, 220), (size[0] // 2, 0, size[0], size[1]))
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "PhoneMaker"  # Make
    gps = exif.get_ifd(0x8825)
    gps.update({1: "N", 2: (47.0, 29.0, 53.0), 3: "E", 4: (19.0, 2.0, 26.0)})
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90, exif=exif)
    return out.getvalue()


def png(size=(300, 200), mode="RGBA") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (10, 120, 30, 128) if mode == "RGBA" else 0).save(out, "PNG")
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bomb(width=10_000, height=6_000) -> bytes:
    """A real decompression bomb: a grey PNG of 60 megapixels in a few kilobytes."""
    row = b"\0" + b"\0" * width
    idat = zlib.compress(row * height, 9)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + _chunk(b"IDAT", idat) + _chunk(b"IEND", b""))


@functools.cache
def hostile_webp() -> bytes:
    """Issue 35's upload: a lossless WebP of 16,383 × 3,000 pixels (49 MP, under the budget's
    50 MP and 16,384 a side) in about 2 kB; decoded whole it takes ~0.8 GB and seconds of CPU."""
    out = io.BytesIO()
    Image.new("RGB", (16_383, 3_000), (40, 90, 30)).save(out, "WEBP", lossless=True)
    return out.getvalue()


def metadata_jpeg(size=(200, 400)) -> bytes:
    """A JPEG carrying metadata other than EXIF: XMP with GPS, a comment and an ICC profile."""
    out = io.BytesIO()
    icc = b"\0" * 128 + b"acsp" + b"\0" * 200
    Image.new("RGB", size, (200, 30, 30)).save(out, "JPEG", quality=90, icc_profile=icc, comment=b"secret comment",
                                                xmp=b'<x:xmpmeta><exif:GPSLatitude>47,29.9N</exif:GPSLatitude></x:xmpmeta>')
    return out.getvalue()


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'
HTML = b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"
