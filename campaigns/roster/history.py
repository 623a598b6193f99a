"""History sentences of the CPP/FPP ledger (``campaigns.state.add_ledger_entry``)."""

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
