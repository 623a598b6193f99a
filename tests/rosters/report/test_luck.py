"""Dice luck against fair dice: the distributions, the chi-square's p-value, the percentile."""

from fractions import Fraction

import pytest

from rosters.report import luck


def test_fair_dice_give_every_total_its_chance():
    assert sum(luck.probability("DR", total) for total in luck.faces("DR")) == 1
    assert sum(luck.probability("dr", total) for total in luck.faces("dr")) == 1
    assert luck.probability("DR", 7) == Fraction(6, 36)
    assert luck.probability("DR", 2) == luck.probability("DR", 12) == Fraction(1, 36)
    assert luck.probability("DR", 13) == 0
    assert luck.expected_mean("DR") == pytest.approx(7)
    assert luck.expected_mean("dr") == pytest.approx(3.5)


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [
        (11.0705, 5, 0.05),
        (18.307, 10, 0.05),
        (2.0, 2, 0.3679),
        (0.0, 5, 1.0),
        (40.0, 10, 0.0000169),
    ],
)
def test_the_chi_square_p_value_matches_the_printed_tables(statistic, df, p):
    assert luck.chi_square_p(statistic, df) == pytest.approx(p, rel=1e-3, abs=1e-6)


def test_rolls_exactly_as_expected_are_not_unusual():
    counts = {total: int(luck.probability("DR", total) * 36) for total in luck.faces("DR")}
    measured = luck.luck("DR", counts)
    assert measured.rolls == 36
    assert measured.mean == pytest.approx(7)
    assert measured.chi_square == pytest.approx(0)
    assert measured.p_value == pytest.approx(1)
    assert measured.mean_percentile == pytest.approx(50)


def test_a_run_of_boxcars_is_unusual_and_high():
    measured = luck.luck("DR", {12: 5})
    assert measured.p_value < 0.001
    assert measured.mean_percentile > 99.9
    assert dict(measured.counts)[12] == 5 and dict(measured.counts)[2] == 0


def test_one_roll_of_snake_eyes_is_low():
    measured = luck.luck("dr", {1: 1})
    assert measured.mean == 1
    assert measured.mean_percentile < 50


def test_no_rolls_have_no_measure():
    measured = luck.luck("dr", {})
    assert measured.rolls == 0 and measured.p_value is None and measured.mean is None


def test_a_total_the_dice_cannot_show_is_refused():
    with pytest.raises(ValueError):
        luck.luck("dr", {7: 1})
    with pytest.raises(ValueError):
        luck.faces("d20")
