"""Changes to the public records: the calendar days, the CVP entries and the scenarios played.

Each change runs in one transaction and records a public history event (the shared core is
campaigns.state). Calendar days and scenarios are versioned; CVP entries are append-only.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.history import services as history
from campaigns.models import Campaign, CampaignDay, CvpEntry, Scenario
from campaigns.state import StateError, check_day, check_side, edit_row


@transaction.atomic
def update_day(
    campaign: Campaign, day: CampaignDay, *, by: AbstractBaseUser, version: int, **fields: Any
) -> None:
    edit_row(
        campaign,
        day,
        by=by,
        version=version,
        fields=fields,
        action="day.updated",
        visibility=PUBLIC,
        index=day.index,
    )


@transaction.atomic
def add_cvp(campaign: Campaign, *, by: AbstractBaseUser, **fields: Any) -> CvpEntry:
    check_side(campaign, fields["side"])
    check_day(campaign, fields["index"])
    entry = CvpEntry.objects.create(campaign=campaign, created_by=by, **fields)
    history.record_change(
        campaign,
        by,
        "cvp.added",
        visibility=PUBLIC,
        changes=[(entry, None, history.snapshot(entry))],
        side=entry.side,
        cvp=entry.cvp,
        what=entry.what,
        index=entry.index,
    )
    return entry


@transaction.atomic
def save_scenario(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    scenario: Scenario | None = None,
    version: int | None = None,
    **fields: Any,
) -> Scenario:
    check_day(campaign, fields.get("index", scenario.index if scenario else 0))
    for key in ("attacker", "sets_up_first", "moves_first", "winner"):
        if fields.get(key):
            check_side(campaign, fields[key])
    if scenario is None:
        if Scenario.objects.filter(
            campaign=campaign, index=fields["index"], sequence=fields.get("sequence", 1)
        ).exists():
            raise StateError(_("A scenario is already recorded for that day; edit it instead."))
        scenario = Scenario.objects.create(campaign=campaign, **fields)
        history.record_change(
            campaign,
            by,
            "scenario.added",
            visibility=PUBLIC,
            changes=[(scenario, None, history.snapshot(scenario))],
            index=scenario.index,
        )
        return scenario
    index, sequence = fields.get("index", scenario.index), fields.get("sequence", scenario.sequence)
    if (
        Scenario.objects.filter(campaign=campaign, index=index, sequence=sequence)
        .exclude(pk=scenario.pk)
        .exists()
    ):
        raise StateError(_("Another scenario is already recorded in that slot."))
    edit_row(
        campaign,
        scenario,
        by=by,
        version=version if version is not None else -1,
        fields=fields,
        action="scenario.updated",
        visibility=PUBLIC,
        index=scenario.index,
    )
    return scenario
