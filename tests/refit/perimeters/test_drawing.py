"""refit.perimeters.drawing: where both front lines run along one hexside, both show."""

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


def test_the_svg_has_every_hex_and_shape_with_its_side_and_escaped_text():
    from dataclasses import replace

    from refit.perimeters.drawing import svg_shapes

    result = evaluate(board(), GERMAN_MARKERS + SOVIET_MARKERS)
    shape = picture(board().map, result, GERMAN_MARKERS, {board().map.hex("H41")})
    shape = replace(shape, units=(*shape.units, replace(shape.units[0], text="<b>&")))
    svg = svg_shapes(shape, ["german", "soviet"], zoom=2, href="&amp;zoom=2")
    assert svg.count("<polygon ") == len(shape.hexes)
    assert '<a aria-label="H41" href="?hex=H41&amp;zoom=2" hx-get="?hex=H41&amp;zoom=2"' in svg
    statuses = {cell.status for cell in shape.hexes}
    assert {"german", "soviet"} <= statuses
    assert 'class="hex side-0"' in svg and 'class="hex side-1"' in svg
    assert 'class="hex german"' not in svg
    assert svg.count('class="arrow-0"') == len(shape.arrows) > 0
    assert svg.count("border-0") + svg.count("border-1") == len(shape.borders)
    assert svg.count('<circle class="fire"') == 1
    assert svg.count('class="hex-name"') == len(shape.hexes) + len(shape.pockets)  # zoom 2
    assert "&lt;b&gt;&amp;</text>" in svg and "<b>" not in svg
    assert 'class="hex-name"' not in svg_shapes(replace(shape, pockets=()), ["german", "soviet"])


def test_the_scenario_control_svg_marks_the_changed_hexes():
    from refit.perimeters.drawing import control_picture, svg_shapes

    hexmap = board().map
    shape = control_picture(hexmap, {"H41": "german", "J41": "soviet"}, {"H41"})
    svg = svg_shapes(shape, ["german", "soviet"], changed=True)
    assert svg.count("<polygon ") == len(shape.hexes)
    assert '<polygon id="h-H41" class="hex side-0 changed"' in svg
    assert '<polygon id="h-J41" class="hex side-1"' in svg
    assert '<a aria-label="H41" href="?hex=H41" hx-get="?hex=H41"' in svg
    assert "<rect" not in svg and "<text" not in svg
