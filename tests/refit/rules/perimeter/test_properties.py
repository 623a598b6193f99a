"""Property tests: a loop always separates its interior; no area reaches off the map."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refit.rules import hexgrid as hg
from refit.rules.hexgrid import HexMap, Section
from refit.rules.perimeter.areas import enclosed
from refit.rules.perimeter.board import MAIN, POCKET, UNIT_KINDS, Board, Marker, Unit
from refit.rules.perimeter.isolation import evaluate

MAPS = [
    HexMap(key="even", sections=(Section("", 1, 14, "even", (1, 12), (0, 12)),)),
    HexMap(key="odd", sections=(Section("", 1, 13, "odd", (1, 11), (0, 11)),)),
]
SETTINGS = settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def blobs(draw):
    """A map and a random connected set of inner hexes grown from one hex."""
    hexmap = draw(st.sampled_from(MAPS))
    inner = sorted(hexmap.cells - hexmap.edge_hexes)
    blob = {draw(st.sampled_from(inner))}
    for _ in range(draw(st.integers(0, 25))):
        frontier = sorted({n for b in blob for n in hexmap.adjacency[b]} - blob)
        blob.add(draw(st.sampled_from(frontier)))
    return hexmap, blob


@given(blobs())
@SETTINGS
def test_a_closed_loop_separates_its_interior(case):
    hexmap, blob = case
    board = Board(map=hexmap, sides=("german", "soviet"))
    # The blob's outer boundary ring is a closed chain of adjacent hexes.
    ring = set(hg._trace_boundary(blob, hexmap.sort_key))
    area = enclosed(board, ring)
    assert blob <= area
    interior = area - ring
    for cell in interior:
        # An interior hex touches only the loop or other interior hexes, never the map edge.
        assert set(hexmap.adjacency[cell]) <= area
        assert len(hexmap.adjacency[cell]) == 6


@given(st.sampled_from(MAPS), st.data())
@SETTINGS
def test_any_barrier_area_stays_on_the_map(hexmap, data):
    cells = sorted(hexmap.cells)
    barrier = set(data.draw(st.lists(st.sampled_from(cells), max_size=40)))
    area = enclosed(Board(map=hexmap, sides=("german", "soviet")), barrier)
    assert area <= hexmap.cells
    assert barrier <= area or not barrier
    # Whatever is not in the area can be reached from the edge without crossing the barrier.
    outside = hexmap.cells - area
    assert outside == hg.flood(outside, hexmap.edge_hexes & outside)


@given(st.sampled_from(MAPS), st.data())
@SETTINGS
def test_evaluation_never_leaves_the_map(hexmap, data):
    cells = sorted(hexmap.cells)
    control = {
        cell: data.draw(st.sampled_from(["german", "soviet"]))
        for cell in data.draw(st.lists(st.sampled_from(cells), max_size=30))
    }
    units = tuple(
        Unit(f"u{i}", side, kind, cell)
        for i, (side, kind, cell) in enumerate(
            data.draw(
                st.lists(
                    st.tuples(
                        st.sampled_from(["german", "soviet"]),
                        st.sampled_from(UNIT_KINDS),
                        st.sampled_from(cells),
                    ),
                    max_size=12,
                )
            )
        )
    )
    markers = [
        Marker(side, a, b, kind=kind)
        for side, a, b, kind in data.draw(
            st.lists(
                st.tuples(
                    st.sampled_from(["german", "soviet"]),
                    st.sampled_from(cells),
                    st.sampled_from(cells),
                    st.sampled_from([MAIN, POCKET]),
                ),
                max_size=10,
            )
        )
    ]
    board = Board(map=hexmap, sides=("german", "soviet"), control=control, units=units)
    result = evaluate(board, markers)
    for side in result.sides.values():
        assert side.perimeter_area <= hexmap.cells
        assert side.front_line <= side.perimeter_area | side.front_line
    assert result.nml <= hexmap.cells
    assert not result.nml & result.isolated
    # Every friendly MMC/vehicle ends inside its side's Perimeter Area (a pocket if need be).
    for unit in units:
        if unit.big:
            assert unit.hex in result.sides[unit.side].perimeter_area


@given(st.sampled_from(MAPS), st.data())
@SETTINGS
def test_hexrows_are_chains_of_neighbours(hexmap, data):
    cells = sorted(hexmap.cells)
    a = data.draw(st.sampled_from(cells))
    b = data.draw(st.sampled_from(cells))
    via = hg.add(a, data.draw(st.sampled_from(hg.STEPS)))
    for path in (hg.straight_path(a, b), hg.alternate_path(a, via, b)):
        if path is not None:
            assert path[0] == a and path[-1] == b
            assert hg.path_is_connected(path)
            assert len(set(path)) == len(path)


@given(st.sampled_from(MAPS), st.data())
@SETTINGS
def test_neighbours_are_symmetric_and_one_hex_away(hexmap, data):
    cell = data.draw(st.sampled_from(sorted(hexmap.cells)))
    for n in hexmap.neighbours(cell):
        assert cell in hexmap.neighbours(n)
        assert hg.distance(cell, n) == 1
        section, (column, row) = hexmap.local(n)
        assert section.to_axial(column, row) == n
