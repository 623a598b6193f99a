"""SaP's 11.6066 example (central section T–FF, rows 37–45, its edges treated as real)."""

import json
from pathlib import Path

import pytest

from campaigns.games.registry import get_module
from campaigns.games.rules import Drm, Reason
from refit.rules.hexgrid import HexMap, Section
from refit.rules.perimeter.board import (
    MAIN,
    MMC,
    POCKET,
    SMC,
    VEHICLE,
    Board,
    Marker,
    NonGroundPocket,
    Unit,
)
from refit.rules.perimeter.escapes import (
    EscapeAttempt,
    after_escapes,
    escape_modifiers,
    escape_outcome,
)
from refit.rules.perimeter.isolation import evaluate

GERMAN, RUSSIAN = "german", "russian"
# Columns T–FF; even columns (T, V, …) sit lower and end at row 44, odd ones at 45.
MAP = HexMap(key="sap-6066", sections=(Section("", 20, 32, "even", (37, 45), (37, 44)),))


def h(name: str):
    return MAP.hex(name)


def names(cells) -> set[str]:
    return {MAP.name(c) for c in cells}


def marker(side: str, notation: str, kind: str = MAIN) -> Marker:
    parts = notation.split("-")
    if len(parts) == 3:
        return Marker(side, h(parts[0]), h(parts[2]), h(parts[1]), kind=kind)
    return Marker(side, h(parts[0]), h(parts[1]), kind=kind)


def board() -> Board:
    control = {}
    for cell in MAP.parse_list("T37-T39 T37-FF37 FF38-FF40 DD39 BB39 AA38 Y39 X40 V41 BB43"):
        control[cell] = GERMAN
    for cell in MAP.parse_list("T40-T44 T44-U45-FF44 FF41-FF43 BB41 Z40 V42 U42 W38"):
        control[cell] = RUSSIAN
    units = (
        Unit("StuG III G", GERMAN, VEHICLE, h("AA42")),
        Unit("5-4-8", GERMAN, MMC, h("Y43")),
        Unit("2-3-8", GERMAN, MMC, h("AA44")),
        Unit("2-4-7", GERMAN, MMC, h("AA39"), level=1),
        # The edge-marker text calls the leader in BB44 a 7-0, the pocket text a 7-1: one leader.
        Unit("7-1", GERMAN, SMC, h("BB44")),
        Unit("4-4-7", RUSSIAN, MMC, h("AA39")),
    )
    return Board(
        map=MAP,
        sides=(GERMAN, RUSSIAN),
        control=control,
        units=units,
        non_ground_pockets=(NonGroundPocket(GERMAN, (h("AA39"),), "1"),),
    )


MARKERS = [
    marker(GERMAN, text)
    for text in (
        "DD39-FF40",
        "BB39-CC40-DD39",
        "AA38-BB38-BB39",
        "Y39-AA38",
        "X40-Y40-Y39",
        "V41-X40",
        "V41-U41-T39",
    )
] + [
    marker(RUSSIAN, text)
    for text in ("BB41-CC41-FF41", "AA39-AA40-BB41", "Z40-Z39-AA39", "V42-Z40", "U42-U41-T40")
]
# Pocket #1: AA42 and BB43 face each other; AA44 → BB43 takes the 2-3-8 in (the rules list
# AA44 in the pocket without saying how: this marker is the one that fits).
POCKET_MARKERS = [
    marker(GERMAN, "AA42-AA43-BB43", POCKET),
    marker(GERMAN, "BB43-AA43-AA42", POCKET),
    marker(GERMAN, "AA44-BB43", POCKET),
]


@pytest.fixture(scope="module")
def result():
    return evaluate(board(), MARKERS + POCKET_MARKERS)


def test_the_sap_grid_in_maps_json_has_this_parity():
    data = json.loads(
        (Path(__file__).parents[4] / "campaigns/games/slaughter_at_ponyri/maps.json").read_text()
    )
    full = HexMap.from_data("SaP", data["maps"]["SaP"])
    for name in ("AA39", "CC41", "V40"):
        assert {full.name(n) for n in full.neighbours(full.hex(name))} == {
            MAP.name(n) for n in MAP.neighbours(h(name))
        }


def test_loops(result):
    (german,) = result.sides[GERMAN].loops
    printed = (
        "FF40 EE40 DD39 CC40 BB39 BB38 AA38 Z38 Y39 Y40 X40 W41 V41 U41 U40 T39 T38 T37 U37 V37 "
        "W37 X37 Y37 Z37 AA37 BB37 CC37 DD37 EE37 FF37 FF38 FF39"
    )
    assert names(german) == set(printed.split())
    (russian,) = result.sides[RUSSIAN].loops
    printed = "FF41 EE41 DD41 CC41 BB41 BB40 AA40 AA39 Z39 Z40 Y41 X41 W42 V42 U42 U41 T40"
    edge = names(MAP.parse_list("T40-T44 T44-U45-FF44 FF41-FF43"))
    assert names(russian) == set(printed.split()) | edge


def test_illegal_pocket_markers():
    wrong = [marker(GERMAN, "AA42-AA44", POCKET), marker(GERMAN, "X40-AA43", POCKET)]
    result = evaluate(board(), MARKERS + POCKET_MARKERS[:2] + wrong)
    checks = {c.marker: c.reasons for c in result.sides[GERMAN].checks}
    assert Reason("overlaps", "11.6054", {"hex": h("AA43")}) in checks[wrong[0]]
    assert Reason("inside_perimeter", "11.6056", {"hex": h("X40")}) in checks[wrong[1]]


def test_pockets_areas_and_effects(result):
    pockets = [(p.number, p.kind, names(p.hexes)) for p in result.sides[GERMAN].pockets]
    assert pockets == [
        (1, "marked", {"AA42", "AA43", "AA44", "BB43"}),
        (2, "non_ground", {"AA39"}),
        (3, "one_hex", {"Y43"}),
    ]
    assert [u.id for u in result.smc_eliminated] == ["7-1"]
    assert h("DD40") in result.nml
    assert result.control[h("W38")] == GERMAN
    areas = {frozenset(names(a.hexes)): (a.type, a.became_nml) for a in result.isolated_areas}
    assert areas == {
        frozenset({"AA42", "AA43", "AA44", "BB43"}): ("C", False),
        frozenset({"AA39"}): ("D", False),
        frozenset({"Y43"}): ("C", False),
        frozenset({"U41"}): ("A", True),
    }


def test_the_5_4_8_escapes_and_y43_goes_russian(result):
    squad = next(u for u in board().units if u.id == "5-4-8")
    drms = escape_modifiers(result, EscapeAttempt(units=(squad,), hs_equivalents=2))
    assert drms == [Drm(1, rule="11.6063", id="extra_hs")]
    row = get_module("slaughter_at_ponyri").dice_table("sap.escape").lookup(9 + 1)
    outcome = escape_outcome(9, row, afv=False)
    assert outcome.escaped and outcome.casualty_reduced and not outcome.replaced
    after = evaluate(after_escapes(board(), [squad]), MARKERS + POCKET_MARKERS)
    assert after.control[h("Y43")] == RUSSIAN
    assert h("Y43") not in after.sides[GERMAN].perimeter_area
    assert h("Y43") not in after.isolated


def test_sap_afv_column_read_from_its_text():
    table = get_module("slaughter_at_ponyri").dice_table("sap.escape")
    assert escape_outcome(7, table.lookup(8), afv=True).escaped
    assert escape_outcome(10, table.lookup(10), afv=True).abandoned
    eliminated = escape_outcome(12, table.lookup(12), afv=True)
    assert eliminated.eliminated and not eliminated.escaped
    assert escape_outcome(12, table.lookup(12), afv=False).eliminated
