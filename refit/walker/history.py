"""History sentences of the Refit Phase walker (``refit.walker.services``, ``.initiative``,
``.carry``): a step marked or taken back, a RePh finished, the initiative chits revealed, a
side's ELR and SAN carried into a new CG day."""

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.history.labels import (
    event_day,
    event_side,
    side_label,
    step_marked,
    step_unmarked,
)
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent
from campaigns.orbat.names import app_words


@sentence(
    "refit.step_marked",
    data={
        "index": INT,
        "side": TEXT,
        "rule": TEXT,
        "status": TEXT,
        "reason": TEXT,
        "overruled": TEXT,
        "missing": TEXTS,
        "instead": TEXT,
    },
)
def _step_marked(event: CampaignEvent) -> str:
    """A step marked; the referee's reason when it was marked without what the rules require
    (issue 15), or the rule chosen instead of a roll (11.6114)."""
    data = event.data
    if data.get("overruled"):
        if data.get("status") == "skipped":
            text = _(
                "%(side)s skipped %(rule)s without what the rules require (referee: %(reason)s)."
            )
        else:
            text = _(
                "%(side)s finished %(rule)s without what the rules require (referee: %(reason)s)."
            )
        return text % {
            "side": event_side(event),
            "rule": data.get("rule", ""),
            "reason": data["overruled"],
        }
    if data.get("instead"):
        return _("%(side)s finished %(rule)s, choosing %(instead)s instead of a roll.") % {
            "side": event_side(event),
            "rule": data.get("rule", ""),
            "instead": data["instead"],
        }
    return step_marked(event)


@sentence("refit.step_unmarked", data={"index": INT, "side": TEXT, "rule": TEXT})
def _step_unmarked(event: CampaignEvent) -> str:
    return step_unmarked(event, "rule")


@sentence("refit.finished", data={"index": INT, "kind": TEXT, "next": TEXT})
def _finished(event: CampaignEvent) -> str:
    return _("Finished the Refit Phase of %(day)s.") % {"day": event_day(event)}


# figures ({side: {"elr": n, "san": n}}) is an object, a kind the import does not check.
@sentence("refit.announced", data={"index": INT, "rule": TEXT, "what": TEXTS})
def _announced(event: CampaignEvent) -> str:
    figures = event.data.get("figures") or {}
    words = {"elr": "ELR", "san": "SAN"}
    told = "; ".join(
        f"{side_label(event.campaign, side)} "
        + ", ".join(f"{words.get(k, k)} {v}" for k, v in values.items() if v is not None)
        for side, values in figures.items()
    )
    return _("%(rule)s: the sides told each other their current figures (%(figures)s).") % {
        "rule": event.data.get("rule", ""),
        "figures": told or "—",
    }


# chits ({side: "attack" | "idle"}) is an object, a kind the import does not check.
@sentence("initiative.revealed", data={"index": INT})
def _initiative_revealed(event: CampaignEvent) -> str:
    chits = ", ".join(
        f"{side_label(event.campaign, side)} {_chit_label(chit)}"
        for side, chit in (event.data.get("chits") or {}).items()
    )
    if (event.data.get("sequence") or 1) > 1:
        # RO CG I SSR I.6: the chits before the day's second scenario.
        return _("Initiative chits for the second scenario of %(day)s revealed: %(chits)s.") % {
            "day": event_day(event),
            "chits": chits,
        }
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


@sentence(
    "orbat.arrived",
    data={"index": INT, "side": TEXT, "period": TEXT, "units": TEXTS},
)
def _orbat_arrived(event: CampaignEvent) -> str:
    """A SaP time frame's reinforcements joined the side's OB (issue 16)."""
    return _("%(side)s reinforcements of %(day)s joined the OB: %(units)s.") % {
        "side": event_side(event),
        "day": event_day(event),
        "units": ", ".join(app_words(unit, get_language()) for unit in event.data.get("units", [])),
    }


@sentence(
    "orbat.stavka_removed",
    data={"index": INT, "side": TEXT, "units": TEXTS},
)
def _stavka_removed(event: CampaignEvent) -> str:
    """CG7.22: the Stavka AFVs left the CG at the end of the time frame they entered."""
    return _("Stavka armor removed from the CG at the end of %(day)s (CG7.22): %(units)s.") % {
        "day": event_day(event),
        "units": ", ".join(app_words(unit, get_language()) for unit in event.data.get("units", [])),
    }


@sentence(
    "orbat.placed",
    data={"index": INT, "side": TEXT, "units": TEXTS, "turn_two": TEXTS, "south": INT},
)
def _placed(event: CampaignEvent) -> str:
    """The time frame's arrivals went into the Retained box for 11.621 (issue 16)."""
    data = event.data
    text = _("%(side)s reinforcements of %(day)s into the Retained box: %(units)s.") % {
        "side": event_side(event),
        "day": event_day(event),
        "units": ", ".join(app_words(unit, get_language()) for unit in data.get("units", [])),
    }
    if data.get("turn_two"):
        turn_two = ", ".join(app_words(unit, get_language()) for unit in data["turn_two"])
        text += " " + _("On turn 2: %(units)s.") % {"units": turn_two}
    return text


@sentence(
    "orbat.designated",
    data={"index": INT, "side": TEXT, "units": TEXTS, "south": INT},
)
def _designated(event: CampaignEvent) -> str:
    """CG-3.1/3.2/4.1/4.2: the Russian recorded the designations (issue 16)."""
    data = event.data
    text = _("%(side)s designations for %(day)s: on turn 2 %(units)s.") % {
        "side": event_side(event),
        "day": event_day(event),
        "units": ", ".join(data.get("units", [])) or "—",
    }
    if data.get("south") is not None:
        text += " " + _("Via the south edge: %(n)s AFVs.") % {"n": data["south"]}
    return text
