"""Dice luck: a side's rolls on a table against the distribution fair dice give — pure.

A roll is read by its unmodified total (``DiceRoll.original``): a dr is 1–6, each 1/6; a DR is
2–12, 7 the likeliest (6/36). Two measures say how unusual the rolls were, both computed here
and nowhere else:

* ``chi_square``: Pearson's statistic over every total the dice can show, with its p-value
  (the chance that fair dice would look at least this far from the expected counts). Few
  rolls make it rough; the report prints the number of rolls beside it.
* ``mean_percentile``: where the rolls' mean falls among fair dice's means of as many rolls
  (normal approximation): 50 is exactly average, 95 means only 5 % of fair rolls average
  higher. Whether high is good depends on the table, so the report does not call it luck in
  either direction.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

KINDS = ("dr", "DR")


def faces(kind: str) -> range:
    """The totals a roll of ``kind`` can show."""
    if kind == "dr":
        return range(1, 7)
    if kind == "DR":
        return range(2, 13)
    raise ValueError(f"unknown roll kind {kind!r}")


@functools.lru_cache(maxsize=64)
def probability(kind: str, total: int) -> Fraction:
    """The chance fair dice show ``total`` on a roll of ``kind``."""
    if total not in faces(kind):
        return Fraction(0)
    if kind == "dr":
        return Fraction(1, 6)
    return Fraction(6 - abs(total - 7), 36)


@functools.lru_cache(maxsize=4)
def expected_mean(kind: str) -> float:
    return float(sum(total * probability(kind, total) for total in faces(kind)))


@functools.lru_cache(maxsize=4)
def variance(kind: str) -> float:
    mean = expected_mean(kind)
    return float(sum((total - mean) ** 2 * probability(kind, total) for total in faces(kind)))


def _regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the chi-square survival function is Q(df/2, χ²/2)."""
    if x <= 0:
        return 1.0
    if x < a + 1:  # the series for P converges here
        term = total = 1.0 / a
        n = a
        for _ in range(500):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # Lentz's continued fraction for Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)


def chi_square_p(statistic: float, df: int) -> float:
    """The chance of a chi-square of ``df`` degrees of freedom at least ``statistic``."""
    return _regularized_gamma_q(df / 2, statistic / 2)


def _normal_cdf(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


@dataclass(frozen=True)
class Luck:
    """A side's rolls of one kind on one table (or on all its tables)."""

    kind: str
    counts: tuple[tuple[int, int], ...]  # (total, how many times), every total the dice show
    rolls: int
    mean: float | None  # None without rolls
    expected_mean: float
    chi_square: float | None
    p_value: float | None  # None without rolls
    mean_percentile: float | None  # None without rolls

    def expected_counts(self) -> tuple[tuple[int, float], ...]:
        return tuple(
            (total, self.rolls * float(probability(self.kind, total))) for total in faces(self.kind)
        )


def luck(kind: str, counts: Mapping[int, int]) -> Luck:
    """The measures of rolls of ``kind`` showing ``counts`` (total → times).

    Worked out once per process for the same counts (``_measured``: the p-value's series and
    the normal CDF are pure-Python arithmetic, a report measures ~10 tables): a function of the
    numbers alone, so a kept result is only ever given for equal counts."""
    totals = faces(kind)
    unknown = [total for total in counts if total not in totals]
    if unknown:
        raise ValueError(f"a {kind} cannot show {unknown}")
    return _measured(kind, tuple((total, int(counts.get(total, 0))) for total in totals))


@functools.lru_cache(maxsize=512)
def _measured(kind: str, table: tuple[tuple[int, int], ...]) -> Luck:
    n = sum(times for _total, times in table)
    mu = expected_mean(kind)
    if n == 0:
        return Luck(kind, table, 0, None, mu, None, None, None)
    mean = sum(total * times for total, times in table) / n
    statistic = sum(
        (times - n * float(probability(kind, total))) ** 2 / (n * float(probability(kind, total)))
        for total, times in table
    )
    z = (mean - mu) / math.sqrt(variance(kind) / n)
    return Luck(
        kind=kind,
        counts=table,
        rolls=n,
        mean=mean,
        expected_mean=mu,
        chi_square=statistic,
        p_value=chi_square_p(statistic, len(table) - 1),
        mean_percentile=100 * _normal_cdf(z),
    )
