"""RF 11.623: each side chooses its initiative chit in secret; when both have chosen, the
chits are revealed together, the Initiative Matrix gives the day's scenario or an Idle Day,
and the scenario is recorded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.history import services as history
from campaigns.models import Campaign, RefitPhase, Scenario, SideDay
from campaigns.roster import services as roster
from refit.rules.initiative import attack_allowed, matrix_cell


class InitiativeError(ValueError):
    """The chit cannot be chosen; the message is for the user."""


def matrix(campaign: Campaign) -> Mapping[str, Any] | None:
    for chart in campaign.game.files.get("tables", {}).get("charts", []):
        if chart.get("kind") == "matrix" and chart.get("chits"):
            return chart
    return None


def is_initiative_step(campaign: Campaign, tables: tuple[str, ...]) -> bool:
    chart = matrix(campaign)
    return chart is not None and chart["id"] in tables


def attacks_before(campaign: Campaign, side: str, index: int) -> int:
    """Attack chits the side has chosen before CG day ``index``. The first day's deemed chits
    (11.5, seed L605) count for 11.616 and 11.617 only, not for the 11.6231 limits."""
    return SideDay.objects.filter(
        campaign=campaign, side=side, index__lt=index, initiative_chit="attack"
    ).count()


def allowed_chits(campaign: Campaign, side: str, index: int) -> dict[str, str]:
    """Each chit with "" when the side may choose it, else why not."""
    chart = matrix(campaign) or {}
    reasons = {}
    for chit in chart.get("chits", []):
        reasons[chit] = ""
        if chit == "attack":
            ok, limit = attack_allowed(
                chart.get("attack_limits") or {},
                side=side,
                campaign_game=campaign.campaign_game,
                day_number=index + 1,
                attacks=attacks_before(campaign, side, index),
            )
            if not ok:
                reasons[chit] = (
                    _("The Attack chits of this campaign game are used up (11.6231).")
                    if limit == "per_cg"
                    else _("At most one Attack chit per 4 CG days (11.6231).")
                )
    return reasons


@dataclass(frozen=True)
class Revealed:
    chits: dict[str, str]
    cell: Mapping[str, Any]
    scenario: Scenario | None


def revealed(campaign: Campaign, index: int) -> Revealed | None:
    """Both chits of CG day ``index`` once revealed, with the matrix cell; else None."""
    days = list(SideDay.objects.filter(campaign=campaign, index=index))
    if len(days) < len(campaign.game.side_keys) or not all(d.chit_revealed for d in days):
        return None
    chits = {d.side: d.initiative_chit for d in days}
    chart = matrix(campaign)
    if chart is None:
        return None
    scenario = Scenario.objects.filter(campaign=campaign, index=index).order_by("-sequence").first()
    return Revealed(chits, matrix_cell(chart, chits), scenario)


@transaction.atomic
def choose(
    campaign: Campaign, reph: RefitPhase, *, side: str, chit: str, by: AbstractBaseUser
) -> Revealed | None:
    """Record the side's chit in secret; when it completes the pair, reveal both."""
    days = {
        d.side: d
        for d in SideDay.objects.select_for_update(of=("self",)).filter(
            campaign=campaign, index=reph.index
        )
    }
    mine = days[side]
    if mine.chit_revealed:
        raise InitiativeError(_("The chits of this CG day are already revealed."))
    reasons = allowed_chits(campaign, side, reph.index)
    if chit not in reasons:
        raise InitiativeError(_("Choose one of the chits."))
    if reasons[chit]:
        raise InitiativeError(reasons[chit])
    with history.refit_step(reph, "11.623", side):
        roster.update_side_day(campaign, mine, by=by, version=mine.version, initiative_chit=chit)
        mine.refresh_from_db()
        days[side] = mine
        if not all(d.initiative_chit for d in days.values()):
            return None
        return _reveal(campaign, reph, days, by)


def _fixed(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _reveal(
    campaign: Campaign, reph: RefitPhase, days: dict[str, SideDay], by: AbstractBaseUser
) -> Revealed:
    chart = matrix(campaign)
    assert chart is not None
    chits = {side: day.initiative_chit for side, day in days.items()}
    cell = matrix_cell(chart, chits)
    changes = []
    for day in days.values():
        before = history.snapshot(day)
        SideDay.objects.filter(pk=day.pk).update(chit_revealed=True, version=day.version + 1)
        day.refresh_from_db()
        changes.append((day, before, history.snapshot(day)))
    scenario = None
    if cell.get("scenario"):
        kind = chart["scenario_types"][cell["result"]]
        fields = {
            "scenario_type": "dual_attack" if cell["result"] == "dual_attack" else "assault",
            "attacker": kind.get("attacker") or "",
            # A Dual Attack's order is rolled (11.6233, 11.625); an Assault's is fixed.
            "sets_up_first": _fixed(kind.get("sets_up_first")),
            "moves_first": _fixed(kind.get("moves_first")),
        }
        slot = Scenario.objects.filter(campaign=campaign, index=reph.index, sequence=reph.sequence)
        if slot.exists():
            raise InitiativeError(
                _("A scenario is already recorded for this CG day; remove it first.")
            )
        scenario = Scenario.objects.create(
            campaign=campaign, index=reph.index, sequence=reph.sequence, **fields
        )
        changes.append((scenario, None, history.snapshot(scenario)))
    history.record_change(
        campaign,
        by,
        "initiative.revealed",
        visibility=PUBLIC,
        changes=changes,
        index=reph.index,
        chits=chits,
        result=cell["result"],
    )
    return Revealed(chits, cell, scenario)
