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
