"""The order of battle as the Chapter O divider (RF 11.15, 12.4): one table per box.

Retained first, one box per RG awaiting entry, then Casualties, fortification counters, wounded
leaders and pending weapons — the same boxes in the same order as the order-of-battle page
(campaigns.roster.rows.divider_boxes): what a side needs to set up the next scenario.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.models import Campaign, OrbatBox, OrbatEntry
from campaigns.orbat.divider import divider_boxes, side_groups, side_lines
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


def _row(campaign: Campaign, entry: OrbatEntry, kinds: dict[str, str], statuses: Statuses) -> Row:
    return Row(
        cells=(
            # A line the app wrote from the game data in the reader's language, as on the page
            # ("9-1 armor leader", "(with AAMG)"); a typed one as typed.
            ob_name(entry.unit_type, campaign.module, campaign.campaign_game, get_language()),
            str(entry.quantity),
            kinds.get(entry.kind, entry.kind),
            entry.origin_rg,
            ", ".join(statuses.label(key, entry.kind) for key in entry.statuses),
            entry.status_note,
        )
    )


def orbat(campaign: Campaign, side: str) -> Sheet:
    chart = rg_chart(campaign, side)
    columns = _columns()
    # Each label translated once for the sheet (hundreds of lines share a handful of them).
    kinds = {key: str(label) for key, label in KIND_LABELS.items()}
    statuses = Statuses()
    group_states: dict[str, str] = {}
    tables = []
    groups = side_groups(campaign, side)
    for box in divider_boxes(groups, ((line, line) for line in side_lines(campaign, side))):
        group = box.group
        if group is None:
            title = str(OrbatBox(box.box).label)
        else:
            state = group_states.get(group.status)
            if state is None:
                state = group_states[group.status] = status_label(group.status)
            title = " · ".join(
                part
                for part in (
                    group.label,
                    rg_name(chart, group.rg_id),
                    period_label(campaign, group.index),
                    group.strength,
                    state,
                )
                if part
            )
        tables.append(
            Table(
                columns=columns,
                rows=tuple(_row(campaign, line, kinds, statuses) for line in box.lines),
                title=title,
                empty_text=_("Empty."),
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
