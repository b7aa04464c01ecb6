"""Player colours (CSS classes c-<id>: inline styles are barred by the CSP)."""
from scoring.i18n import msg

COLOURS = [
    {"id": "red", "label": msg("red")},
    {"id": "blue", "label": msg("blue")},
    {"id": "green", "label": msg("green")},
    {"id": "yellow", "label": msg("yellow")},
    {"id": "black", "label": msg("black")},
    {"id": "white", "label": msg("white")},
    {"id": "purple", "label": msg("purple")},
    {"id": "orange", "label": msg("orange")},
    {"id": "pink", "label": msg("pink")},
    {"id": "grey", "label": msg("grey")},
    {"id": "brown", "label": msg("brown")},
    {"id": "teal", "label": msg("teal")},
]
COLOUR_IDS = {c["id"] for c in COLOURS}
