"""History sentences of a side's secret sheets (``campaigns.roster.services``): the CPP/FPP
ledger and the CG Roster's side days."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, event_side
from campaigns.history.sentences import INT, TEXT, sentence
from campaigns.models import CampaignEvent, LedgerKind


@sentence(
    "ledger.added",
    data={"side": TEXT, "index": INT, "ledger": TEXT, "kind": TEXT, "amount": INT},
)
def _ledger_added(event: CampaignEvent) -> str:
    data = event.data
    return _("%(side)s %(ledger)s, %(day)s: %(amount)+d (%(kind)s).") % {
        "side": event_side(event),
        "ledger": str(data.get("ledger", "")).upper(),
        "day": event_day(event),
        "amount": data.get("amount", 0),
        "kind": _ledger_kind(data.get("kind", "")),
    }


def _ledger_kind(kind: str) -> str:
    return str(LedgerKind(kind).label) if kind in LedgerKind.values else kind


@sentence("side_day.updated", data={"index": INT, "side": TEXT})
def _side_day_updated(event: CampaignEvent) -> str:
    return _("Updated the %(side)s roster for %(day)s.") % {
        "side": event_side(event),
        "day": event_day(event),
    }
