"""History sentences of campaigns.corrections: public, naming the kind, the side and the reason
(never a secret roll's faces or a ledger's amount)."""

from django.utils.translation import gettext as _

from campaigns.history.labels import side_label
from campaigns.history.sentences import TEXT, sentence
from campaigns.models import CampaignEvent


def _words(event: CampaignEvent) -> dict[str, str]:
    return {
        "side": side_label(event.campaign, event.data.get("side", "")),
        "reason": event.data.get("reason", ""),
        "asker": event.data.get("asked_by", ""),
    }


def kind_words(kind: str) -> str:
    if kind == "void":
        return _("void one of its rolls")
    if kind == "adjust":
        return _("adjust its own ledger")
    if kind == "undo":
        return _("undo a change only a referee could undo")
    return kind


SHAPE = {"kind": TEXT, "side": TEXT, "reason": TEXT}
ANSWER_SHAPE = {**SHAPE, "asked_by": TEXT}


@sentence("correction.asked", data=SHAPE)
def _asked(event: CampaignEvent) -> str:
    return _("Asked for %(side)s to %(what)s: %(reason)s") % {
        **_words(event),
        "what": kind_words(event.data.get("kind", "")),
    }


@sentence("correction.agreed", data=ANSWER_SHAPE)
def _agreed(event: CampaignEvent) -> str:
    return _("Agreed that %(side)s may %(what)s (asked by %(asker)s): %(reason)s") % {
        **_words(event),
        "what": kind_words(event.data.get("kind", "")),
    }


@sentence("correction.declined", data=ANSWER_SHAPE)
def _declined(event: CampaignEvent) -> str:
    return _("Declined the request for %(side)s to %(what)s (asked by %(asker)s): %(reason)s") % {
        **_words(event),
        "what": kind_words(event.data.get("kind", "")),
    }


@sentence("correction.withdrawn", data=ANSWER_SHAPE)
def _withdrawn(event: CampaignEvent) -> str:
    return _("Withdrew the request for %(side)s to %(what)s: %(reason)s") % {
        **_words(event),
        "what": kind_words(event.data.get("kind", "")),
    }
