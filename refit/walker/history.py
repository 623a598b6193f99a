"""History sentences of the Refit Phase walker (``refit.walker.services``, ``.initiative``,
``.carry``): a step marked or taken back, a RePh finished, the initiative chits revealed, a
side's ELR and SAN carried into a new CG day."""

from django.utils.translation import gettext as _

from campaigns.history.labels import (
    event_day,
    event_side,
    side_label,
    step_marked,
    step_unmarked,
)
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


@sentence(
    "side_day.carried",
    data={"index": INT, "side": TEXT, "elr": INT, "san": INT, "san_was": INT},
)
def _side_day_carried(event: CampaignEvent) -> str:
    data = event.data
    words = {**data, "side": event_side(event), "day": event_day(event)}
    if "elr" in data and "san" in data:
        text = _("%(side)s ELR %(elr)s and SAN %(san)s carried into %(day)s.") % words
    elif "elr" in data:
        text = _("%(side)s ELR %(elr)s carried into %(day)s.") % words
    else:
        text = _("%(side)s SAN %(san)s carried into %(day)s.") % words
    if "san_was" in data:
        text += " " + _("SAN %(was)s rises to %(san)s (11.6122).") % {
            "was": data["san_was"],
            "san": data.get("san"),
        }
    return text
