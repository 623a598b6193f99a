"""History sentences of campaigns.members.services: a campaign created, members, invitations."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_role, side_label
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
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


def _sides(event: CampaignEvent, key: str) -> str:
    return ", ".join(side_label(event.campaign, side) for side in event.data.get(key, []))


@sentence("member.seat_requested", data={**_MEMBER, "sides": TEXTS})
def _seat_requested(event: CampaignEvent) -> str:
    return _(
        "%(user)s asks to be %(role)s; the seat opens once these sides agree: %(sides)s "
        "(until then they see no side's secrets)."
    ) % {
        "user": event.data.get("user", ""),
        "role": event_role(event),
        "sides": _sides(event, "sides"),
    }


@sentence("member.seat_consented", data={**_MEMBER, "consenting_side": TEXT})
def _seat_consented(event: CampaignEvent) -> str:
    return _("Agreed for the %(side)s side that %(user)s becomes %(role)s.") % {
        "side": side_label(event.campaign, event.data.get("consenting_side", "")),
        "user": event.data.get("user", ""),
        "role": event_role(event),
    }


@sentence(
    "member.seat_opened",
    data={
        **_MEMBER,
        "previous_role": TEXT,
        "previous_side": TEXT,
        "consenting_sides": TEXTS,
        "consenting_users": TEXTS,
    },
)
def _seat_opened(event: CampaignEvent) -> str:
    agreed = ", ".join(
        _("%(user)s for the %(side)s side")
        % {"user": user, "side": side_label(event.campaign, side)}
        for side, user in zip(
            event.data.get("consenting_sides", []),
            event.data.get("consenting_users", []),
            strict=False,
        )
    )
    return _("%(user)s is now %(after)s (was %(before)s); agreed by %(agreed)s.") % {
        "user": event.data.get("user", ""),
        "after": event_role(event),
        "before": event_role(event, "previous_role", "previous_side"),
        "agreed": agreed,
    }


@sentence("member.seat_declined", data=_MEMBER)
def _seat_declined(event: CampaignEvent) -> str:
    return _("Turned down %(user)s as %(role)s.") % {
        "user": event.data.get("user", ""),
        "role": event_role(event),
    }


@sentence("member.left", data={**_MEMBER, "last_of_side": INT})
def _member_left(event: CampaignEvent) -> str:
    words = {"user": event.data.get("user", ""), "role": event_role(event)}
    if event.data.get("last_of_side"):
        return (
            _(
                "%(user)s left the campaign (was %(role)s, the side's last player): the next "
                "player of that side takes the seat without anyone's consent."
            )
            % words
        )
    return _("%(user)s left the campaign (was %(role)s).") % words


@sentence("member.removal_refused", data={**_MEMBER, "sides": TEXTS})
def _removal_refused(event: CampaignEvent) -> str:
    return _(
        "Tried to remove %(user)s (%(role)s); refused: only the %(sides)s side may, "
        "whose secrets that seat sees."
    ) % {
        "user": event.data.get("user", ""),
        "role": event_role(event),
        "sides": _sides(event, "sides"),
    }


@sentence(
    "member.role_change_refused",
    data={**_MEMBER, "sides": TEXTS, "requested_role": TEXT, "requested_side": TEXT},
)
def _role_change_refused(event: CampaignEvent) -> str:
    return _(
        "Tried to make %(user)s %(after)s (is %(role)s); refused: only the %(sides)s side may, "
        "whose secrets that seat sees."
    ) % {
        "user": event.data.get("user", ""),
        "after": event_role(event, "requested_role", "requested_side"),
        "role": event_role(event),
        "sides": _sides(event, "sides"),
    }
