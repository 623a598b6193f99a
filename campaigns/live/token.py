"""A viewer's change token: one short string that changes when something the viewer may see of
the campaign changes, and only then.

It is a hash of three things, read in one query:

* the newest history event the viewer may see (``Viewer.filter_visible``: a side's secret
  purchase, roll or mark moves the token of that side and the referee only). Every change of
  campaign state is recorded as an event, an undo too (``campaigns.history``);
* the open Refit Phase (a finish opens the next one);
* how many steps each side has marked in it. Where each side stands is shown to every member
  on the walker's overview (a secret step by its number and name only), so the counts tell a
  viewer nothing the overview does not; they move the token when the other side marks a secret
  step, so the waiting side sees it has gone on.

The token is a keyed hash so that it shows no event id (ids would count the other side's secret
changes between two visible ones).
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.crypto import salted_hmac

from campaigns.access import Viewer
from campaigns.models import Campaign, CampaignEvent, RefitPhase, StepProgress


def _marks(side: str) -> Subquery:
    return Subquery(
        StepProgress.objects.filter(
            reph__campaign=OuterRef("pk"), reph__finished_at__isnull=True, side=side
        )
        .values("reph")
        .annotate(n=Count("pk"))
        .values("n")[:1],
        output_field=IntegerField(),
    )


def parts(viewer: Viewer) -> dict[str, int | None]:
    """What the token is made of, as the viewer may see it (one query)."""
    campaign = viewer.campaign
    sides = campaign.game.side_keys
    events = viewer.filter_visible(CampaignEvent.objects.filter(campaign=OuterRef("pk")))
    row = (
        Campaign.objects.filter(pk=campaign.pk)
        .annotate(
            last_event=Subquery(events.order_by("-pk").values("pk")[:1]),
            open_reph=Subquery(
                RefitPhase.objects.filter(campaign=OuterRef("pk"), finished_at__isnull=True).values(
                    "pk"
                )[:1]
            ),
            **{f"marks_{index}": Coalesce(_marks(side), 0) for index, side in enumerate(sides)},
        )
        .values("last_event", "open_reph", *(f"marks_{index}" for index in range(len(sides))))
        .first()
    )
    return dict(row or {})


def change_token(viewer: Viewer) -> str:
    """The viewer's token: equal tokens, nothing the viewer may see has changed."""
    seen = parts(viewer)
    text = "|".join(f"{key}={seen[key]}" for key in sorted(seen))
    # Keyed with the server's secret (nothing can be read back from it) and the membership (one
    # viewer's token says nothing about another's).
    who = f"{viewer.campaign.pk}:{viewer.membership.pk}:{viewer.role}:{viewer.side}"
    digest = salted_hmac("campaigns.live", f"{who}|{text}").hexdigest()[:24]
    # Written in letters only: a page holding it never shows a number that is not there.
    return digest.translate(_LETTERS)


_LETTERS = str.maketrans("0123456789abcdef", "abcdefghijklmnop")
