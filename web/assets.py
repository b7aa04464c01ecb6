"""The front-end files copied from npm into static/vendor/ by `make setup`, named by the
versions pinned in package.json (the one place they are written down)."""
import json
import os

_PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "package.json")

with open(_PACKAGE, encoding="utf-8") as _f:
    VERSIONS: dict[str, str] = json.load(_f)["dependencies"]

HTMX_FILE = f"vendor/htmx-{VERSIONS['htmx.org']}.min.js"
SSE_FILE = f"vendor/htmx-ext-sse-{VERSIONS['htmx-ext-sse']}.min.js"      # server-sent events
MORPH_FILE = f"vendor/idiomorph-ext-{VERSIONS['idiomorph']}.min.js"      # morphing swaps
NOSLEEP_FILE = f"vendor/nosleep-{VERSIONS['nosleep.js']}.min.js"         # keeps the screen on without Wake Lock
