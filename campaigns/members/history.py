"""History sentences of campaigns.members.services: a campaign created, members, invitations."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_role
from campaigns.history.sentences import TEXT, sentence
from campaigns.models import CampaignEvent

_MEMBER = {"user": TEXT, "role": TEXT, "side": TEXT}
_ROLE = {"role": TEXT, "side": TEXT}


@sentence("campaign.created", data={"name": TEXT})
def _campaign_created(event: CampaignEvent) -> str:
    return _("Created the campaign “%(name)s”.") % {"name": event.data.get("name", "")}


@sentence("member.joined", data=_MEMBER)
def _member_joined(event: CampaignEvent) -> str:
    return _("%(user)s joined as %(role)s.") % {
        "user": event.data.get("user", ""),
        "role": event_role(event),
    }


@sentence("member.role_changed", data={**_MEMBER, "previous_role": TEXT, "previous_side": TEXT})
def _member_role_changed(event: CampaignEvent) -> str:
    return _("%(user)s is now %(after)s (was %(before)s).") % {
        "user": event.data.get("user", ""),
        "after": event_role(event),
        "before": event_role(event, "previous_role", "previous_side"),
    }


@sentence("member.removed", data=_MEMBER)
def _member_removed(event: CampaignEvent) -> str:
    return _("%(user)s was removed (was %(role)s).") % {
        "user": event.data.get("user", ""),
        "role": event_role(event),
    }


@sentence("invitation.created", data=_ROLE)
def _invitation_created(event: CampaignEvent) -> str:
    return _("Made an invitation link for %(role)s.") % {"role": event_role(event)}


@sentence("invitation.revoked", data=_ROLE)
def _invitation_revoked(event: CampaignEvent) -> str:
    return _("Revoked the invitation link for %(role)s.") % {"role": event_role(event)}
