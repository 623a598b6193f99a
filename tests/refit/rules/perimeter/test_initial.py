"""Control at the CG start from the initial SSRs (RB CG I I.4, RO CG I I.2, SaP CG-1.1)."""

import json
from pathlib import Path

import pytest

from refit.rules.hexgrid import HexError, HexMap, Section
from refit.rules.perimeter.board import Board
from refit.rules.perimeter.initial import edge_stretch, initial_control
from refit.rules.perimeter.isolation import evaluate
from refit.rules.perimeter.proposal import propose

ROOT = Path(__file__).parents[4]
SMALL = HexMap(key="small", sections=(Section("", 1, 8, "even", (1, 7), (0, 7)),))


def game_map(module: str, cg: str) -> tuple[HexMap, dict]:
    data = json.loads((ROOT / f"campaigns/games/{module}/maps.json").read_text())
    key = data["campaign_maps"][cg]
    return HexMap.from_data(key, data["maps"][key]), data["initial_control"][cg]


def test_rb_cg_i_german_entry_edge_and_every_other_hex_soviet():
    hexmap, spec = game_map("red_factories", "rb-cg-1")
    control = initial_control(hexmap, spec)
    german = {hexmap.name(h) for h, side in control.items() if side == "german"}
    # I.4: the edge from A9 round the north-west corner to U1, both included.
    assert {"A9", "A1", "U1"} <= german
    assert "A10" not in german and "V0" not in german and "W1" not in german
    assert german <= {hexmap.name(h) for h in hexmap.edge_hexes}
    assert set(control) == set(hexmap.land)
    assert set(control.values()) == {"german", "soviet"}


def test_a_new_rb_map_is_no_longer_all_no_mans_land():
    hexmap, spec = game_map("red_factories", "rb-cg-1")
    board = Board(map=hexmap, sides=("german", "soviet"), control=initial_control(hexmap, spec))
    result = evaluate(board, [])
    assert not result.nml  # every hex has its controller before a marker is placed
    proposed = evaluate(board, propose(board, "soviet"))
    assert not proposed.nml
    assert len(proposed.sides["soviet"].perimeter_area) > 0.99 * (len(hexmap.land) - 29)


def test_sap_cg_1_1():
    hexmap, spec = game_map("slaughter_at_ponyri", "timetable-disrupted")
    control = initial_control(hexmap, spec)
    german = {hexmap.name(h) for h, side in control.items() if side == "german"}
    assert {"A36", "A1", "NN0"} <= german
    assert "A37" not in german
    assert set(control.values()) == {"german", "russian"}


@pytest.mark.parametrize("cg", ["rb-cg-1", "rb-cg-3", "ro-cg-1"])
def test_every_red_factories_entry_builds(cg):
    hexmap, spec = game_map("red_factories", cg)
    assert initial_control(hexmap, spec)


def test_the_stretch_goes_the_way_named():
    one_way = edge_stretch(SMALL, "A3", "A1", "C1")
    other_way = edge_stretch(SMALL, "A3", "A5", "C1")
    assert SMALL.hex("A1") in one_way and SMALL.hex("A5") not in one_way
    assert SMALL.hex("A5") in other_way and SMALL.hex("A1") not in other_way
    assert one_way[0] == SMALL.hex("A3") and one_way[-1] == SMALL.hex("C1")


def test_a_line_splits_the_map_at_the_line():
    spec = {"kind": "line", "side": "german", "others": "soviet", "seed": "A1"}
    control = initial_control(SMALL, {**spec, "line": ["D0", "D7"]})
    assert control[SMALL.hex("D4")] == "german"  # the line itself is the first side's
    assert control[SMALL.hex("C4")] == "german" and control[SMALL.hex("E4")] == "soviet"
    with pytest.raises(HexError):  # a line that cuts nothing off is refused
        initial_control(SMALL, {**spec, "line": ["D2", "D5"]})
    with pytest.raises(HexError):  # no hexrow between the two
        initial_control(SMALL, {**spec, "line": ["D1", "E7"]})
