"""History sentences of SaP's German Armor Reserve (refit.reserve.services, CG7.21)."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, event_side
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent

DATA = {"index": INT, "side": TEXT, "units": TEXTS}


def _units(event: CampaignEvent) -> str:
    return ", ".join(event.data.get("units", []))


@sentence("reserve.entered", data=DATA)
def _entered(event: CampaignEvent) -> str:
    return _("From the German Armor Reserve into play in %(day)s: %(units)s.") % {
        "day": event_day(event),
        "units": _units(event),
    }


@sentence("reserve.returned", data=DATA)
def _returned(event: CampaignEvent) -> str:
    return _("Back into the German Armor Reserve: %(units)s.") % {"units": _units(event)}


@sentence("reserve.joined", data=DATA)
def _joined(event: CampaignEvent) -> str:
    return _("9 July AM AFVs left off-map joined the German Armor Reserve (CG-5.2): %(units)s.") % {
        "units": _units(event)
    }


@sentence("reserve.repaired", data=DATA)
def _repaired(event: CampaignEvent) -> str:
    return _("German Armor Reserve weapons repaired (11.6132): %(units)s.") % {
        "units": _units(event)
    }


@sentence("armor_leaders.rolled", data=DATA)
def _armor_leaders(event: CampaignEvent) -> str:
    return _("%(side)s armor leaders before the CG (CG9): %(units)s.") % {
        "side": event_side(event),
        "units": _units(event),
    }
