"""History sentence of an import (``campaigns.transfer.load``)."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_role
from campaigns.history.sentences import TEXT, sentence
from campaigns.models import CampaignEvent


@sentence("campaign.imported", data={"name": TEXT, "role": TEXT, "side": TEXT, "scope": TEXT})
def _campaign_imported(event: CampaignEvent) -> str:
    return _("Imported “%(name)s” from an export file, as %(role)s.") % {
        "name": event.data.get("name", ""),
        "role": event_role(event),
    }
