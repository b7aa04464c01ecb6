"""Photos at the table (events/application/photos.py, docs/photos.md): a seated phone attaches one
to the game, its final board or an open dispute (a plain multipart form: the camera
opens on a phone, no JavaScript needed); every phone gets the thumbnail by push, the
full image on tap. Images are served as the JPEG this app encoded, never as anything
a browser could run."""
from __future__ import annotations

import re
import secrets

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for

from events.application import photos
from events.application.photos import PhotoRefused
from events.application.table import Refused, ReusedId, attach_photo
from events.domain import photo_limits
from events.domain.projection import TableState
from scoring import text
from scoring.base import Problem
from scoring.i18n import msg
from web import decoding, views
from web.views import photo_list
from web.db import get_db, get_states
from web.i18n import tr
from web.seating import my_seat, require_seat, table_or_404
from web.security import device_id

bp = Blueprint("photos", __name__)

ABOUT = ("game", "final", "dispute")
NO_SUCH_PHOTO_TARGET = Problem("core §9", msg("A photo belongs to the game, its final board or a dispute."))
_SHA = re.compile(photo_limits.SHA256)


# ---- attaching ------------------------------------------------------------------------

@bp.post("/games/<game_id>/photos")
def upload(game_id: str):
    table = table_or_404(game_id)
    about, dispute = request.form.get("about", "game"), request.form.get("dispute", type=int)
    refuse = _refusal(game_id, table, about, dispute)
    seat = require_seat(game_id, refuse)
    if about not in ABOUT or (about == "dispute") != (dispute is not None):
        return refuse([NO_SUCH_PHOTO_TARGET], 422)
    try:  # the one text policy (scoring/text.py), before the file is read
        caption = text.clean(request.form.get("caption") or "", text.CAPTION)
    except text.BadText as refused:
        return refuse([Problem("core §9", refused.why)], 422)
    if len(table.photos) >= photo_limits.MAX_PHOTOS:  # before the file is read or decoded
        return refuse([photos.TOO_MANY], 422)
    raw = _chosen_file()
    try:
        prepared = prepare(raw)
    except PhotoRefused as refused:
        return refuse([refused.problem], 413 if refused.problem is photos.TOO_LARGE else 422)
    data = {**prepared.facts(), "caption": caption, "about": about}
    if dispute is not None:
        data["dispute"] = dispute
    client_id = (request.form.get("client_event_id") or secrets.token_hex(16))[:64]
    try:
        event = attach_photo(get_db(), game_id, data, seat, device_id(), client_id, (prepared.image, prepared.thumb),
                             states=get_states())
    except ReusedId as reused:
        return refuse([reused.problem], 409)
    except Refused as refusal:
        return refuse(refusal.problems, 422)
    if about == "dispute":
        return redirect(url_for("audit.dispute", game_id=game_id, dispute_seq=dispute, _anchor="photos"), code=303)
    return views.after_write(game_id, seat, event.seq)


def prepare(raw: bytes) -> photos.Prepared:
    """An upload checked from its header here and decoded in a bounded process of its own
    (web/decoding.py), in one of this worker's slots (``TooManyPhotos``: 503)."""
    return decoding.prepare(raw, current_app.extensions["photo_slots"],
                            current_app.config.get("PHOTO_MEMORY", decoding.MEMORY))


def _chosen_file() -> bytes:
    """The first file the form carries (the camera's input, or the chooser's)."""
    for upload in request.files.getlist("photo"):
        raw = upload.read(photos.MAX_UPLOAD_BYTES + 1)
        if raw:
            return raw
    return b""


def _refusal(game_id: str, table: TableState, about: str, dispute: int | None):
    """Where a refusal is shown: the dispute page the form was on, else the table page
    beside the photo form."""
    if about == "dispute" and dispute is not None and dispute in table.disputes:
        from web.audit import dispute_page
        return lambda problems, status: dispute_page(game_id, dispute, problems, status)
    return lambda problems, status: views.refuse(game_id, get_states().load(get_db(), game_id), my_seat(game_id),
                                                 status, problems)


@bp.errorhandler(413)
def too_large(error):
    """The request was past the upload limit before the form was read (no photo is that
    large): said as the photo's refusal, not as a bare 'request too large'."""
    from flask import render_template
    problem = photos.TOO_LARGE
    return render_template("error.html", status=413, message=tr(problem.as_dict())), 413


# ---- serving --------------------------------------------------------------------------

@bp.get("/games/<game_id>/photos/<sha256>.jpg")
def image(game_id: str, sha256: str):
    """A photo or thumbnail of this game, by digest: always image/jpeg, never sniffed,
    sandboxed; a stored image that no longer matches its digest is not served as one."""
    if not _SHA.match(sha256) or sha256 not in _digests(table_or_404(game_id)):
        abort(404)
    data = photos.read_blob(get_db(), sha256)
    if data is None:
        abort(404)
    if photos.digest(data) != sha256:
        return Response("This stored image does not match its record's digest; it is not shown.\n"
                        "Ez a tárolt kép nem egyezik a naplóban rögzített lenyomattal; nem mutatjuk.\n",
                        status=409, mimetype="text/plain")
    return Response(data, mimetype=photos.MEDIA_TYPE, headers={
        "Cache-Control": "private, max-age=31536000, immutable", "ETag": f'"{sha256}"',
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Content-Disposition": f'inline; filename="{sha256[:16]}.jpg"'})


def _digests(table: TableState) -> set[str]:
    return {sha for p in table.photos.values() for sha in (p["sha256"], p["thumb_sha256"])}


# ---- what pages show ------------------------------------------------------------------

def thumb_size(photo: dict) -> tuple[int, int]:
    """The thumbnail's width and height (the image scaled into THUMB_SIDE), so a page
    keeps its layout while thumbnails load."""
    w, h = photo["width"], photo["height"]
    scale = min(1.0, photos.THUMB_SIDE / max(w, h))
    return max(1, round(w * scale)), max(1, round(h * scale))


@bp.record_once
def _setup(state) -> None:
    state.app.extensions["photo_slots"] = decoding.Slots(state.app.config.get("PHOTOS_AT_ONCE", decoding.PHOTOS_AT_ONCE))
    state.app.jinja_env.globals.update(photo_list=photo_list, photo_thumb_size=thumb_size,
                                       photo_limits=photo_limits)
