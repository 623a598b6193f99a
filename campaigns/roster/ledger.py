"""CPP and FPP sheet columns derived from ledger events — plain Python over plain data.

The CG Roster's CPP columns (RF 12.1, SaP 11.1):

* Start: the initial OB's CPP on the first day; afterwards the previous day's Left ("the Start
  column always shows the side's CPP total at the start of that CG day", RF 11.622, SaP 11.620).
* Repl: CPP replenishment (11.616); blank on the first day. In RF CG I a side rolls once per map
  group (11.58) into its one pool: Repl is their sum, ``repl_by_group`` each roll's CPP.
* Total = Start + Repl (+ referee adjustments, which the app shows on their own).
* Spent: CPP paid for RGs that day (11.619). Left = Total − Spent − the 1 or 2 CPP paid for
  recon: the recon cost is subtracted from the Left figure (RF 11.622 "Left から1 … を引き";
  SaP 11.620 "shown at once in the Left column") and the result is the next day's Start.
* Recon: the number of Locations that may be reconnoitred, the modified recon dr (RF 11.622,
  SaP 11.620: "the number of Locations is written in the Recon column") — not CPP. ``recon_cpp``
  keeps what the recon cost, for the ledger page.
* RG Purchased: each RG with its CPP (11.619: "write its ID (and the CPP used)"); the same RG
  bought more than once the same day at the same cost is named once with its count
  ("I1 (5) ×3"), so a day's cell is bounded by the side's RG chart, not by how many RGs were
  bought (docs/decisions.md).

FPP are spent in 11.621 and "all FPP not spent at the end of this step are lost", so each day's
FPP stand alone: Available = initial + from fortification RGs (+ adjustments); Left is lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass(frozen=True)
class Movement:
    """One ledger entry as plain data: day index, kind, signed amount, RG (purchases), and for
    a recon payment the number of Locations its dr gave."""

    index: int
    kind: str
    amount: int
    rg: str = ""
    locations: int | None = None
    map_group: str = ""  # RF CG I: the map group a replenishment was rolled for
    count: int = 1  # entries summed into ``amount`` (RG purchases of one RG at one cost)


class Purchase(NamedTuple):
    """One cell entry of "RG Purchased": the RG, the CPP each of its purchases cost, how many."""

    rg: str
    cost: int
    count: int = 1

    def __str__(self) -> str:
        return f"{self.rg} ({self.cost})" + (f" ×{self.count}" if self.count != 1 else "")


def purchases_text(purchases: Iterable[Purchase]) -> str:
    """The "RG Purchased" cell: "A5 (4), I1 (5) ×2"."""
    return ", ".join(str(purchase) for purchase in purchases)


def grouped_purchases(entries: Iterable[Movement]) -> tuple[Purchase, ...]:
    """A day's RG purchases, one per RG and cost, in the order each was first booked."""
    counts: dict[tuple[str, int], int] = {}
    for m in entries:
        if m.kind == "rg_purchase":
            cost = -m.amount // m.count
            counts[m.rg, cost] = counts.get((m.rg, cost), 0) + m.count
    return tuple(Purchase(rg, cost, count) for (rg, cost), count in counts.items())


@dataclass(frozen=True)
class CppDay:
    index: int
    start: int
    repl: int | None  # None on the first day: the printed form has no Repl there
    adjustment: int
    total: int
    spent: int
    left: int
    recon: int | None  # Locations that may be reconnoitred; None: no recon that day
    recon_cpp: int = 0  # CPP paid for recon (already off Left)
    purchases: tuple[Purchase, ...] = field(default=())
    repl_by_group: tuple[tuple[str, int], ...] = field(default=())  # RF CG I, in booking order

    @property
    def purchased(self) -> str:
        """The "RG Purchased" cell as the page and the sheets write it."""
        return purchases_text(self.purchases)

    @property
    def has_multiples(self) -> bool:
        return any(purchase.count != 1 for purchase in self.purchases)


@dataclass(frozen=True)
class FppDay:
    index: int
    available: int
    spent: int
    lost: int


def cpp_days(day_count: int, movements: Iterable[Movement]) -> list[CppDay]:
    by_day: dict[int, list[Movement]] = {}
    for movement in movements:
        if not 0 <= movement.index < day_count:
            raise ValueError(f"ledger entry on day {movement.index}, outside the CG")
        by_day.setdefault(movement.index, []).append(movement)
    days = []
    carried = 0
    for index in range(day_count):
        entries = by_day.get(index, [])

        def total_of(kind: str, entries: list[Movement] = entries) -> int:
            return sum(m.amount for m in entries if m.kind == kind)

        start = carried + total_of("initial")
        repl = None if index == 0 else total_of("replenishment")
        adjustment = total_of("adjustment")
        total = start + (repl or 0) + adjustment
        spent = -total_of("rg_purchase")
        recon_cpp = -total_of("recon")
        left = total - spent - recon_cpp
        recon = recon_locations(entries)
        days.append(
            CppDay(
                index=index,
                start=start,
                repl=repl,
                adjustment=adjustment,
                total=total,
                spent=spent,
                left=left,
                recon=recon,
                recon_cpp=recon_cpp,
                purchases=grouped_purchases(entries),
                repl_by_group=_by_group(entries),
            )
        )
        carried = left
    return days


def _by_group(entries: Iterable[Movement]) -> tuple[tuple[str, int], ...]:
    """A day's replenishment per map group (RF CG I), each group once, in the order booked."""
    sums: dict[str, int] = {}
    for m in entries:
        if m.kind == "replenishment" and m.map_group:
            sums[m.map_group] = sums.get(m.map_group, 0) + m.amount
    return tuple(sums.items())


def recon_locations(entries: Iterable[Movement]) -> int | None:
    """The Recon column of one day: the Locations the day's recon dr gave (None without a recon
    payment; a payment booked without its count, e.g. by hand in the ledger, reads as 0)."""
    paid = [m for m in entries if m.kind == "recon" and m.amount < 0]
    if not paid:
        return None
    return sum(m.locations or 0 for m in paid)


def fpp_days(day_count: int, movements: Iterable[Movement]) -> list[FppDay]:
    by_day: dict[int, list[Movement]] = {}
    for movement in movements:
        if not 0 <= movement.index < day_count:
            raise ValueError(f"ledger entry on day {movement.index}, outside the CG")
        by_day.setdefault(movement.index, []).append(movement)
    days = []
    for index in range(day_count):
        entries = by_day.get(index, [])
        available = sum(m.amount for m in entries if m.amount > 0 or m.kind == "adjustment")
        spent = -sum(m.amount for m in entries if m.kind == "fortification_purchase")
        days.append(FppDay(index=index, available=available, spent=spent, lost=available - spent))
    return days


def shortfalls(ledger: str, day_count: int, movements: Iterable[Movement]) -> dict[int, int]:
    """The days whose points run below zero, each with its balance: CPP Left (recon paid, what
    the next day starts from), FPP available less spent."""
    if ledger == "fpp":
        return {day.index: day.lost for day in fpp_days(day_count, movements) if day.lost < 0}
    return {day.index: day.left for day in cpp_days(day_count, movements) if day.left < 0}


def new_shortfalls(
    ledger: str, day_count: int, before: Iterable[Movement], after: Iterable[Movement]
) -> dict[int, int]:
    """The days a change takes below zero, or further below than they already were (a referee's
    adjustment may have left a day short; a change that does not deepen it is no new breach)."""
    was = shortfalls(ledger, day_count, before)
    return {
        index: balance
        for index, balance in shortfalls(ledger, day_count, after).items()
        if balance < was.get(index, 0)
    }
