"""History sentences of RG purchases (``refit.purchases.services``) and their receipt rolls
(``refit.purchases.receipt``)."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, event_side
from campaigns.history.sentences import INT, TEXT, sentence
from campaigns.models import CampaignEvent

_RG = {"side": TEXT, "index": INT, "rg": TEXT}


@sentence("rg.purchased", data={**_RG, "cpp": INT, "override": TEXT})
def _purchased(event: CampaignEvent) -> str:
    data = event.data
    text = _("%(side)s bought %(rg)s for %(cpp)s CPP (%(day)s).")
    if data.get("override"):
        text = _("%(side)s bought %(rg)s for %(cpp)s CPP (%(day)s), past a limit: %(reason)s")
    return text % {
        "side": event_side(event),
        "rg": data.get("rg", ""),
        "cpp": data.get("cpp", 0),
        "day": event_day(event),
        "reason": data.get("override", ""),
    }


@sentence("rg.purchase_removed", data=_RG)
def _purchase_removed(event: CampaignEvent) -> str:
    return _("%(side)s took back the purchase of %(rg)s (%(day)s).") % {
        "side": event_side(event),
        "rg": event.data.get("rg", ""),
        "day": event_day(event),
    }


@sentence("rg.noted", data=_RG)
def _noted(event: CampaignEvent) -> str:
    return _("%(side)s wrote down the hexes, observer or notes of %(rg)s.") % {
        "side": event_side(event),
        "rg": event.data.get("rg", ""),
    }


@sentence("rg.received", data={**_RG, "what": TEXT})
def _received(event: CampaignEvent) -> str:
    return _("%(side)s %(rg)s: %(what)s.") % {
        "side": event_side(event),
        "rg": event.data.get("rg", ""),
        "what": event.data.get("what", ""),
    }
