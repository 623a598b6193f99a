"""The history's own sentence: a change undone (``services.undo``)."""

from django.utils.translation import gettext as _

from campaigns.history.sentences import TEXT, sentence
from campaigns.models import CampaignEvent


@sentence("change.undone", data={"action_undone": TEXT})
def _change_undone(event: CampaignEvent) -> str:
    return _("Undid a change.")
