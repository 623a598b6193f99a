"""The referee's tables (Cherkassy Pocket): every member reads them, the referee enters them —
the weather table, the track's weather, the CRT and the terrain chart as grids (rows and
columns added or removed with buttons; HTMX swaps the one table), the others as they were; the
tables as a file to reuse in the next game."""

from __future__ import annotations

import json
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import RefereeTable
from campaigns.shortgames import services as short_games
from campaigns.shortgames.forms import RefereeTableForm, TablesFileForm, error_texts, read_grid
from campaigns.shortgames.pages.tables import tables_page
from campaigns.shortgames.rules.cherkassy import grids
from campaigns.shortgames.views.common import page_context
from campaigns.state import StateError

TEMPLATE = "campaigns/shortgames/tables.html"
GRID_TEMPLATE = "campaigns/shortgames/_table_grid.html"


def _cherkassy(request: HttpRequest, campaign_id: int) -> Viewer:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    if viewer.campaign.module != "cherkassy_pocket":
        raise Http404
    return viewer


def _tables_url(viewer: Viewer, anchor: str = "") -> str:
    url = reverse("shortgames:tables", args=[viewer.campaign.pk])
    return url + (f"#{anchor}" if anchor else "")


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def tables(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = _cherkassy(request, campaign_id)
    if request.method != "POST":
        return render(
            request, TEMPLATE, page_context(viewer, tables_page(viewer), file_form=TablesFileForm())
        )
    access.require(viewer.can_act_for_campaign)
    slots = [slot["id"] for slot in short_games.referee_slots(viewer.campaign)]
    slot = request.POST.get("slot", "")
    if slot in grids.GRID_SLOTS and slot in slots:
        return _grid_post(request, viewer, slot)
    return _json_post(request, viewer, slots)


def _render_slot(
    request: HttpRequest, viewer: Viewer, slot: str, *, typed=None, error: str = "", status=200
) -> HttpResponse:
    page = tables_page(
        viewer,
        typed={slot: typed} if typed is not None else None,
        errors={slot: error} if error else None,
    )
    if request.htmx:
        item = next(item for item in page.slots if item.slot["id"] == slot)
        context = page_context(viewer, page, item=item)
        # HTMX swaps only a 2xx answer: a refusal is the table shown again with its errors.
        return render(request, GRID_TEMPLATE, context)
    context = page_context(viewer, page, file_form=TablesFileForm())
    return render(request, TEMPLATE, context, status=status)


def _grid_post(request: HttpRequest, viewer: Viewer, slot: str) -> HttpResponse:
    grid = read_grid(request.POST)
    action = request.POST.get("action", "save")
    if action != "save":
        # Without JavaScript: a button adds or removes a row or a column; nothing is saved.
        return _render_slot(request, viewer, slot, typed=grids.edited(grid, action))
    version = request.POST.get("version", "")
    try:
        short_games.save_referee_table(
            viewer.campaign,
            by=request.user,
            slot_id=slot,
            data=grid.data(),
            version=int(version) if version.isdigit() else None,
        )
    except StateError as error:
        return _render_slot(request, viewer, slot, typed=grid, error=str(error), status=400)
    messages.success(request, _("Table saved."))
    if request.htmx:
        return _render_slot(request, viewer, slot)
    return redirect(_tables_url(viewer, slot))


def _json_post(request: HttpRequest, viewer: Viewer, slots: list[str]) -> HttpResponse:
    """An order-of-battle slot, still entered as JSON."""
    campaign = viewer.campaign
    form = RefereeTableForm(request.POST, slots=slots)
    slot = form.data.get("slot", "")
    if form.is_valid():
        try:
            short_games.save_referee_table(
                campaign,
                by=request.user,
                slot_id=slot,
                data=form.cleaned_data["data"],
                version=form.cleaned_data["version"],
            )
        except StateError as error:
            refused = str(error)
        else:
            messages.success(request, _("Table saved."))
            return redirect(_tables_url(viewer, slot))
    elif slot in slots and not form.has_error("slot"):
        # The slot is known: its errors are shown at its table (the field is the textarea).
        refused = " ".join(message for errors in form.errors.values() for message in errors)
    else:
        refused = ""
        messages.error(
            request, _("The table was not saved: %(errors)s") % {"errors": error_texts(form)}
        )
    page = tables_page(
        viewer,
        typed={slot: form.data.get("data", "").strip()} if refused else {},
        errors={slot: refused} if refused else {},
    )
    context = page_context(viewer, page, file_form=TablesFileForm())
    return render(request, TEMPLATE, context, status=400)


@require_safe
@login_required
def tables_file(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The tables entered, as a file to load into the next game (never shipped with the app)."""
    viewer = _cherkassy(request, campaign_id)
    stored = dict(RefereeTable.objects.filter(campaign=viewer.campaign).values_list("slot", "data"))
    converted = {}
    for slot, data in stored.items():
        grid = grids.from_legacy(slot, data)
        if grid is not None:
            converted[slot] = grid.data()
    payload = grids.tables_file(converted)
    response = HttpResponse(
        json.dumps(payload, ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", f"cherkassy-tables-{viewer.campaign.pk}")
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@require_POST
@login_required
def tables_upload(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Load a tables file: every table in it saved, or none (the first problem named)."""
    viewer = _cherkassy(request, campaign_id)
    access.require(viewer.can_act_for_campaign)
    form = TablesFileForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            count = short_games.import_referee_tables(
                viewer.campaign, by=request.user, tables=form.cleaned_data["file"]
            )
        except StateError as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, _("%(count)s tables loaded.") % {"count": count})
            return redirect(_tables_url(viewer))
    context = page_context(viewer, tables_page(viewer), file_form=form)
    return render(request, TEMPLATE, context, status=400)
