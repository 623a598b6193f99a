"""Campaign pages. Thin: access through campaigns.visibility, changes through campaigns.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import history, services
from campaigns.forms import CampaignCreateForm, RoleForm, role_value
from campaigns.models import CampaignEvent, Invitation, Membership, Role
from campaigns.visibility import Viewer, viewer_for

HISTORY_PAGE_SIZE = 100


def _manager_for(request: HttpRequest, campaign_id: int) -> Viewer:
    viewer = viewer_for(request.user, campaign_id)
    if not viewer.can_manage_members:
        raise PermissionDenied
    return viewer


@require_GET
@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .order_by("-campaign__created_at", "-campaign_id")
    )
    return render(request, "campaigns/list.html", {"memberships": memberships})


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
@login_required
def campaign_create(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
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
    else:
        form = CampaignCreateForm(initial={"game": request.GET.get("game", "")})
    template = "campaigns/create.html"
    if request.htmx and request.method == "GET":
        # The game select changed: only the role choices depend on it.
        template += "#role-field"
    return render(request, template, {"form": form})


@require_GET
@login_required
def campaign_detail(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = viewer_for(request.user, campaign_id)
    campaign = viewer.campaign
    members = list(campaign.memberships.select_related("user"))
    language = get_language()
    seats = [
        (side.name.in_language(language), [m for m in members if m.side == side.key])
        for side in campaign.sides
    ] + [
        (role.label, [m for m in members if m.role == role])
        for role in (Role.REFEREE, Role.OBSERVER)
    ]
    return render(
        request, "campaigns/detail.html", {"viewer": viewer, "campaign": campaign, "seats": seats}
    )


def _members_context(viewer: Viewer) -> dict:
    campaign = viewer.campaign
    context = {
        "viewer": viewer,
        "campaign": campaign,
        "members": [
            (
                member,
                RoleForm(
                    module=campaign.game,
                    initial={"role": role_value(member.role, member.side)},
                    auto_id=f"id_member{member.pk}_%s",
                ),
            )
            for member in campaign.memberships.select_related("user")
        ],
    }
    if viewer.can_manage_members:
        context["invitations"] = campaign.invitations.filter(revoked_at__isnull=True)
        context["invitation_form"] = RoleForm(module=campaign.game, auto_id="id_invite_%s")
    return context


@require_GET
@login_required
def members(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = viewer_for(request.user, campaign_id)
    return render(request, "campaigns/members.html", _members_context(viewer))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def invitation_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = _manager_for(request, campaign_id)
    form = RoleForm(request.POST, module=viewer.campaign.game)
    if form.is_valid():
        services.create_invitation(
            viewer.campaign,
            by=request.user,
            role=form.cleaned_data["role"],
            side=form.cleaned_data["side"],
        )
    else:
        messages.error(request, _("Choose a role for the invitation."))
    if request.htmx:
        return render(request, "campaigns/members.html#invitations", _members_context(viewer))
    return redirect("campaigns:members", campaign_id=campaign_id)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def invitation_revoke(request: HttpRequest, campaign_id: int, invitation_id: int) -> HttpResponse:
    viewer = _manager_for(request, campaign_id)
    invitation = get_object_or_404(Invitation, pk=invitation_id, campaign=viewer.campaign)
    services.revoke_invitation(invitation, by=request.user)
    if request.htmx:
        return render(request, "campaigns/members.html#invitations", _members_context(viewer))
    messages.success(request, _("The invitation link no longer works."))
    return redirect("campaigns:members", campaign_id=campaign_id)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def member_role(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    viewer = _manager_for(request, campaign_id)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=viewer.campaign
    )
    form = RoleForm(request.POST, module=viewer.campaign.game)
    if form.is_valid():
        try:
            changed = services.change_role(
                membership,
                by=request.user,
                role=form.cleaned_data["role"],
                side=form.cleaned_data["side"],
            )
        except services.MembershipError:
            changed = False
            messages.error(request, _("You cannot change your own role."))
        if changed:
            messages.success(
                request,
                _("%(user)s is now %(role)s.")
                % {
                    "user": membership.user.get_username(),
                    "role": history.role_label(
                        viewer.campaign, form.cleaned_data["role"], form.cleaned_data["side"]
                    ),
                },
            )
    else:
        messages.error(request, _("Choose one of the roles offered."))
    if request.htmx:
        return render(
            request,
            "campaigns/members.html#member-list",
            _members_context(viewer_for(request.user, campaign_id)),
        )
    return redirect("campaigns:members", campaign_id=campaign_id)


@require_POST
@login_required
def member_remove(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    viewer = _manager_for(request, campaign_id)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=viewer.campaign
    )
    try:
        revoked = services.remove_member(membership, by=request.user)
    except services.MembershipError:
        messages.error(request, _("The campaign's creator cannot be removed."))
    else:
        messages.success(
            request, _("%(user)s was removed.") % {"user": membership.user.get_username()}
        )
        if revoked:
            messages.warning(
                request,
                _(
                    "Every open invitation link was revoked, so that the removed member cannot "
                    "come back through one. Make new links for anyone still to join."
                ),
            )
    return redirect("campaigns:members", campaign_id=campaign_id)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    invitation = (
        Invitation.objects.select_related("campaign", "created_by")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    if invitation is None:
        return render(request, "campaigns/join_invalid.html", status=404)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = invitation.campaign
    if request.method == "POST":
        try:
            membership, created = services.accept_invitation(invitation, user=request.user)
        except services.MembershipError:
            return render(request, "campaigns/join_invalid.html", status=404)
        role = history.role_label(campaign, membership.role, membership.side)
        if created:
            messages.success(
                request,
                _("You joined “%(campaign)s” as %(role)s.")
                % {"campaign": campaign.name, "role": role},
            )
        else:
            messages.info(
                request,
                _("You are already in this campaign as %(role)s.") % {"role": role},
            )
        return redirect("campaigns:detail", campaign_id=campaign.pk)
    existing = Membership.objects.filter(campaign=campaign, user=request.user).first()
    return render(
        request,
        "campaigns/join.html",
        {
            "invitation": invitation,
            "campaign": campaign,
            "role": history.role_label(campaign, invitation.role, invitation.side),
            "existing": existing,
            "existing_role": existing
            and history.role_label(campaign, existing.role, existing.side),
        },
    )


@require_GET
@login_required
def campaign_history(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = viewer_for(request.user, campaign_id)
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
        "campaigns/history.html",
        {"viewer": viewer, "campaign": viewer.campaign, "rows": rows},
    )


@require_POST
@login_required
def undo_change(request: HttpRequest, campaign_id: int, event_id: int) -> HttpResponse:
    """Undo a change: one's own, or any the referee can see."""
    viewer = viewer_for(request.user, campaign_id)
    event = get_object_or_404(history.undoable_for(viewer), pk=event_id)
    try:
        history.undo(event, by=request.user)
    except history.UndoError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Undone: %(what)s") % {"what": history.describe(event)})
    return redirect("campaigns:history", campaign_id=campaign_id)
