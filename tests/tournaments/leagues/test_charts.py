"""The server-drawn SVG line chart: well-formed, accessible, one point per value, in order."""

import xml.etree.ElementTree as ET

from tournaments.leagues.charts import format_number, line_chart, nice_step, y_range

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # fails on anything that is not well-formed XML


def circles(root: ET.Element) -> list[ET.Element]:
    return root.findall(f".//{SVG}circle")


def test_it_draws_one_point_per_value_each_titled_with_its_label_and_value():
    root = parse(line_chart([("G1", 25.0), ("G2", 27.5), ("G3", 26.25)], title="Rating"))

    points = circles(root)
    assert len(points) == 3
    assert [p.find(f"{SVG}title").text for p in points] == ["G1: 25", "G2: 27.5", "G3: 26.25"]


def test_it_is_an_image_named_by_its_title_and_description():
    root = parse(
        line_chart([("a", 1)], title="Ann's rating", description="Up from 25", id_prefix="ann")
    )

    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "ann-title"
    assert root.get("aria-describedby") == "ann-desc"
    assert root.find(f"{SVG}title").text == "Ann's rating"
    assert root.find(f"{SVG}title").get("id") == "ann-title"
    assert root.find(f"{SVG}desc").text == "Up from 25"


def test_points_go_left_to_right_and_higher_values_higher_up():
    root = parse(line_chart([("1", 10), ("2", 30), ("3", 20)], title="t"))

    xs = [float(p.get("cx")) for p in circles(root)]
    ys = [float(p.get("cy")) for p in circles(root)]
    assert xs == sorted(xs) and len(set(xs)) == 3
    assert ys[1] < ys[2] < ys[0]  # SVG's y grows downwards


def test_points_stay_inside_the_box():
    width, height = 400, 200
    root = parse(
        line_chart(
            [(str(i), v) for i, v in enumerate([3, -7, 120, 0.5])],
            title="t",
            width=width,
            height=height,
        )
    )

    for point in circles(root):
        assert 0 <= float(point.get("cx")) <= width
        assert 0 <= float(point.get("cy")) <= height


def test_the_line_joins_the_points_in_order():
    root = parse(line_chart([("a", 1), ("b", 2), ("c", 4)], title="t"))

    line = root.find(f".//{SVG}polyline")
    joined = [tuple(map(float, xy.split(","))) for xy in line.get("points").split()]
    assert joined == [(float(p.get("cx")), float(p.get("cy"))) for p in circles(root)]


def test_the_y_axis_is_labelled_with_round_ticks_around_the_values():
    root = parse(line_chart([("a", 23.4), ("b", 28.9)], title="t", y_label="rating"))

    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "rating" in texts
    ticks = [float(t) for t in texts if t.replace(".", "").replace("-", "").isdigit()]
    assert min(ticks) <= 23.4 and max(ticks) >= 28.9


def test_one_point_draws_no_line_and_sits_in_the_middle():
    root = parse(line_chart([("only", 25)], title="t", width=600))

    assert root.find(f".//{SVG}polyline") is None
    (point,) = circles(root)
    assert float(point.get("cx")) == (56 + 600 - 16) / 2


def test_no_points_says_so():
    root = parse(line_chart([], title="Rating"))

    assert circles(root) == []
    assert "No data yet" in [t.text for t in root.iter(f"{SVG}text")]


def test_text_is_escaped():
    svg = line_chart([("<b>&", 1)], title='"Ann" <script>', description="a & b", x_label="<x>")

    root = parse(svg)
    assert "<script>" not in svg
    assert root.find(f"{SVG}title").text == '"Ann" <script>'
    assert circles(root)[0].find(f"{SVG}title").text == "<b>&: 1"


def test_many_points_label_only_some_of_them_but_draw_all():
    root = parse(line_chart([(f"G{i}", i % 7) for i in range(1, 61)], title="t"))

    assert len(circles(root)) == 60
    labels = [t.text for t in root.iter(f"{SVG}text") if (t.text or "").startswith("G")]
    assert 1 < len(labels) <= 13
    assert "G60" in labels  # the last point is always labelled


def test_nice_steps_and_ranges():
    assert nice_step(10) == 2
    assert nice_step(4.6) == 1
    assert nice_step(0.9) == 0.2
    assert nice_step(0) == 1
    assert y_range([25, 25]) == (24, 26, 0.5)
    low, high, step = y_range([21.3, 29.8])
    assert low <= 21.3 and high >= 29.8 and step == 2


def test_numbers_are_labelled_briefly():
    assert [format_number(v) for v in (25, 27.5, 26.256, -0.001)] == ["25", "27.5", "26.26", "0"]


def test_no_point_sits_on_the_x_axis():
    root = parse(line_chart([("a", 24.0), ("b", 27.0)], title="t", height=260))

    bottom = 260 - 44
    assert all(float(p.get("cy")) < bottom for p in circles(root))
