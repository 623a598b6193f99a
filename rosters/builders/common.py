"""What every sheet builder needs: the sheet's frame, names in the sheet's language, RG data."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.registry import Side, localized
from campaigns.models import Campaign
from campaigns.orbat.lifecycle import counts as count_statuses
from campaigns.orbat.rg_status import status_label
from campaigns.periods import period_word
from rosters.sheets import Fact, Sheet, Table


def language() -> str:
    return "ja" if (get_language() or "en").startswith("ja") else "en"


def side_name(campaign: Campaign, side: str) -> str:
    return campaign.side(side).name.in_language(language())


def side_label(side: Side | None) -> str:
    """A side's name, or "—" where the rules' record has none (no attacker, not decided)."""
    return side.name.in_language(language()) if side else "—"


def period_label(campaign: Campaign, index: int) -> str:
    periods = campaign.cg.periods
    if 0 <= index < len(periods):
        return periods[index].label.in_language(language())
    return str(index)


def current_index(campaign: Campaign) -> int:
    return min(campaign.period_index, len(campaign.cg.periods) - 1)


def first_column_heading(campaign: Campaign) -> str:
    """ "CG day", "Time frame" or "Turn": what one row of the calendar is in this game."""
    return period_word(campaign)


def rg_chart(campaign: Campaign, side: str) -> dict[str, dict[str, Any]]:
    """The side's RG chart rows by RG id."""
    chart = campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side, {})
    return {group["id"]: group for group in chart.get("groups", [])}


def rg_name(chart: dict[str, dict[str, Any]], rg_id: str) -> str:
    group = chart.get(rg_id)
    return localized(group.get("name"), language()) if group else ""


def frame(
    campaign: Campaign,
    side: str,
    *,
    kind: str,
    title: str,
    tables: tuple[Table, ...] = (),
    facts: tuple[Fact, ...] = (),
    notes: tuple[str, ...] = (),
    blank: bool = False,
) -> Sheet:
    cg = campaign.cg
    return Sheet(
        kind=kind,
        title=title,
        campaign=campaign.name,
        campaign_game=cg.title.in_language(language()),
        side=side_name(campaign, side),
        date=period_label(campaign, current_index(campaign)),
        data_version=campaign.data_version,
        language=language(),
        facts=facts,
        tables=tables,
        notes=notes,
        blank=blank,
    )


def status_facts(statuses: Iterable[str]) -> tuple[Fact, ...]:
    """One fact: how many RGs in each status of their life cycle, those with none left out."""
    tally = count_statuses(statuses)
    text = " · ".join(f"{status_label(key)} {n}" for key, n in tally.items() if n)
    return (Fact(_("RGs by status"), text or "—"),)
