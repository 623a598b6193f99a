"""The campaign's end page: whether the CG is over, who must reveal it, and the reveal."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.history.labels import side_label
from campaigns.reveal import services


def _context(viewer: Viewer) -> dict:
    campaign = viewer.campaign
    revealed = campaign.revealed_at is not None
    over = revealed or services.cg_over(campaign)
    missing = (
        sorted(services.sides_missing(campaign))
        if over and not revealed and not viewer.campaign_has_referee
        else []
    )
    consents = campaign.reveal_consents or {}
    return {
        "viewer": viewer,
        "campaign": campaign,
        "revealed": revealed,
        "over": over,
        "has_referee": viewer.campaign_has_referee,
        "agreed": [
            side_label(campaign, side)
            for side in campaign.game.side_keys
            if side in consents and side not in missing
        ],
        "missing": [side_label(campaign, side) for side in missing],
        "i_agreed": consents.get(viewer.side) == viewer.membership.user_id,
    }


@require_safe
@login_required
def reveal_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    return render(request, "campaigns/reveal/reveal.html", _context(viewer))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def reveal(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.revealer(request, campaign_id)
    try:
        outcome = services.reveal(viewer)
    except services.RevealError as error:
        messages.error(request, str(error))
    else:
        if outcome.revealed:
            messages.success(request, _("The campaign is revealed: every member sees both sides."))
        else:
            messages.success(
                request,
                _(
                    "Your agreement is recorded; the campaign is revealed once every side has "
                    "agreed."
                ),
            )
    if request.htmx:
        viewer = access.member(request, campaign_id)
        return render(request, "campaigns/reveal/reveal.html#reveal", _context(viewer))
    return redirect("campaigns:reveal", campaign_id=campaign_id)
