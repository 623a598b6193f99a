"""The RG purchase pages of one side: the RG chart to buy from, the RGs of this Refit Phase
with their rolls, and the RG Purchase Record (the fortification page is refit.fortifications).

Everything here is secret to the side and the referee: ``access.side_reader`` to read (404 for
the opponent, observers and outsiders), ``access.side_actor`` to act; the referee alone buys past
a limit (``Viewer.can_overrule``). The purchase page is one ``PurchaseSituation`` from
refit.purchases.situation; changes go through refit.purchases.services, refit.purchases.receipt
and refit.purchases.notes. Every form carries the id of the Refit Phase it was shown for, so a
page left open changes nothing once the campaign moved on. With HTMX a form answers with the
``#purchases`` (or ``#record``) partial of its page.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access, paging
from campaigns.access import Viewer
from campaigns.models import ReinforcementGroup
from campaigns.oid import oid
from refit.purchases import notes, receipt, records
from refit.purchases import services as purchases
from refit.purchases.forms import BuyForm, RgActionForm, RgNotesForm
from refit.purchases.reading import has_purchases
from refit.purchases.situation import RgRow, purchase_situation
from refit.rules.purchase_costs import Options
from refit.walker import services as walker


def _stale() -> str:
    return _("That page was for an earlier Refit Phase; nothing was changed.")


# --- the purchase page ---------------------------------------------------------------------


def with_urls(campaign_id: int, side: str, rows: tuple[RgRow, ...]) -> list[RgRow]:
    """The rows with the addresses of their forms: the side's RG address reversed once and
    each row's opaque id put in (a URL tag per form and row cost more than the rest of the row
    on a day of many RGs)."""
    head, tail = reverse("purchases:remove", args=[campaign_id, side, 1]).split(oid(1), 1)
    if tail != "/remove/":  # the URL patterns changed: reverse each
        return [
            replace(
                row,
                remove_url=reverse("purchases:remove", args=[campaign_id, side, row.rg.pk]),
                receive_url=reverse("purchases:receive", args=[campaign_id, side, row.rg.pk]),
            )
            for row in rows
        ]
    # Each row made anew, not ``dataclasses.replace``d: that looks the fields up on every call
    # (~3 µs a row; the bench's open day has 75).
    return [
        RgRow(
            rg=row.rg,
            name=row.name,
            removable=row.removable,
            rollable=row.rollable,
            summary=row.summary,
            remove_url=f"{head}{oid(row.rg.pk)}/remove/" if row.removable else "",
            receive_url=f"{head}{oid(row.rg.pk)}/receive/" if row.rollable else "",
        )
        for row in rows
    ]


def _context(viewer: Viewer, side: str) -> dict[str, Any]:
    campaign = viewer.campaign
    situation = purchase_situation(viewer, side)
    context: dict[str, Any] = {
        "viewer": viewer,
        "campaign": campaign,
        "side": campaign.side(side),
        **{field.name: getattr(situation, field.name) for field in fields(situation)},
        "rgs": with_urls(campaign.pk, side, situation.rgs),
        "record_url": reverse("purchases:record", args=[campaign.pk, side]),
        "rollable_count": situation.rollable_count,
    }
    if situation.reph is not None:
        context["token"] = secrets.token_urlsafe(16)
        context["step_url"] = reverse("refit:step", args=[campaign.pk, side, situation.rule])
    return context


@require_safe
@login_required
def purchase_page(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(request, campaign_id, side, feature=has_purchases)
    return render(request, "refit/purchases/page.html", _context(viewer, side))


def _after(request: HttpRequest, viewer: Viewer, side: str) -> HttpResponse:
    if request.htmx:
        return render(request, "refit/purchases/page.html#purchases", _context(viewer, side))
    return redirect(reverse("purchases:page", args=[viewer.campaign.pk, side]))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def buy(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side, feature=has_purchases)
    campaign = viewer.campaign
    form = BuyForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was bought: the form was incomplete."))
        return _after(request, viewer, side)
    data = form.cleaned_data
    reph = walker.posted_reph(viewer.campaign, data["reph"])
    if reph is None:
        messages.error(request, _stale())
        return _after(request, viewer, side)
    options = Options(
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
    viewer = access.side_actor(request, campaign_id, side, feature=has_purchases)
    rg = _side_rg(viewer, side, rg_pk)
    form = RgActionForm(request.POST)
    if (
        not form.is_valid()
        or walker.posted_reph(viewer.campaign, form.cleaned_data["reph"]) is None
    ):
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
    viewer = access.side_actor(request, campaign_id, side, feature=has_purchases)
    rg = _side_rg(viewer, side, rg_pk)
    form = RgActionForm(request.POST)
    if (
        not form.is_valid()
        or walker.posted_reph(viewer.campaign, form.cleaned_data["reph"]) is None
    ):
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


@vary_on_headers("HX-Request")
@require_POST
@login_required
def receive_all(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    """Roll for every RG of the side still to roll in this RePh in one action (each RG's rolls
    logged as its own button would); from the strength step's page, back to it."""
    viewer = access.side_actor(request, campaign_id, side, feature=has_purchases)
    campaign = viewer.campaign
    form = RgActionForm(request.POST)
    reph = walker.posted_reph(campaign, form.cleaned_data["reph"]) if form.is_valid() else None
    if reph is None:
        messages.error(request, _stale())
    else:
        try:
            done = receipt.receive_all(campaign, reph, side, request.user)
            stopped = ""
        except receipt.Stopped as error:
            done, stopped = error.done, str(error)
        for rg, got in done:
            messages.success(
                request, _("%(rg)s: %(what)s") % {"rg": rg.label, "what": receipt.summary(got)}
            )
        if stopped:
            messages.error(request, stopped)
        elif not done:
            messages.info(request, _("No RG has rolls left to make."))
    if request.POST.get("from") == "step" and not request.htmx:
        rule = receipt.STRENGTH_STEP[campaign.module]
        return redirect(reverse("refit:step", args=[campaign.pk, side, rule]) + "#rolls")
    return _after(request, viewer, side)


# --- the RG Purchase Record ----------------------------------------------------------------


@dataclass(frozen=True)
class RecordRow:
    row: records.RgRecordRow
    rg: ReinforcementGroup | None
    seen: str
    observer: bool
    stuka: bool


def notes_urls(campaign_id: int, side: str) -> Callable[[int], str]:
    """An RG's notes address from its id: the side's address reversed once, the RG's opaque id
    put in (as ``with_urls``)."""
    head, tail = reverse("purchases:rg_notes", args=[campaign_id, side, 1]).split(oid(1), 1)
    if tail != "/notes/":  # the URL patterns changed: reverse each
        return lambda pk: reverse("purchases:rg_notes", args=[campaign_id, side, pk])
    return lambda pk: f"{head}{oid(pk)}{tail}"


# Rows of the RG Purchase Record on one page: the newest first, "all" on request (the printed
# sheet has them all).
RECORD_PAGE_SIZE = 50


def _record_context(viewer: Viewer, side: str, page: str = "") -> dict[str, Any]:
    """The record's page ``page`` ("" the newest rows, "all", or a number)."""
    campaign = viewer.campaign
    record_url = reverse("purchases:record", args=[campaign.pk, side])
    params = QueryDict(mutable=True)
    if page:
        params["rows"] = page
    window = paging.window(
        records.rg_purchase_record(campaign, side).newest_first(),
        params,
        size=RECORD_PAGE_SIZE,
        path=record_url,
        param="rows",
    )
    rows = list(reversed(window.rows))
    rgs = {
        rg.pk: rg
        for rg in ReinforcementGroup.objects.filter(
            campaign=campaign, side=side, pk__in=[row.pk for row in rows if row.pk]
        )
    }
    return {
        "viewer": viewer,
        "campaign": campaign,
        "side": campaign.side(side),
        "can_edit": viewer.can_note_for_side(side),
        "rows": [
            RecordRow(
                row=row,
                rg=rgs.get(row.pk),
                seen=notes.notes_seen(rgs[row.pk]) if row.pk in rgs else "",
                observer=row.pk in rgs and notes.has_observer(campaign, rgs[row.pk]),
                stuka=row.pk in rgs and notes.is_stuka(campaign, rgs[row.pk]),
            )
            for row in rows
        ],
        "page_url": reverse("purchases:page", args=[campaign.pk, side]),
        "notes_url": notes_urls(campaign.pk, side),
        "rows_window": window,
        "rows_page": page,
    }


@vary_on_headers("HX-Request")
@require_safe
@login_required
def record(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(request, campaign_id, side, feature=has_purchases)
    template = "refit/purchases/record.html" + ("#record" if request.htmx else "")
    return render(request, template, _record_context(viewer, side, request.GET.get("rows", "")))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def rg_notes(request: HttpRequest, campaign_id: int, side: str, rg_pk: int) -> HttpResponse:
    viewer = access.side_noter(request, campaign_id, side, feature=has_purchases)
    rg = _side_rg(viewer, side, rg_pk)
    form = RgNotesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was saved: the form was incomplete."))
    else:
        data = form.cleaned_data
        try:
            notes.record_notes(
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
    # Back to the page of the record the form was on.
    page = request.POST.get("rows", "")
    if request.htmx:
        return render(
            request, "refit/purchases/record.html#record", _record_context(viewer, side, page)
        )
    url = reverse("purchases:record", args=[viewer.campaign.pk, side])
    return redirect(paging.with_query(url, QueryDict(f"rows={page}") if page else QueryDict()))
