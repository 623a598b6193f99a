"""History sentences of the public records (``campaigns.records.services``): CVP, scenarios and
the calendar."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, event_side
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
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


@sentence(
    "scenario.losses",
    data={
        "side": TEXT,
        "index": INT,
        "sequence": INT,
        "units": TEXTS,
        "outcomes": TEXTS,
        "cvp": INT,
    },
)
def _scenario_losses(event: CampaignEvent) -> str:
    return _("%(side)s: end of the scenario of %(day)s recorded for %(units)s (%(cvp)s CVP).") % {
        "side": event_side(event),
        "day": event_day(event),
        "units": ", ".join(event.data.get("units", [])),
        "cvp": event.data.get("cvp", 0),
    }


@sentence("scenario.ended", data={"index": INT, "winner": TEXT})
def _scenario_ended(event: CampaignEvent) -> str:
    return _("Recorded the end of the scenario of %(day)s.") % {"day": event_day(event)}


@sentence("day.updated", data={"index": INT})
def _day_updated(event: CampaignEvent) -> str:
    return _("Updated the calendar for %(day)s.") % {"day": event_day(event)}


@sentence("cg_victory.totals", data={"areas": TEXTS})
def _victory_totals(event: CampaignEvent) -> str:
    return _("Entered the Stone Locations of: %(areas)s.") % {
        "areas": ", ".join(event.data.get("areas", []))
    }


@sentence("cg_victory.cvp_values", data={"types": TEXTS})
def _victory_cvp_values(event: CampaignEvent) -> str:
    return _("Changed the CVP table: %(types)s.") % {
        "types": ", ".join(event.data.get("types", []))
    }
