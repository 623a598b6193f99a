from django import template
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import get_language

from campaigns.games.registry import LocalizedText, localized
from campaigns.history.services import role_label
from campaigns.models import Campaign, Invitation, Membership

register = template.Library()


@register.filter(name="localized")
def localized_filter(text: LocalizedText) -> str:
    """Game data carries its own English and Japanese; pick the active language."""
    return localized(text, get_language())


@register.simple_tag
def member_role(membership: Membership) -> str:
    return role_label(membership.campaign, membership.role, membership.side)


@register.simple_tag
def member_requested_role(membership: Membership) -> str:
    return role_label(membership.campaign, membership.requested_role, membership.requested_side)


@register.simple_tag
def invitation_role(campaign: Campaign, invitation: Invitation) -> str:
    return role_label(campaign, invitation.role, invitation.side)


@register.simple_tag(takes_context=True)
def invitation_link(context: template.Context, invitation: Invitation) -> str:
    request: HttpRequest = context["request"]
    return request.build_absolute_uri(reverse("campaigns:join", args=[invitation.token]))


@register.simple_tag
def visible_sides(viewer) -> list:
    """The sides whose secret sheets this viewer may open, in the game's order."""
    return [viewer.campaign.side(key) for key in viewer.visible_sides()]
