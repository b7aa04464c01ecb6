"""The score race (web/chart.py): one line per player, told apart by colour and dash, the
step shown marked, names escaped and no inline style (the CSP bars it); the table's own
chart at /race.svg."""
from web.chart import DASHES, race_chart


def test_score_race_chart_has_a_line_per_player_and_marks_the_step(client, table_of):
    svg = str(race_chart([{0: 0, 1: 0}, {0: 5, 1: 0}, {0: 5, 1: -3}], [{"name": "A", "colour": "red"},
                                                                      {"name": "B<", "colour": ""}], at=2))
    assert svg.count("<polyline") == 2 and svg.count(",") >= 6 and 'data-at="2"' in svg
    assert "B&lt;" in svg and "style" not in svg
    game = table_of(names=("Anna", "Béla", "Cili"), moves=[("points-recorded", {"seat": 0, "points": 10})])
    table_chart = client.get(f"/games/{game.id}/race.svg").get_data(as_text=True)
    assert table_chart.count("<polyline") == 3


def test_more_players_than_colours_are_told_apart_by_their_dashes():
    players = [{"name": f"P{i}", "colour": ""} for i in range(len(DASHES) + 1)]
    svg = str(race_chart([{i: 0 for i in range(len(players))}, {i: i for i in range(len(players))}], players))
    assert svg.count("<polyline") == len(players)
    assert {d for d in DASHES if d} <= {part.split('"')[0] for part in svg.split('stroke-dasharray="')[1:]}


def test_a_long_game_draws_at_most_two_points_a_pixel_and_always_its_last_step():
    from web.chart import LEFT, RIGHT, W
    series = [{0: i} for i in range(10_000)]
    svg = str(race_chart(series, [{"name": "A", "colour": "red"}]))
    points = svg.split('points="')[1].split('"')[0].split()
    assert len(points) <= 2 * (W - LEFT - RIGHT) + 1
    assert points[-1].startswith(f"{W - RIGHT:.1f},") and "(9999)" in svg
