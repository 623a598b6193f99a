"""The CG victory page (``/campaigns/<id>/victory/``): how each CG VC stands over the scenario
ends recorded (campaigns.records.cg_victory), the Stone Location totals the VC count and the
CVP table (campaigns.records.victory_data). Public facts only: every member reads it. A fixed
number of queries, whatever the campaign's size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import Viewer
from campaigns.games.map_groups import DRAW
from campaigns.games.registry import localized
from campaigns.models import Campaign, CvpValue, RefitPhase, Scenario, StoneLocationTotal
from campaigns.periods import day_label, side_choices
from campaigns.records import cg_victory
from campaigns.records.forms import scenario_label
from campaigns.records.victory_data import campaign_vc, groups_of, totals
from campaigns.reveal import services as reveal

REGION = cg_victory.REGION


def ended(scenario: Scenario) -> bool:
    """Whether the scenario's end was recorded (its winner, or any count)."""
    return bool(scenario.winner or scenario.end or scenario.locations)


def scenario_end(campaign: Campaign, scenario: Scenario, groups: tuple[str, ...]) -> Any:
    """The counts of one scenario's end the CG VC read, per area."""
    sides = campaign.game.side_keys
    end = scenario.end or {}
    controlled: dict[str, dict[str, int | None]] = {}
    by_group = end.get("map_groups") or {}
    for group in groups:
        counts = by_group.get(group) or {} if len(groups) > 1 else scenario.locations or {}
        controlled[group] = {side: (counts.get(side) or {}).get("controlled") for side in sides}
    region = end.get("region") or {}
    controlled[REGION] = {side: region.get(side) for side in sides}
    return cg_victory.ScenarioEnd(scenario_label(campaign, scenario), controlled)


@dataclass(frozen=True)
class TotalRow:
    area: str
    name: str
    total: int | None
    source: str
    version: int


def area_name(area: str, region_text: str = "") -> str:
    if area == REGION:
        return (
            _("The CG VC area (%(where)s)") % {"where": region_text}
            if region_text
            else _("The CG VC area")
        )
    return _("%(group)s map") % {"group": area}


def region_text(vc: dict[str, Any] | None, language: str) -> str:
    for group_vc in ((vc or {}).get("per_map_group") or {"": vc or {}}).values():
        for condition in group_vc.get("any_of") or ():
            region = condition.get("region") or {}
            if region:
                return str(region.get(language) or region.get("en") or "")
    return ""


def victory_page(viewer: Viewer) -> dict[str, Any]:
    campaign = viewer.campaign
    vc = campaign_vc(campaign)
    groups = groups_of(campaign)
    scenarios = list(Scenario.objects.filter(campaign=campaign).order_by("index", "sequence"))
    ends = [scenario_end(campaign, s, groups) for s in scenarios if ended(s)]
    # The one reading of "the CG is over" (the reveal's: campaigns.reveal.rules.cg_over).
    cg_over = reveal.cg_over(campaign)
    known = totals(campaign)
    result = cg_victory.standing(
        vc, groups, {area: value for area, (value, _src) in known.items()}, ends, cg_over=cg_over
    )
    names = dict(side_choices(campaign))
    names[DRAW] = _("Draw")
    versions = dict(
        StoneLocationTotal.objects.filter(campaign=campaign).values_list("area", "version")
    )
    where = region_text(vc, get_language() or "en")
    rows = [
        TotalRow(area, area_name(area, where), value, source, versions.get(area, 0))
        for area, (value, source) in known.items()
    ]
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    printed = ((definitions.get(campaign.campaign_game) or {}).get("victory") or {}).get("campaign")
    # What the referee (or the players) answered when a Refit Phase finished (11.6031).
    recorded = next(
        (
            (index, outcome["cg_winner"])
            for index, outcome in RefitPhase.objects.filter(
                campaign=campaign, finished_at__isnull=False
            )
            .order_by("index", "sequence")
            .values_list("index", "outcome")
            if (outcome or {}).get("cg_won") and (outcome or {}).get("cg_winner") in names
        ),
        None,
    )
    return {
        "campaign": campaign,
        "viewer": viewer,
        "recorded_winner": names[recorded[1]] if recorded else "",
        "recorded_on": day_label(campaign, recorded[0]) if recorded else "",
        "printed": localized(printed, get_language()),
        "standing": result,
        "winner": names.get(result.winner, ""),
        "names": names,
        "areas": [
            (area, describe(area, names, where), names.get(area.winner, ""))
            for area in result.areas
        ],
        "ends": [(end.label, end_cells(end, rows, names)) for end in ends],
        "totals": rows,
        "cg_over": cg_over,
        "can_edit": viewer.can_act_for_campaign,
        "cvp_values": list(CvpValue.objects.filter(campaign=campaign).order_by("unit_type")),
        "split": len(groups) > 1,
    }


def end_cells(end: Any, rows: list[TotalRow], names: dict[str, str]) -> list[str]:
    """One scenario's end: per area, each side's count controlled ("German 560")."""
    cells = []
    for row in rows:
        counts = end.controlled.get(row.area) or {}
        cells.append(
            "; ".join(
                f"{names.get(side, side)} {count}"
                for side, count in counts.items()
                if count is not None
            )
        )
    return cells


def describe(area: cg_victory.AreaStanding, names: dict[str, str], where: str) -> list[str]:
    """Each condition of one map group's VC in words, with how it stands."""
    lines = []
    side = names.get(area.side, area.side)
    for c in area.conditions:
        if c.state == cg_victory.NEEDS_MAP:
            lines.append(
                _(
                    "%(side)s: a condition on factories or buildings (see the CG VC above): the "
                    "app has no map data for it; the players judge it."
                )
                % {"side": side}
            )
            continue
        label = area_name(c.area, where)
        if c.state == cg_victory.UNKNOWN_TOTAL:
            lines.append(
                _(
                    "%(side)s must control every Stone Location of %(area)s except %(n)s at the "
                    "end of a CG scenario; the area's total is unknown: enter it below."
                )
                % {"side": side, "area": label, "n": c.excepted}
            )
            continue
        text = _(
            "%(side)s must control every Stone Location of %(area)s except %(n)s (%(needed)s of "
            "%(total)s) at the end of a CG scenario."
        ) % {"side": side, "area": label, "n": c.excepted, "needed": c.needed, "total": c.total}
        if c.state == cg_victory.MET:
            text += " " + _("Met at the end of %(scenario)s: %(count)s controlled.") % {
                "scenario": c.met_at,
                "count": c.best,
            }
        else:
            if c.best is None:
                text += " " + _("Not met: no count recorded yet.")
            else:
                text += " " + _("Not met yet: at best %(count)s controlled.") % {"count": c.best}
            if c.unrecorded:
                text += " " + _("No count recorded for: %(scenarios)s.") % {
                    "scenarios": "; ".join(c.unrecorded)
                }
        lines.append(text)
    return lines
