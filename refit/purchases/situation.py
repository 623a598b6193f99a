"""Everything the RG purchase page of one side shows, from one reading of the side.

``purchase_situation(viewer, side)`` reads the open RePh, the side's marks and the side itself
once (``reading.read_side``: CPP ledger sums, RG counts, the day's RGs, Historical DRM) and
returns the CPP box, the chart with each line's refusals in words and the RGs of this Refit
Phase with what may be done to them. The view adds the URLs and the form token and renders it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language

from campaigns.access import Viewer
from campaigns.games.registry import LocalizedText, localized
from campaigns.histdrm.services import has_chart
from campaigns.models import RefitPhase, ReinforcementGroup
from refit.purchases import receipt
from refit.purchases.reading import (
    CppState,
    DayRg,
    SideReading,
    map_groups,
    purchase_rule,
    read_side,
)
from refit.purchases.services import option_label, reason_text
from refit.rules import purchase as rules
from refit.rules import purchase_costs as costs
from refit.walker import services as walker


@dataclass(frozen=True)
class ChartRow:
    """One RG of the side's chart as it may be bought now."""

    offer: rules.Offer
    name: str
    cost: int
    reasons: list[str]  # the offer's refusals (``offer.reasons``) in words, with their rules
    placements: list[tuple[str, str, int]]  # (value, label, cost)
    pre_registration: int  # most hexes
    two_cpp: bool
    show_form: bool


@dataclass(frozen=True, slots=True)
class RgRow:
    """One RG of this Refit Phase (slotted: made twice a row, up to 75 rows)."""

    rg: DayRg
    name: str
    removable: bool
    rollable: bool
    summary: str
    # Its "take back" and "roll" forms' addresses (the view's: ``views.with_urls``).
    remove_url: str = ""
    receive_url: str = ""


@dataclass(frozen=True)
class PurchaseSituation:
    reph: RefitPhase | None  # None: the campaign game is over
    # The rest is about the open RePh (empty when there is none).
    day: LocalizedText | None = None
    rule: str = ""  # the purchase step (RF 11.619, SaP 11.617)
    in_reph: bool = False  # the open RePh has the purchase step
    purchase_done: bool = False  # the side has marked it: purchases are final
    can_buy: bool = False
    cpp: CppState | None = None
    chart: tuple[ChartRow, ...] = ()
    rgs: tuple[RgRow, ...] = ()
    map_groups: tuple[str, ...] = ()
    # RF: the day's Historical DRM is not entered yet (company purchases and strength rolls
    # wait for it; the page links to the chart).
    hist_drm_unknown: bool = False

    @property
    def rollable_count(self) -> int:
        """The RGs the viewer may roll for now (one action rolls them all)."""
        return sum(1 for row in self.rgs if row.rollable)


def _hist_drm_unknown(reading: SideReading) -> bool:
    """The day's Historical DRM is not entered yet — in RF CG I, one map group's or both."""
    groups = map_groups(reading.campaign)
    if len(groups) > 1:
        return any(reading.hist_drms.get(group) is None for group in groups)
    return reading.hist_drm is None


def purchase_situation(viewer: Viewer, side: str) -> PurchaseSituation:
    """The purchase page of ``side`` as ``viewer`` sees it; the side's CPP ledger is read once,
    and the number of queries does not grow with the campaign."""
    campaign = viewer.campaign
    reph = walker.open_reph(campaign)
    if reph is None:
        return PurchaseSituation(reph=None)
    reading = read_side(campaign, side, reph.index)
    marks = walker.marked_rules(reph, side)
    rule = purchase_rule(campaign)
    in_reph = any(step.rule == rule for step in walker.steps(campaign, reph))
    can_buy = in_reph and viewer.can_act_for_side(side) and rule not in marks
    return PurchaseSituation(
        reph=reph,
        day=campaign.cg.periods[reph.index].label,
        rule=rule,
        in_reph=in_reph,
        purchase_done=rule in marks,
        can_buy=can_buy,
        cpp=reading.cpp,
        chart=_chart_rows(viewer, reading, reph, can_buy) if in_reph else (),
        rgs=_rg_rows(viewer, reading, reph, marks),
        map_groups=map_groups(campaign),
        hist_drm_unknown=has_chart(campaign) and _hist_drm_unknown(reading),
    )


def _chart_rows(
    viewer: Viewer, reading: SideReading, reph: RefitPhase, can_buy: bool
) -> tuple[ChartRow, ...]:
    campaign, side = reading.campaign, reading.side
    charts = campaign.game.files["rg_charts"]
    rows = []
    for offer in reading.offers(reph):
        group = offer.group
        placements = [
            (
                placement,
                option_label(placement),
                costs.price(
                    campaign.module, charts, side, group, costs.Options(placement=placement)
                ).cost,
            )
            for placement in offer.placements
        ]
        not_in_cg = any(r.code == "not_in_cg" for r in offer.reasons)
        rows.append(
            ChartRow(
                offer=offer,
                name=localized(group.get("name"), get_language()),
                cost=int(group["cpp_cost"]),
                reasons=[reason_text(campaign, r) for r in offer.reasons],
                placements=placements,
                pre_registration=costs.pre_registered_hex_limit(charts, side, group),
                two_cpp=costs.has_alternative_cost(charts, side, group),
                show_form=can_buy and not not_in_cg and (offer.available or viewer.can_overrule),
            )
        )
    return tuple(rows)


def _rg_rows(
    viewer: Viewer, reading: SideReading, reph: RefitPhase, marks: set[str]
) -> tuple[RgRow, ...]:
    campaign, side = reading.campaign, reading.side
    charts = campaign.game.files["rg_charts"]
    can_act = viewer.can_act_for_side(side)
    purchase_done = purchase_rule(campaign) in marks
    strength_rule = receipt.STRENGTH_STEP[campaign.module]
    strength_open = (
        purchase_done
        and strength_rule not in marks
        and any(step.rule == strength_rule for step in walker.steps(campaign, reph))
    )
    language = get_language()
    names: dict[str, str] = {}  # each RG id's name in the reader's language, looked up once
    to_receive: dict[str, bool] = {}  # whether an RG of that id has rolls or units to receive
    rows = []
    for rg in reading.today:
        if rg.index != reph.index:
            continue
        rg_id = rg.rg_id
        if rg_id not in names:
            group = costs.group_by_id(charts, side, rg_id) or {}
            names[rg_id] = localized(group.get("name"), language)
        got = rg.received
        rollable = can_act and strength_open and got is None
        if rollable:
            if rg_id not in to_receive:
                to_receive[rg_id] = receipt.has_something_to_receive(campaign, rg)
            rollable = to_receive[rg_id]
        rows.append(
            RgRow(
                rg=rg,
                name=names[rg_id],
                removable=can_act
                and not purchase_done
                and rg.source == ReinforcementGroup.Source.PURCHASED,
                rollable=rollable,
                summary=receipt.summary(got) if got is not None else "",
            )
        )
    return tuple(rows)
