"""Members and invitation links: who plays, referees or watches a campaign."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer, viewer_for
from campaigns.history import services as history
from campaigns.members import consent, services
from campaigns.members.forms import RoleForm, role_value
from campaigns.models import Invitation, Membership
from campaigns.oid import oid


def _members_context(viewer: Viewer) -> dict:
    campaign = viewer.campaign
    memberships = list(campaign.memberships.select_related("user", "campaign"))
    sides = campaign.game.side_keys
    me = viewer.membership
    viewer_seat = consent.Seat(me.user_id, me.role, me.side)
    context = {
        "viewer": viewer,
        "campaign": campaign,
        "members": [
            (
                member,
                RoleForm(
                    module=campaign.game,
                    initial={"role": role_value(member.role, member.side)},
                    auto_id=f"id_member{oid(member.pk)}_%s",
                ),
                [
                    history.side_label(campaign, side)
                    for side in sides
                    if side in consent.sides_seen(member.role, member.side, sides)
                ],
            )
            for member in memberships
        ],
        # the members the viewer may move or remove alone (their seat sees no side he does not)
        "unseatable": {
            member.pk
            for member in memberships
            if not consent.unseat_refused(
                viewer_seat, consent.Seat(member.user_id, member.role, member.side), sides
            )
        },
        "may_leave": services.may_leave(viewer.membership),
        "pending": [
            {
                "member": member,
                "missing": [
                    history.side_label(campaign, side)
                    for side in sorted(services.consent_missing(member))
                ],
                "may_answer": services.may_answer(member, viewer.membership.user),
            }
            for member in memberships
            if member.is_pending
        ],
    }
    if viewer.can_manage_members:
        context["invitations"] = campaign.invitations.filter(revoked_at__isnull=True)
        context["invitation_form"] = RoleForm(module=campaign.game, auto_id="id_invite_%s")
    return context


@require_safe
@login_required
def members(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    return render(request, "campaigns/members/members.html", _members_context(viewer))


@vary_on_headers("HX-Request")
@require_POST
@login_required
def invitation_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.manager(request, campaign_id)
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
        return render(
            request, "campaigns/members/members.html#invitations", _members_context(viewer)
        )
    return redirect("campaigns:members", campaign_id=campaign_id)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def invitation_revoke(request: HttpRequest, campaign_id: int, invitation_id: int) -> HttpResponse:
    viewer = access.manager(request, campaign_id)
    invitation = get_object_or_404(Invitation, pk=invitation_id, campaign=viewer.campaign)
    services.revoke_invitation(invitation, by=request.user)
    if request.htmx:
        return render(
            request, "campaigns/members/members.html#invitations", _members_context(viewer)
        )
    messages.success(request, _("The invitation link no longer works."))
    return redirect("campaigns:members", campaign_id=campaign_id)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def member_role(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    viewer = access.manager(request, campaign_id)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=viewer.campaign
    )
    form = RoleForm(request.POST, module=viewer.campaign.game)
    if form.is_valid():
        try:
            outcome = services.change_role(
                membership,
                by=request.user,
                role=form.cleaned_data["role"],
                side=form.cleaned_data["side"],
            )
        except services.SideRefused as refused:
            outcome = services.UNCHANGED
            messages.error(request, _refused_message(viewer, membership, refused, remove=False))
        except services.MembershipError:
            outcome = services.UNCHANGED
            messages.error(request, _("You cannot change your own role."))
        words = {
            "user": membership.user.get_username(),
            "role": history.role_label(
                viewer.campaign, form.cleaned_data["role"], form.cleaned_data["side"]
            ),
        }
        if outcome == services.CHANGED:
            messages.success(request, _("%(user)s is now %(role)s.") % words)
        elif outcome == services.ASKED:
            messages.info(
                request,
                _(
                    "%(user)s becomes %(role)s once the players of each side that role sees "
                    "agree on this page; until then nothing changes."
                )
                % words,
            )
    else:
        messages.error(request, _("Choose one of the roles offered."))
    if request.htmx:
        return render(
            request,
            "campaigns/members/members.html#member-list",
            _members_context(viewer_for(request.user, campaign_id)),
        )
    return redirect("campaigns:members", campaign_id=campaign_id)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def member_agree(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    """A player agrees, for their side, to a member's pending seat."""
    return _answer(request, campaign_id, membership_id, agree=True)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def member_decline(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    """A player of a side still to agree (or the creator) turns a pending seat down."""
    return _answer(request, campaign_id, membership_id, agree=False)


def _answer(request: HttpRequest, campaign_id: int, membership_id: int, *, agree: bool):
    viewer = access.member(request, campaign_id)
    membership = get_object_or_404(
        Membership.objects.select_related("user", "campaign"),
        pk=membership_id,
        campaign=viewer.campaign,
    )
    access.require(
        membership.is_pending
        and (
            services.may_answer(membership, request.user)
            or (not agree and viewer.can_manage_members)
        )
    )
    words = {"user": membership.user.get_username()}
    if agree:
        opened = services.agree(membership, by=request.user)
        messages.success(
            request,
            _("%(user)s's seat is open.") % words
            if opened
            else _("Your side agreed; the seat still waits for the other side.") % words,
        )
    else:
        services.decline(membership, by=request.user)
        messages.success(request, _("%(user)s keeps the role they had.") % words)
    if request.htmx:
        return render(
            request,
            "campaigns/members/members.html#member-list",
            _members_context(viewer_for(request.user, campaign_id)),
        )
    # The overview's notice answers too and asks to come back to it (a path on this site only).
    after = request.POST.get("next", "")
    if after and url_has_allowed_host_and_scheme(
        after, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(after)
    return redirect("campaigns:members", campaign_id=campaign_id)


@require_POST
@login_required
def member_remove(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    viewer = access.manager(request, campaign_id)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=viewer.campaign
    )
    try:
        revoked = services.remove_member(membership, by=request.user)
    except services.SideRefused as refused:
        messages.error(request, _refused_message(viewer, membership, refused, remove=True))
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


def _refused_message(
    viewer: Viewer, membership: Membership, refused: services.SideRefused, *, remove: bool
) -> str:
    words = {
        "user": membership.user.get_username(),
        "sides": ", ".join(
            history.side_label(viewer.campaign, side) for side in sorted(refused.sides)
        ),
    }
    if remove:
        text = _(
            "You cannot remove %(user)s: their seat sees the secrets of %(sides)s, which you "
            "do not see, so only that side may. %(user)s can leave the campaign themselves."
        )
    else:
        text = _(
            "You cannot change the role of %(user)s: their seat sees the secrets of %(sides)s, "
            "which you do not see, so only that side may. %(user)s can leave the campaign "
            "themselves."
        )
    return text % words


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def leave(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Leave the campaign (every member but its creator): a page asking to confirm, then a
    POST. A side's player leaving is how that side's seat is given up (see
    ``services.leave``)."""
    viewer = access.member(request, campaign_id)
    access.require(services.may_leave(viewer.membership))
    campaign = viewer.campaign
    if request.method == "POST":
        services.leave(viewer.membership)
        messages.success(request, _("You left “%(campaign)s”.") % {"campaign": campaign.name})
        return redirect("campaigns:list")
    me = viewer.membership
    sides = campaign.game.side_keys
    return render(
        request,
        "campaigns/members/leave.html",
        {
            "viewer": viewer,
            "campaign": campaign,
            "role": history.role_label(campaign, me.role, me.side),
            "last_of_side": services.last_of_side(me),
            "sees": [
                history.side_label(campaign, side)
                for side in sides
                if side in consent.sides_seen(me.role, me.side, sides)
            ],
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    invitation = (
        Invitation.objects.select_related("campaign", "created_by")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    if invitation is None:
        return render(request, "campaigns/members/join_invalid.html", status=404)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = invitation.campaign
    if request.method == "POST":
        try:
            membership, created = services.accept_invitation(invitation, user=request.user)
        except services.MembershipError:
            return render(request, "campaigns/members/join_invalid.html", status=404)
        role = history.role_label(campaign, membership.role, membership.side)
        if created and membership.is_pending:
            messages.info(
                request,
                _(
                    "You joined “%(campaign)s” as %(role)s. You become %(asked)s once these "
                    "sides agree: %(sides)s."
                )
                % {
                    "campaign": campaign.name,
                    "role": role,
                    "asked": history.role_label(campaign, invitation.role, invitation.side),
                    "sides": ", ".join(
                        history.side_label(campaign, side)
                        for side in sorted(services.consent_missing(membership))
                    ),
                },
            )
        elif created:
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
        "campaigns/members/join.html",
        {
            "invitation": invitation,
            "campaign": campaign,
            "role": history.role_label(campaign, invitation.role, invitation.side),
            "existing": existing,
            "existing_role": existing
            and history.role_label(campaign, existing.role, existing.side),
            "seeing": [
                (member, history.role_label(campaign, member.role, member.side))
                for member in campaign.memberships.select_related("user")
                if consent.sides_seen(member.role, member.side, campaign.game.side_keys)
                & consent.sides_seen(invitation.role, invitation.side, campaign.game.side_keys)
            ],
        },
    )
