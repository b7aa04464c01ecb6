"""Bar charts of the statistics pages as server-rendered SVG (like web/chart.py: no
chart library in the browser, no inline styles). Each bar may link to the plays it
counts. Text is drawn in ``currentColor``, so it follows the page's light or dark ink."""
from __future__ import annotations

from markupsafe import Markup, escape

W, ROW, GAP, BAR = 360, 34, 4, 12
VALUE_ROOM = 64  # the figure written after the longest bar
FILLS = ("#1753d1", "#17893a")  # alternate rows, told apart from their neighbours


def bars(rows: list[dict], label: str) -> Markup:
    """Horizontal bars, each under its own label (a phone is too narrow for a label column):
    ``rows`` = [{"label", "value", "href"?, "text"?}]."""
    if not rows:
        return Markup("")
    high = max((abs(r["value"] or 0) for r in rows), default=0) or 1
    height = ROW * len(rows) + GAP
    parts = [f'<svg class="stat-bars" viewBox="0 0 {W} {height}" width="100%" role="img" '
             f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>']
    for i, row in enumerate(rows):
        parts.append(_bar(row, GAP + i * ROW, max(1.0, (W - VALUE_ROOM) * abs(row["value"] or 0) / high),
                          FILLS[i % len(FILLS)]))
    parts.append("</svg>")
    return Markup("".join(parts))


def _bar(row: dict, y: int, length: float, fill: str) -> str:
    shown = row.get("text", str(row["value"]))
    bar = (f'<text x="0" y="{y + 12}" font-size="13" fill="currentColor">{escape(str(row["label"]))}</text>'
           f'<rect x="0" y="{y + 16}" width="{length:.1f}" height="{BAR}" rx="2" fill="{fill}"/>'
           f'<text x="{length + 6:.1f}" y="{y + 27}" font-size="13" font-weight="700" fill="currentColor">'
           f'{escape(shown)}</text>')
    return f'<a href="{escape(row["href"])}">{bar}</a>' if row.get("href") else bar
