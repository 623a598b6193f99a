"""Places and victory: who holds each place, Cherkassy's ring (the Stemmermann Group) and the
victory conditions ticked by hand."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from campaigns import access
from campaigns.shortgames import services as short_games
from campaigns.shortgames.forms import ConditionForm, ControlForm, PocketForm
from campaigns.shortgames.pages.victory import victory_page
from campaigns.shortgames.views.common import incomplete, page_context, victory_url
from campaigns.state import StateError


@require_safe
@login_required
def victory(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    return render(
        request, "campaigns/shortgames/victory.html", page_context(viewer, victory_page(viewer))
    )


@require_POST
@login_required
def control(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = ControlForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            short_games.set_control(
                viewer.campaign,
                by=request.user,
                key=data["key"],
                controller=data["controller"],
                cut_off=data["cut_off"],
                version=data["version"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Control recorded."))
    else:
        messages.error(request, incomplete())
    return redirect(victory_url(viewer.campaign, "places"))


@require_POST
@login_required
def pocket(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = PocketForm(request.POST)
    if form.is_valid():
        try:
            short_games.set_pocket(
                viewer.campaign,
                by=request.user,
                formed=form.cleaned_data["formed"],
                members=form.cleaned_data["members"],
                version=form.cleaned_data["version"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The pocket is recorded."))
    else:
        messages.error(request, incomplete())
    return redirect(victory_url(viewer.campaign, "pocket"))


@require_POST
@login_required
def condition(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.recorder(request, campaign_id, feature=short_games.is_short_game)
    form = ConditionForm(request.POST)
    if form.is_valid():
        try:
            short_games.set_victory_condition(
                viewer.campaign,
                by=request.user,
                condition=form.cleaned_data["condition"],
                met=form.cleaned_data["met"],
                version=form.cleaned_data["version"],
            )
        except StateError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Victory condition recorded."))
    else:
        messages.error(request, incomplete())
    return redirect(victory_url(viewer.campaign, "vp"))
