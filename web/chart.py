"""The score race: each player's total after every event, as a server-rendered SVG.

No inline styles (the CSP bars them): colours and line patterns are SVG attributes.
"""
from __future__ import annotations

from markupsafe import Markup, escape

# The player colours of static/app.css (.c-<id>), as strokes; white is drawn grey.
STROKES = {"red": "#d11", "blue": "#1753d1", "green": "#17893a", "yellow": "#e0b000",
           "black": "#111", "white": "#999", "purple": "#7b2cbf", "orange": "#ee7700",
           "pink": "#e0529c", "grey": "#888", "brown": "#7a4b22", "teal": "#11998e"}
FALLBACK = list(STROKES.values())
DASHES = ("", "6 3", "2 3", "8 3 2 3")  # told apart without colour too
W, H, LEFT, RIGHT, TOP, BOTTOM, ROW = 360, 170, 34, 8, 10, 22, 18


def race_chart(series: list[dict[int, int]], players, at: int | None = None,
               label: str = "Score race") -> Markup:
    """``series[i]`` = {seat: total} after event i+1; ``at`` marks a step (1-based)."""
    n = max(len(series), 1)
    values = [v for point in series for v in point.values()] or [0]
    low, high = min(0, *values), max(1, *values)
    legend_h = ROW * ((len(players) + 1) // 2)
    height = H + legend_h

    def x(i: int) -> float:
        return LEFT + (W - LEFT - RIGHT) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: int) -> float:
        return TOP + (H - TOP - BOTTOM) * (high - v) / (high - low)

    parts = [f'<svg class="race" viewBox="0 0 {W} {height}" width="100%" role="img" '
             f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
             f'<title>{escape(label)}</title>',
             f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#bbb"/>',
             _axis_label(high, y(high)), _axis_label(low, y(low)) if low < 0 else _axis_label(0, y(0)),
             f'<text x="{LEFT}" y="{H - 4}" font-size="11" fill="#555">1</text>',
             f'<text x="{W - RIGHT}" y="{H - 4}" font-size="11" fill="#555" text-anchor="end">{n}</text>']
    if at is not None and 1 <= at <= n:
        parts.append(f'<line class="step" x1="{x(at - 1):.1f}" x2="{x(at - 1):.1f}" y1="{TOP}" '
                     f'y2="{H - BOTTOM}" stroke="#0b5cad" stroke-width="2" data-at="{at}"/>')
    shown = series[(at or n) - 1] if series else {}
    steps = _sampled(n)
    for seat, player in enumerate(players):
        stroke, dash = _stroke(seat, player), DASHES[seat % len(DASHES)]
        points = " ".join(f"{x(i):.1f},{y(series[i].get(seat, 0)):.1f}" for i in steps)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{stroke}" stroke-width="2.5"{dash_attr} '
                     f'points="{points}" data-seat="{seat}"/>')
        lx, ly = 8 + (seat % 2) * (W // 2), H + 4 + ROW * (seat // 2)
        parts.append(f'<line x1="{lx}" x2="{lx + 22}" y1="{ly + 6}" y2="{ly + 6}" stroke="{stroke}" '
                     f'stroke-width="3"{dash_attr}/><text x="{lx + 28}" y="{ly + 11}" font-size="13" '
                     f'fill="#111">{escape(player["name"])} ({shown.get(seat, 0)})</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _sampled(n: int) -> range | list[int]:
    """The steps drawn: every one while there are at most two per horizontal pixel of
    the plot, else evenly spaced ones and the last (a 10,000-event game drew 10,000
    points per player into 326 pixels: a 225 KB image)."""
    most = 2 * (W - LEFT - RIGHT)
    if n <= most:
        return range(n)
    stride = -(-n // most)
    return [*range(0, n - 1, stride), n - 1]


def _axis_label(value: int, at_y: float) -> str:
    return (f'<text x="{LEFT - 4}" y="{at_y + 4:.1f}" font-size="11" fill="#555" '
            f'text-anchor="end">{value}</text>')


def _stroke(seat: int, player: dict) -> str:
    return STROKES.get(player.get("colour") or "", FALLBACK[seat % len(FALLBACK)])
