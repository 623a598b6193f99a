"""A one-page campaign summary of one side for the start of an evening.

Where the campaign stands (CG day), the side's ELR and SAN, the CPP it has left, its RGs by
status (awaiting entry: only those truly awaiting) and the scenario record — read from the same
rows as the roster and the divider.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.games.rules import signed
from campaigns.models import Campaign, ReinforcementGroup
from campaigns.orbat import lifecycle
from campaigns.orbat.divider import side_groups
from campaigns.orbat.rg_status import status_label
from campaigns.records.balance import scenario_balance_drm, win_loss
from campaigns.roster.rows import RosterRow, roster_rows
from refit.rules.purchase_costs import onboard_code
from rosters.builders.common import (
    current_index,
    first_column_heading,
    frame,
    period_label,
    rg_chart,
    rg_name,
    side_label,
    side_name,
    status_facts,
)
from rosters.sheets import Column, Fact, Row, Sheet, Table


def _latest(rows: list[RosterRow], current: int, name: str) -> str:
    """The side's latest recorded ELR or SAN up to today, marked † while not announced."""
    for row in reversed(rows[: current + 1]):
        value = getattr(row.side_day, name) if row.side_day else None
        if value is not None:
            return f"{value}" if row.side_day.elr_san_revealed else f"{value}†"
    return "—"


def summary(campaign: Campaign, side: str) -> Sheet:
    rows = roster_rows(campaign, side)
    current = current_index(campaign)
    today = rows[current]
    groups = side_groups(campaign, side)
    # Only those truly awaiting entry (issue 15); the table lists every RG the side still has.
    waiting = [group for group in groups if group.status == lifecycle.AWAITING_ENTRY]
    in_hand = [group for group in groups if group.status not in lifecycle.ENDED]
    chart = rg_chart(campaign, side)
    winners = [cell.winner.key if cell.winner else "" for row in rows for cell in row.scenarios]
    won, lost = win_loss(winners, side)
    record = _("%(won)s won, %(lost)s lost") % {"won": won, "lost": lost}
    if campaign.module == "red_factories":
        record += " · " + _("11.32 balance DRM %(drm)s") % {
            "drm": signed(scenario_balance_drm(winners, side))
        }
    facts = (
        Fact(first_column_heading(campaign), period_label(campaign, current)),
        Fact(_("ELR"), _latest(rows, current, "elr")),
        Fact(_("SAN"), _latest(rows, current, "san")),
        Fact(_("CPP left"), str(today.cpp.left)),
        Fact(_("RGs awaiting entry"), str(len(waiting))),
        *status_facts(group.status for group in groups),
        Fact(_("Scenario record"), record),
        Fact(_("CVP suffered so far"), str(sum(row.cvp for row in rows[: current + 1]))),
    )
    rf = campaign.module == "red_factories"
    rgs = Table(
        title=_("RGs the side has"),
        columns=(
            Column(_("RG"), width=1.0),
            Column(_("Group type"), width=2.4),
            Column(first_column_heading(campaign), width=1.8),
            Column(_("Str"), width=0.6),
            Column(_("Status"), width=1.4),
            Column(_("Onboard (O/R/D)") if rf else _("On-map (O/R/C)"), width=0.9),
        ),
        rows=tuple(
            Row(
                cells=(
                    group.label,
                    rg_name(chart, group.rg_id),
                    period_label(campaign, group.index),
                    group.strength,
                    status_label(group.status),
                    onboard_code(campaign.module, group.option)
                    if group.source == ReinforcementGroup.Source.PURCHASED
                    else "",
                )
            )
            for group in in_hand
        ),
        empty_text=_("None."),
    )
    scenarios = Table(
        title=_("Scenario record"),
        columns=(
            Column(first_column_heading(campaign), width=1.8),
            Column(_("Type"), width=1.8),
            Column(_("Attacker"), width=1.2),
            Column(_("Winner"), width=1.2),
            Column(_("CVP suffered"), width=1.0, numeric=True),
        ),
        rows=tuple(
            Row(
                cells=(
                    period_label(campaign, row.index),
                    cell.scenario_type + (f" ({_('night')})" if cell.night else ""),
                    side_label(cell.attacker),
                    side_label(cell.winner),
                    str(row.cvp) if position == 0 and row.cvp else "",
                )
            )
            for row in rows
            for position, cell in enumerate(row.scenarios)
        ),
        empty_text=_("No scenario recorded yet."),
    )
    return frame(
        campaign,
        side,
        kind="summary",
        title=_("%(side)s campaign summary") % {"side": side_name(campaign, side)},
        facts=facts,
        tables=(rgs, scenarios),
        notes=(_("† not yet announced to the opponent."),),
    )
