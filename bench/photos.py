"""Photos (issue 29, docs/photos.md): what a 12-megapixel phone photo costs the server,
and what a final sheet with photos costs a phone.

- **Upload**: a 4032 × 3024 JPEG as a phone writes it (quality 92, EXIF with GPS and a
  quarter-turn orientation), through the app: the photo form's POST (checks, decoding,
  EXIF removal, rotation, resizing, thumbnail, re-encoding, the event and both images
  stored in one transaction). Beside it in the same run: ``events.application.photos.prepare``
  alone (the image work), and the floor, Pillow decoding the same file at full size
  and nothing else.
- **Page weight**: the final sheet of that score pad game, one final-board photo and the
  other uploads as photos of the game: the HTML, the thumbnails it loads, and the full
  images one tap away (not loaded until tapped)."""
from __future__ import annotations

import io
import os
import random
import re
import time

from PIL import Image

from bench.common import make_app, scratch_dir, summary_ms, timed
from events.application import photos
from events.storage import store


def phone_jpeg(size=(4032, 3024), seed: int = 29) -> bytes:
    """A photo-like 12 MP JPEG: smooth light and shade with sensor noise, so it encodes to a
    phone's few megabytes, not to a flat colour's few kilobytes."""
    rng = random.Random(seed)
    small = Image.new("RGB", (32, 24))
    small.putdata([(rng.randint(40, 220), rng.randint(40, 220), rng.randint(40, 220)) for _ in range(32 * 24)])
    image = small.resize(size, Image.Resampling.BICUBIC)
    noise = Image.effect_noise(size, 24).convert("RGB")
    image = Image.blend(image, noise, 0.18)
    exif = Image.Exif()
    exif[0x0112] = 6
    exif.get_ifd(0x8825).update({1: "N", 2: (47.0, 29.0, 53.0), 3: "E", 4: (19.0, 2.0, 26.0)})
    out = io.BytesIO()
    image.save(out, "JPEG", quality=92, exif=exif)
    return out.getvalue()


def _decode_floor(raw: bytes) -> None:
    with Image.open(io.BytesIO(raw)) as image:
        image.load()


def measure(samples: int = 6, size=(4032, 3024)) -> dict:
    raw = phone_jpeg(size)
    floor = [timed(_decode_floor, raw)[0] for _ in range(samples)]
    prepare = [timed(photos.prepare, raw)[0] for _ in range(samples)]
    with scratch_dir() as folder:
        app = make_app(os.path.join(folder, "photos.db"))
        client = app.test_client()
        created = client.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"]})
        game_id = created.headers["Location"].rsplit("/", 1)[1]
        uploads = []
        for i in range(samples):
            about = "final" if i == 0 else "game"
            upload = phone_jpeg(size, seed=29 + i)  # another photo each time: none is stored twice
            start = time.perf_counter()
            answer = client.post(f"/games/{game_id}/photos", content_type="multipart/form-data", data={
                "about": about, "caption": f"photo {i}", "client_event_id": f"bench-{i}",
                "photo": (io.BytesIO(upload), "board.jpg", "image/jpeg")})
            uploads.append(time.perf_counter() - start)
            assert answer.status_code == 303, (answer.status_code, re.findall(r"<li>([^<]*)", answer.get_data(as_text=True)))
        weight = _final_sheet_weight(app, client, game_id)
    stored = photos.prepare(raw)
    return {"samples": samples, "pixels": size, "upload_bytes": len(raw),
            "stored_bytes": len(stored.image.data), "thumb_bytes": len(stored.thumb.data),
            "stored_size": (stored.width, stored.height),
            "floor": summary_ms(floor), "prepare": summary_ms(prepare), "upload": summary_ms(uploads),
            "page": weight, "load_average": os.getloadavg()}


def _final_sheet_weight(app, client, game_id: str) -> dict:
    """The final sheet's HTML, the thumbnails it shows and the full images behind them."""
    with app.app_context():
        from web.db import get_db, get_states
        db = get_db()
        table = get_states().load(db, game_id)
        html = client.get(f"/games/{game_id}/final").data
        shown = [p for p in table.photos.values() if p["thumb_sha256"].encode() in html]
        return {"html": len(html), "photos": len(shown), "all_photos": len(table.photos),
                "thumbs": sum(len(photos.read_blob(db, p["thumb_sha256"])) for p in shown),
                "full": sum(len(photos.read_blob(db, p["sha256"])) for p in shown)}


def render(r: dict) -> list[str]:
    u, p, f, w = r["upload"], r["prepare"], r["floor"], r["page"]
    ratio = lambda a, b: f"{a / b:.1f}×" if b else "–"
    return ["", f"## Photos: a {r['pixels'][0]} × {r['pixels'][1]} phone JPEG ({r['upload_bytes'] / 2**20:.1f} MB), "
                f"{r['samples']} samples", "",
            f"Stored as {r['stored_size'][0]} × {r['stored_size'][1]} ({r['stored_bytes'] / 1024:.0f} kB) with a "
            f"{r['thumb_bytes'] / 1024:.0f} kB thumbnail. Load average at the end: "
            f"{', '.join(f'{x:.1f}' for x in r['load_average'])}.", "",
            "| what | p50 ms | p95 ms | p50 vs the floor |", "| --- | ---: | ---: | ---: |",
            f"| floor: Pillow decodes the file at full size, nothing else | {f['p50']:.0f} | {f['p95']:.0f} | 1.0× |",
            f"| `photos.prepare`: check, decode at half scale, upright, 2,000 px, thumbnail, two JPEGs | "
            f"{p['p50']:.0f} | {p['p95']:.0f} | {ratio(p['p50'], f['p50'])} |",
            f"| the photo form's POST, stored with its event (SQLite, `synchronous=FULL`) | "
            f"{u['p50']:.0f} | {u['p95']:.0f} | {ratio(u['p50'], f['p50'])} |", "",
            f"Final sheet with {w['photos']} photos (of {w['all_photos']} in the game): HTML "
            f"{w['html'] / 1024:.1f} kB, thumbnails {w['thumbs'] / 1024:.0f} kB "
            f"(lazy-loaded), **{(w['html'] + w['thumbs']) / 1024:.0f} kB in all**; the full images, loaded "
            f"only when tapped, would be {w['full'] / 1024:.0f} kB."]


if __name__ == "__main__":
    print("\n".join(render(measure())))
