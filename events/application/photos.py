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
stored. What is served is always our own re-encoded JPEG, never the upload. The pixel
work itself is events/application/pixels.py; a server runs it in a process of its own
(web/decoding.py)."""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

from PIL import Image

from events.application import pixels
from events.application.pixels import carries_markup  # noqa: F401
from events.domain.core_types import TOO_MANY  # noqa: F401
from events.domain.photo_limits import (MAX_CAPTION, MAX_INPUT_PIXELS, MAX_INPUT_SIDE, MAX_PHOTOS, MAX_SIDE,  # noqa: F401
                                        MAX_UPLOAD_BYTES, MEDIA_TYPE, SHA256, THUMB_SIDE)
from events.storage import store
from events.storage.blobs import every_blob, read_blob, store_blobs  # noqa: F401
from scoring.base import Problem, Text
from scoring.i18n import msg


def _problem(message: Text) -> Problem:
    return Problem("core §9", message)


ATTACHED = "photo-attached"  # the event a photo is recorded by

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


_REFUSALS = {pixels.EMPTY: EMPTY, pixels.TOO_LARGE: TOO_LARGE, pixels.HEIC: HEIC, pixels.NOT_AN_IMAGE: NOT_AN_IMAGE,
             pixels.POLYGLOT: POLYGLOT, pixels.BROKEN: BROKEN}


def problem_of(code: str, size=None) -> Problem:
    """What a refusal of events/application/pixels.py (``code``, the image's ``size``) says."""
    return too_big(*size) if code == pixels.TOO_BIG and size else _REFUSALS.get(code) or too_big()


class PhotoRefused(ValueError):
    """The upload is refused; ``problem`` says why in both languages."""

    def __init__(self, problem: Problem):
        super().__init__(problem.en)
        self.problem = problem

    @classmethod
    def of(cls, refused: pixels.Refused) -> "PhotoRefused":
        return cls(problem_of(refused.code, refused.size))


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

    @classmethod
    def of(cls, done: pixels.Pixels) -> "Prepared":
        return cls(Blob.of(done.image), Blob.of(done.thumb), done.width, done.height)

    def facts(self) -> dict:
        return {"sha256": self.image.sha256, "thumb_sha256": self.thumb.sha256, "media_type": MEDIA_TYPE,
                "bytes": len(self.image.data), "width": self.width, "height": self.height}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check(raw: bytes) -> None:
    """The upload's bytes, kind, markup and pixel budget from its header (no decode), or
    ``PhotoRefused``."""
    try:
        pixels.check(raw)
    except pixels.Refused as refused:
        raise PhotoRefused.of(refused) from None


def prepare(raw: bytes) -> Prepared:
    """The upload as it will be stored, decoded in this process, or ``PhotoRefused``.
    Pure: nothing is stored. A server decodes in a process of its own instead
    (web/photo_process.py), with this very function's work."""
    try:
        return Prepared.of(pixels.prepare(raw))
    except pixels.Refused as refused:
        raise PhotoRefused.of(refused) from None


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

def attached(events) -> list:
    """The ``photo-attached`` events among ``events``."""
    return [e for e in events if e.type == ATTACHED]


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


def bad_blobs(db) -> list[tuple[str, str]]:
    """Every stored image, referenced or not, whose bytes do not match its address, or that
    is not stored as bytes at all (SQLite keeps whatever is written: text, even text that
    is no UTF-8, which reading as text would fail on): (its address, why)."""
    bad = []
    for sha, kind, data in every_blob(db):
        sha = sha if isinstance(sha, str) else bytes(sha).decode("utf-8", "replace")
        if kind != "blob":
            bad.append((sha, f"its image is stored as {kind}, not as bytes"))
        elif digest(bytes(data)) != sha:
            bad.append((sha, "its stored bytes do not match their digest"))
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
    named = {data.get("sha256"), data.get("thumb_sha256")} if type_ == ATTACHED and isinstance(data, dict) else set()
    carried = {blob.sha256 for blob in blobs if blob.sha256 == digest(blob.data)}
    return [] if named == carried and len(carried) == len(list(blobs)) else [WITHOUT_IMAGE]
