"""The Fortification Purchase Record (RF 12.3, SaP 11.3) of one side.

The form has one column per fortification type, lines for the Locations where the items are
set up and a grey "Total #" box pencilled in at purchase (the number still to be placed), plus
the CVP Tally Box (RF 11.12). The filled sheet also lists each purchase and the FPP per day;
its rows come from refit.fortifications.records.fortification_record, the same the fortification
page shows.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaigns.games.registry import localized
from campaigns.models import Campaign
from campaigns.state import fortified_building_item, initial_fortified_buildings
from refit.fortifications.records import (
    FortificationRecord,
    fortification_items,
    fortification_record,
)
from refit.fortifications.services import fortification_rule
from rosters.builders.common import first_column_heading, frame, language, period_label, side_name
from rosters.sheets import Column, Fact, Row, Sheet, Table

BLANK_LOCATION_LINES = 12


def _items(campaign: Campaign, side: str) -> list[dict[str, Any]]:
    """The purchase table's items this side may buy, in the table's order."""
    return [item for item in fortification_items(campaign) if side in item.get("sides", [side])]


def _by_type(
    campaign: Campaign, side: str, record: FortificationRecord | None, lines: int
) -> Table:
    """One column per type: the set-up Locations under it, the "Total #" still to place below."""
    items = _items(campaign, side)
    locations: dict[str, list[str]] = {item["id"]: [] for item in items}
    if record is not None:
        for line in record.lines:
            if line.location and line.item in locations:
                locations[line.item].append(line.location)
    depth = max([lines, *(len(found) for found in locations.values())])
    columns = (
        Column("", width=0.9),
        *(Column(localized(item.get("name", item["id"]), language()), width=1.0) for item in items),
    )
    rows = [
        Row(
            cells=(
                str(number),
                *(
                    locations[item["id"]][number - 1]
                    if number <= len(locations[item["id"]])
                    else ""
                    for item in items
                ),
            )
        )
        for number in range(1, depth + 1)
    ]
    if record is not None:
        totals = record.totals
    else:
        # The blank form: the initial OB's Fortified Building Locations, still to be placed.
        building = fortified_building_item(campaign)
        given = initial_fortified_buildings(campaign, side)
        totals = (
            {building["id"]: _("%(n)s (initial OB)") % {"n": given}}
            if building is not None and given
            else {}
        )
    rows.append(
        Row(
            cells=(
                _("Total #"),
                *(str(totals[item["id"]]) if totals.get(item["id"]) else "" for item in items),
            ),
            shaded=tuple(range(1, len(items) + 1)),
        )
    )
    return Table(title=_("Locations per fortification type"), columns=columns, rows=tuple(rows))


def _cvp_tally(campaign: Campaign, record: FortificationRecord | None) -> Table:
    columns = (
        Column(first_column_heading(campaign), width=1.8),
        Column(_("CVP suffered"), width=1.0, numeric=True),
        Column(_("Running CVP Tally"), width=1.0, numeric=True),
    )
    if record is None:
        rows = tuple(
            Row(cells=(period_label(campaign, index), "", ""))
            for index in range(len(campaign.cg.periods))
        )
    else:
        rows = tuple(
            Row(cells=(day, str(cvp), str(running))) for day, cvp, running in record.cvp_by_day
        )
    return Table(
        title=_("CVP Tally Box"),
        columns=columns,
        rows=rows,
        empty_text=_("No CVP suffered yet."),
    )


def _construction(under_construction: bool, lost: bool) -> str:
    """The Under Construction cell: "yes", or "yes · lost" when a hex no longer qualified at
    placement (SaP 11.6191)."""
    if not under_construction:
        return ""
    return _("yes · lost") if lost else _("yes")


def _title(campaign: Campaign, side: str) -> str:
    return _("%(side)s Fortification Purchase Record") % {"side": side_name(campaign, side)}


def fortifications(campaign: Campaign, side: str) -> Sheet:
    record = fortification_record(campaign, side)
    day = first_column_heading(campaign)
    purchases = Table(
        title=_("Purchases"),
        columns=(
            Column(day, width=1.8),
            Column(_("Fortification"), width=2.2),
            Column(_("Which"), width=2.0),
            Column(_("Quantity"), width=0.8, numeric=True),
            Column(_("FPP"), width=0.7, numeric=True),
            Column(_("Under construction"), width=1.0),
            Column(_("Hexes"), width=1.6),
            Column(_("Set-up Location"), width=1.8),
        ),
        rows=tuple(
            Row(
                cells=(
                    line.day,
                    line.name,
                    line.detail,
                    str(line.quantity),
                    "—" if line.initial else str(line.fpp),
                    _construction(line.under_construction, line.lost),
                    line.hexes,
                    _("lost") if line.lost else line.location,
                )
            )
            for line in record.lines
        ),
        empty_text=_("No fortifications bought yet."),
    )
    fpp = Table(
        title=_("FPP"),
        columns=(
            Column(day, width=1.8),
            Column(_("Available"), width=1.0, numeric=True),
            Column(_("Spent"), width=1.0, numeric=True),
            Column(_("Lost"), width=1.0, numeric=True),
        ),
        rows=tuple(
            Row(cells=(line.day, str(line.available), str(line.spent), str(line.lost)))
            for line in record.days
        ),
        empty_text=_("No FPP yet."),
    )
    facts = ()
    if record.booby_trap_level:
        facts = (Fact(_("Booby-trap level for this day's scenario"), record.booby_trap_level),)
    return frame(
        campaign,
        side,
        kind="fortifications",
        title=_title(campaign, side),
        facts=facts,
        tables=(
            _by_type(campaign, side, record, lines=1),
            purchases,
            fpp,
            _cvp_tally(campaign, record),
        ),
        notes=(
            _(
                "Total #: bought (or given in the initial OB) and not yet placed, pencilled in "
                "at purchase and erased once the items are set up: minefields in total factors "
                "(“A-P 6”), HIP per unit type. Unspent FPP are lost at the end of the "
                "fortification step (%(rule)s)."
            )
            % {"rule": fortification_rule(campaign)},
        ),
    )


def blank_fortifications(campaign: Campaign, side: str) -> Sheet:
    return frame(
        campaign,
        side,
        kind="blank-fortifications",
        title=_title(campaign, side),
        tables=(
            _by_type(campaign, side, None, lines=BLANK_LOCATION_LINES),
            _cvp_tally(campaign, None),
        ),
        blank=True,
    )
