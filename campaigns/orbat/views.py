"""A side's order of battle: the Chapter O divider (11.15), secret to that side and the referee.

Thin views: access through campaigns.access, every change through campaigns.orbat.services. The page
is built from two queries (the side's RGs and its lines), grouped into boxes in Python, so its
cost does not grow with the number of lines or RGs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.orbat import lifecycle, rg_status, services
from campaigns.orbat.divider import divider_boxes, side_groups, side_lines
from campaigns.orbat.entry import UnitEntryError
from campaigns.orbat.forms import (
    KIND_LABELS,
    STATUS_CHOICES,
    STATUS_LABELS,
    AddUnitsForm,
    EditForm,
    MoveForm,
    MoveLinesForm,
    QuantityForm,
    RgStatusForm,
    Targets,
    VersionedForm,
    error_texts,
    rg_value,
    target_of,
)
from campaigns.state import StaleEdit, StateError
from campaigns.templatetags.gamedata_tags import loc

PAGE = "campaigns/orbat/orbat.html"


# --- what the page shows ---------------------------------------------------------------------


@dataclass
class Row:
    """One line of a box, with what its inline forms show (the posted values after an error)."""

    entry: OrbatEntry
    edit: bool = False
    errors: list[str] = field(default_factory=list)
    posted: dict[str, Any] | None = None
    move_options: SafeString | None = None

    @property
    def kind_label(self) -> str:
        return KIND_LABELS.get(self.entry.kind, self.entry.kind)

    @property
    def origin_text(self) -> str:
        return _("from %(rg)s") % {"rg": self.entry.origin_rg}

    @property
    def status_labels(self) -> list[str]:
        return [STATUS_LABELS.get(key, key) for key in self.entry.statuses]

    @property
    def editing(self) -> bool:
        """Whether the line shows its edit, move and remove forms (one line at a time)."""
        return self.edit or bool(self.errors)

    @property
    def quantity_value(self) -> Any:
        if self.posted and "quantity" in self.posted:
            return self.posted["quantity"]
        return self.entry.quantity

    @property
    def note_value(self) -> str:
        if self.posted and "status_note" in self.posted:
            return self.posted["status_note"]
        return self.entry.status_note

    @property
    def move_value(self) -> str:
        return (self.posted or {}).get("move_quantity", "")

    @property
    def status_checks(self) -> list[tuple[str, str, bool]]:
        checked = (
            self.posted["statuses"]
            if self.posted and "statuses" in self.posted
            else self.entry.statuses
        )
        return [(key, label, key in checked) for key, label in STATUS_CHOICES]


@dataclass
class Box:
    target: str  # the value a form posts for this box
    anchor: str  # the HTML id of its section
    title: str
    rows: list[Row]
    group: ReinforcementGroup | None = None
    name: str = ""
    day: str = ""
    # The RG's life cycle: its status in words and what it may be set to by hand.
    status_label: str = ""
    status_targets: list[tuple[str, str]] = field(default_factory=list)

    @property
    def waiting(self) -> bool:
        """An RG box still taking lines (bought, rolled, awaiting entry)."""
        return self.group is not None and self.group.status in lifecycle.WAITING


def _anchor(target: str) -> str:
    return "box-" + target.replace(":", "-")


def _rg_names(viewer: Viewer, side: str) -> dict[str, str]:
    chart = viewer.campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side, {})
    return {group["id"]: loc(group.get("name", "")) for group in chart.get("groups", [])}


def _rg_types(viewer: Viewer, side: str) -> dict[str, str]:
    chart = viewer.campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side, {})
    return {group["id"]: group.get("type", "") for group in chart.get("groups", [])}


def _status_targets(viewer: Viewer, group: ReinforcementGroup, rg_type: str) -> list:
    """What the viewer may set the RG to by hand (nothing for one who only reads)."""
    if not viewer.can_act_for_side(group.side):
        return []
    view = rg_status.rule_view(group, rg_type)
    return [
        (key, rg_status.status_label(key))
        for key in lifecycle.manual_targets(view, viewer.campaign.module)
    ]


def _status_counts(groups: list[ReinforcementGroup]) -> list[tuple[str, str, int]]:
    """(key, words, how many) for each status some RG of the side is in, in the cycle's order."""
    return [
        (key, rg_status.status_label(key), n)
        for key, n in rg_status.count_by_status(groups).items()
        if n
    ]


@dataclass
class RgRow:
    """One RG of the side in the life-cycle table: where it stands, what may be set by hand."""

    group: ReinforcementGroup
    name: str
    day: str
    status_label: str
    targets: list[tuple[str, str]]


def _rg_rows(viewer: Viewer, side: str, groups: list[ReinforcementGroup]) -> list[RgRow]:
    names, types = _rg_names(viewer, side), _rg_types(viewer, side)
    return [
        RgRow(
            group=group,
            name=names.get(group.rg_id, ""),
            day=_day_label(viewer, group.index),
            status_label=rg_status.status_label(group.status),
            targets=_status_targets(viewer, group, types.get(group.rg_id, "")),
        )
        for group in groups
    ]


def _day_label(viewer: Viewer, index: int) -> str:
    periods = viewer.campaign.cg.periods
    return periods[index].label.in_language(get_language()) if index < len(periods) else "—"


def _groups(viewer: Viewer, side: str) -> list[ReinforcementGroup]:
    return side_groups(viewer.campaign, side)


def _targets(viewer: Viewer, side: str, groups: list[ReinforcementGroup]) -> Targets:
    names = _rg_names(viewer, side)
    return Targets(
        groups=[
            (
                group,
                " · ".join(
                    part
                    for part in (
                        group.label,
                        names.get(group.rg_id, ""),
                        _day_label(viewer, group.index),
                    )
                    if part
                ),
            )
            for group in groups
            if group.status in lifecycle.WAITING
        ]
    )


def _boxes(
    viewer: Viewer,
    side: str,
    groups: list[ReinforcementGroup],
    rows: dict[int, Row],
) -> list[Box]:
    """The divider's boxes with their lines, from one query for the lines.

    ``rows`` replaces the plain row of some lines (the one being edited, one refused).
    """

    def shown(entry: OrbatEntry) -> Row:
        row = rows.get(entry.pk) or Row(entry)
        if row.entry is not entry:
            row.entry = entry  # what is saved now, with the typed values kept in ``posted``
        return row

    names = _rg_names(viewer, side)
    types = _rg_types(viewer, side)
    boxes = []
    for divider_box in divider_boxes(
        groups, ((entry, shown(entry)) for entry in side_lines(viewer.campaign, side))
    ):
        group = divider_box.group
        if group is not None:
            boxes.append(
                Box(
                    target=rg_value(group),
                    anchor=_anchor(rg_value(group)),
                    title=group.label,
                    rows=divider_box.lines,
                    group=group,
                    name=names.get(group.rg_id, ""),
                    day=_day_label(viewer, group.index),
                    status_label=rg_status.status_label(group.status),
                    status_targets=_status_targets(viewer, group, types.get(group.rg_id, "")),
                )
            )
        else:
            box = OrbatBox(divider_box.box)
            boxes.append(
                Box(
                    target=box.value,
                    anchor=_anchor(box.value),
                    title=str(box.label),
                    rows=divider_box.lines,
                )
            )
    return boxes


def _context(
    viewer: Viewer,
    side: str,
    *,
    add_form: AddUnitsForm | None = None,
    row: Row | None = None,
    editing: int | None = None,
    groups: list[ReinforcementGroup] | None = None,
    selected_box: str = "",
    move_box: str = "",
) -> dict[str, Any]:
    """The whole page; ``row`` is a line to show as given (refused), ``editing`` one to open."""
    if groups is None:
        groups = _groups(viewer, side)
    targets = _targets(viewer, side, groups)
    if add_form is None:
        add_form = AddUnitsForm(targets=targets, initial={"box": selected_box})
    rows = {}
    if editing is not None:
        rows[editing] = Row(OrbatEntry(pk=editing), edit=True)
    if row is not None:
        rows[row.entry.pk] = row
    for special in rows.values():
        if special.move_options is None:
            special.move_options = targets.options_html()
    return {
        "viewer": viewer,
        "campaign": viewer.campaign,
        "side": side,
        "side_name": viewer.campaign.side(side).name,
        "orbat_url": reverse("campaigns:orbat", args=[viewer.campaign.pk, side]),
        "boxes": _boxes(viewer, side, groups, rows),
        "status_counts": _status_counts(groups),
        "rg_rows": _rg_rows(viewer, side, groups),
        "add_form": add_form,
        "move_options": targets.options_html(selected=move_box),
        "labels": _labels(),
    }


def _labels() -> dict[str, str]:
    """Words repeated on every line, translated once per page."""
    return {
        "fewer": _("One fewer"),
        "more": _("One more"),
        "edit": _("Edit, move or remove"),
        "check": _("Check to move"),
    }


def _row_context(viewer: Viewer, side: str, row: Row) -> dict[str, Any]:
    """The context of one line alone (the HTMX swap of a row)."""
    if row.editing and row.move_options is None:
        row.move_options = _targets(viewer, side, _groups(viewer, side)).options_html()
    return {
        "viewer": viewer,
        "campaign": viewer.campaign,
        "side": side,
        "orbat_url": reverse("campaigns:orbat", args=[viewer.campaign.pk, side]),
        "row": row,
        "single_row": True,
        "labels": _labels(),
    }


def _row_response(request: HttpRequest, viewer: Viewer, side: str, row: Row) -> HttpResponse:
    """The HTMX answer that swaps one line in place, whichever element the form aimed at."""
    response = render(request, PAGE + "#orbat-row", _row_context(viewer, side, row))
    return reswap(retarget(response, f"#entry-{row.entry.pk}"), "outerHTML")


def _page_url(campaign_id: int, side: str, anchor: str = "", box: str = "") -> str:
    url = reverse("campaigns:orbat", args=[campaign_id, side])
    if box:
        url += f"?box={box}"
    return url + (f"#{anchor}" if anchor else "")


def _render_boxes(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    template = PAGE + "#orbat-boxes" if request.htmx else PAGE
    return render(request, template, context)


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
            return _row_response(request, viewer, side, Row(line, edit=bool(editing)))
        return render(
            request,
            PAGE,
            _context(viewer, side, editing=editing, selected_box=request.GET.get("box", "")),
        )
    groups = _groups(viewer, side)
    form = AddUnitsForm(request.POST, targets=_targets(viewer, side, groups))
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
                return _render_boxes(
                    request, _context(viewer, side, groups=groups, selected_box=target)
                )
            return redirect(_page_url(campaign_id, side, _anchor(target), box=target))
    return _render_boxes(request, _context(viewer, side, add_form=form, groups=groups))


def _line_id(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


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
    box_anchor = _anchor(target_of(line))
    groups = None
    changes: dict[str, Any]
    if action == "quantity":
        form = QuantityForm(request.POST)
    elif action == "edit":
        form = EditForm(request.POST)
    elif action == "move":
        groups = _groups(viewer, side)
        targets = _targets(viewer, side, groups)
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
                return _row_response(request, viewer, side, Row(line))
            return redirect(_page_url(campaign_id, side, box_anchor))
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
                    return _render_boxes(request, _context(viewer, side))
            elif request.htmx:
                # The row shows the change; no message to push the table about.
                return _row_response(request, viewer, side, Row(line))
            else:
                messages.success(
                    request,
                    _("Saved: %(n)s × %(unit)s.") % {"n": line.quantity, "unit": line.unit_type},
                )
            return redirect(_page_url(campaign_id, side, box_anchor))
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
        return _row_response(request, viewer, side, row)
    return render(request, PAGE, _context(viewer, side, row=row, groups=groups))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def move_lines(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    """Move the checked lines, whole, to one box: one submit, one change in the history."""
    viewer = access.side_actor(request, campaign_id, side)
    groups = _groups(viewer, side)
    form = MoveLinesForm(request.POST, targets=_targets(viewer, side, groups))
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
        return _render_boxes(request, _context(viewer, side, groups=groups, move_box=target))
    anchor = _anchor(target) if target else "move"
    return redirect(_page_url(campaign_id, side, anchor))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def entry_remove(request: HttpRequest, campaign_id: int, side: str, entry_id: int) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side)
    line = _entry_for(viewer, side, entry_id)
    box_anchor = _anchor(target_of(line))
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
        return _render_boxes(request, _context(viewer, side))
    return redirect(_page_url(campaign_id, side, box_anchor))


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
                rg_type=_rg_types(viewer, side).get(group.rg_id, ""),
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
        return _render_boxes(request, _context(viewer, side))
    return redirect(_page_url(campaign_id, side, "rg-statuses"))
