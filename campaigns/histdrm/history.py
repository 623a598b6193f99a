"""History sentence of the Historical DRM chart (``campaigns.histdrm.services``)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.histdrm.services import ACTION
from campaigns.history.labels import day_label, event_side
from campaigns.history.sentences import INTS, TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent

SHOWN = 6  # days named in the sentence; the rest are counted


@sentence(ACTION, data={"side": TEXT, "indexes": INTS, "values": TEXTS})
def _hist_drm_chart(event: CampaignEvent) -> str:
    indexes = event.data.get("indexes", [])
    values = event.data.get("values", [])
    days = [
        f"{day_label(event.campaign, index)} {value}"
        for index, value in zip(indexes[:SHOWN], values, strict=False)
    ]
    text = _("Historical DRM chart, %(side)s: %(days)s.") % {
        "side": event_side(event),
        "days": "; ".join(days),
    }
    if len(indexes) > SHOWN:
        more = len(indexes) - SHOWN
        text += " " + ngettext("And %(count)s more day.", "And %(count)s more days.", more) % {
            "count": more
        }
    return text
