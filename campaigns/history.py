"""Every change to campaign state is recorded here: who, when, what, and who may read it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.models import Campaign, CampaignEvent, Role
from campaigns.visibility import PUBLIC


def record(
    campaign: Campaign,
    actor: AbstractBaseUser | None,
    action: str,
    *,
    visibility: str = PUBLIC,
    target: models.Model | None = None,
    **data: Any,
) -> CampaignEvent:
    """Store one change. Call inside the same transaction as the change itself."""
    return CampaignEvent.objects.create(
        campaign=campaign,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        visibility=visibility,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=target.pk if target is not None else None,
        data=data,
    )


def role_label(campaign: Campaign, role: str, side: str = "") -> str:
    """ "German player", "Referee", … in the active language."""
    if role == Role.PLAYER:
        try:
            side_name = campaign.side(side).name.in_language(get_language())
        except KeyError:
            side_name = side
        return _("%(side)s player") % {"side": side_name}
    return str(Role(role).label) if role in Role.values else role


def describe(event: CampaignEvent) -> str:
    """One line for the history page, in the active language."""
    data = event.data
    campaign = event.campaign
    if event.action == "campaign.created":
        return _("Created the campaign “%(name)s”.") % {"name": data.get("name", "")}
    if event.action == "member.joined":
        return _("%(user)s joined as %(role)s.") % {
            "user": data.get("user", ""),
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    if event.action == "member.role_changed":
        return _("%(user)s is now %(after)s (was %(before)s).") % {
            "user": data.get("user", ""),
            "after": role_label(campaign, data.get("role", ""), data.get("side", "")),
            "before": role_label(
                campaign, data.get("previous_role", ""), data.get("previous_side", "")
            ),
        }
    if event.action == "member.removed":
        return _("%(user)s was removed (was %(role)s).") % {
            "user": data.get("user", ""),
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    if event.action == "invitation.created":
        return _("Made an invitation link for %(role)s.") % {
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    if event.action == "invitation.revoked":
        return _("Revoked the invitation link for %(role)s.") % {
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    return event.action
