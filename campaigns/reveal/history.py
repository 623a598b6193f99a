"""History sentences of campaigns.reveal."""

from django.utils.translation import gettext as _

from campaigns.history.labels import side_label
from campaigns.history.sentences import TEXT, sentence
from campaigns.models import CampaignEvent


@sentence("campaign.reveal_agreed", data={"side": TEXT})
def _reveal_agreed(event: CampaignEvent) -> str:
    return _("Agreed for %(side)s to reveal the campaign.") % {
        "side": side_label(event.campaign, event.data.get("side", ""))
    }


@sentence("campaign.revealed", data={"side": TEXT})
def _revealed(event: CampaignEvent) -> str:
    return _("Revealed the campaign: every member now sees both sides, as they were.")
