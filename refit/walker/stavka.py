"""Russian Stavka armor leaves the CG at the end of the time frame it entered (CG7.22, issue 16).

SaP CG7.22 [L473]: the Stavka AFVs [EXC: captured ones, 11.6136] are removed from the CG at the
end of the CG time frame in which they entered (RePh step 11.602), even if immobile; so are
their wrecks, burning ones included [EXC: in a terrain Blaze], which cannot be salvaged.

``services.finish`` calls ``remove_ended`` when it opens the RePh of a later time frame, before
that time frame's reinforcements arrive (``refit.walker.arrivals``): every Russian OB line marked
``stavka`` then belongs to a time frame that has ended. Lines also marked ``captured`` or
``blaze_wreck`` stay (the pure choice is ``refit.rules.arrivals.stavka_leaves``). The removal is
one event, scoped to the Russian side, with the lines' snapshots (and the CVP entries that
pointed at them), so that an undo puts everything back.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, CvpEntry, OrbatEntry
from refit.rules.arrivals import stavka_leaves
from refit.walker.arrivals import SAP

ACTION = "orbat.stavka_removed"
SIDE = "russian"


def remove_ended(campaign: Campaign, index: int, *, by: AbstractBaseUser) -> CampaignEvent | None:
    """Remove the Stavka lines of the time frames before ``index``; the event (None: none)."""
    if campaign.module != SAP:
        return None
    lines = [
        line
        for line in OrbatEntry.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, side=SIDE)
        .order_by("pk")
        if stavka_leaves(line.statuses)
    ]
    if not lines:
        return None
    changes: list[history.Change] = []
    for cvp in CvpEntry.objects.select_for_update(of=("self",)).filter(orbat_entry__in=lines):
        before = history.snapshot(cvp)
        cvp.orbat_entry = None
        cvp.save(update_fields=["orbat_entry"])
        changes.append((cvp, before, history.snapshot(cvp)))
    words = []
    for line in lines:
        changes.append((line, history.snapshot(line), None))
        words.append(f"{line.quantity} × {line.unit_type}")
        line.delete()
    return history.record_change(
        campaign,
        by,
        "orbat.stavka_removed",
        visibility=SIDE,
        changes=changes,
        side=SIDE,
        index=index - 1,
        units=words,
    )
