"""Player colours (CSS classes c-<id>: inline styles are barred by the CSP)."""
from scoring.base import text

COLOURS = [
    {"id": "red", "label": text("piros", "red")},
    {"id": "blue", "label": text("kék", "blue")},
    {"id": "green", "label": text("zöld", "green")},
    {"id": "yellow", "label": text("sárga", "yellow")},
    {"id": "black", "label": text("fekete", "black")},
    {"id": "white", "label": text("fehér", "white")},
    {"id": "purple", "label": text("lila", "purple")},
    {"id": "orange", "label": text("narancs", "orange")},
    {"id": "pink", "label": text("rózsaszín", "pink")},
    {"id": "grey", "label": text("szürke", "grey")},
    {"id": "brown", "label": text("barna", "brown")},
    {"id": "teal", "label": text("türkiz", "teal")},
]
COLOUR_IDS = {c["id"] for c in COLOURS}
