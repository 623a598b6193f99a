"""What an RG purchase of one side is judged on, read once (RF 11.619, SaP 11.617).

``read_side`` reads the side's CPP ledger summed per day and kind, its RGs counted per kind, the
day's own RGs and the day's Historical DRM in four queries, the same for any length of campaign;
the purchase page (refit.purchases.situation) and the purchase itself
(refit.purchases.services.buy, with the ledger rows themselves locked) both judge on that one
reading, so a request reads the side's ledger once. ``SideReading.facts`` turns it into the plain
``refit.rules.purchase.Situation`` the rules take.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from campaigns.models import (
    Campaign,
    LedgerEntry,
    RefitPhase,
    ReinforcementGroup,
    RgTotal,
    SideDay,
)
from campaigns.models.state import rg_label, rg_option_label
from campaigns.orbat.lifecycle import ENDED
from campaigns.roster.ledger import Movement, cpp_days
from refit.queries import cpp_day_rows, per_side
from refit.rules import purchase as rules
from refit.rules import purchase_costs as costs

PURCHASE_STEP = {"red_factories": "11.619", "slaughter_at_ponyri": "11.617"}


def has_purchases(campaign: Campaign) -> bool:
    return campaign.module in PURCHASE_STEP and "rg_charts" in campaign.game.files


def purchase_rule(campaign: Campaign) -> str:
    return PURCHASE_STEP[campaign.module]


def cg_definition(campaign: Campaign) -> dict:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return definitions.get(campaign.campaign_game) or {}


def map_groups(campaign: Campaign) -> tuple[str, ...]:
    if campaign.module != costs.RF:
        return ()
    return tuple(cg_definition(campaign).get("map_groups") or ())


@dataclass(frozen=True)
class CppState:
    total: int
    spent: int
    left: int  # what the purchases may still spend (recon already paid is taken off)


def cpp_state(rows: Sequence[tuple[int, str, int, str]], day_count: int, index: int) -> CppState:
    day = cpp_days(day_count, [Movement(*row) for row in rows])[index]
    return CppState(total=day.total, spent=day.spent, left=day.left)


def ledger_rows(
    campaign: Campaign, side: str, ledger: str, *, lock: bool = False
) -> list[tuple[int, str, int, str]]:
    """The side's rows of one ledger as ``(index, kind, amount, rg)``; with ``lock`` (inside a
    transaction) they stay locked until the commit, so two devices of one side cannot spend the
    same points."""
    rows = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger=ledger)
    if lock:
        rows = rows.select_for_update(of=("self",))
    return list(rows.values_list("index", "kind", "amount", "rg"))


class DayRg(NamedTuple):
    """What the purchase page shows of one RG of the day (``SideReading.today``): a row of
    plain values, not a model instance — the open day holds 12 RGs at the bench's big size and
    75 at its huge one, and an instance with its whole ``details`` cost twice as much a row."""

    pk: int
    side: str
    rg_id: str
    number: int
    index: int
    source: str
    option: str
    cpp_cost: int
    received: dict[str, Any] | None  # ``details["received"]``: what its rolls gave, if rolled

    @property
    def label(self) -> str:
        return rg_label(self.rg_id, self.number)

    @property
    def option_label(self) -> str:
        return rg_option_label(self.option)


DAY_RG_COLUMNS = (
    *("pk", "side", "rg_id", "number", "index", "source", "option", "cpp_cost"),
    "details__received",
)


def day_rgs(campaign: Campaign, side: str, index: int) -> list[DayRg]:
    """The side's RGs of CG day ``index``, given and bought, in the order they came (one
    query). Sorted here, not by the database: asked to order by id, SQLite (without statistics)
    walks every RG of the campaign in the id order of the campaign's index and filters them;
    unordered, it reads the day's own from the index ``rg_newest`` (2088 RGs at the bench's
    huge size, 75 of them on the open day)."""
    rows = (
        ReinforcementGroup.objects.filter(campaign=campaign, side=side, index=index)
        .order_by()
        .values_list(*DAY_RG_COLUMNS)
    )
    return sorted(map(DayRg._make, rows))


# What the rules read of the side's RGs, one row per kind of RG: the RG, its day, how it came,
# the map group it was bought for (RF CG I), whether it has ended (SaP CG5), and how many.
RgTally = tuple[str, int, str, str, bool, int]


@dataclass(frozen=True)
class SideReading:
    """One side's purchase state on CG day ``index``, read once: the CPP ledger summed per day
    and kind, the side's RGs counted per kind (``RgTally``), the day's own RGs, the Historical
    DRM. However many RGs and ledger rows the side has, the rules loop over at most one tally
    per RG of the chart and CG day."""

    campaign: Campaign
    side: str
    index: int
    cpp_rows: list[tuple[int, str, int, str]]  # (index, kind, amount, rg) as cpp_days reads
    tallies: list[RgTally]
    today: list[DayRg]  # the RGs of day ``index``, given and bought, in order
    hist_drm: int | None  # the side's Historical DRM of the day (None: not entered yet)
    hist_drms: dict[str, int] = field(default_factory=dict)  # RF CG I: per map group

    @cached_property
    def cpp(self) -> CppState:
        return cpp_state(self.cpp_rows, len(self.campaign.cg.periods), self.index)

    def facts(self, reph: RefitPhase) -> rules.Situation:
        """The facts a purchase in ``reph`` is judged on."""
        campaign = self.campaign
        periods = campaign.cg.periods
        # The purchases counted per RG, day and map group: an RG's status does not change what
        # it counts against (its tallies apart by "ended" are added up first).
        counts: dict[tuple[str, int, str], int] = {}
        per_rg: dict[str, int] = {}  # every RG of the side per id, however it came
        purchased = ReinforcementGroup.Source.PURCHASED
        for rg_id, index, source, map_group, _ended, count in self.tallies:
            per_rg[rg_id] = per_rg.get(rg_id, 0) + count
            if source == purchased:
                key = (rg_id, index, map_group)
                counts[key] = counts.get(key, 0) + count
        # One ``Bought`` per RG, day and map group bought (811 at the bench's huge size): made
        # with its fields in order, each day's key looked up once.
        keys = [period.key for period in periods]
        days = len(keys)
        made = rules.Bought
        bought = tuple(
            made(rg_id, index, keys[index] if index < days else "", map_group, count)
            for (rg_id, index, map_group), count in counts.items()
        )
        observers, planes = _observer_counts(campaign, self.side, per_rg)
        return rules.Situation(
            module=campaign.module,
            side=self.side,
            cg=campaign.campaign_game,
            index=reph.index,
            period_key=periods[reph.index].key,
            reph_kind=reph.kind,
            cpp_left=self.cpp.left,
            hist_drm=self.hist_drm,
            hist_drms=self.hist_drms,
            bought=bought,
            map_groups=map_groups(campaign),
            oba_without_observer=observers,
            oba_for_plane=planes,
            oba_held=_oba_held(campaign, self.side, self.tallies, reph.index),
        )

    def offers(self, reph: RefitPhase) -> list[rules.Offer]:
        """Every RG of the side's chart as it may be bought in ``reph``, with why not."""
        campaign = self.campaign
        return rules.offers(
            campaign.game.files["rg_charts"], cg_definition(campaign), self.facts(reph)
        )


def _tallies_query(side: str):
    return per_side(
        "tallies",
        side,
        lambda campaign_id: (
            RgTotal.objects.filter(campaign_id=campaign_id, side=side)
            .order_by("rg_id", "map_group", "source", "index", "status")
            .values_list("rg_id", "map_group", "source", "index", "status", "rgs")
        ),
        1,
    )


def rg_tallies(campaign: Campaign, side: str) -> list[RgTally]:
    """The side's RGs counted per (RG, day, source, map group, ended).

    Read from ``RgTotal``, which the database keeps equal to the RGs' ``GROUP BY`` per RG, map
    group, source, day and status (campaigns migration 0044; the RG's map group is a column the
    database derives from its JSON, ``ReinforcementGroup.map_group``): one row per kind of RG,
    however many RGs the side has, in its key's order. A status is one of a few, and the
    statuses are folded into "ended" here. Only a campaign game with map groups (RF CG I)
    keeps the map group: elsewhere a purchase cannot name one (``no_map_groups``, 11.617) and
    every RG counts as of group ""."""
    with_groups = bool(map_groups(campaign))
    tallies: dict[tuple[str, int, str, str, bool], int] = {}
    count = tallies.get
    for rg, group, source, day, status, n in _tallies_query(side)(campaign.pk):
        key = (rg, day, source, group if with_groups else "", status in ENDED)
        tallies[key] = count(key, 0) + n
    return [(*key, n) for key, n in tallies.items()]


def read_side(campaign: Campaign, side: str, index: int, *, lock: bool = False) -> SideReading:
    """Four queries: the CPP ledger (summed; the rows themselves, locked, with ``lock``), the
    RGs counted, the day's RGs, the Historical DRM."""
    if lock:
        # FOR UPDATE cannot group: the rows themselves, which cpp_days sums the same way.
        cpp_rows = ledger_rows(campaign, side, LedgerEntry.CPP, lock=True)
    else:
        cpp_rows = cpp_day_rows(campaign.pk, side)  # the ledger's totals (LedgerTotal)
    # The day's RGs and Historical DRM: not compiled (a day is a small-integer column, which
    # a compiled query's stand-in cannot be on PostgreSQL).
    today = day_rgs(campaign, side, index)
    hist_drm, hist_drms = (
        SideDay.objects.filter(campaign=campaign, index=index, side=side)
        .values_list("hist_drm", "hist_drms")
        .first()
    ) or (None, {})
    return SideReading(
        campaign,
        side,
        index,
        cpp_rows,
        rg_tallies(campaign, side),
        today,
        hist_drm,
        dict(hist_drms or {}),
    )


def side_cpp(campaign: Campaign, side: str, index: int) -> CppState:
    """The side's CPP on day ``index`` (one query)."""
    rows = ledger_rows(campaign, side, LedgerEntry.CPP)
    return cpp_state(rows, len(campaign.cg.periods), index)


def _observer_counts(campaign: Campaign, side: str, counts: Mapping[str, int]) -> tuple[int, int]:
    """(OBA modules without an offboard observer, OBA able to take a plane without one), from
    the side's RGs counted per id (``counts``)."""
    chart = costs.chart_side(campaign.game.files["rg_charts"], side)
    by_id = {group["id"]: group for group in chart.get("groups", [])}
    if campaign.module == costs.RF:
        observer_targets = {"O1", "O2", "O3", "O4"}
        plane_targets = {"O2", "O3"}
    else:
        # SaP: rocket modules come with their observer (note o).
        observer_targets = {
            rg_id
            for rg_id, group in by_id.items()
            if group.get("oba") and not group["oba"].get("includes_observer")
        }
        plane_targets = set()
    observers = sum(counts.get(rg_id, 0) for rg_id in observer_targets) - counts.get("O5", 0)
    planes = sum(counts.get(rg_id, 0) for rg_id in plane_targets) - counts.get("O6", 0)
    return max(observers, 0), max(planes, 0)


def _oba_held(campaign: Campaign, side: str, tallies: Sequence[RgTally], index: int) -> int:
    """SaP CG5: the side's non-rocket OBA RGs of earlier time frames not yet expended,
    eliminated or withdrawn (they are still possessed)."""
    if campaign.module != "slaughter_at_ponyri":
        return 0
    by_id: dict[str, Mapping[str, Any]] = {}  # as group_by_id: the first of an id
    for group in costs.chart_side(campaign.game.files["rg_charts"], side).get("groups", []):
        by_id.setdefault(group["id"], group)
    held = 0
    for rg_id, day, _source, _map_group, ended, count in tallies:
        if day >= index or ended:
            continue
        oba = by_id.get(rg_id, {}).get("oba")
        if oba and not oba.get("rocket"):
            held += count
    return held
