"""History sentences of the short games (``campaigns.shortgames.services`` and ``.turns``):
Defiant Russia and Cherkassy Pocket."""

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.names import option_name
from campaigns.history.labels import event_day, event_side, step_marked, step_unmarked
from campaigns.history.sentences import INT, TEXT, TEXTS, sentence
from campaigns.models import CampaignEvent, PointKind


@sentence("shortgame.started", data={"options": TEXTS})
def _started(event: CampaignEvent) -> str:
    return _("Started the game (optional rules: %(options)s).") % {
        "options": ", ".join(
            option_name(option, get_language()) for option in event.data.get("options") or []
        )
        or "—"
    }


@sentence("units.added", data={"count": INT, "units": TEXTS})
def _units_added(event: CampaignEvent) -> str:
    return _("Added %(count)s units to the roster: %(units)s.") % {
        "count": event.data.get("count", 0),
        "units": ", ".join(event.data.get("units") or []),
    }


@sentence(
    "unit.changed",
    # hex and eliminated: a Cherkassy reconstitution (12.1)
    data={"side": TEXT, "unit": TEXT, "fields": TEXTS, "hex": TEXT, "eliminated": TEXTS},
)
def _unit_changed(event: CampaignEvent) -> str:
    data = event.data
    if data.get("reconstituted"):
        return _(
            "%(unit)s was reconstituted in %(hex)s (12.1); %(count)s other units of the division "
            "were permanently eliminated."
        ) % {
            "unit": data.get("unit", ""),
            "hex": data.get("hex", ""),
            "count": len(data.get("eliminated") or []),
        }
    return _("%(side)s %(unit)s changed (%(fields)s).") % {
        "side": event_side(event),
        "unit": data.get("unit", ""),
        "fields": ", ".join(data.get("fields") or []),
    }


@sentence("unit.removed", data={"side": TEXT, "unit": TEXT})
def _unit_removed(event: CampaignEvent) -> str:
    return _("%(side)s %(unit)s removed from the roster.") % {
        "side": event_side(event),
        "unit": event.data.get("unit", ""),
    }


@sentence("unit.arrived", data={"side": TEXT, "unit": TEXT, "hex": TEXT, "index": INT})
def _unit_arrived(event: CampaignEvent) -> str:
    return _("%(side)s %(unit)s entered the map in %(hex)s.") % {
        "side": event_side(event),
        "unit": event.data.get("unit", ""),
        "hex": event.data.get("hex") or "—",
    }


@sentence(
    "turn.step_marked",
    data={"index": INT, "side": TEXT, "rule": TEXT, "status": TEXT, "reason": TEXT},
)
def _step_marked(event: CampaignEvent) -> str:
    return step_marked(event)


@sentence("turn.step_unmarked", data={"index": INT, "side": TEXT, "step": TEXT})
def _step_unmarked(event: CampaignEvent) -> str:
    return step_unmarked(event, "step")


@sentence("turn.advanced", data={"index": INT})
def _turn_advanced(event: CampaignEvent) -> str:
    return _("Advanced the turn marker from %(day)s.") % {"day": event_day(event)}


@sentence("points.added", data={"side": TEXT, "index": INT, "kind": TEXT, "amount": INT})
def _points_added(event: CampaignEvent) -> str:
    kind = event.data.get("kind", "")
    return _("%(side)s %(kind)s, %(day)s: %(amount)+d.") % {
        "side": event_side(event),
        "kind": str(PointKind(kind).label) if kind in PointKind.values else kind,
        "day": event_day(event),
        "amount": event.data.get("amount", 0),
    }


@sentence("control.changed", data={"place": TEXT, "side": TEXT})
def _control_changed(event: CampaignEvent) -> str:
    return _("%(place)s is held by %(side)s.") % {
        "place": event.data.get("place", ""),
        "side": event_side(event) or "—",
    }


@sentence("referee_table.saved", data={"slot": TEXT})
def _referee_table_saved(event: CampaignEvent) -> str:
    return _("The referee entered the table %(slot)s.") % {"slot": event.data.get("slot", "")}


@sentence("pocket.changed", data={"count": INT})
def _pocket_changed(event: CampaignEvent) -> str:
    return (
        _("The pocket closed with %(count)s German units in the Stemmermann Group.")
        if event.data.get("formed")
        else _("The pocket is recorded as not closed.")
    ) % {"count": event.data.get("count", 0)}


@sentence("victory.changed", data={"condition": TEXT})
def _victory_changed(event: CampaignEvent) -> str:
    return (
        _("Victory condition %(condition)s met.")
        if event.data.get("met")
        else _("Victory condition %(condition)s taken back.")
    ) % {"condition": event.data.get("condition", "")}
