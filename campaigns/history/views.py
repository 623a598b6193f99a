"""The campaign history: every change the viewer may see, with its undo."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns import access
from campaigns.history import services as history
from campaigns.models import CampaignEvent

HISTORY_PAGE_SIZE = 100


@require_GET
@login_required
def campaign_history(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    events = viewer.filter_visible(
        CampaignEvent.objects.filter(campaign=viewer.campaign).select_related("actor")
    )[:HISTORY_PAGE_SIZE]
    undoable = set(history.undoable_for(viewer).values_list("pk", flat=True)[:HISTORY_PAGE_SIZE])
    rows = []
    for event in events:
        event.campaign = viewer.campaign  # already loaded; describe() reads its game data
        # Imported events keep their original actor's name in data (no user on this server).
        event.actor_name = (
            event.actor.get_username()
            if event.actor
            else event.data.get("original", {}).get("actor", "")
        )
        rows.append((event, history.describe(event), event.pk in undoable))
    return render(
        request,
        "campaigns/history/history.html",
        {"viewer": viewer, "campaign": viewer.campaign, "rows": rows},
    )


@require_POST
@login_required
def undo_change(request: HttpRequest, campaign_id: int, event_id: int) -> HttpResponse:
    """Undo a change: one's own, or any the referee can see."""
    viewer = access.member(request, campaign_id)
    event = get_object_or_404(history.undoable_for(viewer), pk=event_id)
    try:
        history.undo(event, by=request.user)
    except history.UndoError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Undone: %(what)s") % {"what": history.describe(event)})
    return redirect("campaigns:history", campaign_id=campaign_id)
