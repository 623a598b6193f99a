"""A new CG day (RF) or time frame (SaP) starts with what the previous one ended with.

When ``services.finish`` opens the RePh of a later CG day (RF: the new-day steps after a
scenario or an Idle Day; SaP: the RePh before the next time frame), each side's CG Roster row
of the new day takes the previous day's ELR and SAN — after that day's SAN adjustment, ELR
change and Sniper RGs — so that 11.6122 and 11.617 can be rolled at once (``refit.rules.carry``:
a SAN of 0 rises to 2). A value someone already wrote on the new day's row stays.

Each side's carry is one history event scoped to that side (ELR and SAN are its secrets until
11.625 announces them), with the row's before/after values, so it can be undone.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, SideDay
from campaigns.state import save_versioned
from refit.rules.carry import Ratings, carried


def carry_into(campaign: Campaign, index: int, *, by: AbstractBaseUser) -> list[CampaignEvent]:
    """Carry each side's ELR and SAN from day ``index − 1`` into day ``index``; the events
    recorded (none when there was nothing to carry). Call inside the transaction that opens
    the new day."""
    if index < 1:
        return []
    rows = {
        (row.index, row.side): row
        for row in SideDay.objects.select_for_update(of=("self",)).filter(
            campaign=campaign, index__in=(index - 1, index)
        )
    }
    events = []
    for side in campaign.game.side_keys:
        previous, today = rows.get((index - 1, side)), rows.get((index, side))
        if previous is None or today is None:
            continue
        fields = carried(Ratings(previous.elr, previous.san), Ratings(today.elr, today.san))
        if not fields:
            continue
        before = history.snapshot(today)
        save_versioned(today, today.version, fields)
        raised = fields.get("san", previous.san) != previous.san
        events.append(
            history.record_change(
                campaign,
                by,
                "side_day.carried",
                visibility=side,
                changes=[(today, before, history.snapshot(today))],
                index=index,
                side=side,
                **fields,
                **({"san_was": previous.san} if raised else {}),
            )
        )
    return events
