"""A side's order of battle: the Chapter O divider (11.15), secret to that side and the referee.

Thin views: access through campaigns.access, every change through campaigns.orbat.services. The page
is windowed (campaigns.orbat.page: the RGs paged, each box's first lines), so neither its queries
nor its rows grow with the lines or RGs (docs/performance.md).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.oid import from_oid
from campaigns.orbat import rg_status, services
from campaigns.orbat.entry import UnitEntryError
from campaigns.orbat.forms import (
    AddUnitsForm,
    EditForm,
    MoveForm,
    MoveLinesForm,
    QuantityForm,
    RgStatusForm,
    VersionedForm,
    error_texts,
    target_of,
)
from campaigns.orbat.page import (
    Row,
    anchor_of,
    groups_of,
    move_targets,
    page_context,
    page_url,
    render_boxes,
    rg_types_of,
    row_response,
)
from campaigns.state import StaleEdit, StateError

PAGE = "campaigns/orbat/orbat.html"


# --- views -----------------------------------------------------------------------------------


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def orbat(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    """The side's divider; POST adds lines through the quick-add form."""
    viewer = access.side_reader(request, campaign_id, side)
    if request.method == "POST":
        access.require(viewer.can_act_for_side(side))
    if request.method != "POST":
        editing = _line_id(request.GET.get("edit"))
        if request.htmx and (editing or _line_id(request.GET.get("line"))):
            # Open (edit=) or close (line=) one line's forms in place.
            line = _entry_for(viewer, side, editing or _line_id(request.GET.get("line")))
            return row_response(request, viewer, side, Row(line, edit=bool(editing)))
        return render(
            request,
            PAGE,
            page_context(
                viewer,
                side,
                editing=editing,
                selected_box=request.GET.get("box", ""),
                params=request.GET,
            ),
        )
    groups = groups_of(viewer, side)
    form = AddUnitsForm(request.POST, targets=move_targets(viewer, side, groups))
    if form.is_valid():
        box, group = form.destination()
        try:
            entries = services.add_units(
                viewer.campaign,
                by=request.user,
                side=side,
                box=box,
                group=group,
                text=form.cleaned_data["text"],
            )
        except (UnitEntryError, StateError) as error:
            form.add_error("text", str(error))
        else:
            target = form.cleaned_data["box"]
            messages.success(
                request,
                _("Added to %(box)s: %(units)s.")
                % {
                    "box": group.label if group else OrbatBox(box).label,
                    "units": "; ".join(f"{e.quantity} × {e.unit_type}" for e in entries),
                },
            )
            if request.htmx:
                return render_boxes(
                    request, page_context(viewer, side, groups=groups, selected_box=target)
                )
            return redirect(page_url(campaign_id, side, anchor_of(target), box=target))
    return render_boxes(request, page_context(viewer, side, add_form=form, groups=groups))


def _line_id(value: str | None) -> int | None:
    """An OB line named in the query (?edit=, ?line=) by its opaque id (campaigns.oid)."""
    try:
        return from_oid(value) if value else None
    except ValueError:
        return None


def _entry_for(viewer: Viewer, side: str, entry_id: int) -> OrbatEntry:
    """A line of this campaign and this side, or 404 (another side's line does not exist here)."""
    entry = get_object_or_404(OrbatEntry, pk=entry_id, campaign=viewer.campaign, side=side)
    entry.campaign = viewer.campaign  # already loaded; the service reads it
    return entry


@vary_on_headers("HX-Request")
@require_POST
@login_required
def entry(request: HttpRequest, campaign_id: int, side: str, entry_id: int) -> HttpResponse:
    """Change one line: quantity (+1/−1), statuses and details, or move some of it."""
    viewer = access.side_actor(request, campaign_id, side)
    line = _entry_for(viewer, side, entry_id)
    action = request.POST.get("action", "")
    box_anchor = anchor_of(target_of(line))
    groups = None
    changes: dict[str, Any]
    if action == "quantity":
        form = QuantityForm(request.POST)
    elif action == "edit":
        form = EditForm(request.POST)
    elif action == "move":
        groups = groups_of(viewer, side)
        targets = move_targets(viewer, side, groups)
        form = MoveForm(request.POST, targets=targets, entry=line)
    else:
        return HttpResponseBadRequest(_("Unknown change."))

    errors: list[str] = []
    if form.is_valid():
        data = form.cleaned_data
        if action == "move":
            box, group = form.destination()
            changes = {"box": box, "group": group, "move_quantity": data["move_quantity"]}
        else:
            changes = {"quantity": data["quantity"]}
            if action == "edit":
                changes.update(statuses=data["statuses"], status_note=data["status_note"].strip())
        try:
            services.change_entry(line, by=request.user, version=data["version"], **changes)
        except StaleEdit as error:
            messages.error(request, str(error))
            line = _entry_for(viewer, side, entry_id)  # show what is saved now
            if request.htmx:
                return row_response(request, viewer, side, Row(line))
            return redirect(page_url(campaign_id, side, box_anchor))
        except StateError as error:
            errors = [str(error)]
        else:
            if action == "move":
                messages.success(
                    request,
                    _("Moved %(n)s × %(unit)s to %(box)s.")
                    % {
                        "n": data["move_quantity"],
                        "unit": line.unit_type,
                        "box": group.label if group else OrbatBox(box).label,
                    },
                )
                if request.htmx:
                    return render_boxes(request, page_context(viewer, side))
            elif request.htmx:
                # The row shows the change; no message to push the table about.
                return row_response(request, viewer, side, Row(line))
            else:
                messages.success(
                    request,
                    _("Saved: %(n)s × %(unit)s.") % {"n": line.quantity, "unit": line.unit_type},
                )
            return redirect(page_url(campaign_id, side, box_anchor))
    else:
        errors = error_texts(form)

    # Refused: the line comes back with what was typed and why.
    posted: dict[str, Any] = {}
    if action == "edit":
        posted = {
            "quantity": request.POST.get("quantity", ""),
            "statuses": request.POST.getlist("statuses"),
            "status_note": request.POST.get("status_note", ""),
        }
    elif action == "move":
        posted = {"move_quantity": request.POST.get("move_quantity", "")}
    row = Row(line, errors=errors, posted=posted)
    if action == "move":
        row.move_options = targets.options_html(selected=request.POST.get("box", ""))
    if request.htmx:
        return row_response(request, viewer, side, row)
    return render(request, PAGE, page_context(viewer, side, row=row, groups=groups))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def move_lines(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    """Move the checked lines, whole, to one box: one submit, one change in the history."""
    viewer = access.side_actor(request, campaign_id, side)
    groups = groups_of(viewer, side)
    form = MoveLinesForm(request.POST, targets=move_targets(viewer, side, groups))
    target = request.POST.get("box", "")
    if not form.is_valid():
        messages.error(request, " ".join(error_texts(form)))
    else:
        box, group = form.destination()
        try:
            moved = services.move_entries(
                viewer.campaign,
                by=request.user,
                side=side,
                lines=form.cleaned_data["lines"],
                box=box,
                group=group,
            )
        except StateError as error:  # StaleEdit among them: nothing moved
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("Moved to %(box)s: %(units)s.")
                % {
                    "box": group.label if group else OrbatBox(box).label,
                    "units": "; ".join(f"{e.quantity} × {e.unit_type}" for e in moved),
                },
            )
    if request.htmx:
        return render_boxes(request, page_context(viewer, side, groups=groups, move_box=target))
    anchor = anchor_of(target) if target else "move"
    return redirect(page_url(campaign_id, side, anchor))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def entry_remove(request: HttpRequest, campaign_id: int, side: str, entry_id: int) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side)
    line = _entry_for(viewer, side, entry_id)
    box_anchor = anchor_of(target_of(line))
    form = VersionedForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(error_texts(form)))
    else:
        try:
            services.remove_entry(line, by=request.user, version=form.cleaned_data["version"])
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("Removed %(n)s × %(unit)s.") % {"n": line.quantity, "unit": line.unit_type},
            )
    if request.htmx:
        return render_boxes(request, page_context(viewer, side))
    return redirect(page_url(campaign_id, side, box_anchor))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def rg_status_view(request: HttpRequest, campaign_id: int, side: str, rg_pk: int) -> HttpResponse:
    """Set an RG to withdrawn, eliminated or expended (the rest follows the Refit Phases)."""
    viewer = access.side_actor(request, campaign_id, side)
    group = get_object_or_404(ReinforcementGroup, pk=rg_pk, campaign=viewer.campaign, side=side)
    form = RgStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(error_texts(form)))
    else:
        status = form.cleaned_data["status"]
        try:
            rg_status.set_status(
                viewer.campaign,
                group,
                by=request.user,
                status=status,
                current=form.cleaned_data["current"],
                rg_type=rg_types_of(viewer, side).get(group.rg_id, ""),
            )
        except StateError as error:  # a stale page too: the message says to reload
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(rg)s is now %(status)s.")
                % {"rg": group.label, "status": rg_status.status_label(status)},
            )
    if request.htmx:
        return render_boxes(request, page_context(viewer, side))
    return redirect(page_url(campaign_id, side, "rg-statuses"))
