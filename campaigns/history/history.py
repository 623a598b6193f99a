"""The history's own sentence: a change undone (``services.undo``)."""

from django.utils.translation import gettext as _

from campaigns.history.sentences import TEXT, sentence
from campaigns.models import CampaignEvent


@sentence("change.undone", data={"action_undone": TEXT, "reason": TEXT})
def _change_undone(event: CampaignEvent) -> str:
    reason = event.data.get("reason")
    if reason:
        # The referee undid a change of a finished phase: the reason stays with the record.
        return _("Undid a change of a finished phase: %(reason)s") % {"reason": reason}
    return _("Undid a change.")
