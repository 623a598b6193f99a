"""History sentences of the Refit Phase walker (``refit.walker.services``, ``.initiative``):
a step marked or taken back, a RePh finished, the initiative chits revealed."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, side_label, step_marked, step_unmarked
from campaigns.history.sentences import INT, TEXT, sentence
from campaigns.models import CampaignEvent


@sentence(
    "refit.step_marked",
    data={"index": INT, "side": TEXT, "rule": TEXT, "status": TEXT, "reason": TEXT},
)
def _step_marked(event: CampaignEvent) -> str:
    return step_marked(event)


@sentence("refit.step_unmarked", data={"index": INT, "side": TEXT, "rule": TEXT})
def _step_unmarked(event: CampaignEvent) -> str:
    return step_unmarked(event, "rule")


@sentence("refit.finished", data={"index": INT, "kind": TEXT, "next": TEXT})
def _finished(event: CampaignEvent) -> str:
    return _("Finished the Refit Phase of %(day)s.") % {"day": event_day(event)}


# chits ({side: "attack" | "idle"}) is an object, a kind the import does not check.
@sentence("initiative.revealed", data={"index": INT})
def _initiative_revealed(event: CampaignEvent) -> str:
    chits = ", ".join(
        f"{side_label(event.campaign, side)} {_chit_label(chit)}"
        for side, chit in (event.data.get("chits") or {}).items()
    )
    return _("Initiative chits of %(day)s revealed: %(chits)s.") % {
        "day": event_day(event),
        "chits": chits,
    }


def _chit_label(chit: str) -> str:
    return {"attack": _("Attack"), "idle": _("Idle")}.get(chit, chit)
