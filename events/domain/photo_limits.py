"""What a photo may be: the limits an upload is checked against and the shape of what is stored, shared by the core's photo events and the photo pipeline (events/application/photos.py, events/application/pixels.py)."""
MAX_UPLOAD_BYTES = 20 * 2**20     # one photo as the phone sends it (a 12 MP JPEG is 3–6 MB)
MAX_INPUT_PIXELS = 50_000_000     # 50 megapixels: a phone's largest mode; a bomb names far more
MAX_INPUT_SIDE = 16_384
MAX_SIDE = 2000                   # the stored photo's longer side (about 0.3–0.8 MB as JPEG); a
                                  # 12 MP phone photo (4032 × 3024) decodes at half scale for it
THUMB_SIDE = 320                  # the thumbnail's longer side (about 15–30 kB)
QUALITY, THUMB_QUALITY = 85, 75
ACCEPTED = ("JPEG", "PNG", "WEBP")  # Pillow's names; MPO (a phone's multi-picture JPEG) is a JPEG
MAX_PHOTOS = 40                   # photos per game, voided ones included (their bytes stay)
MAX_CAPTION = 200
MEDIA_TYPE = "image/jpeg"         # what is stored and served, whatever came in
SHA256 = r"^[0-9a-f]{64}$"
