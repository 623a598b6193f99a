"""History sentences of the public records (``campaigns.records.services``): CVP, scenarios and
the calendar."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, event_side
from campaigns.history.sentences import INT, TEXT, sentence
from campaigns.models import CampaignEvent


@sentence("cvp.added", data={"side": TEXT, "index": INT, "what": TEXT, "cvp": INT})
def _cvp_added(event: CampaignEvent) -> str:
    return _("%(side)s lost %(what)s: %(cvp)s CVP (%(day)s).") % {
        "side": event_side(event),
        "what": event.data.get("what", ""),
        "cvp": event.data.get("cvp", 0),
        "day": event_day(event),
    }


@sentence("scenario.added", "scenario.updated", data={"index": INT})
def _scenario_recorded(event: CampaignEvent) -> str:
    return _("Recorded the scenario of %(day)s.") % {"day": event_day(event)}


@sentence("day.updated", data={"index": INT})
def _day_updated(event: CampaignEvent) -> str:
    return _("Updated the calendar for %(day)s.") % {"day": event_day(event)}
