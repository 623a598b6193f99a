"""refit.perimeters.drawing: where both front lines run along one hexside, both show."""

import re
from dataclasses import replace

from refit.perimeters.drawing import SIZE, picture
from refit.rules.perimeter.isolation import evaluate
from tests.refit.rules.perimeter.example_6066 import GERMAN_MARKERS, SOVIET_MARKERS, board


def test_both_front_lines_stay_visible_where_they_touch():
    result = evaluate(board(), GERMAN_MARKERS + SOVIET_MARKERS)
    drawn = {side: set(hexsides) for side, hexsides in result.drawing.items()}
    shared = {(a, b) for a, b in drawn["german"] if (b, a) in drawn["soviet"]}
    assert shared, "the example has hexsides both sides draw"
    shape = picture(board().map, result, [], set())
    lines = {(line.side, line.x1, line.y1, line.x2, line.y2) for line in shape.borders}
    # A segment whichever way round it was drawn.
    german = {frozenset([(x1, y1), (x2, y2)]) for s, x1, y1, x2, y2 in lines if s == "german"}
    soviet = {frozenset([(x1, y1), (x2, y2)]) for s, x1, y1, x2, y2 in lines if s == "soviet"}
    assert len(german) == len(drawn["german"]) and len(soviet) == len(drawn["soviet"])
    assert not german & soviet
    # Each line sits inside its own hex, close to the hexside.
    for _side, x1, y1, x2, y2 in lines:
        assert 0 < abs(x1 - x2) + abs(y1 - y2) <= SIZE * 2


HEX = re.compile(
    r'<a href="\?hex=([^"&]+)([^"]*)"><title>\1</title><path id="h-\1" '
    r'class="hex ?([^"]*)" d="M([\d.]+),([\d.]+)([^"]*)"/></a>'
)


def outline(start_x, start_y, moves):
    """The corners a path's relative moves (l dx,dy / h dx, pairs after an l) reach."""
    x, y, corners = float(start_x), float(start_y), []
    for command, numbers in re.findall(r"([lh])([-\d.,]+(?:-[\d.,]+)*)", moves):
        values = [float(v) for v in re.findall(r"-?[\d.]+", numbers)]
        if command == "h":
            x += values[0]
            corners.append((x, y))
        else:
            for dx, dy in zip(values[::2], values[1::2], strict=True):
                x, y = x + dx, y + dy
                corners.append((x, y))
    return [(float(start_x), float(start_y)), *corners]


def test_the_svg_has_every_hex_and_shape_with_its_side_and_escaped_text():
    from refit.perimeters.drawing import statuses, svg_map

    hexmap = board().map
    result = evaluate(board(), GERMAN_MARKERS + SOVIET_MARKERS)
    fires = {hexmap.hex("H41")}
    whole = picture(hexmap, result, GERMAN_MARKERS, fires)
    overlay = picture(hexmap, result, GERMAN_MARKERS, fires, with_hexes=False)
    assert overlay.hexes == () and overlay.borders == whole.borders
    overlay = replace(overlay, units=(*overlay.units, replace(overlay.units[0], text="<b>&")))
    status = statuses(hexmap, result)
    control = result.board.control
    svg = svg_map(
        hexmap,
        status,
        ["german", "soviet"],
        control=control,
        fires=fires,
        overlay=overlay,
        zoom=2,
        href="&amp;zoom=2",
    )
    assert svg.startswith('<g hx-target="#selection" hx-swap="outerHTML"><a ')
    drawn = {name: rest for name, *rest in HEX.findall(svg)}
    assert len(drawn) == len(whole.hexes) == svg.count('<path id="h-')
    side_class = {"german": "side-0", "soviet": "side-1"}
    assert {"german", "soviet"} <= {cell.status for cell in whole.hexes}
    for cell in whole.hexes:
        href, css, x, y, moves = drawn[cell.name]
        assert href == "&amp;zoom=2"
        assert css == side_class.get(cell.status, cell.status), cell.name
        # The outline: the picture's six corners, to the drawing's rounding.
        for (ax, ay), (bx, by) in zip(outline(x, y, moves)[:6], cell.corners, strict=True):
            assert abs(ax - bx) < 0.11 and abs(ay - by) < 0.11, cell.name
    assert 'class="hex german"' not in svg
    # One path of squares a side, a square per control marker.
    for side, css in side_class.items():
        (squares,) = re.findall(rf'<path class="ctl-{css[-1]}" d="([^"]*)"/>', svg)
        assert squares.count("h4v4h-4z") == sum(1 for s in control.values() if s == side) > 0
    assert svg.count('class="arrow-0"') == len(overlay.arrows) > 0
    assert svg.count("border-0") + svg.count("border-1") == len(overlay.borders)
    assert svg.count('<circle class="fire"') == 1
    assert svg.count('class="hex-name"') == len(whole.hexes) + len(overlay.pockets)  # zoom 2
    assert "&lt;b&gt;&amp;</text>" in svg and "<b>" not in svg
    plain = svg_map(hexmap, status, ["german", "soviet"], overlay=replace(overlay, pockets=()))
    assert 'class="hex-name"' not in plain and "ctl-" not in plain and "fire" not in plain
    assert all(href == "" for _css, href, *_rest in HEX.findall(plain))


def test_the_kept_markup_holds_only_what_every_state_shares():
    """The links and outlines are kept per map, zoom and link suffix; the classes, marks and
    fires are the request's own."""
    from refit.perimeters.drawing import svg_map

    hexmap = board().map
    h41 = hexmap.hex("H41")
    first = svg_map(hexmap, {h41: "german"}, ["german", "soviet"], href="&amp;perimeter=a")
    again = svg_map(hexmap, {h41: "soviet"}, ["german", "soviet"], href="&amp;perimeter=b")
    assert '<path id="h-H41" class="hex side-0"' in first
    assert '<path id="h-H41" class="hex side-1"' in again
    assert "perimeter=a" not in again and "perimeter=b" not in first
    assert first.count('class="hex side-') == again.count('class="hex side-') == 1
    water = svg_map(hexmap.with_water([h41]), {h41: "water"}, ["german", "soviet"])
    assert '<path id="h-H41" class="hex water"' in water
    assert svg_map(hexmap, {}, ["german", "soviet"], href="&amp;perimeter=a") == first.replace(
        "hex side-0", "hex "
    )


def test_the_scenario_control_svg_marks_the_changed_hexes():
    from refit.perimeters.drawing import control_statuses, svg_map

    hexmap = board().map
    status = control_statuses(hexmap, {"H41": "german", "J41": "soviet", "ZZ99": "german"})
    assert status == {hexmap.hex("H41"): "german", hexmap.hex("J41"): "soviet"}
    svg = svg_map(hexmap, status, ["german", "soviet"], changed={hexmap.hex("H41")})
    assert svg.count('<path id="h-') == len(hexmap.cells)
    assert '<path id="h-H41" class="hex side-0 changed"' in svg
    assert '<path id="h-J41" class="hex side-1"' in svg
    assert '<a href="?hex=H41"><title>H41</title><path id="h-H41"' in svg
    assert "ctl-" not in svg and "<text" not in svg
