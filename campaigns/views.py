"""The campaigns a user is in: the list, a new campaign, its overview page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.compiled import CompiledQuery
from campaigns.history.labels import role_label
from campaigns.members import services
from campaigns.members.forms import CampaignCreateForm
from campaigns.models import Correction, Membership, Role

# The campaign's members with their users (the overview's "Who plays"), compiled once.
_members = CompiledQuery(
    lambda campaign_id: Membership.objects.filter(campaign_id=campaign_id).select_related("user"), 1
)


@require_safe
@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .order_by("-campaign__created_at", "-campaign_id")
    )
    return render(request, "campaigns/list.html", {"memberships": memberships})


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def campaign_create(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and "roles" in request.POST:
        # Without JavaScript: "Show this game's roles" narrows the role list to the chosen game.
        form = CampaignCreateForm(
            initial={"game": request.POST.get("game", ""), "name": request.POST.get("name", "")}
        )
    elif request.method == "POST":
        form = CampaignCreateForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            campaign = services.create_campaign(
                user=request.user,
                name=data["name"],
                module=data["module"],
                cg_key=data["cg_key"],
                role=data["role"],
                side=data["side"],
            )
            messages.success(request, _("Campaign created. Invite the other players below."))
            return redirect("campaigns:members", campaign_id=campaign.pk)
        form.narrow_roles()
    else:
        form = CampaignCreateForm(initial={"game": request.GET.get("game", "")})
    template = "campaigns/create.html"
    if request.htmx and request.method != "POST":
        # The game select changed: only the role choices depend on it.
        template += "#role-field"
    return render(request, template, {"form": form})


@require_safe
@login_required
def campaign_detail(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    campaign = viewer.campaign
    members = _members(campaign.pk)
    for member in members:
        Membership.campaign.field.set_cached_value(member, campaign)
    language = get_language()
    seats = [
        (side.name.in_language(language), [m for m in members if m.side == side.key])
        for side in campaign.sides
    ] + [
        (role.label, [m for m in members if m.role == role])
        for role in (Role.REFEREE, Role.OBSERVER)
    ]
    # Seats waiting for this viewer's side to agree (campaigns.members.consent).
    asking = [
        (member, role_label(campaign, member.requested_role, member.requested_side))
        for member in members
        if member.is_pending and services.may_answer(member, request.user)
    ]
    # Without a referee: the other side's corrections waiting for this player's answer.
    corrections = (
        Correction.objects.filter(campaign=campaign, state=Correction.OPEN)
        .exclude(side=viewer.side)
        .count()
        if viewer.can_ask_correction
        else 0
    )
    return render(
        request,
        "campaigns/detail.html",
        {
            "viewer": viewer,
            "campaign": campaign,
            "seats": seats,
            "asking": asking,
            "corrections": corrections,
        },
    )
