"""Headers every response carries, and the phone's device id cookie."""
import secrets

from flask import g, request

# media-src data:: the screen-awake fallback (nosleep.js) plays a tiny video it carries as a data: URI.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
# Every response carries these, whether Flask or web/poll.py answers it.
SECURITY_HEADERS = (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                    ("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin"))
DEVICE_COOKIE = "device"


def device_id() -> str:
    """A random id per phone, kept in a cookie, recorded with every event."""
    if "device" not in g:
        current = request.cookies.get(DEVICE_COOKIE, "")
        g.new_device = not (8 <= len(current) <= 64 and current.replace("-", "").replace("_", "").isalnum())
        g.device = secrets.token_urlsafe(12) if g.new_device else current
    return g.device


def _headers(response):
    for name, value in SECURITY_HEADERS:
        response.headers.setdefault(name, value)
    if g.get("new_device"):
        response.set_cookie(DEVICE_COOKIE, g.device, max_age=3 * 365 * 86400,
                            httponly=True, samesite="Lax")
    return response


def init_app(app) -> None:
    app.before_request(lambda: device_id() and None)  # a return value would end the request
    app.after_request(_headers)
