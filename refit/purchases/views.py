"""The purchase pages of one side: the RG chart to buy from, the RGs of this Refit Phase with
their rolls, the RG Purchase Record, and the fortifications.

Everything here is secret to the side and the referee: ``access.side_reader`` to read (404 for
the opponent, observers and outsiders), ``access.side_actor`` to act; the referee alone buys past
a limit (``Viewer.can_overrule``). Changes go
through refit.purchases.services, refit.purchases.receipt and refit.fortifications.services; every
form carries the id of
the Refit Phase it was shown for, so a page left open changes nothing once the campaign moved on.
With HTMX a form answers with the ``#purchases`` (or ``#fortifications``) partial of its page.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.games.registry import localized
from campaigns.models import FortificationPurchase, RefitPhase, ReinforcementGroup
from refit.fortifications import services as fortifications
from refit.purchases import receipt, records
from refit.purchases import services as purchases
from refit.purchases.forms import (
    BuyForm,
    FortificationActionForm,
    FortificationForm,
    FortificationLocationForm,
    RgActionForm,
    RgNotesForm,
)
from refit.rules import purchase as rules
from refit.rules.fortification import FortificationOrder
from refit.walker import services as walker


def _stale() -> str:
    return _("That page was for an earlier Refit Phase; nothing was changed.")


# --- the purchase page ---------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRow:
    offer: rules.Offer
    name: str
    cost: int
    reasons: list[str]
    placements: list[tuple[str, str, int]]  # (value, label, cost)
    pre_registration: int  # most hexes
    two_cpp: bool
    show_form: bool


@dataclass(frozen=True)
class RgRow:
    rg: ReinforcementGroup
    name: str
    removable: bool
    rollable: bool
    summary: str


def _chart_rows(viewer: Viewer, side: str, reph: RefitPhase, can_buy: bool) -> list[ChartRow]:
    campaign = viewer.campaign
    charts = campaign.game.files["rg_charts"]
    rows = []
    for offer in purchases.offers(campaign, side, reph):
        group = offer.group
        placements = [
            (
                placement,
                purchases.option_label(placement),
                rules.price(
                    campaign.module, charts, side, group, rules.Options(placement=placement)
                ).cost,
            )
            for placement in offer.placements
        ]
        hexes = rules.pre_registered_hex_limit(charts, side, group)
        two_cpp = rules.has_alternative_cost(charts, side, group)
        not_in_cg = any(r.code == "not_in_cg" for r in offer.reasons)
        rows.append(
            ChartRow(
                offer=offer,
                name=localized(group.get("name"), get_language()),
                cost=int(group["cpp_cost"]),
                reasons=[purchases.reason_text(campaign, r) for r in offer.reasons],
                placements=placements,
                pre_registration=hexes,
                two_cpp=two_cpp,
                show_form=can_buy and not not_in_cg and (offer.available or viewer.can_overrule),
            )
        )
    return rows


def _rg_rows(viewer: Viewer, side: str, reph: RefitPhase, marks: set[str]) -> list[RgRow]:
    campaign = viewer.campaign
    charts = campaign.game.files["rg_charts"]
    can_act = viewer.can_act_for_side(side)
    purchase_done = purchases.purchase_rule(campaign) in marks
    strength_rule = receipt.STRENGTH_STEP[campaign.module]
    strength_open = (
        purchase_done
        and strength_rule not in marks
        and any(step.rule == strength_rule for step in walker.steps(campaign, reph))
    )
    rows = []
    for rg in ReinforcementGroup.objects.filter(campaign=campaign, side=side, index=reph.index):
        group = rules.group_by_id(charts, side, rg.rg_id) or {}
        got = rg.details.get("received")
        rows.append(
            RgRow(
                rg=rg,
                name=localized(group.get("name"), get_language()),
                removable=can_act
                and not purchase_done
                and rg.source == ReinforcementGroup.Source.PURCHASED,
                rollable=can_act
                and strength_open
                and got is None
                and receipt.has_something_to_receive(campaign, rg),
                summary=receipt.summary(got) if got is not None else "",
            )
        )
    return rows


def _context(viewer: Viewer, side: str) -> dict[str, Any]:
    campaign = viewer.campaign
    reph = walker.open_reph(campaign)
    context: dict[str, Any] = {
        "viewer": viewer,
        "campaign": campaign,
        "side": campaign.side(side),
        "reph": reph,
        "record_url": reverse("purchases:record", args=[campaign.pk, side]),
    }
    if reph is None:
        return context
    marks = set(reph.progress.filter(side=side).values_list("rule", flat=True))
    rule = purchases.purchase_rule(campaign)
    in_reph = any(step.rule == rule for step in walker.steps(campaign, reph))
    can_buy = in_reph and viewer.can_act_for_side(side) and rule not in marks
    context.update(
        day=campaign.cg.periods[reph.index].label,
        rule=rule,
        in_reph=in_reph,
        purchase_done=rule in marks,
        can_buy=can_buy,
        cpp=purchases.side_cpp(campaign, side, reph.index),
        chart=_chart_rows(viewer, side, reph, can_buy) if in_reph else [],
        rgs=_rg_rows(viewer, side, reph, marks),
        token=secrets.token_urlsafe(16),
        map_groups=purchases.map_groups(campaign),
        step_url=reverse("refit:step", args=[campaign.pk, side, rule]),
    )
    return context


@require_GET
@login_required
def purchase_page(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(request, campaign_id, side, feature=purchases.has_purchases)
    return render(request, "refit/purchases/page.html", _context(viewer, side))


def _after(request: HttpRequest, viewer: Viewer, side: str) -> HttpResponse:
    if request.htmx:
        return render(request, "refit/purchases/page.html#purchases", _context(viewer, side))
    return redirect(reverse("purchases:page", args=[viewer.campaign.pk, side]))


def _current_reph(viewer: Viewer, posted: Any) -> RefitPhase | None:
    reph = walker.open_reph(viewer.campaign)
    if reph is None or str(posted) != str(reph.pk):
        return None
    return reph


@vary_on_headers("HX-Request")
@require_POST
@login_required
def buy(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side, feature=purchases.has_purchases)
    campaign = viewer.campaign
    form = BuyForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was bought: the form was incomplete."))
        return _after(request, viewer, side)
    data = form.cleaned_data
    reph = _current_reph(viewer, data["reph"])
    if reph is None:
        messages.error(request, _stale())
        return _after(request, viewer, side)
    options = rules.Options(
        placement=data["placement"] or "",
        pre_registered_hexes=data["pre_registered_hexes"] or 0,
        stuka_two_cpp=data["stuka_two_cpp"],
        map_group=data["map_group"],
    )
    try:
        rg = purchases.buy(
            campaign,
            side,
            reph.index,
            data["rg"],
            options,
            request.user,
            override_reason=data["override_reason"] if viewer.can_overrule else "",
            token=data["token"],
        )
    except purchases.PurchaseError as error:
        messages.error(
            request, _("%(rg)s was not bought: %(why)s") % {"rg": data["rg"], "why": error}
        )
    else:
        messages.success(
            request,
            _("Bought %(rg)s for %(cpp)s CPP.") % {"rg": rg.label, "cpp": rg.cpp_cost},
        )
    return _after(request, viewer, side)


def _side_rg(viewer: Viewer, side: str, rg_pk: int) -> ReinforcementGroup:
    return get_object_or_404(ReinforcementGroup, pk=rg_pk, campaign=viewer.campaign, side=side)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def remove(request: HttpRequest, campaign_id: int, side: str, rg_pk: int) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side, feature=purchases.has_purchases)
    rg = _side_rg(viewer, side, rg_pk)
    form = RgActionForm(request.POST)
    if not form.is_valid() or _current_reph(viewer, form.cleaned_data["reph"]) is None:
        messages.error(request, _stale())
        return _after(request, viewer, side)
    label = rg.label
    try:
        purchases.remove(viewer.campaign, rg, request.user)
    except purchases.PurchaseError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Took back %(rg)s; its CPP are back.") % {"rg": label})
    return _after(request, viewer, side)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def receive(request: HttpRequest, campaign_id: int, side: str, rg_pk: int) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side, feature=purchases.has_purchases)
    rg = _side_rg(viewer, side, rg_pk)
    form = RgActionForm(request.POST)
    if not form.is_valid() or _current_reph(viewer, form.cleaned_data["reph"]) is None:
        messages.error(request, _stale())
        return _after(request, viewer, side)
    try:
        got = receipt.receive(viewer.campaign, rg, request.user)
    except (receipt.ReceiptError, ValueError) as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("%(rg)s: %(what)s") % {"rg": rg.label, "what": receipt.summary(got)}
        )
    return _after(request, viewer, side)


# --- the RG Purchase Record ----------------------------------------------------------------


@dataclass(frozen=True)
class RecordRow:
    row: records.RgRecordRow
    rg: ReinforcementGroup | None
    seen: str
    observer: bool
    stuka: bool


def _record_context(viewer: Viewer, side: str) -> dict[str, Any]:
    campaign = viewer.campaign
    rows = records.rg_purchase_record(campaign, side)
    rgs = {rg.pk: rg for rg in ReinforcementGroup.objects.filter(campaign=campaign, side=side)}
    return {
        "viewer": viewer,
        "campaign": campaign,
        "side": campaign.side(side),
        "can_edit": viewer.can_act_for_side(side),
        "rows": [
            RecordRow(
                row=row,
                rg=rgs.get(row.pk),
                seen=purchases.notes_seen(rgs[row.pk]) if row.pk in rgs else "",
                observer=row.pk in rgs and purchases.has_observer(campaign, rgs[row.pk]),
                stuka=row.pk in rgs and purchases.is_stuka(campaign, rgs[row.pk]),
            )
            for row in rows
        ],
        "page_url": reverse("purchases:page", args=[campaign.pk, side]),
    }


@require_GET
@login_required
def record(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(request, campaign_id, side, feature=purchases.has_purchases)
    return render(request, "refit/purchases/record.html", _record_context(viewer, side))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def rg_notes(request: HttpRequest, campaign_id: int, side: str, rg_pk: int) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side, feature=purchases.has_purchases)
    rg = _side_rg(viewer, side, rg_pk)
    form = RgNotesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was saved: the form was incomplete."))
    else:
        data = form.cleaned_data
        try:
            purchases.record_notes(
                viewer.campaign,
                rg,
                seen=data["seen"],
                hexes=data["hexes"],
                observer_location=data["observer_location"],
                note=data["note"],
                by=request.user,
                e721=data["e721"],
            )
        except purchases.PurchaseError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Saved."))
    if request.htmx:
        return render(request, "refit/purchases/record.html#record", _record_context(viewer, side))
    return redirect(reverse("purchases:record", args=[viewer.campaign.pk, side]))


# --- fortifications ------------------------------------------------------------------------


@dataclass(frozen=True)
class ItemRow:
    item: dict
    name: str
    price: str
    inputs: fortifications.ItemInputs
    flags: str


def _item_rows(viewer: Viewer, side: str) -> list[ItemRow]:
    campaign = viewer.campaign
    rows = []
    for item in fortifications.items(campaign):
        if not fortifications.item_for_side(campaign, item, side):
            continue
        flags = item.get("flags_printed") or item.get("type_marks") or []
        rows.append(
            ItemRow(
                item=item,
                name=localized(item.get("name"), get_language()),
                price=fortifications.price_text(campaign, item, side),
                inputs=fortifications.inputs_for(campaign, item, side),
                flags=" ".join(flag for flag in flags if flag in ("F", "I", "FI", "R", "T")),
            )
        )
    return rows


def _fortification_context(viewer: Viewer, side: str) -> dict[str, Any]:
    campaign = viewer.campaign
    reph = walker.open_reph(campaign)
    rule = fortifications.fortification_rule(campaign)
    record = records.fortification_record(campaign, side)
    context: dict[str, Any] = {
        "viewer": viewer,
        "campaign": campaign,
        "side": campaign.side(side),
        "reph": reph,
        "rule": rule,
        "record": record,
        "can_edit": viewer.can_act_for_side(side),
        "record_url": reverse("purchases:fortifications", args=[campaign.pk, side]),
        "rg_page_url": reverse("purchases:page", args=[campaign.pk, side]),
        "sheet_url": reverse("rosters:page", args=[campaign.pk, side, "fortifications"]),
    }
    if reph is None:
        return context
    marks = set(reph.progress.filter(side=side).values_list("rule", flat=True))
    in_reph = any(step.rule == rule for step in walker.steps(campaign, reph))
    can_buy = in_reph and viewer.can_act_for_side(side) and rule not in marks
    context.update(
        day=campaign.cg.periods[reph.index].label,
        in_reph=in_reph,
        step_done=rule in marks,
        can_buy=can_buy,
        fpp=fortifications.side_fpp(campaign, side, reph.index),
        booby_trap_level=fortifications.booby_trap_level(campaign, side, reph.index),
        has_booby_traps=any(
            item["id"] in fortifications.BOOBY_TRAP_ITEMS
            and fortifications.item_for_side(campaign, item, side)
            for item in fortifications.items(campaign)
        ),
        items=_item_rows(viewer, side) if can_buy else [],
        token=secrets.token_urlsafe(16),
        step_url=reverse("refit:step", args=[campaign.pk, side, rule]),
    )
    return context


@require_GET
@login_required
def fortification_page(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    return render(request, "refit/fortifications/page.html", _fortification_context(viewer, side))


def _after_fortification(request: HttpRequest, viewer: Viewer, side: str) -> HttpResponse:
    if request.htmx:
        return render(
            request,
            "refit/fortifications/page.html#fortifications",
            _fortification_context(viewer, side),
        )
    return redirect(reverse("purchases:fortifications", args=[viewer.campaign.pk, side]))


def _order(data: dict[str, Any]) -> FortificationOrder:
    pillbox = [data["capacity"], data["ca_drm"], data["nca_drm"]]
    if any(value is not None for value in pillbox):
        pillbox = [value or 0 for value in pillbox]
    return FortificationOrder(
        item=data["item"],
        quantity=data["quantity"],
        size=data["size"],
        factors=data["factors"],
        capacity=pillbox[0],
        ca_drm=pillbox[1],
        nca_drm=pillbox[2],
        unit=data["unit"],
        connected=data["trench"] == "connected",
        replaces_foxhole=data["trench"] == "replaces_3s_foxhole",
        belt=data["belt"],
        detonating_unit=data["detonating_unit"],
        under_construction=data["under_construction"],
        hexes=data["hexes"],
    )


@vary_on_headers("HX-Request")
@require_POST
@login_required
def fortification_buy(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    form = FortificationForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(
            f"{form.fields[name].label}: {' '.join(messages_)}" if name in form.fields else ""
            for name, messages_ in form.errors.items()
        )
        messages.error(request, _("Nothing was bought: %(errors)s") % {"errors": errors})
        return _after_fortification(request, viewer, side)
    data = form.cleaned_data
    reph = _current_reph(viewer, data["reph"])
    if reph is None:
        messages.error(request, _stale())
        return _after_fortification(request, viewer, side)
    try:
        purchase = fortifications.buy(
            viewer.campaign,
            side,
            reph.index,
            _order(data),
            request.user,
            hexes_confirmed=data["hexes_confirmed"],
            override_reason=data["override_reason"] if viewer.can_overrule else "",
            token=data["token"],
        )
    except fortifications.FortificationError as error:
        messages.error(request, _("Nothing was bought: %(why)s") % {"why": error})
    else:
        messages.success(
            request,
            _("Bought %(quantity)s × %(item)s for %(fpp)s FPP.")
            % {"quantity": purchase.quantity, "item": data["item"], "fpp": purchase.fpp},
        )
    return _after_fortification(request, viewer, side)


def _side_fortification(viewer: Viewer, side: str, pk: int) -> FortificationPurchase:
    return get_object_or_404(FortificationPurchase, pk=pk, campaign=viewer.campaign, side=side)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def fortification_remove(
    request: HttpRequest, campaign_id: int, side: str, purchase_pk: int
) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    purchase = _side_fortification(viewer, side, purchase_pk)
    form = FortificationActionForm(request.POST)
    if not form.is_valid() or _current_reph(viewer, form.cleaned_data["reph"]) is None:
        messages.error(request, _stale())
        return _after_fortification(request, viewer, side)
    try:
        fortifications.remove(viewer.campaign, purchase, request.user)
    except fortifications.FortificationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Took back the purchase; its FPP are back."))
    return _after_fortification(request, viewer, side)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def fortification_location(
    request: HttpRequest, campaign_id: int, side: str, purchase_pk: int
) -> HttpResponse:
    viewer = access.side_actor(
        request, campaign_id, side, feature=fortifications.has_fortifications
    )
    purchase = _side_fortification(viewer, side, purchase_pk)
    form = FortificationLocationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was saved: the form was incomplete."))
        return _after_fortification(request, viewer, side)
    data = form.cleaned_data
    try:
        fortifications.set_location(
            viewer.campaign,
            purchase,
            data["version"],
            data["location"],
            request.user,
            lost=data["lost"],
        )
    except fortifications.FortificationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Saved."))
    return _after_fortification(request, viewer, side)
