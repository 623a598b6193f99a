"""The words the features' history sentences share: roles, sides, days, a step's mark."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.models import Campaign, CampaignEvent, Role


def role_label(campaign: Campaign, role: str, side: str = "") -> str:
    """ "German player", "Referee", … in the active language."""
    if role == Role.PLAYER:
        try:
            side_name = campaign.side(side).name.in_language(get_language())
        except KeyError:
            side_name = side
        return _("%(side)s player") % {"side": side_name}
    return str(Role(role).label) if role in Role.values else role


def side_label(campaign: Campaign, side: str) -> str:
    """The side's name in the active language ("German"); an unknown key as it is."""
    try:
        return campaign.side(side).name.in_language(get_language())
    except KeyError:
        return side


def day_label(campaign: Campaign, index: Any) -> str:
    """The calendar label of a CG day or game turn ("18 Oct 1942"); "" for no such day."""
    periods = campaign.cg.periods
    if isinstance(index, int) and 0 <= index < len(periods):
        return periods[index].label.in_language(get_language())
    return ""


def event_role(event: CampaignEvent, role: str = "role", side: str = "side") -> str:
    """The role the event's data names under ``role`` / ``side``."""
    return role_label(event.campaign, event.data.get(role, ""), event.data.get(side, ""))


def event_side(event: CampaignEvent) -> str:
    """The side the event's data names (``side``)."""
    return side_label(event.campaign, event.data.get("side", ""))


def event_day(event: CampaignEvent) -> str:
    """The day the event's data names (``index``)."""
    return day_label(event.campaign, event.data.get("index"))


def step_marked(event: CampaignEvent) -> str:
    """A side finished or skipped a step (RePh steps and short-game turn steps alike)."""
    data = event.data
    text = (
        _("%(side)s skipped %(rule)s: %(reason)s")
        if data.get("status") == "skipped"
        else _("%(side)s finished %(rule)s.")
    )
    return text % {
        "side": event_side(event),
        "rule": data.get("rule", ""),
        "reason": data.get("reason", ""),
    }


def step_unmarked(event: CampaignEvent, rule_key: str) -> str:
    """A side took back its mark on a step, named in the data under ``rule_key``."""
    return _("%(side)s took back %(rule)s.") % {
        "side": event_side(event),
        "rule": event.data.get(rule_key, ""),
    }


# An event imported from another installation has no actor here: it keeps who made it and
# when under this key of its data (campaigns.transfer writes it).
ORIGINAL_KEY = "original"


def event_actor_name(event: CampaignEvent) -> str | None:
    """Who made the change: a user of this installation, or the name an imported event kept.

    Reads ``event.actor``: select it with the event (``select_related``) or filter on
    ``actor__isnull=True``.
    """
    original = event.data.get(ORIGINAL_KEY) if event.actor_id is None else None
    if isinstance(original, dict):
        actor = original.get("actor")
        return actor if isinstance(actor, str) else None
    return event.actor.get_username() if event.actor_id is not None else None
