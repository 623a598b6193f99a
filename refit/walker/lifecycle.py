"""RGs move on in their life cycle when a Refit Phase or a scenario finishes (issue 15).

``walker.services.finish`` calls ``after_finish`` once, in its transaction: the rules are
campaigns.orbat.lifecycle (pure), the writes and their history campaigns.orbat.rg_status.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from campaigns.games import step_engine
from campaigns.models import Campaign, RefitPhase, ReinforcementGroup
from campaigns.orbat import lifecycle, rg_status
from refit.rules import receipt as receipt_rules
from refit.rules.purchase_costs import group_by_id


def _rule_view(campaign: Campaign, rg: ReinforcementGroup) -> lifecycle.Rg:
    group = group_by_id(campaign.game.files["rg_charts"], rg.side, rg.rg_id) or {}
    to_roll = bool(group) and (
        bool(receipt_rules.rolls_for(campaign.module, rg.side, group))
        or (campaign.module == receipt_rules.SAP and bool(group.get("components")))
    )
    return rg_status.rule_view(rg, group.get("type", ""), to_roll=to_roll)


def after_finish(
    campaign: Campaign,
    reph: RefitPhase,
    following: step_engine.Position | None,
    *,
    by: AbstractBaseUser,
) -> None:
    """Move every RG of both sides that the finish of ``reph`` moves on (one query to read,
    one write per RG moved, one event per side)."""
    finished = lifecycle.Phase(reph.kind, reph.index)
    opened = lifecycle.Phase(following.kind, following.index) if following else None
    moves = {}
    for rg in ReinforcementGroup.objects.filter(campaign=campaign).exclude(
        status__in=lifecycle.ENDED
    ):
        status = lifecycle.on_finish(_rule_view(campaign, rg), finished, opened)
        if status is not None:
            moves[rg] = status
    if moves:
        cause = "scenario_finished" if reph.kind == lifecycle.SCENARIO else "reph_finished"
        rg_status.move(campaign, moves, by=by, cause=cause)
