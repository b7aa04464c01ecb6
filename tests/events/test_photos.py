"""Photos as evidence, the pure part (events/application/photos.py, docs/photos.md): stripped of
EXIF, upright, resized, and refused when they are not a photo. The images are
tests/events/images.py's."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from events.application import photos
from tests.events.images import HTML, SVG, bomb, gps_jpeg, metadata_jpeg, png


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
