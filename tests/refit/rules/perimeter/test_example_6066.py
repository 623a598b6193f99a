"""The rules' 11.6066 example, hex by hex (RB south-west corner; the shown edges are real)."""

import pytest

from campaigns.games.registry import get_module
from campaigns.games.rules import Drm, Reason
from refit.rules.perimeter.board import NML, Result
from refit.rules.perimeter.escapes import (
    EscapeAttempt,
    after_escapes,
    escape_modifiers,
    escape_outcome,
)
from refit.rules.perimeter.isolation import evaluate
from refit.rules.perimeter.markers import edge_markers, marker_path
from tests.refit.rules.perimeter.example_6066 import (
    GERMAN,
    GERMAN_MARKERS,
    ILLEGAL_POCKET_MARKERS,
    MAP,
    POCKET_MARKERS,
    SOVIET,
    SOVIET_MARKERS,
    board,
    h,
    hexes,
    marker,
)


def names(cells) -> set[str]:
    return {MAP.name(cell) for cell in cells}


@pytest.fixture(scope="module")
def result() -> Result:
    return evaluate(board(), GERMAN_MARKERS + SOVIET_MARKERS + POCKET_MARKERS)


def test_edge_markers_face_each_other_along_the_friendly_edge_runs():
    german = edge_markers(board(), GERMAN)
    assert {(MAP.name(m.hex), MAP.name(m.target)) for m in german} == {
        ("A41", "M44"),
        ("M44", "A41"),
    }
    # A41 → A45, "A45 – B45 → M45", M45 → M44; the commissar in I45 does not block it.
    assert names(german[0].path) == names(hexes("A41-A45 A45-B45-M45 M44"))
    soviet = edge_markers(board(), SOVIET)
    assert {(MAP.name(m.hex), MAP.name(m.target)) for m in soviet} == {
        ("A40", "M43"),
        ("M43", "A40"),
    }
    # A40 → A38, "A38 – B37 → M38", M38 → M43.
    assert names(soviet[0].path) == names(hexes("A38-A40 A38-B37-M38 M39-M43"))


def test_the_alternate_hexrows_of_the_example():
    cases = {
        "G42 – H41 → J41": "G42 H41 I42 J41",
        "J41 – K42 → L43": "J41 K42 K43 L43",
        "B42 – C43 → F42": "B42 C43 D42 E43 F42",
        "B42 – B41 → A41": "B42 B41 A41",
        "C42 – B41 → A40": "C42 B41 B40 A40",
        "H42 – H43 → I44": "H42 H43 I44",
        "K41 – L41 → M43": "K41 L41 L42 M43",
        "G41 – H40 → K41": "G41 H40 I41 J40 K41",
        "A45 – B45 → M45": "A45 B45 C45 D45 E45 F45 G45 H45 I45 J45 K45 L45 M45",
        "A38 – B37 → M38": "A38 B37 C38 D37 E38 F37 G38 H37 I38 J37 K38 L37 M38",
        "L43 → M44": "L43 M44",
        "F42 → G42": "F42 G42",
    }
    for notation, expected in cases.items():
        assert [MAP.name(c) for c in marker_path(marker(GERMAN, notation))] == expected.split()


def test_german_loop(result):
    german = result.sides[GERMAN]
    assert all(check.legal and check.closed for check in german.checks)
    (loop,) = german.loops
    printed = (
        "M44 L43 K43 K42 J41 I42 H41 G42 F42 E43 D42 C43 B42 B41 A42 A43 A44 A45 "
        "B45 C45 D45 E45 F45 G45 H45 I45 J45 K45 L45 M45"
    )
    # The rules' list leaves out A41, the edge marker's own hex (spec Q52).
    assert names(loop) == set(printed.split()) | {"A41"}
    assert german.pockets == ()


def test_soviet_loop(result):
    soviet = result.sides[SOVIET]
    assert all(check.legal for check in soviet.checks)
    (loop,) = soviet.loops
    printed = "M43 L42 L41 K41 J40 I41 H40 G41 F41 E41 D41 C41 C42 B41 B40 A40"
    edge_run = names(hexes("A38-A40 A38-B37-M38 M39-M43"))
    assert names(loop) == set(printed.split()) | edge_run


def test_pocket_1_is_h42_h43_h44_i44(result):
    pockets = result.sides[SOVIET].pockets
    assert [(p.number, p.kind, names(p.hexes)) for p in pockets] == [
        (1, "marked", {"H42", "H43", "H44", "I44"}),
        (2, "non_ground", {"G43"}),
        (3, "non_ground", {"H41"}),
    ]
    # H41 and G43 become Soviet Perimeter Area hexes.
    assert {h("H41"), h("G43")} <= result.sides[SOVIET].perimeter_area


def test_h44_to_h42_overlaps_h43():
    result = evaluate(board(), SOVIET_MARKERS + POCKET_MARKERS[:2] + [ILLEGAL_POCKET_MARKERS[0]])
    (check,) = [c for c in result.sides[SOVIET].checks if c.marker == ILLEGAL_POCKET_MARKERS[0]]
    assert check.reasons == (Reason("overlaps", "11.6054", {"hex": h("H43")}),)


def test_i41_i42_h42_is_inside_the_soviet_perimeter_already():
    result = evaluate(board(), SOVIET_MARKERS + POCKET_MARKERS + [ILLEGAL_POCKET_MARKERS[1]])
    (check,) = [c for c in result.sides[SOVIET].checks if c.marker == ILLEGAL_POCKET_MARKERS[1]]
    assert Reason("inside_perimeter", "11.6056", {"hex": h("I41")}) in check.reasons
    assert not check.legal


def test_no_mans_land_and_control(result):
    # E42 is outside both areas; B41 is in both loops and empty: Type A, so NML.
    assert names(result.nml) == {"E42", "B41"}
    assert result.status(h("E42")) == NML
    # J38 passes to Soviet control: a control marker alone cannot form a pocket.
    assert result.control[h("J38")] == SOVIET
    assert result.status(h("J38")) == SOVIET
    assert result.control[h("C45")] == GERMAN
    assert result.control[h("D40")] == SOVIET


def test_isolated_areas_and_types(result):
    areas = {frozenset(names(a.hexes)): (a.type, a.became_nml) for a in result.isolated_areas}
    assert areas == {
        frozenset({"H42", "H43", "H44", "I44"}): ("C", False),  # pocket #1
        frozenset({"G43"}): ("C", False),  # pocket #2 with G43's ground level
        frozenset({"H41"}): ("D", False),  # German squad A and Soviet squad T (pocket #3)
        frozenset({"B41"}): ("A", True),  # in both loops, empty
    }
    # B41 was a Type A area and is now NML, no longer isolated.
    assert h("B41") not in result.isolated
    # Unoccupied G43 ground level stays German; the T-70's hex goes Soviet.
    assert result.control[h("G43")] == GERMAN
    assert result.control[h("H42")] == SOVIET


def test_commissar_eliminated_and_ammunition_shortage(result):
    assert [u.id for u in result.smc_eliminated] == ["9-0 commissar"]
    assert {u.id for u in result.ammunition_shortage} == {
        "T-70",
        "4-4-7 C",
        "5-2-7 D",
        "4-6-7 A",
        "4-4-7 T",
    }
    assert result.must_escape == ()
    assert {u.id for u in result.may_escape} == {u.id for u in result.ammunition_shortage}


def test_drawing_follows_the_front_line_against_nml_and_enemy(result):
    german_sides = {(MAP.name(a), MAP.name(b)) for a, b in result.drawing[GERMAN]}
    soviet_sides = {(MAP.name(a), MAP.name(b)) for a, b in result.drawing[SOVIET]}
    assert ("D42", "E42") in german_sides  # E42 is NML
    assert ("E41", "E42") in soviet_sides
    assert ("F42", "F41") in german_sides  # F41 is Soviet, not isolated
    assert not any(b == "H41" for _, b in german_sides)  # isolated, not enemy


def test_the_5_2_7_escapes_and_g43_goes_german(result):
    squad_d = next(u for u in board().units if u.id == "5-2-7 D")
    attempt = EscapeAttempt(units=(squad_d,), hs_equivalents=2)
    drms = escape_modifiers(result, attempt)
    assert drms == [
        Drm(-1, rule="11.6063", id="nationality"),
        Drm(-1, rule="11.6063", id="within_2"),
        Drm(1, rule="11.6063", id="extra_hs"),
    ]
    final = 12 + sum(drm.value for drm in drms)
    assert final == 11
    row = get_module("red_factories").dice_table("rf.escape").lookup(final)
    outcome = escape_outcome(12, row, afv=False)
    assert outcome.escaped and outcome.replaced and outcome.casualty_reduced
    assert not outcome.eliminated and not outcome.heat_of_battle

    after = evaluate(
        after_escapes(board(), [squad_d]), GERMAN_MARKERS + SOVIET_MARKERS + POCKET_MARKERS
    )
    # 11.6065: the empty level-1 pocket passes to the German (its only 'ADJACENT' Location,
    # G43's ground level, is German): G43 is no longer Soviet Perimeter Area nor isolated.
    assert h("G43") not in after.sides[SOVIET].perimeter_area
    assert h("G43") not in after.isolated
    assert after.control[h("G43")] == GERMAN
    assert {frozenset(names(a.hexes)): a.type for a in after.isolated_areas} == {
        frozenset({"H42", "H43", "H44", "I44"}): "C",
        frozenset({"H41"}): "D",
        frozenset({"B41"}): "A",
    }
    assert "5-2-7 D" not in {u.id for u in after.ammunition_shortage}


def test_original_dr_2_is_heat_of_battle():
    row = get_module("red_factories").dice_table("rf.escape").lookup(1)
    assert escape_outcome(2, row, afv=False).heat_of_battle
    assert not escape_outcome(3, row, afv=False).heat_of_battle


def test_afv_escape_column():
    table = get_module("red_factories").dice_table("rf.escape")
    assert escape_outcome(9, table.lookup(9), afv=True).escaped
    abandoned = escape_outcome(10, table.lookup(10), afv=True)
    assert abandoned.abandoned and not abandoned.escaped and abandoned.crew == "escapes"
    destroyed = escape_outcome(12, table.lookup(12), afv=True)
    assert destroyed.eliminated
