"""History sentences of the perimeters (``refit.perimeters``, 11.605-11.6066)."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, event_side
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent

_HEXES = {"index": INT, "hexes": TEXTS}
_SIDE_HEXES = {"index": INT, "side": TEXT, "hexes": TEXTS}
_MARKER = {"index": INT, "side": TEXT, "marker": TEXT}


def _hexes(event: CampaignEvent) -> str:
    return " ".join(event.data.get("hexes") or [])


@sentence("perimeter.control", data=_SIDE_HEXES)
def _control(event: CampaignEvent) -> str:
    if event.data.get("side"):
        return _("Placed control markers in %(hexes)s.") % {"hexes": _hexes(event)}
    return _("Removed control markers from %(hexes)s.") % {"hexes": _hexes(event)}


@sentence("perimeter.water", data={"hexes": TEXTS})
def _water(event: CampaignEvent) -> str:
    if event.data.get("water"):
        return _("Marked water obstacles in %(hexes)s.") % {"hexes": _hexes(event)}
    return _("Marked %(hexes)s as land.") % {"hexes": _hexes(event)}


@sentence("perimeter.fires", data=_HEXES)
def _fires(event: CampaignEvent) -> str:
    return _("Changed the fires in %(hexes)s.") % {"hexes": _hexes(event)}


@sentence("perimeter.units", data=_SIDE_HEXES)
def _units(event: CampaignEvent) -> str:
    return _("%(side)s placed units in %(hexes)s for the perimeter.") % {
        "side": event_side(event),
        "hexes": _hexes(event),
    }


@sentence("perimeter.units_removed", data=_SIDE_HEXES)
def _units_removed(event: CampaignEvent) -> str:
    return _("%(side)s removed units from %(hexes)s.") % {
        "side": event_side(event),
        "hexes": _hexes(event),
    }


@sentence("perimeter.declared", data={"index": INT, "side": TEXT})
def _declared(event: CampaignEvent) -> str:
    return _("%(side)s declared its units for the perimeter.") % {"side": event_side(event)}


@sentence("perimeter.marker_added", data=_MARKER)
def _marker_added(event: CampaignEvent) -> str:
    return _("%(side)s placed the perimeter marker %(marker)s.") % {
        "side": event_side(event),
        "marker": event.data.get("marker", ""),
    }


@sentence("perimeter.marker_removed", data=_MARKER)
def _marker_removed(event: CampaignEvent) -> str:
    return _("%(side)s removed the perimeter marker %(marker)s.") % {
        "side": event_side(event),
        "marker": event.data.get("marker", ""),
    }


@sentence("perimeter.proposed", data={"index": INT, "side": TEXT, "count": INT})
def _proposed(event: CampaignEvent) -> str:
    return _("%(side)s took a proposed perimeter (%(count)s markers).") % {
        "side": event_side(event),
        "count": event.data.get("count", 0),
    }


@sentence("perimeter.pocket_added", data=_SIDE_HEXES)
def _pocket_added(event: CampaignEvent) -> str:
    return _("%(side)s entered a non-ground pocket in %(hexes)s.") % {
        "side": event_side(event),
        "hexes": _hexes(event),
    }


@sentence("perimeter.pocket_removed", data=_SIDE_HEXES)
def _pocket_removed(event: CampaignEvent) -> str:
    return _("%(side)s removed the non-ground pocket in %(hexes)s.") % {
        "side": event_side(event),
        "hexes": _hexes(event),
    }


@sentence(
    "perimeter.escape",
    data={"index": INT, "side": TEXT, "units": TEXTS, "final": INT, "outcome": TEXT},
)
def _escape(event: CampaignEvent) -> str:
    outcomes = {"eliminated": _("eliminated"), "abandoned": _("abandoned")}
    return _("%(side)s %(units)s tried to escape: DR %(final)s, %(outcome)s.") % {
        "side": event_side(event),
        "units": ", ".join(event.data.get("units") or []),
        "final": event.data.get("final", ""),
        "outcome": outcomes.get(event.data.get("outcome", ""), _("escaped")),
    }


@sentence("perimeter.recorded", data={"index": INT, "types": TEXT})
def _recorded(event: CampaignEvent) -> str:
    return _("Recorded the perimeters of %(day)s (isolated area types: %(types)s).") % {
        "day": event_day(event),
        "types": event.data.get("types") or "—",
    }


@sentence("perimeter.scenario_control", data={"index": INT, "side": TEXT, "hexes": TEXTS})
def _scenario_control(event: CampaignEvent) -> str:
    if event.data.get("side"):
        return _("Recorded %(side)s control of %(hexes)s after the scenario of %(day)s.") % {
            "side": event_side(event),
            "hexes": _hexes(event),
            "day": event_day(event),
        }
    return _("Recorded no control marker in %(hexes)s after the scenario of %(day)s.") % {
        "hexes": _hexes(event),
        "day": event_day(event),
    }


@sentence("perimeter.scenario_control_taken_back", data={"index": INT, "hexes": TEXTS})
def _scenario_control_taken_back(event: CampaignEvent) -> str:
    return _("Took back the control change in %(hexes)s after the scenario of %(day)s.") % {
        "hexes": _hexes(event),
        "day": event_day(event),
    }
