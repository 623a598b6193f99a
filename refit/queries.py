"""The Refit Phase pages' hot queries, compiled once per side (campaigns.compiled).

``per_side(name, side, build, arguments)`` is a ``CompiledQuery`` of ``build`` kept under
``(name, side)``: the side is a constant of its SQL (a word, which a compiled query's number
stand-ins cannot replace), the campaign its value. Only ids are values: a day (a small-integer
column) cannot take a stand-in on PostgreSQL, so queries by day stay plain querysets. What is
kept is the query's text alone, as ``CompiledQuery`` keeps it: nothing of any data.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from django.db.models import QuerySet

from campaigns.compiled import CompiledQuery
from campaigns.models import LedgerEntry, LedgerTotal

_COMPILED: dict[tuple, CompiledQuery] = {}


def per_side(
    name: str, side: Hashable, build: Callable[..., QuerySet], arguments: int
) -> CompiledQuery:
    key = (name, side)
    if key not in _COMPILED:
        if len(_COMPILED) > 1000:  # a campaign's sides are few: never reached but by mistake
            _COMPILED.clear()
        _COMPILED[key] = CompiledQuery(build, arguments)
    return _COMPILED[key]


# --- the ledger's sums (LedgerTotal) --------------------------------------------------------


def ledger_day_sums(campaign_id: int, side: str, ledger: str) -> list[tuple[int, str, int, int]]:
    """One side's CPP or FPP ledger summed per CG day and kind, as ``(index, kind, gained,
    lost)``: the positive and the negative amounts apart (an FPP day's gains are what it has
    available, its spending is not). Read from ``LedgerTotal``, which the database keeps equal
    to the ledger's ``GROUP BY`` (campaigns migration 0043): a row per day, kind, RG and amount,
    however many entries the ledger holds. Access is the caller's (campaigns.access)."""
    rows = per_side(
        "ledger totals",
        (side, ledger),
        lambda campaign_id: (
            LedgerTotal.objects.filter(campaign_id=campaign_id, side=side, ledger=ledger)
            .order_by()
            .values_list("index", "kind", "amount", "entries")
        ),
        1,
    )(campaign_id)
    sums: dict[tuple[int, str], list[int]] = {}
    for index, kind, amount, entries in rows:
        total = sums.setdefault((index, kind), [0, 0])
        total[0 if amount > 0 else 1] += amount * entries
    return [(index, kind, gained, lost) for (index, kind), (gained, lost) in sums.items()]


def cpp_day_rows(campaign_id: int, side: str) -> list[tuple[int, str, int, str]]:
    """The side's CPP per day and kind as ``campaigns.roster.ledger.cpp_days`` reads movements,
    ``(index, kind, amount, rg)`` (one query)."""
    return [
        (index, kind, gained + lost, "")
        for index, kind, gained, lost in ledger_day_sums(campaign_id, side, LedgerEntry.CPP)
    ]


def fpp_day_rows(campaign_id: int, side: str) -> list[tuple[int, str, int, str]]:
    """The side's FPP per day, kind and sign as ``campaigns.roster.ledger.fpp_days`` reads
    movements, ``(index, kind, amount, rg)`` (one query): the gains and the spending of a kind
    apart, since only an adjustment's negative amount is taken off what a day has available."""
    rows = []
    for index, kind, gained, lost in ledger_day_sums(campaign_id, side, LedgerEntry.FPP):
        if gained:
            rows.append((index, kind, gained, ""))
        if lost:
            rows.append((index, kind, lost, ""))
    return rows
