"""Photos as evidence, the pure part (events/application/photos.py, docs/photos.md): stripped of
EXIF, upright, resized, and refused when they are not a photo. The images are made
here; tests/web/test_photos.py and tests/browser/test_photos.py use them."""
from __future__ import annotations

import functools
import io
import struct
import zlib

import pytest
from PIL import Image

from events.application import photos


# ---- images made here -------------------------------------------------------------------

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


# ---- the pure part ----------------------------------------------------------------------

def test_a_jpeg_with_gps_comes_back_without_any_exif_and_upright():
    raw = gps_jpeg()
    assert Image.open(io.BytesIO(raw)).getexif().get_ifd(0x8825)  # the upload does carry GPS
    prepared = photos.prepare(raw)
    stored = Image.open(io.BytesIO(prepared.image.data))
    assert stored.format == "JPEG" and (prepared.width, prepared.height) == stored.size == (200, 400)
    assert not stored.getexif() and "exif" not in stored.info and "icc_profile" not in stored.info
    assert b"Exif" not in prepared.image.data and b"PhoneMaker" not in prepared.image.data
    rgb = stored.convert("RGB")
    top, bottom = rgb.getpixel((100, 50)), rgb.getpixel((100, 350))
    assert top[0] > 180 and top[2] < 80       # the left (red) half turned to the top: upright
    assert bottom[2] > 180 and bottom[0] < 80
    thumb = Image.open(io.BytesIO(prepared.thumb.data))
    assert max(thumb.size) <= photos.THUMB_SIDE and not thumb.getexif()
    assert prepared.image.sha256 == photos.digest(prepared.image.data)


def test_a_jpeg_comes_back_without_its_xmp_comment_or_icc_profile():
    raw = metadata_jpeg()
    assert b"GPSLatitude" in raw and b"secret comment" in raw and b"ICC_PROFILE" in raw
    prepared = photos.prepare(raw)
    for data in (prepared.image.data, prepared.thumb.data):
        assert b"GPSLatitude" not in data and b"secret comment" not in data and b"ICC_PROFILE" not in data
        assert not Image.open(io.BytesIO(data)).info.get("comment")


def test_a_large_photo_is_resized_to_the_documented_maximum_and_png_transparency_goes_white():
    big = io.BytesIO()
    Image.new("RGB", (4032, 3024), (90, 90, 90)).save(big, "JPEG")
    prepared = photos.prepare(big.getvalue())
    assert max(prepared.width, prepared.height) == photos.MAX_SIDE
    flat = photos.prepare(png())
    assert Image.open(io.BytesIO(flat.image.data)).mode == "RGB"


@pytest.mark.parametrize("name, raw, words", [
    ("bomb", bomb(), "too large"),
    ("huge bomb", bomb(20_000, 12_000), "too large"),
    ("truncated", gps_jpeg((1200, 900))[:4000], "cut short"),
    ("truncated png", png((800, 600), "RGB")[:300], "cut short"),
    ("svg", SVG, "not a JPEG, PNG or WebP"),
    ("html as jpg", HTML, "not a JPEG, PNG or WebP"),
    ("polyglot", gps_jpeg() + b"<script>alert(1)</script>", "script code"),
    ("markup in a jpeg comment", None, "script code"),
    ("markup in a png text chunk", None, "script code"),
    ("heic", b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + b"\0" * 200, "HEIC"),
    ("empty", b"", "Choose a photo"),
    ("gif", b"GIF89a" + b"\0" * 100, "not a JPEG, PNG or WebP"),
])
def test_what_is_not_a_photo_is_refused_with_its_reason(name, raw, words):
    raw = raw if raw is not None else _with_markup(name)
    with pytest.raises(photos.PhotoRefused) as refused:
        photos.prepare(raw)
    assert words in refused.value.problem.en and refused.value.problem.hu


def _with_markup(name: str) -> bytes:
    from PIL import PngImagePlugin
    out = io.BytesIO()
    if "png" in name:
        info = PngImagePlugin.PngInfo()
        info.add_text("Comment", "<script>alert(1)</script>")
        Image.new("RGB", (40, 30)).save(out, "PNG", pnginfo=info)
    else:
        Image.new("RGB", (40, 30)).save(out, "JPEG", comment=b"<svg onload=alert(1)>")
    return out.getvalue()


def test_markup_letters_inside_the_compressed_pixels_are_no_polyglot():
    """Any five bytes occur in compressed pixels by chance: the benchmark's 3 MB phone JPEG
    once carried "<hTmL" there and was refused. Only where markup can hide is searched."""
    raw = bytearray(gps_jpeg((1200, 900)))
    scan = raw.index(b"\xff\xda")
    raw[scan + 300:scan + 305] = b"<hTmL"
    assert not photos.carries_markup(bytes(raw))
    assert photos.carries_markup(bytes(raw[:scan]) + b"\xff\xfe\x00\x09<script" + bytes(raw[scan:]))
