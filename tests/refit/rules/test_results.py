"""refit.rules.results.changed_within: a value on the CG Roster moved by a table's result and
held within its limits (RF 11.617: ELR +1 to at most 4, −1 to at least 0; SAN at least 0)."""

from __future__ import annotations

import pytest

from refit.rules.results import changed_within


@pytest.mark.parametrize(
    ("elr", "change", "expected"),
    [
        (3, 1, 4),  # one below the maximum
        (4, 1, 4),  # at the maximum
        (1, -1, 0),  # one above the minimum
        (0, -1, 0),  # at the minimum
        (2, 0, 2),
        (4, -1, 3),
        (0, 1, 1),
    ],
)
def test_elr_change_stays_within_zero_and_four(elr, change, expected):
    assert changed_within(elr, change, 0, 4) == expected


@pytest.mark.parametrize(
    ("current", "change", "expected"),
    [(2, 5, 4), (3, 2, 4), (2, -5, 0), (1, -2, 0)],
)
def test_a_change_larger_than_the_room_left_stops_at_the_limit(current, change, expected):
    assert changed_within(current, change, 0, 4) == expected


@pytest.mark.parametrize(
    ("current", "change", "expected"),
    [
        (5, 1, 5),  # above the maximum: +1 neither raises it nor pulls it back to 4
        (5, 0, 5),
        (5, -1, 4),
        (6, -1, 5),
        (-1, -1, -1),  # already below the minimum: −1 leaves it
        (-1, 0, -1),
        (-1, 1, 0),
        (-2, 1, -1),
    ],
)
def test_a_value_already_beyond_a_limit_is_not_pulled_back(current, change, expected):
    assert changed_within(current, change, 0, 4) == expected


@pytest.mark.parametrize(
    ("current", "change", "expected"),
    [(0, 1, 1), (4, 1, 5), (10, 3, 13), (0, -1, -1), (-5, -5, -10), (7, 0, 7)],
)
def test_without_limits_the_change_is_applied_as_it_is(current, change, expected):
    assert changed_within(current, change, None, None) == expected


@pytest.mark.parametrize(
    ("san", "change", "expected"), [(1, -1, 0), (0, -1, 0), (6, -1, 5), (9, 1, 10)]
)
def test_san_has_a_minimum_and_no_maximum(san, change, expected):
    assert changed_within(san, change, 0, None) == expected


@pytest.mark.parametrize(
    ("current", "change", "expected"), [(3, 1, 4), (4, 1, 4), (0, -1, -1), (-3, -2, -5)]
)
def test_only_a_maximum(current, change, expected):
    assert changed_within(current, change, None, 4) == expected
