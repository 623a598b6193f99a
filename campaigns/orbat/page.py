"""The order-of-battle page as data: the side's RGs and lines grouped into the divider's boxes
(two queries, grouped in Python, so its cost does not grow with the number of lines or RGs), each
line's row with its forms, and the RGs with their statuses. The views (campaigns.orbat.views)
render what these build."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_htmx.http import reswap, retarget

from campaigns.access import Viewer
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.orbat import lifecycle, rg_status
from campaigns.orbat.divider import divider_boxes, side_groups, side_lines
from campaigns.orbat.forms import (
    KIND_LABELS,
    STATUS_CHOICES,
    STATUS_LABELS,
    AddUnitsForm,
    Targets,
    rg_value,
)
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


def anchor_of(target: str) -> str:
    return "box-" + target.replace(":", "-")


def _rg_names(viewer: Viewer, side: str) -> dict[str, str]:
    chart = viewer.campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side, {})
    return {group["id"]: loc(group.get("name", "")) for group in chart.get("groups", [])}


def rg_types_of(viewer: Viewer, side: str) -> dict[str, str]:
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
    names, types = _rg_names(viewer, side), rg_types_of(viewer, side)
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


def groups_of(viewer: Viewer, side: str) -> list[ReinforcementGroup]:
    return side_groups(viewer.campaign, side)


def move_targets(viewer: Viewer, side: str, groups: list[ReinforcementGroup]) -> Targets:
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
    types = rg_types_of(viewer, side)
    boxes = []
    for divider_box in divider_boxes(
        groups, ((entry, shown(entry)) for entry in side_lines(viewer.campaign, side))
    ):
        group = divider_box.group
        if group is not None:
            boxes.append(
                Box(
                    target=rg_value(group),
                    anchor=anchor_of(rg_value(group)),
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
                    anchor=anchor_of(box.value),
                    title=str(box.label),
                    rows=divider_box.lines,
                )
            )
    return boxes


def page_context(
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
        groups = groups_of(viewer, side)
    targets = move_targets(viewer, side, groups)
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
        row.move_options = move_targets(viewer, side, groups_of(viewer, side)).options_html()
    return {
        "viewer": viewer,
        "campaign": viewer.campaign,
        "side": side,
        "orbat_url": reverse("campaigns:orbat", args=[viewer.campaign.pk, side]),
        "row": row,
        "single_row": True,
        "labels": _labels(),
    }


def row_response(request: HttpRequest, viewer: Viewer, side: str, row: Row) -> HttpResponse:
    """The HTMX answer that swaps one line in place, whichever element the form aimed at."""
    response = render(request, PAGE + "#orbat-row", _row_context(viewer, side, row))
    return reswap(retarget(response, f"#entry-{row.entry.pk}"), "outerHTML")


def page_url(campaign_id: int, side: str, anchor: str = "", box: str = "") -> str:
    url = reverse("campaigns:orbat", args=[campaign_id, side])
    if box:
        url += f"?box={box}"
    return url + (f"#{anchor}" if anchor else "")


def render_boxes(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    template = PAGE + "#orbat-boxes" if request.htmx else PAGE
    return render(request, template, context)
