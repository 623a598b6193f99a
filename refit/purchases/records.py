"""The RG Purchase Record (RF 11.6197, SaP 11.6177) of one side, as plain rows (the
Fortification Purchase Record is refit.fortifications.records).

Shared by the page (refit.purchases.views) and the printed sheet: keep the signature
``rg_purchase_record(campaign, side) -> Sequence[RgRecordRow]`` stable. The builder reads a
fixed handful of queries: the number of queries does not grow with the campaign. The #P of each
RG is counted by the database (a page: ``counted_numbers``, each RG's own count; the whole
record: ``purchased_numbers``, a window function over the side's RGs), and a row is read and
made only when it is asked for (``LazyRows``): a page of the record reads and makes its 50 rows
(a ``COUNT`` and a ``LIMIT``), the printed sheet all of them.
Access is not checked here: callers go through campaigns.access first (the record is
secret to the side and the referee).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.db.models import F, Func, IntegerField, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.registry import localized
from campaigns.models import Campaign, ReinforcementGroup
from campaigns.orbat import rg_status
from campaigns.paging import LazyRows
from campaigns.records.setup import enters_restriction
from refit.queries import per_side
from refit.rules import purchase_costs as costs

CREWS = {"1-2-7", "2-2-8", "2-4-7", "2-3-7"}


@dataclass(frozen=True)
class RgRecordRow:
    """One line of the RG Purchase Record."""

    pk: int
    label: str  # "I1#3": the RG's own divider box
    index: int
    day: str  # the CG day / time frame, in the active language
    rg_id: str
    group_type: str
    source: str  # "initial" or "purchased"
    purchased_number: int | None  # #P (None for an initial-OB RG: it does not count)
    remaining: int | None  # #R = CG Max − #P (None when not counted or no limit)
    strength: str  # F / D / P / N / S; SaP R / F / LD / MD / HD
    units: int | None  # #Units
    sw_guns: str
    leaders: str
    other: str
    onboard: str  # RF O / R / D; SaP O / R / C
    cpp_cost: int
    received: bool
    status: str = ""  # its life cycle's key (campaigns.orbat.lifecycle)
    status_label: str = ""  # the same in the reader's language


def _counts(items: dict[str, int]) -> str:
    return ", ".join(f"{n} × {name}" for name, n in items.items() if n)


def _cg_max(campaign: Campaign, group: dict, map_group: str) -> int | None:
    if campaign.module == costs.SAP:
        return group.get("cg_max", {}).get(campaign.campaign_game)
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    limits = (definitions.get(campaign.campaign_game) or {}).get("rg_limits", {})
    column = (limits.get(map_group) or next(iter(limits.values()), {})).get("cg_max_column", "")
    return group.get("cg_max", {}).get(column)


def _other(campaign: Campaign, rg: ReinforcementGroup, got: dict, groups: int) -> str:
    details = rg.details
    parts = []
    if details.get("map_group") and groups > 1:
        parts.append(details["map_group"])
        restriction = enters_restriction(campaign, rg.side, rg.rg_id, details["map_group"])
        if restriction:  # RF CG I's CG9
            parts.append(restriction)
    if details.get("pre_registered_hexes"):
        parts.append(
            _("%(n)s pre-registered hex(es)") % {"n": details["pre_registered_hexes"]}
            + (f": {details['hexes']}" if details.get("hexes") else "")
        )
    if details.get("observer_location"):
        parts.append(_("observer: %(hex)s") % {"hex": details["observer_location"]})
    if details.get("stukas"):
        parts.append(
            _("%(n)s Stukas (E7.21 %(e721)s + 1, RF9)")
            % {"n": details["stukas"], "e721": details.get("e721", "?")}
        )
    if details.get("stuka_two_cpp"):
        parts.append(_("bought for 2 CPP: −2 arrival drm"))
    if rg.rg_id == "M3" and campaign.module == costs.RF:
        parts.append(_("MOL capability: the next scenario"))
    if got.get("chits"):
        parts.append(
            _("%(black)s black / %(red)s red chits")
            % dict(zip(("black", "red"), got["chits"], strict=True))
        )
    if got.get("inexperienced_crews"):
        parts.append(_("Inexperienced crews"))
    if got.get("dug_in"):
        parts.append(
            _("dug-in: BMG removed, +%(lmg)s LMG, never mobile (11.6194c)")
            % {"lmg": got["dug_in"].get("lmg", 0)}
        )
    elif rg.option == costs.DUG_IN and campaign.module == costs.RF:
        parts.append(_("dug-in: BMG removed, one LMG per AFV, never mobile (11.6194c)"))
    if details.get("override"):
        parts.append(_("referee: %(reason)s") % {"reason": details["override"]["reason"]})
    if details.get("note"):
        parts.append(details["note"])
    return "; ".join(parts)


def rg_purchase_record(campaign: Campaign, side: str) -> Sequence[RgRecordRow]:
    """Every RG of the side, bought or given in the initial OB, in the order they came."""
    chart = costs.chart_side(campaign.game.files.get("rg_charts", {}), side)
    by_id = {group["id"]: group for group in chart.get("groups", [])}
    periods = campaign.cg.periods
    language = get_language()
    map_group_count = len(
        (
            campaign.game.files.get("campaign_games", {})
            .get("campaign_games", {})
            .get(campaign.campaign_game)
            or {}
        ).get("rg_limits", {})
    )

    def row(rg: ReinforcementGroup) -> RgRecordRow:
        number = rg.bought if rg.source == ReinforcementGroup.Source.PURCHASED else None
        group = by_id.get(rg.rg_id, {})
        remaining = None
        if number is not None:
            cg_max = _cg_max(campaign, group, rg.details.get("map_group", ""))
            remaining = None if cg_max is None else cg_max - number
        got = rg.details.get("received") or {}
        units = dict(got.get("units", {}))
        sw = dict(got.get("sw", {}))
        if group.get("type") == "gun":
            guns = {name: n for name, n in units.items() if name not in CREWS}
            sw = {**guns, **sw}
            unit_count = sum(guns.values()) if guns else None
        else:
            unit_count = sum(n for name, n in units.items() if name not in CREWS) or None
        leaders = list(got.get("leaders", []))
        if got.get("armor_leader"):
            leaders.append(_("%(rating)s armor leader") % {"rating": got["armor_leader"]})
        return RgRecordRow(
            pk=rg.pk,
            label=rg.label,
            index=rg.index,
            day=periods[rg.index].label.in_language(language) if rg.index < len(periods) else "",
            rg_id=rg.rg_id,
            group_type=localized(group.get("name"), language),
            source=rg.source,
            purchased_number=number,
            remaining=remaining,
            strength=rg.strength,
            units=unit_count,
            sw_guns=_counts(sw),
            leaders=", ".join(leaders),
            other=_other(campaign, rg, got, map_group_count),
            onboard=(
                costs.onboard_code(campaign.module, rg.option)
                if rg.source == ReinforcementGroup.Source.PURCHASED
                else ""
            ),
            cpp_cost=rg.cpp_cost,
            received="received" in rg.details,
            status=rg.status,
            status_label=rg_status.status_label(rg.status),
        )

    whole = per_side("rg record", side, lambda campaign_id: purchased_numbers(campaign_id, side), 1)

    def newest(count: int) -> Iterable[ReinforcementGroup]:
        # A fixed number of the newest (the report's page): compiled once per side and count.
        return per_side(
            f"rg record newest {count}",
            side,
            lambda campaign_id: counted_numbers(campaign_id, side).reverse()[:count],
            1,
        )(campaign.pk)

    return _Record(lambda: counted_numbers(campaign, side), lambda: whole(campaign.pk), row, newest)


class _Record(LazyRows[RgRecordRow]):
    """The record's rows: a page (a slice) reads its rows each with its #P counted by itself
    (``counted_numbers``), the whole record (the printed sheet, the report) every RG with one
    window (``purchased_numbers``, compiled once per side) — the same numbers, each the cheaper
    way for how many rows are read. Each query is built only when its rows are read: the sheet
    and the report never build the page's (building its subquery costs more than running it)."""

    def __init__(
        self,
        page: Callable[[], QuerySet],
        whole: Callable[[], Iterable[ReinforcementGroup]],
        make: Callable[[ReinforcementGroup], RgRecordRow],
        newest: Callable[[int], Iterable[ReinforcementGroup]] | None = None,
    ) -> None:
        super().__init__(page, make)
        self._whole = whole
        self._newest = newest

    def __iter__(self):
        if self._all is None:
            self._all = self._made(self._whole())
        return iter(self._all)

    def last(self, count: int) -> list[RgRecordRow]:
        """The record's last ``count`` rows, in its order (one query, compiled once)."""
        if self._newest is None:
            raise TypeError("a record read newest first has no last rows")
        return self._made(self._newest(count))[::-1]

    def newest_first(self) -> LazyRows[RgRecordRow]:
        whole = self._whole
        rows = _Record(lambda: self._items.reverse(), lambda: list(whole())[::-1], self._make)
        rows._language = self._language
        rows._count = self._count  # the same rows: counted once
        return rows


# The record's order: the day, the initial OB before the purchases, then as recorded.
RECORD_ORDER = ("index", "source", "id")


def purchased_numbers(campaign: Campaign | int, side: str) -> QuerySet[ReinforcementGroup]:
    """The side's RGs in the record's order, each with ``bought``: for a purchased RG its #P,
    the how-manieth RG of its id (and map group) bought, counting every purchase up to it in
    that order (``ROW_NUMBER()`` over the RGs of the same id, map group and source, so that a
    page of the record needs only its own rows). An RG without a map group counts with those
    whose map group is ""."""
    return (
        ReinforcementGroup.objects.filter(campaign=campaign, side=side)
        .annotate(
            bought=Window(
                RowNumber(),
                partition_by=[F("rg_id"), F("map_group"), F("source")],
                order_by=[F(name).asc() for name in RECORD_ORDER],
                output_field=IntegerField(),
            )
        )
        .order_by(*RECORD_ORDER)
    )


def counted_numbers(campaign: Campaign, side: str) -> QuerySet[ReinforcementGroup]:
    """``purchased_numbers`` for a page of the record: each RG's ``bought`` the RGs of its id,
    map group and source up to it in the record's order, counted for that RG alone (a range of
    the index ``rg_tallies``), so that a page of 50 counts about its own RGs' purchases and does
    not number every RG of the side (``ROW_NUMBER()`` over 2,088 RGs: 5.6 ms; this: 1.6 ms)."""
    earlier = (
        ReinforcementGroup.objects.filter(
            campaign=OuterRef("campaign"),
            side=OuterRef("side"),
            rg_id=OuterRef("rg_id"),
            map_group=OuterRef("map_group"),
            source=OuterRef("source"),
        )
        .filter(Q(index__lt=OuterRef("index")) | Q(index=OuterRef("index"), id__lte=OuterRef("id")))
        .order_by()
        # COUNT as a plain function: one row, no GROUP BY (the RG itself is among them: ≥ 1).
        .annotate(n=Func(F("id"), function="COUNT", output_field=IntegerField()))
        .values("n")
    )
    return (
        ReinforcementGroup.objects.filter(campaign=campaign, side=side)
        .annotate(bought=Subquery(earlier, output_field=IntegerField()))
        .order_by(*RECORD_ORDER)
    )
