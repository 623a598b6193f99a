"""The order of battle as the Chapter O divider (RF 11.15, 12.4): one table per box.

Retained first, one box per RG awaiting entry, then Casualties, fortification counters, wounded
leaders and pending weapons — the same boxes in the same order as the order-of-battle page
(campaigns.roster.rows.divider_boxes): what a side needs to set up the next scenario.
"""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.models import Campaign, OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.orbat.divider import divider_boxes
from campaigns.orbat.forms import KIND_LABELS, line_status_label
from campaigns.orbat.names import ob_name
from campaigns.orbat.rg_status import status_label
from rosters.builders.common import (
    frame,
    period_label,
    rg_chart,
    rg_name,
    side_name,
    status_facts,
)
from rosters.sheets import Column, Row, Sheet, Table


def _columns() -> tuple[Column, ...]:
    return (
        Column(_("Unit"), width=2.4),
        Column(_("Quantity"), width=0.8, numeric=True),
        Column(_("Kind"), width=1.3),
        Column(_("from RG"), width=1.0),
        Column(_("Status"), width=2.6),
        Column(_("Where / details"), width=2.6),
    )


class Statuses:
    """Each status label translated once for the sheet (hundreds of lines share a handful),
    a dug-in AFV's as ``line_status_label`` words it."""

    def __init__(self) -> None:
        self._words: dict[tuple[str, str], str] = {}

    def label(self, key: str, kind: str) -> str:
        words = self._words.get((key, kind))
        if words is None:
            words = self._words[(key, kind)] = line_status_label(key, kind)
        return words


class _Line(NamedTuple):
    """What the sheet prints of an OB line (and divider_boxes reads: its box and RG)."""

    box: str
    group_id: int | None
    unit_type: str
    quantity: int
    kind: str
    origin_rg: str
    statuses: list[str]
    status_note: str


class _Group(NamedTuple):
    """What the sheet prints of an RG (and divider_boxes reads: its id and status)."""

    pk: int
    rg_id: str
    number: int
    index: int
    strength: str
    status: str

    @property
    def label(self) -> str:
        return ReinforcementGroup.label.fget(self)


def _lines(campaign: Campaign, side: str) -> list[_Line]:
    """campaigns.orbat.divider.side_lines as plain tuples (a sheet prints thousands of lines:
    no model per line)."""
    return [
        _Line(*row)
        for row in OrbatEntry.objects.filter(campaign=campaign, side=side)
        .order_by("id")
        .values_list(*_Line._fields)
    ]


def _groups(campaign: Campaign, side: str) -> list[_Group]:
    """campaigns.orbat.divider.side_groups (the same order) as plain tuples, without the RGs'
    details the sheet does not print."""
    return [
        _Group(*row)
        for row in ReinforcementGroup.objects.filter(campaign=campaign, side=side)
        .order_by("index", "rg_id", "number", "id")
        .values_list("id", *_Group._fields[1:])
    ]


class Names:
    """Each unit's name as ``ob_name`` gives it, found once per sheet (lines repeat units)."""

    def __init__(self, campaign: Campaign) -> None:
        self._key = (campaign.module, campaign.campaign_game, get_language())
        self._names: dict[str, str] = {}

    def of(self, unit_type: str) -> str:
        name = self._names.get(unit_type)
        if name is None:
            name = self._names[unit_type] = ob_name(unit_type, *self._key)
        return name


def _row(line: _Line, kinds: dict[str, str], statuses: Statuses, names: Names) -> Row:
    return Row(
        cells=(
            # A line the app wrote from the game data in the reader's language, as on the page
            # ("9-1 armor leader", "(with AAMG)"); a typed one as typed.
            names.of(line.unit_type),
            str(line.quantity),
            kinds.get(line.kind, line.kind),
            line.origin_rg,
            ", ".join(statuses.label(key, line.kind) for key in line.statuses),
            line.status_note,
        )
    )


def orbat(campaign: Campaign, side: str) -> Sheet:
    chart = rg_chart(campaign, side)
    columns = _columns()
    # Each label translated once for the sheet (hundreds of lines share a handful of them).
    kinds = {key: str(label) for key, label in KIND_LABELS.items()}
    statuses = Statuses()
    names = Names(campaign)
    group_states: dict[str, str] = {}
    days: dict[int, str] = {}
    rg_names: dict[str, str] = {}
    empty = _("Empty.")
    tables = []
    groups = _groups(campaign, side)
    for box in divider_boxes(groups, ((line, line) for line in _lines(campaign, side))):
        group = box.group
        if group is None:
            title = str(OrbatBox(box.box).label)
        else:
            state = group_states.get(group.status)
            if state is None:
                state = group_states[group.status] = status_label(group.status)
            day = days.get(group.index)
            if day is None:
                day = days[group.index] = period_label(campaign, group.index)
            name = rg_names.get(group.rg_id)
            if name is None:
                name = rg_names[group.rg_id] = rg_name(chart, group.rg_id)
            title = " · ".join(
                part
                for part in (
                    group.label,
                    name,
                    day,
                    group.strength,
                    state,
                )
                if part
            )
        tables.append(
            Table(
                columns=columns,
                rows=tuple(_row(line, kinds, statuses, names) for line in box.lines),
                title=title,
                empty_text=empty,
            )
        )
    return frame(
        campaign,
        side,
        kind="orbat",
        title=_("%(side)s order of battle") % {"side": side_name(campaign, side)},
        tables=tuple(tables),
        facts=status_facts(group.status for group in groups),
    )
