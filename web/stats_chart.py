"""Bar charts of the statistics pages as server-rendered SVG (like web/chart.py: no
chart library in the browser, no inline styles). Each bar may link to the plays it
counts."""
from __future__ import annotations

from markupsafe import Markup, escape

W, ROW, LABEL, GAP = 360, 26, 118, 6
FILL, FILL_ALT = "#1753d1", "#17893a"


def bars(rows: list[dict], label: str, unit: str = "") -> Markup:
    """Horizontal bars: ``rows`` = [{"label", "value", "href"?, "text"?}], one per line."""
    if not rows:
        return Markup("")
    high = max((abs(r["value"] or 0) for r in rows), default=0) or 1
    width = W - LABEL - 48
    height = ROW * len(rows) + GAP
    parts = [f'<svg class="stat-bars" viewBox="0 0 {W} {height}" width="100%" role="img" '
             f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>']
    for i, row in enumerate(rows):
        y = GAP + i * ROW
        length = max(1.0, width * abs(row["value"] or 0) / high)
        shown = row.get("text", f"{row['value']}{unit}")
        bar = (f'<text x="{LABEL - 6}" y="{y + 15}" font-size="12" fill="#111" text-anchor="end">'
               f'{escape(_short(str(row["label"])))}</text>'
               f'<rect x="{LABEL}" y="{y + 2}" width="{length:.1f}" height="{ROW - 8}" '
               f'fill="{FILL if i % 2 == 0 else FILL_ALT}"/>'
               f'<text x="{LABEL + length + 4:.1f}" y="{y + 15}" font-size="12" fill="#111">{escape(shown)}</text>')
        if row.get("href"):
            bar = f'<a href="{escape(row["href"])}">{bar}</a>'
        parts.append(bar)
    parts.append("</svg>")
    return Markup("".join(parts))


def _short(text: str, limit: int = 18) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
