"""refit.rules.carry: a new CG day (RF) or time frame (SaP) starts with the previous day's ELR
and SAN; a SAN of 0 rises to 2 (RF 11.6122 [L1293], SaP 11.6122 [L1058])."""

from __future__ import annotations

import pytest

from refit.rules.carry import Ratings, carried, san_at_new_day


@pytest.mark.parametrize(
    ("san", "expected"),
    [
        (0, 2),  # the rule: SAN 0 goes automatically to 2
        (1, 1),  # one over: no change
        (2, 2),
        (3, 3),
        (6, 6),  # the 11.6122 example's SAN: it rolls instead
        (None, None),  # unknown stays unknown
    ],
)
def test_a_san_of_0_rises_to_2_and_no_other(san, expected):
    assert san_at_new_day(san) == expected


def test_the_previous_days_elr_and_san_carry_into_an_empty_day():
    # RB CG I: Soviet ELR 3, SAN 4 on 17 Oct → 18 Oct starts with them.
    assert carried(Ratings(elr=3, san=4), Ratings(elr=None, san=None)) == {"elr": 3, "san": 4}


def test_a_san_of_0_is_carried_as_2():
    assert carried(Ratings(elr=2, san=0), Ratings(elr=None, san=None)) == {"elr": 2, "san": 2}


def test_a_san_of_1_is_carried_as_1():
    assert carried(Ratings(elr=2, san=1), Ratings(elr=None, san=None)) == {"elr": 2, "san": 1}


def test_an_elr_of_0_is_carried_as_0():
    # 0 is a value (11.617's minimum), not an empty field.
    assert carried(Ratings(elr=0, san=3), Ratings(elr=None, san=None)) == {"elr": 0, "san": 3}


def test_a_value_already_on_the_new_day_is_never_replaced():
    assert carried(Ratings(elr=3, san=4), Ratings(elr=2, san=None)) == {"san": 4}
    assert carried(Ratings(elr=3, san=4), Ratings(elr=None, san=5)) == {"elr": 3}
    assert carried(Ratings(elr=3, san=0), Ratings(elr=3, san=0)) == {}


def test_nothing_unknown_is_carried():
    assert carried(Ratings(elr=None, san=None), Ratings(elr=None, san=None)) == {}
    assert carried(Ratings(elr=None, san=4), Ratings(elr=None, san=None)) == {"san": 4}
