"""propose(): a legal closed perimeter the players can start from."""

import json
import time
from pathlib import Path

import pytest

from refit.rules.hexgrid import HexMap
from refit.rules.perimeter.board import Board
from refit.rules.perimeter.isolation import evaluate
from refit.rules.perimeter.proposal import propose
from tests.refit.rules.perimeter.example_6066 import (
    GERMAN,
    GERMAN_MARKERS,
    SOVIET,
    SOVIET_MARKERS,
    board,
)


@pytest.mark.parametrize("side", [GERMAN, SOVIET])
def test_the_proposal_is_legal_and_closed(side):
    proposal = propose(board(), side)
    assert proposal
    result = evaluate(board(), proposal)
    checks = result.sides[side].checks
    assert all(check.legal and check.closed for check in checks), [c.reasons for c in checks]
    # It encloses at least what the rules' example encloses with the same anchors.
    example = evaluate(board(), GERMAN_MARKERS + SOVIET_MARKERS).sides[side]
    assert len(result.sides[side].main_area) >= len(example.main_area)


def test_no_edge_run_no_proposal():
    lonely = Board(map=board().map, sides=(GERMAN, SOVIET))
    assert propose(lonely, GERMAN) == []


def test_a_full_map_is_computed_well_under_a_second():
    data = json.loads(
        (Path(__file__).parents[4] / "campaigns/games/red_factories/maps.json").read_text()
    )
    hexmap = HexMap.from_data("RB", data["maps"]["RB"])
    control = {}
    west, east = hexmap.hex("P20")[0], hexmap.hex("T20")[0]
    for cell in hexmap.edge_hexes:
        if cell[0] <= west:
            control[cell] = GERMAN
        elif cell[0] >= east:
            control[cell] = SOVIET
    # Anchors in line: the proposal can run straight hexrows between them.
    for name in ("P10", "P20", "P30", "P40", "N12", "L30"):
        control[hexmap.hex(name)] = GERMAN
    for name in ("T10", "T20", "T30", "T40", "V22", "X35"):
        control[hexmap.hex(name)] = SOVIET
    full = Board(map=hexmap, sides=(GERMAN, SOVIET), control=control)
    started = time.perf_counter()
    markers = propose(full, GERMAN) + propose(full, SOVIET)
    result = evaluate(full, markers)
    elapsed = time.perf_counter() - started
    assert result.sides[GERMAN].main_area and result.sides[SOVIET].main_area
    assert elapsed < 1.0
