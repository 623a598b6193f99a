"""History sentence of a roll's result booked onto OB lines (``refit.walker.ob_results``)."""

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.names import table_name
from campaigns.history.labels import event_side
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent
from refit.walker.ob_results import result_words


@sentence(
    "orbat.result",
    data={
        "side": TEXT,
        "index": INT,
        "table": TEXT,
        "result": TEXT,
        "units": TEXTS,
        "line": INT,
        "count": INT,
    },
)
def _orbat_result(event: CampaignEvent) -> str:
    data = event.data
    return _("%(side)s OB: %(units)s — %(result)s (%(table)s).") % {
        "side": event_side(event),
        "units": ", ".join(data.get("units", [])),
        "result": result_words(data.get("result", "")),
        "table": table_name(data.get("table", ""), get_language()),
    }
