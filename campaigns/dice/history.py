"""History sentences of the dice service (``campaigns.dice.services``): a roll, a void."""

from django.utils.translation import gettext as _

from campaigns.history.sentences import INT, INTS, TEXT, sentence
from campaigns.models import CampaignEvent


@sentence(
    "dice.rolled",
    data={"index": INT, "kind": TEXT, "step": TEXT, "table": TEXT, "faces": INTS, "final": INT},
)
def _dice_rolled(event: CampaignEvent) -> str:
    data = event.data
    return _("Rolled %(kind)s for %(step)s: %(faces)s → %(final)s.") % {
        "kind": data.get("kind", ""),
        "step": data.get("step", ""),
        "faces": " + ".join(str(face) for face in data.get("faces", [])),
        "final": data.get("final", ""),
    }


@sentence("dice.voided", data={"step": TEXT, "reason": TEXT})
def _dice_voided(event: CampaignEvent) -> str:
    return _("Voided a roll of %(step)s: %(reason)s") % {
        "step": event.data.get("step", ""),
        "reason": event.data.get("reason", ""),
    }
