"""Hex names, parity, neighbours, hexrows and hex lists (refit.rules.hexgrid)."""

import pytest

from refit.rules import hexgrid as hg
from refit.rules.hexgrid import HexError, HexMap, Section

RB_LIKE = HexMap(
    key="rb-like",
    sections=(Section("RB", 1, 36, "even", (1, 48), (0, 48)),),
)
RO_LIKE = HexMap(
    key="ro-like",
    sections=(Section("RO", 1, 36, "odd", (1, 48), (0, 48)),),
)


def test_column_letters_double_after_z():
    assert [hg.column_letters(n) for n in (1, 26, 27, 28, 36, 40)] == [
        "A",
        "Z",
        "AA",
        "BB",
        "JJ",
        "NN",
    ]
    assert hg.column_number("jj") == 36
    assert hg.column_number("NN") == 40
    with pytest.raises(ValueError):
        hg.column_number("AB")


def test_rb_neighbours_follow_the_11_6066_parity():
    # Odd columns: NE (c+1, r-1), SE (c+1, r); even columns: NE (c+1, r), SE (c+1, r+1).
    around = {RB_LIKE.name(n) for n in RB_LIKE.neighbours(RB_LIKE.hex("G42"))}
    assert around == {"G41", "H41", "H42", "G43", "F42", "F41"}
    around = {RB_LIKE.name(n) for n in RB_LIKE.neighbours(RB_LIKE.hex("H41"))}
    assert around == {"H40", "I41", "I42", "H42", "G42", "G41"}


def test_ro_parity_is_the_other_way_round():
    around = {RO_LIKE.name(n) for n in RO_LIKE.neighbours(RO_LIKE.hex("G42"))}
    assert around == {"G41", "H42", "H43", "G43", "F43", "F42"}


def test_half_hex_row_0_exists_only_in_the_lower_columns():
    assert RB_LIKE.hex("V0") and RB_LIKE.hex("N0")
    with pytest.raises(HexError):
        RB_LIKE.hex("U0")
    assert RO_LIKE.hex("S0") and RO_LIKE.hex("EE0")


def test_names_round_trip_with_and_without_prefix():
    for cell in RB_LIKE.cells:
        name = RB_LIKE.name(cell)
        assert RB_LIKE.hex(name) == cell
        assert RB_LIKE.hex("RB" + name.lower()) == cell


def test_edges_of_a_map():
    assert RB_LIKE.edge_sides(RB_LIKE.hex("A1")) == {"N", "W"}
    assert RB_LIKE.edge_sides(RB_LIKE.hex("B0")) == {"N"}
    assert RB_LIKE.edge_sides(RB_LIKE.hex("A20")) == {"W"}
    assert RB_LIKE.edge_sides(RB_LIKE.hex("JJ20")) == {"E"}
    assert RB_LIKE.edge_sides(RB_LIKE.hex("C48")) == {"S"}
    assert RB_LIKE.edge_sides(RB_LIKE.hex("H14")) == frozenset()
    # The boundary ring visits every edge hex once.
    (ring,) = RB_LIKE.rings
    assert set(ring) == RB_LIKE.edge_hexes
    assert len(ring) == len(set(ring))
    assert all(hg.distance(a, b) == 1 for a, b in zip(ring, ring[1:] + ring[:1], strict=True))


def test_water_makes_shore_hexes_part_of_the_ring():
    water = RB_LIKE.parse_list("JJ10-JJ20 II15")
    wet = RB_LIKE.with_water(water)
    (ring,) = wet.rings
    assert RB_LIKE.hex("HH15") in ring  # shore of the inlet
    assert not set(water) & set(ring)
    assert RB_LIKE.hex("HH15") in wet.shore_hexes


def test_distance_and_straight_hexrows():
    a, b = RB_LIKE.hex("A38"), RB_LIKE.hex("C39")
    assert [RB_LIKE.name(c) for c in hg.straight_path(a, b)] == ["A38", "B38", "C39"]
    assert hg.distance(a, b) == 2
    assert hg.straight_path(a, RB_LIKE.hex("C40")) is None
    assert hg.straight_path(a, a) is None


def test_alternate_hexrow_needs_an_adjacent_first_hex():
    a, b = RB_LIKE.hex("G42"), RB_LIKE.hex("J41")
    assert hg.alternate_path(a, RB_LIKE.hex("I42"), b) is None
    assert hg.hexrow(a, b) is None  # not a straight hexrow
    assert hg.hexrow(a, b, RB_LIKE.hex("H41")) is not None
    # A marker written with a dash along a straight row is that straight row.
    assert hg.hexrow(a, RB_LIKE.hex("G45"), RB_LIKE.hex("G43")) == hg.straight_path(
        a, RB_LIKE.hex("G45")
    )


def test_parse_hex_lists():
    assert RB_LIKE.names(RB_LIKE.parse_list("H41 G42-G45")) == [
        "G42",
        "G43",
        "G44",
        "G45",
        "H41",
    ]
    assert len(RB_LIKE.parse_list("A45-M45")) == 13
    assert RB_LIKE.parse_list("h41, H41、h41") == [RB_LIKE.hex("H41")]
    assert RB_LIKE.names(RB_LIKE.parse_list("A38-B37-E38")) == ["A38", "B37", "C38", "D37", "E38"]
    for bad in ("H99", "ZZ1", "H41-", "A1-C9", "A1-B2-C3-D4", "A1-C1-E1"):
        with pytest.raises(HexError):
            RB_LIKE.parse_list(bad)


def test_joined_sections_name_hexes_with_their_group():
    joined = HexMap(
        key="rf",
        sections=(
            Section("RB", 1, 4, "even", (1, 5), (0, 5)),
            Section("RO", 1, 4, "odd", (1, 5), (0, 5), offset=(0, 6)),
        ),
    )
    assert joined.name(joined.hex("RBA1")) == "RBA1"
    with pytest.raises(HexError):
        joined.hex("A1")  # ambiguous without the group
    ro = joined.hex("ROA0")
    assert joined.name(ro) == "ROA0"
    # The two sections make one map: the hexes where they meet are neighbours, not edges.
    assert len(joined.rings) == 1


def test_drawing_geometry():
    cell = RB_LIKE.hex("H41")
    below = RB_LIKE.hex("H42")
    a, b = RB_LIKE.hexside(cell, below)
    # The shared hexside is horizontal, half way between the two centres.
    assert a[1] == pytest.approx(b[1])
    assert a[1] == pytest.approx((RB_LIKE.centre(cell)[1] + RB_LIKE.centre(below)[1]) / 2)
