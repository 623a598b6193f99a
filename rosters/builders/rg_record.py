"""The RG Purchase Record (RF 12.2, SaP 11.2): one row per RG bought or given in the initial OB.

The rows are refit.purchases.records.rg_purchase_record's, the same the purchase pages show: #P
counts
the purchases of that RG so far in the CG (OB-given RGs do not count, RF 11.6196 / SaP
11.6177), #R is this CG's CG Max minus #P (in RF CG I, of the map group it was bought for).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.state import initial_ob
from refit.purchases.records import RgRecordRow, rg_purchase_record
from rosters.builders.common import (
    first_column_heading,
    frame,
    period_label,
    rg_chart,
    rg_name,
    side_name,
    status_facts,
)
from rosters.sheets import Column, Row, Sheet, Table

BLANK_ROWS = 40  # lines on a blank form: more than any side buys in a CG, fewer than two pages


def _cells(row: RgRecordRow) -> tuple[str, ...]:
    if row.source != "purchased":
        count, remaining, cpp = _("OB"), "", ""
    else:
        count = str(row.purchased_number or "")
        remaining = "—" if row.remaining is None else str(row.remaining)
        cpp = str(row.cpp_cost)
    return (
        row.day,
        row.rg_id,
        row.group_type,
        count,
        remaining,
        row.strength,
        "" if row.units is None else str(row.units),
        row.sw_guns,
        row.leaders,
        row.other,
        row.onboard,
        cpp,
        row.status_label,
    )


def _columns(campaign: Campaign, *, status: bool = True) -> tuple[Column, ...]:
    """The form's columns, and (not on the blank form) each RG's status in its life cycle."""
    rf = campaign.module == "red_factories"
    printed = (
        Column(first_column_heading(campaign), width=1.8),
        Column(_("RG ID"), width=0.9),
        Column(_("Group type"), width=2.2),
        Column("#P", width=0.6, numeric=True),
        Column("#R", width=0.6, numeric=True),
        Column(_("Str"), width=0.6),
        Column(_("#Units"), width=0.8, numeric=True),
        Column(_("SW/Gun received") if rf else _("SW received"), width=2.2),
        Column(_("Leaders received"), width=1.6),
        Column(_("Other"), width=2.2),
        Column(_("Onboard (O/R/D)") if rf else _("On-map (O/R/C)"), width=1.0),
        Column(_("CPP paid"), width=0.7, numeric=True),
    )
    return (*printed, Column(_("Status"), width=1.8)) if status else printed


def _title(campaign: Campaign, side: str) -> str:
    return _("%(side)s RG Purchase Record") % {"side": side_name(campaign, side)}


def _notes() -> tuple[str, ...]:
    return (
        _(
            "#P: purchased so far in this CG, this one included (OB-given RGs do not count); "
            "#R: this CG's CG Max − #P."
        ),
    )


def rg_record(campaign: Campaign, side: str) -> Sheet:
    rows = rg_purchase_record(campaign, side)
    table = Table(
        columns=_columns(campaign),
        rows=tuple(Row(cells=_cells(row)) for row in rows),
        empty_text=_("No RGs yet."),
    )
    return frame(
        campaign,
        side,
        kind="rg-record",
        title=_title(campaign, side),
        tables=(table,),
        facts=status_facts(row.status for row in rows),
        notes=_notes(),
    )


def blank_rg_record(campaign: Campaign, side: str) -> Sheet:
    """The OB-given RGs pre-printed (the rules give them), then empty lines."""
    columns = _columns(campaign, status=False)
    chart = rg_chart(campaign, side)
    rows = []
    for entry in initial_ob(campaign).get(side, {}).get("rgs", []):
        for _n in range(entry.get("count", 1)):
            cells = [""] * len(columns)
            cells[0] = period_label(campaign, 0)
            cells[1] = entry["rg"]
            cells[2] = rg_name(chart, entry["rg"])
            cells[3] = _("OB")
            rows.append(Row(cells=tuple(cells)))
    rows += [Row(cells=("",) * len(columns)) for _n in range(BLANK_ROWS)]
    return frame(
        campaign,
        side,
        kind="blank-rg-record",
        title=_title(campaign, side),
        tables=(Table(columns=columns, rows=tuple(rows)),),
        notes=_notes(),
        blank=True,
    )
