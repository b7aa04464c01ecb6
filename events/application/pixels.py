"""The pixel work of a photo (events/application/photos.py, docs/photos.md): an upload's first bytes
and header checked, then decoded, turned upright, stripped and re-encoded as the JPEG and
thumbnail this app stores. It imports Pillow and nothing of the app but the limits (events/domain/photo_limits.py), so the process a
server decodes each photo in (web/photo_process.py) starts in a tenth of a second.

``check`` reads only the header (Pillow's ``Image.open`` is lazy: it decodes no pixel),
so an upload past the pixel budget is refused before any decode; ``prepare`` decodes.
A refusal is ``Refused(code)``; events/application/photos.py says it in every language."""
from __future__ import annotations

import io
import struct
import warnings
from dataclasses import dataclass

from PIL import Image, ImageFile, ImageOps

from events.domain.photo_limits import (ACCEPTED, MAX_INPUT_PIXELS, MAX_INPUT_SIDE, MAX_SIDE, MAX_UPLOAD_BYTES,  # noqa: F401
                                         QUALITY, THUMB_QUALITY, THUMB_SIDE)

ImageFile.LOAD_TRUNCATED_IMAGES = False  # Pillow's default, relied on: a cut-short file is refused
# Pillow warns of images past 89 megapixels; ``check`` refuses past MAX_INPUT_PIXELS itself.
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)

# Markup a browser could run if the bytes were ever taken for a page: a file that is an
# image *and* carries one of these where markup can hide (below) is a polyglot.
_MARKUP = (b"<script", b"<html", b"<svg", b"<!doctype", b"<iframe", b"<body", b"<?php", b"javascript:")
SNIFFED = 1024  # what a browser reads to guess a type: the file's start, and a trailer's

# Why an upload is refused (``Refused.code``)
EMPTY, TOO_LARGE, HEIC, NOT_AN_IMAGE, POLYGLOT, BROKEN, TOO_BIG = (
    "empty", "too-large", "heic", "not-an-image", "polyglot", "broken", "too-big")


class Refused(ValueError):
    """The upload is refused: ``code`` says why; ``size`` the header's (width, height) when
    the image is too big."""

    def __init__(self, code: str, size: tuple[int, int] | None = None):
        super().__init__(code)
        self.code, self.size = code, size


@dataclass(frozen=True)
class Pixels:
    """A photo as it is stored: the re-encoded JPEG, its thumbnail, the JPEG's size."""
    image: bytes
    thumb: bytes
    width: int
    height: int


def check(raw: bytes) -> tuple[int, int]:
    """The upload's (width, height) from its header, or ``Refused``: its bytes, its kind,
    the markup it may carry and its pixels against the budget, before any decode (a WebP's
    header is read here: Pillow opens a WebP with a decoder that takes its whole canvas)."""
    if not raw:
        raise Refused(EMPTY)
    if len(raw) > MAX_UPLOAD_BYTES:
        raise Refused(TOO_LARGE)
    _refuse_by_content(raw)
    if raw[:4] == b"RIFF":
        return _within_budget(*_webp_size(raw))
    with _opened(raw) as image:
        return image.size


def memory_needed(raw: bytes, size: tuple[int, int]) -> int:
    """Bytes the decoding of an image of ``size`` takes at its peak, about: a JPEG is decoded
    at the scale kept (a 50 MP one in ~0.1 GB), a PNG or WebP whole (a 49 MP lossless WebP
    peaked at 0.78 GB: its decoder's two canvases, Pillow's copy, the reductions)."""
    width, height = size
    if raw.startswith(b"\xff\xd8"):
        return 64 * 2**20 + 2 * width * height
    return 64 * 2**20 + 16 * width * height


def _webp_size(raw: bytes) -> tuple[int, int]:
    """A WebP's canvas from its first chunk (VP8X, VP8L or VP8), as libwebp reads it."""
    kind, chunk = raw[12:16], raw[20:30]
    if len(chunk) < 10:
        raise Refused(BROKEN)
    if kind == b"VP8X":
        return 1 + int.from_bytes(chunk[4:7], "little"), 1 + int.from_bytes(chunk[7:10], "little")
    if kind == b"VP8L" and chunk[0] == 0x2F:
        bits = int.from_bytes(chunk[1:5], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if kind == b"VP8 " and chunk[3:6] == b"\x9d\x01\x2a":
        return int.from_bytes(chunk[6:8], "little") & 0x3FFF, int.from_bytes(chunk[8:10], "little") & 0x3FFF
    raise Refused(BROKEN)


def _within_budget(width: int, height: int) -> tuple[int, int]:
    if width * height > MAX_INPUT_PIXELS or max(width, height) > MAX_INPUT_SIDE:
        raise Refused(TOO_BIG, (width, height))
    return width, height


def prepare(raw: bytes, memory: int | None = None) -> Pixels:
    """The upload as it will be stored, or ``Refused``. Pure: nothing is stored. With
    ``memory`` (the bytes this process may take), an image whose decoding would need more is
    refused as too big before it is decoded."""
    size = check(raw)
    if memory is not None and memory_needed(raw, size) > memory:
        raise Refused(TOO_BIG, size)
    try:
        image = _decoded(raw)
        if image.mode == "P":  # a palette resizes badly; its EXIF stays in ``info``
            image = image.convert("RGBA")
        image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)  # in a square: before turning
        image = _upright_rgb(image)  # turning and converting the smaller image costs less
        thumb = image.copy()
        thumb.thumbnail((THUMB_SIDE, THUMB_SIDE), Image.Resampling.LANCZOS)
        return Pixels(_jpeg(image, QUALITY), _jpeg(thumb, THUMB_QUALITY), *image.size)
    except MemoryError:  # past the memory the decoding process may take (web/photo_process.py)
        raise Refused(TOO_BIG, size) from None


def _refuse_by_content(raw: bytes) -> None:
    """What the first bytes and the places markup can hide say, before a decoder sees
    the file."""
    if raw[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftyphevc", b"ftypmsf1"):
        raise Refused(HEIC)
    if not (raw.startswith((b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n")) or (raw[:4] == b"RIFF" and raw[8:12] == b"WEBP")):
        raise Refused(NOT_AN_IMAGE)  # SVG, HTML, PDF… whatever its name says
    if carries_markup(raw):
        raise Refused(POLYGLOT)


def carries_markup(raw: bytes) -> bool:
    """Whether markup hides where it can in an image file: its first bytes, its metadata
    (JPEG segments before the first scan, PNG chunks other than the pixels, WebP chunks
    other than the picture) or the first bytes of whatever follows the image. The
    compressed pixels are not searched: any five bytes occur in them by chance (a 3 MB
    phone JPEG carried "<hTmL" in the benchmark), and they never survive re-encoding."""
    places = [raw[:SNIFFED], *_metadata_and_trailer(raw)]
    return any(marker in place.lower() for place in places for marker in _MARKUP)


def _metadata_and_trailer(raw: bytes) -> list[bytes]:
    if raw.startswith(b"\xff\xd8"):
        return _jpeg_parts(raw)
    if raw.startswith(b"\x89PNG"):
        return _chunk_parts(raw, 8, lambda at: (raw[at + 4:at + 8], int.from_bytes(raw[at:at + 4], "big"), 8, 4),
                            skip={b"IDAT"}, last=b"IEND")
    return _chunk_parts(raw, 12, lambda at: (raw[at:at + 4], int.from_bytes(raw[at + 4:at + 8], "little"), 8, 0),
                        skip={b"VP8 ", b"VP8L", b"ALPH", b"ANMF"}, last=None,
                        end=8 + int.from_bytes(raw[4:8], "little"))


def _jpeg_parts(raw: bytes) -> list[bytes]:
    """The segments before the first scan (APPn: EXIF, XMP; COM), and the trailer after
    the last end-of-image marker."""
    at = 2
    while at + 4 <= len(raw) and raw[at] == 0xFF:
        marker = raw[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker == 0xDA:  # start of scan: compressed pixels from here
            break
        at += 2 + int.from_bytes(raw[at + 2:at + 4], "big")
    end = raw.rfind(b"\xff\xd9")
    return [raw[:at], raw[end + 2:end + 2 + SNIFFED] if end >= 0 else b""]


def _chunk_parts(raw: bytes, at: int, header, skip: set, last, end: int | None = None) -> list[bytes]:
    """A chunked file's (PNG, RIFF) chunks other than ``skip``, and its trailer's start."""
    parts, end = [], len(raw) if end is None else min(end, len(raw))
    while at + 8 <= end:
        kind, size, head, tail = header(at)
        if kind not in skip:
            parts.append(raw[at + head:at + head + size])
        at += head + size + tail + (size % 2 if not tail else 0)
        if kind == last:
            break
    parts.append(raw[at:at + SNIFFED])
    return parts


_MALFORMED = (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError, KeyError,
              MemoryError, struct.error)  # Pillow's ways of saying "cut short" or "malformed"


def _opened(raw: bytes) -> Image.Image:
    """The image opened from ``raw``: its header read, its size within the budget, no
    pixel decoded yet."""
    try:
        image = Image.open(io.BytesIO(raw), formats=ACCEPTED)
    except Image.UnidentifiedImageError:
        raise Refused(NOT_AN_IMAGE) from None
    except Image.DecompressionBombError:  # past twice Pillow's own limit, before its size is read
        raise Refused(TOO_BIG) from None
    except _MALFORMED as err:
        raise Refused(BROKEN) from err
    try:
        _within_budget(*image.size)
    except Refused:
        image.close()
        raise
    return image


def _decoded(raw: bytes) -> Image.Image:
    """The image decoded from ``raw`` (checked for size from its header first)."""
    image = _opened(raw)
    try:
        if image.format in ("JPEG", "MPO"):  # decode at the scale kept (DCT scaling): 2–4× faster
            width, height = image.size
            longer = max(width, height)
            image.draft("RGB", (max(1, MAX_SIDE * width // longer), max(1, MAX_SIDE * height // longer)))
        image.load()
        return image
    except MemoryError:
        raise
    except _MALFORMED as err:
        raise Refused(BROKEN) from err


def _upright_rgb(image: Image.Image) -> Image.Image:
    """The orientation EXIF asks for applied to the pixels; transparency on white; RGB.
    Only the first frame of an animation is kept."""
    try:
        upright = ImageOps.exif_transpose(image)
    except Exception:  # a malformed EXIF block: the pixels as stored are still the photo
        upright = image
    if upright.mode in ("RGBA", "LA", "PA") or (upright.mode == "P" and "transparency" in upright.info):
        rgba = upright.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return upright.convert("RGB")


def _jpeg(image: Image.Image, quality: int) -> bytes:
    """A baseline JPEG with no metadata at all: no EXIF, no ICC profile, no comment (Pillow
    writes the source's comment again unless its ``info`` is emptied)."""
    image.info = {}
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality, optimize=False, progressive=False)
    return out.getvalue()
