"""Changes to a side's order of battle: OB lines added, changed, moved between the divider's
boxes (11.15) or removed, and the next number of an RG bought again.

Each change runs in one transaction and records a history event scoped to the side (the shared
core is campaigns.state). OB lines are versioned: a change based on a stale line is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Model
from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import Campaign, OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.orbat.entry import parse_entry
from campaigns.state import StaleEdit, StateError, check_side, save_versioned, vehicles_of

# Rules a module adds to a line's change, registered when the apps are ready (refit/apps.py:
# SaP CG7.23, a dug-in AFV keeps its mark). Each gets the line as it is and the statuses asked
# for, and raises StateError naming the rule.
StatusCheck = Callable[[OrbatEntry, list[str]], None]
STATUS_CHECKS: list[StatusCheck] = []


def _check_box(campaign: Campaign, side: str, box: str, group: ReinforcementGroup | None) -> None:
    if box not in OrbatBox.values:
        raise StateError(_("That is not a box of the divider."))
    if (box == OrbatBox.RG) != (group is not None):
        raise StateError(_("Choose which RG's box."))
    if group is not None and (group.campaign_id != campaign.pk or group.side != side):
        raise StateError(_("That RG is not one of this side's."))


@transaction.atomic
def add_units(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    side: str,
    box: str,
    text: str,
    group: ReinforcementGroup | None = None,
    statuses: Iterable[str] = (),
) -> list[OrbatEntry]:
    check_side(campaign, side)
    _check_box(campaign, side, box, group)
    lines = parse_entry(text, vehicles_of(campaign))
    entries = [
        OrbatEntry.objects.create(
            campaign=campaign,
            side=side,
            box=box,
            group=group,
            unit_type=line.unit_type,
            kind=line.kind,
            quantity=line.quantity,
            origin_rg=line.origin_rg,
            statuses=list(statuses),
        )
        for line in lines
    ]
    history.record_change(
        campaign,
        by,
        "orbat.added",
        visibility=side,
        changes=[(entry, None, history.snapshot(entry)) for entry in entries],
        side=side,
        box=box,
        units=[f"{e.quantity} × {e.unit_type}" for e in entries],
    )
    return entries


@transaction.atomic
def change_entry(
    entry: OrbatEntry,
    *,
    by: AbstractBaseUser,
    version: int,
    quantity: int | None = None,
    box: str | None = None,
    group: ReinforcementGroup | None = None,
    move_quantity: int | None = None,
    statuses: list[str] | None = None,
    status_note: str | None = None,
) -> OrbatEntry | None:
    """Change a line's quantity or statuses, or move some or all of it to another box.

    Returns the line that was moved into (a new one when only part moves), else None.
    """
    campaign = entry.campaign
    before = history.snapshot(entry)
    changes: list[tuple[Model | None, Any, Any]] = []
    moved = None
    fields: dict[str, Any] = {}
    if quantity is not None:
        if quantity < 1:
            raise StateError(_("A quantity must be 1 or more; remove the line instead."))
        fields["quantity"] = quantity
    if statuses is not None:
        for check in STATUS_CHECKS:
            check(entry, statuses)
        fields["statuses"] = statuses
    if status_note is not None:
        fields["status_note"] = status_note
    if box is not None:
        _check_box(campaign, entry.side, box, group)
        count = move_quantity or entry.quantity
        if not 1 <= count <= entry.quantity:
            raise StateError(_("Move between 1 and %(n)s.") % {"n": entry.quantity})
        if count == entry.quantity:
            fields.update(box=box, group=group)
        else:
            fields["quantity"] = entry.quantity - count
            moved = OrbatEntry.objects.create(
                campaign=campaign,
                side=entry.side,
                box=box,
                group=group,
                unit_type=entry.unit_type,
                kind=entry.kind,
                quantity=count,
                origin_rg=entry.origin_rg,
                statuses=entry.statuses,
                status_note=entry.status_note,
            )
            changes.append((moved, None, history.snapshot(moved)))
    if not fields and moved is None:
        return None
    save_versioned(entry, version, fields)
    changes.insert(0, (entry, before, history.snapshot(entry)))
    history.record_change(
        campaign,
        by,
        "orbat.changed",
        visibility=entry.side,
        changes=changes,
        side=entry.side,
        unit=entry.unit_type,
        box=box or entry.box,
    )
    return moved or (entry if box is not None else None)


@transaction.atomic
def move_entries(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    side: str,
    lines: dict[int, int],
    box: str,
    group: ReinforcementGroup | None = None,
) -> list[OrbatEntry]:
    """Move whole lines (id → the version the page showed) to one box: one change, one event,
    undone together. A line already in that box stays; a line saved since is refused (all of
    them: nothing moves)."""
    check_side(campaign, side)
    _check_box(campaign, side, box, group)
    if not lines:
        raise StateError(_("Check the lines to move."))
    entries = list(
        OrbatEntry.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, side=side, pk__in=list(lines))
        .order_by("id")
    )
    if len(entries) != len(lines):
        raise StateError(_("A checked line is not in this side's order of battle any more."))
    group_id = group.pk if group is not None else None
    moving = [e for e in entries if (e.box, e.group_id) != (box, group_id)]
    if not moving:
        raise StateError(_("The checked lines are already in that box."))
    changes: list[tuple[Model | None, Any, Any]] = []
    for entry in moving:
        before = history.snapshot(entry)
        save_versioned(entry, lines[entry.pk], {"box": box, "group": group})
        changes.append((entry, before, history.snapshot(entry)))
    history.record_change(
        campaign,
        by,
        "orbat.moved",
        visibility=side,
        changes=changes,
        side=side,
        box=box,
        units=[f"{e.quantity} × {e.unit_type}" for e in moving],
    )
    return moving


@transaction.atomic
def remove_entry(entry: OrbatEntry, *, by: AbstractBaseUser, version: int) -> None:
    if not OrbatEntry.objects.filter(pk=entry.pk, version=version).exists():
        raise StaleEdit
    before = history.snapshot(entry)
    entry.delete()
    history.record_change(
        entry.campaign,
        by,
        "orbat.removed",
        visibility=entry.side,
        changes=[(entry, before, None)],
        side=entry.side,
        unit=f"{entry.quantity} × {entry.unit_type}",
    )


def next_rg_number(campaign: Campaign, side: str, rg_id: str) -> int:
    current = ReinforcementGroup.objects.filter(
        campaign=campaign, side=side, rg_id=rg_id
    ).aggregate(Max("number"))["number__max"]
    return (current or 0) + 1
