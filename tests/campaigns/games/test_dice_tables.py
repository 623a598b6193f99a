import pytest

from campaigns.games.dice_tables import parse_table
from campaigns.games.registry import GameDataError

# RF 11.6094 Non-Factory Building Table, as the spec transcribes it: dr, +2 for a single hex.
NON_FACTORY = {
    "id": "rf.non-factory-building",
    "rule": "11.6094",
    "roll": "dr",
    "drm_range": [0, 2],
    "rows": [
        {"min": None, "max": 4, "result": "gutted"},
        {"min": 5, "max": None, "result": "rubble"},
    ],
}


def with_rows(*rows, **extra):
    return {**NON_FACTORY, **extra, "rows": list(rows)}


@pytest.mark.parametrize(
    ("final", "result"), [(1, "gutted"), (4, "gutted"), (5, "rubble"), (8, "rubble")]
)
def test_lookup_uses_inclusive_and_open_bounds(final, result):
    assert parse_table(NON_FACTORY, "t").lookup(final) == result


def test_reachable_range_is_the_roll_widened_by_the_drms():
    assert parse_table(NON_FACTORY, "t").reachable == (1, 8)
    assert parse_table({**NON_FACTORY, "roll": "DR", "drm_range": [-3, 4]}, "t").reachable == (
        -1,
        16,
    )


def test_a_gap_between_rows_is_refused_with_its_path():
    data = with_rows({"min": None, "max": 3, "result": "a"}, {"min": 5, "max": None, "result": "b"})
    with pytest.raises(GameDataError, match=r"t\.rows\[1\]: leaves a gap: 4–4"):
        parse_table(data, "t")


def test_overlapping_rows_are_refused():
    data = with_rows({"min": None, "max": 4, "result": "a"}, {"min": 4, "max": None, "result": "b"})
    with pytest.raises(GameDataError, match="overlaps"):
        parse_table(data, "t")


def test_an_open_row_in_the_middle_is_an_overlap():
    data = with_rows(
        {"min": None, "max": None, "result": "a"}, {"min": 5, "max": None, "result": "b"}
    )
    with pytest.raises(GameDataError, match="overlaps"):
        parse_table(data, "t")


def test_closed_ends_must_reach_every_reachable_final_roll():
    low = with_rows({"min": 2, "max": 4, "result": "a"}, {"min": 5, "max": None, "result": "b"})
    with pytest.raises(GameDataError, match=r"rows\[0\]: does not cover final rolls from 1"):
        parse_table(low, "t")
    high = with_rows({"min": None, "max": 4, "result": "a"}, {"min": 5, "max": 7, "result": "b"})
    with pytest.raises(GameDataError, match=r"rows\[1\]: does not cover final rolls up to 8"):
        parse_table(high, "t")


def test_closed_ends_are_fine_when_nothing_can_reach_beyond_them():
    table = parse_table(
        with_rows(
            {"min": 1, "max": 3, "result": "a"},
            {"min": 4, "max": 6, "result": "b"},
            drm_range=[0, 0],
        ),
        "t",
    )
    assert table.lookup(6) == "b"
    with pytest.raises(ValueError, match="no row for final roll 7"):
        table.lookup(7)


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"roll": "3d6"}, "t.roll"),
        ({"drm_range": [2, -1]}, "t.drm_range"),
        ({"rows": []}, "t.rows"),
        ({"rows": [{"min": "1", "max": None, "result": "a"}]}, "t.rows[0].min"),
        ({"rows": [{"min": 5, "max": 3, "result": "a"}]}, "t.rows[0]"),
        ({"rows": [{"min": None, "max": None}]}, "t.rows[0]"),
        ({"rule": ""}, "t.rule"),
    ],
)
def test_malformed_tables_name_the_bad_field(change, path):
    with pytest.raises(GameDataError) as error:
        parse_table({**NON_FACTORY, **change}, "t")
    assert error.value.path == path
