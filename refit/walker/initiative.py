"""RF 11.623: each side chooses its initiative chit in secret; when both have chosen, the
chits are revealed together, the Initiative Matrix gives the day's scenario or an Idle Day,
and the scenario is recorded.

RO CG I (SSR I.6) plays two scenarios on 23 Oct; the RePh between them (``sequence`` 2) has its
own chits, kept in ``SideDay.second_chit``, and SSR I.6 deems them: German Attack, Soviet Idle."""

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


def chit_fields(sequence: int) -> tuple[str, str]:
    """The SideDay fields holding the chit of the RePh before the day's scenario ``sequence``
    and whether it is revealed."""
    if sequence > 1:
        return "second_chit", "second_chit_revealed"
    return "initiative_chit", "chit_revealed"


def chit_of(day: SideDay | None, sequence: int = 1) -> str:
    return getattr(day, chit_fields(sequence)[0]) if day is not None else ""


def attacks_before(campaign: Campaign, side: str, index: int) -> int:
    """Attack chits the side has chosen before CG day ``index``, the chits before a day's second
    scenario included (RO CG I SSR I.6: they stay on 23 Oct, the CG's day 1, spec Q19). The
    first day's deemed chits (11.5, seed L605) count for 11.616 and 11.617 only, not for the
    11.6231 limits."""
    days = SideDay.objects.filter(campaign=campaign, side=side, index__lt=index)
    return days.filter(initiative_chit="attack").count() + (
        days.filter(second_chit="attack").count()
    )


def deemed_chits(campaign: Campaign, sequence: int) -> dict[str, str]:
    """The chits the rules deem chosen before the day's scenario ``sequence``: RO CG I SSR I.6
    (the ``extra_scenario`` effect's ``second_scenario_chits``); empty when the sides choose."""
    if sequence < 2:
        return {}
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    for ssr in (definitions.get(campaign.campaign_game) or {}).get("ssrs") or []:
        for effect in ssr.get("effects") or []:
            if effect.get("kind") == "extra_scenario" and effect.get("second_scenario_chits"):
                return dict(effect["second_scenario_chits"])
    return {}


def allowed_chits(campaign: Campaign, side: str, index: int, sequence: int = 1) -> dict[str, str]:
    """Each chit with "" when the side may choose it, else why not."""
    chart = matrix(campaign) or {}
    deemed = deemed_chits(campaign, sequence).get(side, "")
    reasons = {}
    for chit in chart.get("chits", []):
        reasons[chit] = ""
        if deemed and chit != deemed:
            reasons[chit] = _(
                "SSR I.6: for the second scenario of this day your side is deemed to have"
                " chosen the other chit (11.623)."
            )
        elif chit == "attack":
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


def revealed(campaign: Campaign, index: int, sequence: int = 1) -> Revealed | None:
    """Both chits of CG day ``index`` (before its scenario ``sequence``) once revealed, with the
    matrix cell; else None."""
    chit_field, revealed_field = chit_fields(sequence)
    days = list(SideDay.objects.filter(campaign=campaign, index=index))
    if len(days) < len(campaign.game.side_keys) or not all(
        getattr(d, revealed_field) for d in days
    ):
        return None
    chits = {d.side: getattr(d, chit_field) for d in days}
    chart = matrix(campaign)
    if chart is None:
        return None
    scenario = Scenario.objects.filter(campaign=campaign, index=index, sequence=sequence).first()
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
    chit_field, revealed_field = chit_fields(reph.sequence)
    mine = days[side]
    if getattr(mine, revealed_field):
        raise InitiativeError(_("The chits of this CG day are already revealed."))
    reasons = allowed_chits(campaign, side, reph.index, reph.sequence)
    if chit not in reasons:
        raise InitiativeError(_("Choose one of the chits."))
    if reasons[chit]:
        raise InitiativeError(reasons[chit])
    with history.refit_step(reph, "11.623", side):
        roster.update_side_day(campaign, mine, by=by, version=mine.version, **{chit_field: chit})
        mine.refresh_from_db()
        days[side] = mine
        if not all(getattr(d, chit_field) for d in days.values()):
            return None
        return _reveal(campaign, reph, days, by)


def _fixed(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _reveal(
    campaign: Campaign, reph: RefitPhase, days: dict[str, SideDay], by: AbstractBaseUser
) -> Revealed:
    chart = matrix(campaign)
    assert chart is not None
    chit_field, revealed_field = chit_fields(reph.sequence)
    chits = {side: getattr(day, chit_field) for side, day in days.items()}
    cell = matrix_cell(chart, chits)
    changes = []
    for day in days.values():
        before = history.snapshot(day)
        SideDay.objects.filter(pk=day.pk).update(**{revealed_field: True}, version=day.version + 1)
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
        sequence=reph.sequence,
        chits=chits,
        result=cell["result"],
    )
    return Revealed(chits, cell, scenario)
