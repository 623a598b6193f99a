"""What the walker's views share: the stale-page message, the overview's URL, the step a URL
names and who may act on it."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy

from campaigns import access
from campaigns.access import Viewer
from campaigns.games import step_engine
from campaigns.models import Campaign
from refit.walker import services as walker
from refit.walker import situation

STALE = gettext_lazy(
    "That page was for a Refit Phase that is already finished; nothing was changed. "
    "Here is where the campaign stands now."
)


def overview_url(campaign_id: int, side: str = "") -> str:
    url = reverse("refit:overview", args=[campaign_id])
    return f"{url}#side-{side}" if side else url


def step_or_404(campaign: Campaign, side: str, rule: str) -> step_engine.StepDef:
    """The numbered step ``rule`` of the module's Refit Phase (404 for an unknown side or step;
    who may read or act on it is asked of campaigns.access with the step's ``secret``)."""
    if side not in campaign.game.side_keys:
        raise Http404
    step = situation.step_def(campaign, rule)
    if step is None:
        raise Http404
    return step


def step_actor(
    request: HttpRequest, campaign_id: int, side: str, rule: str
) -> tuple[Viewer, step_engine.StepDef]:
    """The first lines of every view that acts on a side's step: the member (404 for others and
    campaigns without a Refit Phase), the step (404 when unknown), and whether the viewer may act
    for the side on it (campaigns.access, with the step's secrecy)."""
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    step = step_or_404(viewer.campaign, side, rule)
    access.require_side_actor(viewer, side, secret=step.secret)
    return viewer, step
