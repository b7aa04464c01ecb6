"""The statistics' SVG (web/stats_chart.py): bars as long as their values, each under its
label, a chart of links a group of links; a trend line oldest first with its last value;
nothing drawn where there is nothing to compare."""
import re

from web.stats_chart import FILLS, VALUE_ROOM, W, bars, trend


def _widths(svg: str) -> list[float]:
    return [float(w) for w in re.findall(r'<rect x="0" y="\d+" width="([\d.]+)"', svg)]


def test_bars_are_as_long_as_their_values_and_alternate_their_fill():
    svg = str(bars([{"label": "Anna", "value": 10}, {"label": "Béla", "value": 5}, {"label": "Cili", "value": 0}], "Wins"))
    assert _widths(svg) == [W - VALUE_ROOM, (W - VALUE_ROOM) / 2, 1.0]  # a zero still shows a sliver
    assert svg.count(FILLS[0]) == 2 and svg.count(FILLS[1]) == 1
    assert 'role="img"' in svg and "<title>Wins</title>" in svg


def test_bars_that_link_are_a_group_of_links_and_every_text_is_escaped():
    svg = str(bars([{"label": "<b>", "value": 3, "text": "3 & more", "href": "/stats?a=1&b=2"}], 'A "chart"'))
    assert 'role="group"' in svg and '<a href="/stats?a=1&amp;b=2">' in svg
    assert "&lt;b&gt;" in svg and "3 &amp; more" in svg and 'aria-label="A &#34;chart&#34;"' in svg


def test_a_trend_runs_oldest_first_and_ends_with_its_last_value():
    svg = str(trend([1.0, 3.0, 2.0], "Rating", "2.0"))
    points = [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', svg)[1].split()]
    assert [x for x, _ in points] == [0.0, (W - VALUE_ROOM) / 2, W - VALUE_ROOM]
    assert points[1][1] < points[2][1] < points[0][1]  # higher values are drawn higher
    assert svg.endswith("2.0</text></svg>")


def test_nothing_is_drawn_without_two_points_or_a_row():
    assert str(trend([5.0], "Rating", "5")) == "" and str(bars([], "Wins")) == ""
