"""History sentences of the order of battle (``campaigns.orbat.services``: OB lines)."""

from django.utils.translation import gettext as _

from campaigns.history.labels import event_side
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent, OrbatBox


@sentence("orbat.added", data={"side": TEXT, "box": TEXT, "units": TEXTS})
def _orbat_added(event: CampaignEvent) -> str:
    return _("%(side)s OB: added %(units)s.") % {
        "side": event_side(event),
        "units": ", ".join(event.data.get("units", [])),
    }


@sentence("orbat.changed", data={"side": TEXT, "box": TEXT, "unit": TEXT})
def _orbat_changed(event: CampaignEvent) -> str:
    return _("%(side)s OB: changed %(unit)s.") % {
        "side": event_side(event),
        "unit": event.data.get("unit", ""),
    }


@sentence("orbat.removed", data={"side": TEXT, "unit": TEXT})
def _orbat_removed(event: CampaignEvent) -> str:
    return _("%(side)s OB: removed %(unit)s.") % {
        "side": event_side(event),
        "unit": event.data.get("unit", ""),
    }


def _status_text(key: str) -> str:
    from campaigns.orbat.rg_status import status_label

    return status_label(key)


@sentence("rg.status_set", data={"side": TEXT, "index": INT, "rg": TEXT, "status": TEXT})
def _rg_status_set(event: CampaignEvent) -> str:
    return _("%(side)s RG %(rg)s: now %(status)s.") % {
        "side": event_side(event),
        "rg": event.data.get("rg", ""),
        "status": _status_text(event.data.get("status", "")),
    }


@sentence("rg.statuses_moved", data={"side": TEXT, "cause": TEXT, "rgs": TEXTS, "lines": INT})
def _rg_statuses_moved(event: CampaignEvent) -> str:
    moved = []
    for item in event.data.get("rgs", []):
        label, _sep, status = str(item).partition(":")
        moved.append(f"{label} → {_status_text(status)}")
    if event.data.get("cause") == "scenario_finished":
        text = _("%(side)s RGs after the scenario: %(rgs)s.")
    else:
        text = _("%(side)s RGs as the Refit Phase finished: %(rgs)s.")
    text %= {"side": event_side(event), "rgs": ", ".join(moved)}
    if event.data.get("lines"):
        text += " " + _("%(n)s OB lines into the Retained box.") % {"n": event.data["lines"]}
    return text


@sentence("orbat.moved", data={"side": TEXT, "box": TEXT, "units": TEXTS})
def _orbat_moved(event: CampaignEvent) -> str:
    return _("%(side)s OB: moved %(units)s to %(box)s.") % {
        "side": event_side(event),
        "units": ", ".join(event.data.get("units", [])),
        "box": box_label(event.data.get("box", "")),
    }


def box_label(box: str) -> str:
    try:
        return str(OrbatBox(box).label)
    except ValueError:
        return box
