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
    # A chart whose bars are links is a group of links (an image holds no controls).
    role = "group" if any(r.get("href") for r in rows) else "img"
    parts = [f'<svg class="stat-bars" viewBox="0 0 {W} {height}" width="100%" role="{role}" '
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


def trend(values: list[float], label: str, last: str, height: int = 60) -> Markup:
    """A small line of how a number moved, oldest on the left, with its last value
    written at the end as ``last`` (as the page's text writes it: a rating play by play);
    nothing for fewer than two points."""
    if len(values) < 2:
        return Markup("")
    low, high = min(values), max(values)
    span = (high - low) or 1
    room = W - VALUE_ROOM
    points = " ".join(f"{room * i / (len(values) - 1):.1f},{4 + (height - 8) * (high - v) / span:.1f}"
                      for i, v in enumerate(values))
    last_y = 4 + (height - 8) * (high - values[-1]) / span
    return Markup(f'<svg class="stat-trend" viewBox="0 0 {W} {height}" width="100%" role="img" '
                  f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>'
                  f'<polyline points="{points}" fill="none" stroke="{FILLS[0]}" stroke-width="2"/>'
                  f'<text x="{room + 6}" y="{min(height - 2, last_y + 5):.1f}" font-size="13" font-weight="700" '
                  f'fill="currentColor">{escape(last)}</text></svg>')
