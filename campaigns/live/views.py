"""The poll endpoint of the live pages: ``/campaigns/<id>/live/?since=<token>``.

Every member may ask it (their own token); an outsider gets 404 like every campaign page. It
answers 204 (nothing to do) while the viewer's token is still ``since``, otherwise the poll
element again with the new token and ``HX-Trigger: campaign-changed``, on which the page's
regions fetch themselves again. Two queries: the membership and the token.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from campaigns import access
from campaigns.live.token import change_token

CHANGED = "campaign-changed"


@require_safe
@login_required
def poll(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    token = change_token(viewer)
    if request.GET.get("since") == token:
        return HttpResponse(status=204)
    response = render(
        request, "campaigns/live/poll.html", {"campaign": viewer.campaign, "token": token}
    )
    if request.GET.get("since"):
        response["HX-Trigger"] = CHANGED
    return response
