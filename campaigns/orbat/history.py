"""History sentences of the order of battle (``campaigns.orbat.services``: OB lines)."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_side
from campaigns.history.sentences import TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent, OrbatBox


@sentence("orbat.added", data={"side": TEXT, "box": TEXT, "units": TEXTS})
def _orbat_added(event: CampaignEvent) -> str:
    return _("%(side)s OB: added %(units)s.") % {
        "side": event_side(event),
        "units": ", ".join(event.data.get("units", [])),
    }


@sentence("orbat.changed", data={"side": TEXT, "box": TEXT, "unit": TEXT})
def _orbat_changed(event: CampaignEvent) -> str:
    return _("%(side)s OB: changed %(unit)s.") % {
        "side": event_side(event),
        "unit": event.data.get("unit", ""),
    }


@sentence("orbat.removed", data={"side": TEXT, "unit": TEXT})
def _orbat_removed(event: CampaignEvent) -> str:
    return _("%(side)s OB: removed %(unit)s.") % {
        "side": event_side(event),
        "unit": event.data.get("unit", ""),
    }


@sentence("orbat.moved", data={"side": TEXT, "box": TEXT, "units": TEXTS})
def _orbat_moved(event: CampaignEvent) -> str:
    return _("%(side)s OB: moved %(units)s to %(box)s.") % {
        "side": event_side(event),
        "units": ", ".join(event.data.get("units", [])),
        "box": box_label(event.data.get("box", "")),
    }


def box_label(box: str) -> str:
    try:
        return str(OrbatBox(box).label)
    except ValueError:
        return box
