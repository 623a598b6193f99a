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

from django.db import connections, router
from django.utils.crypto import salted_hmac

from campaigns.access import Viewer
from campaigns.models import CampaignEvent, RefitPhase, StepProgress


def _sql(alias: str, scopes: int, sides: int) -> str:
    """The token's one query, written by hand: every page with the poll reads it, and the ORM
    took ~2.8 ms to compile what runs in ~0.02 ms (docs/performance.md, "layout"). Parameters:
    the campaign, the viewer's visible scopes, then per side the campaign and the side."""
    quote = connections[alias].ops.quote_name
    event, reph, progress = (
        quote(m._meta.db_table) for m in (CampaignEvent, RefitPhase, StepProgress)
    )
    # At most one open Refit Phase per campaign (the ``one_open_reph_per_campaign`` constraint):
    # the marks are that phase's, 0 without one.
    marks = [
        f"(SELECT COUNT(*) FROM {progress} p INNER JOIN {reph} r ON p.reph_id = r.id"
        f" WHERE r.campaign_id = %s AND r.finished_at IS NULL AND p.side = %s) AS marks_{index}"
        for index in range(sides)
    ]
    return ", ".join(
        [
            f"SELECT (SELECT e.id FROM {event} e WHERE e.campaign_id = %s"
            f" AND e.visibility IN ({', '.join(['%s'] * scopes)}) ORDER BY e.id DESC LIMIT 1)"
            " AS last_event",
            f"(SELECT r.id FROM {reph} r WHERE r.campaign_id = %s AND r.finished_at IS NULL"
            " ORDER BY r.started_at, r.id LIMIT 1) AS open_reph",
            *marks,
        ]
    )


def parts(viewer: Viewer) -> dict[str, int | None]:
    """What the token is made of, as the viewer may see it (one query): the newest event among
    the viewer's visible scopes (``Viewer.visible_scopes``), the open Refit Phase and how many
    steps each side has marked in it."""
    campaign = viewer.campaign
    sides = campaign.game.side_keys
    scopes = viewer.visible_scopes()
    alias = router.db_for_read(CampaignEvent)
    params = [campaign.pk, *scopes, campaign.pk]
    for side in sides:
        params += [campaign.pk, side]
    with connections[alias].cursor() as cursor:
        cursor.execute(_sql(alias, len(scopes), len(sides)), params)
        row = cursor.fetchone()
    names = ["last_event", "open_reph", *(f"marks_{index}" for index in range(len(sides)))]
    return dict(zip(names, row, strict=True))


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
