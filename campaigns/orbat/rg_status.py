"""Changes to RGs' statuses (their life cycle, campaigns.orbat.lifecycle): the automatic moves
the Refit Phases decide, and the ones a player or the referee sets on the order of battle.

Each change runs in the caller's transaction (the manual one in its own) and records a history
event scoped to the RG's side, with the rows' before/after values so that it can be undone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import Campaign, OrbatBox, OrbatEntry, ReinforcementGroup, RgStatus
from campaigns.orbat import lifecycle
from campaigns.state import StaleEdit, StateError

# Why a status cannot be set by hand, in words (keys of lifecycle.why_not).
REFUSALS = {
    "unknown": lambda: _("That is not a status of an RG."),
    "automatic": lambda: _(
        "The app sets this status itself as the Refit Phases and scenarios finish."
    ),
    "not_in_play": lambda: _(
        "Only an RG that has been in a scenario (in the scenario or retained) can end this way."
    ),
    "not_afv": lambda: _("Only an AFV platoon that has been on the map is withdrawn (11.6142)."),
    "not_oba": lambda: _(
        "Only an OBA RG is marked expended by hand (used: an FFE:1 placed, CG10)."
    ),
}


def rule_view(rg: ReinforcementGroup, rg_type: str = "", *, to_roll: bool = True) -> lifecycle.Rg:
    """What the rules read of an RG."""
    return lifecycle.Rg(rg.status, rg.index, rg_type, rg.entered, to_roll)


def after_rolls(rg: ReinforcementGroup) -> str | None:
    return lifecycle.after_rolls(rule_view(rg))


def move(
    campaign: Campaign,
    moves: Mapping[ReinforcementGroup, str],
    *,
    by: AbstractBaseUser | None,
    cause: str,
) -> None:
    """Save the automatic moves (RG → new status), one event per side secret to it.

    ``cause`` is the history's key for why (``reph_finished``, ``scenario_started``…)."""
    by_side: dict[str, list[tuple[Model, dict, dict]]] = {}
    for rg, status in moves.items():
        before = history.snapshot(rg)
        rg.status = status
        if status == lifecycle.ON_MAP:
            rg.entered = True
        by_side.setdefault(rg.side, []).append((rg, before, history.snapshot(rg)))
    # One write for all of them: the cost of a finish does not grow with the campaign.
    ReinforcementGroup.objects.bulk_update(list(moves), ["status", "entered"], batch_size=500)
    for line, before, after in _survivors_to_retained(
        [rg for rg, status in moves.items() if status == lifecycle.RETAINED]
    ):
        by_side.setdefault(line.side, []).append((line, before, after))
    for side, changes in sorted(by_side.items()):
        history.record_change(
            campaign,
            by,
            "rg.statuses_moved",
            visibility=side,
            changes=changes,
            side=side,
            cause=cause,
            rgs=[
                f"{row.label}:{row.status}"
                for row, _before, _after in changes
                if isinstance(row, ReinforcementGroup)
            ],
            lines=sum(1 for row, _before, _after in changes if isinstance(row, OrbatEntry)),
        )


def _survivors_to_retained(
    rgs: list[ReinforcementGroup],
) -> list[tuple[OrbatEntry, dict, dict]]:
    """After the scenario, what is still in the boxes of the RGs now retained goes into the
    divider's Retained box (11.15), each line naming its RG (one read, one write)."""
    if not rgs:
        return []
    labels = {rg.pk: rg.label for rg in rgs}
    lines = list(OrbatEntry.objects.filter(box=OrbatBox.RG, group_id__in=labels).order_by("id"))
    moved = []
    for line in lines:
        before = history.snapshot(line)
        line.origin_rg = line.origin_rg or labels[line.group_id]
        line.box, line.group = OrbatBox.RETAINED, None
        line.version += 1
        moved.append((line, before, history.snapshot(line)))
    OrbatEntry.objects.bulk_update(lines, ["box", "group", "origin_rg", "version"], batch_size=500)
    return moved


@transaction.atomic
def set_status(
    campaign: Campaign,
    rg: ReinforcementGroup,
    *,
    by: AbstractBaseUser,
    status: str,
    current: str,
    rg_type: str,
) -> ReinforcementGroup:
    """A player or the referee sets withdrawn, eliminated or expended (lifecycle.MANUAL).

    ``current`` is the status the page showed: a status changed meanwhile is a stale edit."""
    rg = ReinforcementGroup.objects.select_for_update(of=("self",)).get(pk=rg.pk, campaign=campaign)
    if rg.status != current:
        raise StaleEdit
    refusal = lifecycle.why_not(rule_view(rg, rg_type), campaign.module, status)
    if refusal is not None:
        raise StateError(str(REFUSALS[refusal]()))
    before = history.snapshot(rg)
    rg.status = status
    rg.save(update_fields=["status"])
    history.record_change(
        campaign,
        by,
        "rg.status_set",
        visibility=rg.side,
        changes=[(rg, before, history.snapshot(rg))],
        side=rg.side,
        index=rg.index,
        rg=rg.label,
        status=status,
    )
    return rg


def status_label(key: str) -> str:
    """A status in the reader's language (an unknown key reads as itself)."""
    label = _LABELS.get(key)
    return key if label is None else str(label)


# The lazy labels by key, looked up once: the report and the sheets call this for every RG.
_LABELS = {status.value: status.label for status in RgStatus}


def count_by_status(rgs: Iterable[ReinforcementGroup]) -> dict[str, int]:
    return lifecycle.counts(rg.status for rg in rgs)
