"""Photos as evidence (docs/photos.md): an uploaded picture is checked, stripped of
every EXIF field (GPS included), turned upright, re-encoded as a JPEG of at most
``MAX_SIDE`` pixels a side with a thumbnail, and stored content-addressed by its
SHA-256 in the ``photo_blobs`` table, in the same transaction as the
``photo-attached`` event naming both digests: the hash chain covers the image
through its digest, and ``verify-db`` checks every stored image against it.

Only what Pillow decodes as JPEG, PNG or WebP goes in. Anything else (SVG, HTML
renamed .jpg, HEIC, a file carrying markup a browser could run), a file cut short,
and dimensions past ``MAX_INPUT_PIXELS`` (a decompression bomb names millions of
pixels in a few bytes) are refused with a reason in both languages before a byte is
stored. What is served is always our own re-encoded JPEG, never the upload."""
from __future__ import annotations

import hashlib
import io
import struct
import warnings
from dataclasses import dataclass

from PIL import Image, ImageFile, ImageOps

from scoring.base import Problem, Text
from scoring.i18n import msg

MAX_UPLOAD_BYTES = 20 * 2**20     # one photo as the phone sends it (a 12 MP JPEG is 3–6 MB)
MAX_INPUT_PIXELS = 50_000_000     # 50 megapixels: a phone's largest mode; a bomb names far more
MAX_INPUT_SIDE = 16_384
MAX_SIDE = 2000                   # the stored photo's longer side (about 0.3–0.8 MB as JPEG); a
                                  # 12 MP phone photo (4032 × 3024) decodes at half scale for it
THUMB_SIDE = 320                  # the thumbnail's longer side (about 15–30 kB)
QUALITY, THUMB_QUALITY = 85, 75
MAX_PHOTOS = 40                   # photos per game, voided ones included (their bytes stay)
MAX_CAPTION = 200
MEDIA_TYPE = "image/jpeg"         # what is stored and served, whatever came in
ACCEPTED = ("JPEG", "PNG", "WEBP")  # Pillow's names; MPO (a phone's multi-picture JPEG) is a JPEG
SHA256 = r"^[0-9a-f]{64}$"

ImageFile.LOAD_TRUNCATED_IMAGES = False  # Pillow's default, relied on: a cut-short file is refused
# Pillow warns of images past 89 megapixels; this module refuses past MAX_INPUT_PIXELS itself.
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)

# Markup a browser could run if the bytes were ever taken for a page: a file that is an
# image *and* carries one of these where markup can hide (below) is a polyglot.
_MARKUP = (b"<script", b"<html", b"<svg", b"<!doctype", b"<iframe", b"<body", b"<?php", b"javascript:")
SNIFFED = 1024  # what a browser reads to guess a type: the file's start, and a trailer's


def _problem(message: Text) -> Problem:
    return Problem("core §9", message)


TOO_LARGE = _problem(msg("A photo may be at most %(value)s MB.", value=MAX_UPLOAD_BYTES // 2 ** 20))
EMPTY = _problem(msg("Choose a photo."))
NOT_AN_IMAGE = _problem(msg("This file is not a JPEG, PNG or WebP image; only those can be attached."))
HEIC = _problem(msg("HEIC images cannot be read here. An iPhone sends a browser JPEG; if HEIC came anyway, choose Settings › Camera › Formats › Most Compatible."))
POLYGLOT = _problem(msg("The file looks like an image but also carries web page or script code; it is not attached."))
BROKEN = _problem(msg("The image is damaged or cut short (it did not arrive whole); take or choose it again."))


def too_big(width: int | None = None, height: int | None = None) -> Problem:
    size = msg(": %(width)s × %(height)s pixels", width=width, height=height) if width else ""
    return _problem(msg("The image is too large%(size)s; at most %(megapixels)s megapixels and %(side)s pixels a side can be attached.",
                        size=size, megapixels=MAX_INPUT_PIXELS // 10**6, side=MAX_INPUT_SIDE))


class PhotoRefused(ValueError):
    """The upload is refused; ``problem`` says why in both languages."""

    def __init__(self, problem: Problem):
        super().__init__(problem.en)
        self.problem = problem


@dataclass(frozen=True)
class Blob:
    """Stored bytes and their address."""
    sha256: str
    data: bytes

    @classmethod
    def of(cls, data: bytes) -> "Blob":
        return cls(digest(data), data)


@dataclass(frozen=True)
class Prepared:
    """A photo ready to store: the re-encoded image, its thumbnail, and the facts the
    ``photo-attached`` event records about them."""
    image: Blob
    thumb: Blob
    width: int
    height: int

    def facts(self) -> dict:
        return {"sha256": self.image.sha256, "thumb_sha256": self.thumb.sha256, "media_type": MEDIA_TYPE,
                "bytes": len(self.image.data), "width": self.width, "height": self.height}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def prepare(raw: bytes) -> Prepared:
    """The upload as it will be stored, or ``PhotoRefused``. Pure: nothing is stored."""
    if not raw:
        raise PhotoRefused(EMPTY)
    if len(raw) > MAX_UPLOAD_BYTES:
        raise PhotoRefused(TOO_LARGE)
    _refuse_by_content(raw)
    image = _decoded(raw)
    if image.mode == "P":  # a palette resizes badly; its EXIF stays in ``info``
        image = image.convert("RGBA")
    image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)  # in a square: before turning
    image = _upright_rgb(image)  # turning and converting the smaller image costs less
    thumb = image.copy()
    thumb.thumbnail((THUMB_SIDE, THUMB_SIDE), Image.Resampling.LANCZOS)
    return Prepared(Blob.of(_jpeg(image, QUALITY)), Blob.of(_jpeg(thumb, THUMB_QUALITY)), *image.size)


def _refuse_by_content(raw: bytes) -> None:
    """What the first bytes and the places markup can hide say, before a decoder sees
    the file."""
    if raw[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftyphevc", b"ftypmsf1"):
        raise PhotoRefused(HEIC)
    if not (raw.startswith((b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n")) or (raw[:4] == b"RIFF" and raw[8:12] == b"WEBP")):
        raise PhotoRefused(NOT_AN_IMAGE)  # SVG, HTML, PDF… whatever its name says
    if carries_markup(raw):
        raise PhotoRefused(POLYGLOT)


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


def _decoded(raw: bytes) -> Image.Image:
    """The image decoded from ``raw`` (checked for size from its header first)."""
    try:
        image = Image.open(io.BytesIO(raw), formats=ACCEPTED)
        width, height = image.size
        if width * height > MAX_INPUT_PIXELS or max(width, height) > MAX_INPUT_SIDE:
            raise PhotoRefused(too_big(width, height))
        if image.format in ("JPEG", "MPO"):  # decode at the scale kept (DCT scaling): 2–4× faster
            longer = max(width, height)
            image.draft("RGB", (max(1, MAX_SIDE * width // longer), max(1, MAX_SIDE * height // longer)))
        image.load()
        return image
    except PhotoRefused:
        raise
    except Image.UnidentifiedImageError:
        raise PhotoRefused(NOT_AN_IMAGE) from None
    except Image.DecompressionBombError:  # past twice Pillow's own limit, before its size is read
        raise PhotoRefused(too_big()) from None
    except (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError, KeyError,
            MemoryError, struct.error) as err:  # Pillow's ways of saying "cut short" or "malformed"
        raise PhotoRefused(BROKEN) from err


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
    """A baseline JPEG with no metadata at all: no EXIF, no ICC profile, no comment."""
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality, optimize=False, progressive=False)
    return out.getvalue()


def is_stored_jpeg(data: bytes, width: int | None = None, height: int | None = None) -> bool:
    """Whether ``data`` is a JPEG as this module stores them (an imported file's photos
    must be; a file could otherwise smuggle any bytes under a matching digest)."""
    if len(data) > MAX_UPLOAD_BYTES or not data.startswith(b"\xff\xd8\xff") or carries_markup(data):
        return False
    try:
        with Image.open(io.BytesIO(data), formats=("JPEG",)) as image:
            size = image.size
            if image.format != "JPEG" or max(size) > MAX_SIDE or image.getexif():
                return False
            image.load()
    except Exception:
        return False
    return width is None or size == (width, height)


# ---- storage: content-addressed, insert-only ------------------------------------------

def store_blobs(db, blobs) -> None:
    """Inside the caller's write transaction: each blob once (its digest is its key)."""
    for blob in blobs:
        db.execute("INSERT OR IGNORE INTO photo_blobs (sha256, media_type, size, data) VALUES (?,?,?,?)",
                   [blob.sha256, MEDIA_TYPE, len(blob.data), blob.data])


def read_blob(db, sha256: str) -> bytes | None:
    row = db.execute("SELECT data FROM photo_blobs WHERE sha256 = ?", [sha256]).fetchone()
    return bytes(row[0]) if row else None


def attached(events) -> list:
    """The ``photo-attached`` events among ``events``."""
    return [e for e in events if e.type == "photo-attached"]


def digests_of(event) -> tuple[str, str]:
    return event.data["sha256"], event.data["thumb_sha256"]


def first_bad_photo(db, events) -> tuple[int, str] | None:
    """(seq, why) of the first photo event among ``events`` whose stored image or
    thumbnail is missing or does not match its digest, else None."""
    for event in attached(events):
        for sha in digests_of(event):
            data = read_blob(db, sha)
            if data is None:
                return event.seq, f"the photo's image {sha[:12]}… is missing from the store"
            if digest(data) != sha:
                return event.seq, f"the photo's stored image {sha[:12]}… does not match its digest"
    return None


def bad_blobs(db) -> list[str]:
    """Every stored image, referenced or not, whose bytes do not match its address."""
    bad = []
    for sha, data in db.execute("SELECT sha256, data FROM photo_blobs ORDER BY sha256").fetchall():
        if digest(bytes(data)) != sha:
            bad.append(sha)
    return bad


# ---- in an export (docs/export-format.md, format version 2) -----------------------------

def export_blobs(db, events) -> dict[str, str]:
    """Every image and thumbnail the photo events name, base64, by digest."""
    import base64
    found = {}
    for event in attached(events):
        for sha in digests_of(event):
            data = read_blob(db, sha)
            if data is not None:
                found[sha] = base64.b64encode(data).decode("ascii")
    return found


class BadPhotos(ValueError):
    """A file's photos do not fit its events: the first that does not (``seq``) and why
    (``text``, a {lang: text} mapping)."""

    def __init__(self, seq: int, message: Text):
        super().__init__(message["en"])
        self.seq, self.text = seq, message
        self.en, self.hu = message["en"], message["hu"]


def import_blobs(doc: dict, events) -> list[Blob]:
    """The blobs a file's ``photos`` carry, each decoded, matching the digest its event
    names and a JPEG as this module stores them; raises ``BadPhotos``."""
    import base64
    import binascii
    carried = doc.get("photos", {})
    if not isinstance(carried, dict):
        raise BadPhotos(0, msg("photos must be an object of base64 images by digest"))
    blobs, named = [], set()
    for event in attached(events):
        for sha, size in zip(digests_of(event), ((event.data["width"], event.data["height"]), (None, None))):
            named.add(sha)
            encoded = carried.get(sha)
            if not isinstance(encoded, str):
                raise BadPhotos(event.seq, msg("the photo's image %(value)s… is not in the file", value=sha[:12]))
            try:
                data = base64.b64decode(encoded, validate=True)
            except (binascii.Error, ValueError):
                data = b""
            if digest(data) != sha:
                raise BadPhotos(event.seq, msg("the photo's image %(value)s… does not match its digest", value=sha[:12]))
            if not is_stored_jpeg(data, *size):
                raise BadPhotos(event.seq, msg("the photo's image %(value)s… is not a JPEG as Tablescribe stores them", value=sha[:12]))
            blobs.append(Blob(sha, data))
    extra = sorted(set(carried) - named)
    if extra:
        raise BadPhotos(0, msg("the file carries an image no event names (%(value)s…)", value=str(extra[0])[:12]))
    return blobs


def copy_blobs(source, target, events) -> None:
    """The images ``events`` name, from one store into another (copy-db), inside the
    target's write transaction; the copy's verification then checks them."""
    for event in attached(events):
        for sha in digests_of(event):
            data = read_blob(source, sha)
            if data is not None:
                store_blobs(target, [Blob(sha, data)])


WITHOUT_IMAGE = _problem(msg("A photo is attached together with its image (the table page's Attach a photo form)."))


def unbacked(type_: str, data, blobs) -> list[Problem]:
    """A ``photo-attached`` event must arrive with exactly the images it names (so no
    event can name bytes the store does not hold), and only it carries images."""
    named = {data.get("sha256"), data.get("thumb_sha256")} if type_ == "photo-attached" and isinstance(data, dict) else set()
    carried = {blob.sha256 for blob in blobs if blob.sha256 == digest(blob.data)}
    return [] if named == carried and len(carried) == len(list(blobs)) else [WITHOUT_IMAGE]
