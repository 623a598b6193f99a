"""Every change to campaign state is recorded here: who, when, what, and who may read it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.apps import apps
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.models import Campaign, CampaignEvent, Role

# The Refit Phase step a change is made for, so that the step's effects can be undone together.
_refit_step: ContextVar[dict[str, Any] | None] = ContextVar("refit_step", default=None)


@contextmanager
def refit_step(reph: Any, rule: str, side: str, **more: Any) -> Iterator[None]:
    """Tag every event recorded inside the block with the RePh step it belongs to (and, for a
    roll's booking, the roll)."""
    token = _refit_step.set({"reph": reph.pk, "rule": rule, "side": side, **more})
    try:
        yield
    finally:
        _refit_step.reset(token)


def record(
    campaign: Campaign,
    actor: AbstractBaseUser | None,
    action: str,
    *,
    visibility: str = PUBLIC,
    target: models.Model | None = None,
    **data: Any,
) -> CampaignEvent:
    """Store one change. Call inside the same transaction as the change itself."""
    step = _refit_step.get()
    if step is not None and "refit_step" not in data:
        data["refit_step"] = step
    return CampaignEvent.objects.create(
        campaign=campaign,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        visibility=visibility,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=target.pk if target is not None else None,
        data=data,
    )


# Fields that change on every save and say nothing about the campaign's state.
NOT_COMPARED = {"version", "created_at"}


def snapshot(obj: models.Model) -> dict[str, Any]:
    """The row's fields as JSON-ready data (foreign keys as ids)."""
    data = {}
    for field in obj._meta.concrete_fields:
        value = getattr(obj, field.attname)
        if isinstance(value, dt.datetime | dt.date):
            value = value.isoformat()
        data[field.attname] = value
    return data


def _comparable(data: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if data is None else {k: v for k, v in data.items() if k not in NOT_COMPARED}


Change = tuple[models.Model, dict[str, Any] | None, dict[str, Any] | None]


def record_change(
    campaign: Campaign,
    actor: AbstractBaseUser | None,
    action: str,
    *,
    visibility: str,
    changes: Iterable[Change],
    **data: Any,
) -> CampaignEvent:
    """Record a change with the rows it touched (before/after), so that it can be undone."""
    undo = []
    for obj, before, after in changes:
        pk = (after or before or {}).get(obj._meta.pk.attname)
        undo.append({"model": obj._meta.label_lower, "pk": pk, "before": before, "after": after})
    return record(campaign, actor, action, visibility=visibility, undo=undo, **data)


class UndoError(ValueError):
    """The change cannot be undone (any more); the message is for the user."""


# Checks an app registers for an action whose undo depends on more than its own rows (e.g.
# campaigns.shortgames.turns: a turn advanced may be taken back only while nothing happened on the
# new turn).
# A guard gets the locked event and raises UndoError with a sentence for the user.
UNDO_GUARDS: dict[str, Callable[[CampaignEvent], None]] = {}


def undoable_for(viewer: Any) -> models.QuerySet[CampaignEvent]:
    """The events this viewer may undo: the referee any visible one, others only their own."""
    events = viewer.filter_visible(
        CampaignEvent.objects.filter(
            campaign=viewer.campaign, undone_at__isnull=True, data__has_key="undo"
        )
    )
    if viewer.is_observer:
        return events.none()
    if not viewer.is_referee:
        # A player undoes their own changes, and not those only a referee may make.
        # (has_key first: a missing key would make the comparison NULL and drop the row)
        events = events.filter(actor_id=viewer.membership.user_id).exclude(
            models.Q(data__has_key="referee_only") & models.Q(data__referee_only=True)
        )
    return events


@transaction.atomic
def undo(event: CampaignEvent, *, by: AbstractBaseUser) -> None:
    """Put back the rows as they were before ``event`` — if nothing has changed them since."""
    event = CampaignEvent.objects.select_for_update(of=("self",)).get(pk=event.pk)
    if event.undone_at is not None:
        raise UndoError(_("That change was already undone."))
    steps = event.data.get("undo")
    if not steps:
        raise UndoError(_("That change cannot be undone."))
    guard = UNDO_GUARDS.get(event.action)
    if guard is not None:
        guard(event)
    for step in reversed(steps):
        model = apps.get_model(step["model"])
        _check_same_campaign(event, model, step)
        current = model.objects.select_for_update(of=("self",)).filter(pk=step["pk"]).first()
        now = snapshot(current) if current is not None else None
        if _comparable(now) != _comparable(step["after"]):
            raise UndoError(_("It has been changed again since; undo the later change first."))
        if step["before"] is None:
            try:
                current.delete()
            except models.ProtectedError:
                raise UndoError(_("Other records refer to it; undo those first.")) from None
        elif current is None:
            model.objects.create(**step["before"])
        else:
            fields = {k: v for k, v in step["before"].items() if k not in NOT_COMPARED}
            if "version" in step["before"]:
                fields["version"] = current.version + 1
            model.objects.filter(pk=step["pk"]).update(**fields)
    event.undone_at = timezone.now()
    event.undone_by = by
    event.save(update_fields=["undone_at", "undone_by"])
    record(
        event.campaign,
        by,
        "change.undone",
        visibility=event.visibility,
        undone=event.pk,
        action_undone=event.action,
    )


def _check_same_campaign(event: CampaignEvent, model: type[models.Model], step: dict) -> None:
    """An undo only ever touches rows of the event's own campaign."""
    row = step["after"] or step["before"] or {}
    if model is Campaign:
        owners = {step["pk"]}
    elif "campaign_id" in row:
        owners = {row["campaign_id"]}
        owners |= set(model.objects.filter(pk=step["pk"]).values_list("campaign_id", flat=True))
    elif "reph_id" in row:
        refit_phase = apps.get_model("campaigns", "RefitPhase")
        owners = set(
            refit_phase.objects.filter(pk=row["reph_id"]).values_list("campaign_id", flat=True)
        )
    else:
        owners = set()
    if owners != {event.campaign_id}:
        raise UndoError(_("That change cannot be undone."))


def role_label(campaign: Campaign, role: str, side: str = "") -> str:
    """ "German player", "Referee", … in the active language."""
    if role == Role.PLAYER:
        try:
            side_name = campaign.side(side).name.in_language(get_language())
        except KeyError:
            side_name = side
        return _("%(side)s player") % {"side": side_name}
    return str(Role(role).label) if role in Role.values else role


def describe(event: CampaignEvent) -> str:
    """One line for the history page, in the active language."""
    data = event.data
    campaign = event.campaign
    if event.action == "campaign.created":
        return _("Created the campaign “%(name)s”.") % {"name": data.get("name", "")}
    if event.action == "member.joined":
        return _("%(user)s joined as %(role)s.") % {
            "user": data.get("user", ""),
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    if event.action == "member.role_changed":
        return _("%(user)s is now %(after)s (was %(before)s).") % {
            "user": data.get("user", ""),
            "after": role_label(campaign, data.get("role", ""), data.get("side", "")),
            "before": role_label(
                campaign, data.get("previous_role", ""), data.get("previous_side", "")
            ),
        }
    if event.action == "member.removed":
        return _("%(user)s was removed (was %(role)s).") % {
            "user": data.get("user", ""),
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    if event.action == "invitation.created":
        return _("Made an invitation link for %(role)s.") % {
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    if event.action == "invitation.revoked":
        return _("Revoked the invitation link for %(role)s.") % {
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    day = _day_label(campaign, data.get("index"))
    side = _side_label(campaign, data.get("side", ""))
    if event.action == "ledger.added":
        return _("%(side)s %(ledger)s, %(day)s: %(amount)+d (%(kind)s).") % {
            "side": side,
            "ledger": str(data.get("ledger", "")).upper(),
            "day": day,
            "amount": data.get("amount", 0),
            "kind": _ledger_kind(data.get("kind", "")),
        }
    if event.action == "cvp.added":
        return _("%(side)s lost %(what)s: %(cvp)s CVP (%(day)s).") % {
            "side": side,
            "what": data.get("what", ""),
            "cvp": data.get("cvp", 0),
            "day": day,
        }
    if event.action in ("scenario.added", "scenario.updated"):
        return _("Recorded the scenario of %(day)s.") % {"day": day}
    if event.action == "day.updated":
        return _("Updated the calendar for %(day)s.") % {"day": day}
    if event.action == "side_day.updated":
        return _("Updated the %(side)s roster for %(day)s.") % {"side": side, "day": day}
    if event.action == "orbat.added":
        return _("%(side)s OB: added %(units)s.") % {
            "side": side,
            "units": ", ".join(data.get("units", [])),
        }
    if event.action == "orbat.changed":
        return _("%(side)s OB: changed %(unit)s.") % {"side": side, "unit": data.get("unit", "")}
    if event.action == "orbat.removed":
        return _("%(side)s OB: removed %(unit)s.") % {"side": side, "unit": data.get("unit", "")}
    if event.action == "change.undone":
        return _("Undid a change.")
    if event.action == "dice.rolled":
        return _("Rolled %(kind)s for %(step)s: %(faces)s → %(final)s.") % {
            "kind": data.get("kind", ""),
            "step": data.get("step", ""),
            "faces": " + ".join(str(face) for face in data.get("faces", [])),
            "final": data.get("final", ""),
        }
    if event.action == "dice.voided":
        return _("Voided a roll of %(step)s: %(reason)s") % {
            "step": data.get("step", ""),
            "reason": data.get("reason", ""),
        }
    if event.action == "refit.step_marked":
        text = (
            _("%(side)s skipped %(rule)s: %(reason)s")
            if data.get("status") == "skipped"
            else _("%(side)s finished %(rule)s.")
        )
        return text % {"side": side, "rule": data.get("rule", ""), "reason": data.get("reason", "")}
    if event.action == "refit.step_unmarked":
        return _("%(side)s took back %(rule)s.") % {"side": side, "rule": data.get("rule", "")}
    if event.action == "refit.finished":
        return _("Finished the Refit Phase of %(day)s.") % {"day": day}
    if event.action == "initiative.revealed":
        chits = ", ".join(
            f"{_side_label(event.campaign, key)} {_chit_label(chit)}"
            for key, chit in (data.get("chits") or {}).items()
        )
        return _("Initiative chits of %(day)s revealed: %(chits)s.") % {"day": day, "chits": chits}
    # --- RG and fortification purchases (refit.purchases.services, refit.purchases.receipt,
    # refit.fortifications.services)
    if event.action == "rg.purchased":
        text = _("%(side)s bought %(rg)s for %(cpp)s CPP (%(day)s).")
        if data.get("override"):
            text = _("%(side)s bought %(rg)s for %(cpp)s CPP (%(day)s), past a limit: %(reason)s")
        return text % {
            "side": side,
            "rg": data.get("rg", ""),
            "cpp": data.get("cpp", 0),
            "day": day,
            "reason": data.get("override", ""),
        }
    if event.action == "rg.purchase_removed":
        return _("%(side)s took back the purchase of %(rg)s (%(day)s).") % {
            "side": side,
            "rg": data.get("rg", ""),
            "day": day,
        }
    if event.action == "rg.noted":
        return _("%(side)s wrote down the hexes, observer or notes of %(rg)s.") % {
            "side": side,
            "rg": data.get("rg", ""),
        }
    if event.action == "rg.received":
        return _("%(side)s %(rg)s: %(what)s.") % {
            "side": side,
            "rg": data.get("rg", ""),
            "what": data.get("what", ""),
        }
    if event.action == "fortification.purchased":
        text = _("%(side)s bought %(what)s for %(fpp)s FPP (%(day)s).")
        if data.get("override"):
            text = _("%(side)s bought %(what)s for %(fpp)s FPP (%(day)s), past a limit: %(reason)s")
        if data.get("under_construction"):
            text = _("%(side)s bought %(what)s Under Construction for %(fpp)s FPP (%(day)s).")
        return text % {
            "side": side,
            "what": _fortification_label(event.campaign, data),
            "fpp": data.get("fpp", 0),
            "day": day,
            "reason": data.get("override", ""),
        }
    if event.action == "fortification.removed":
        return _("%(side)s took back %(what)s (%(day)s).") % {
            "side": side,
            "what": _fortification_label(event.campaign, data),
            "day": day,
        }
    if event.action == "fortification.located":
        if data.get("lost"):
            return _("%(side)s lost %(what)s: a hex no longer qualified at placement.") % {
                "side": side,
                "what": _fortification_label(event.campaign, data),
            }
        return _("%(side)s recorded where %(what)s is set up.") % {
            "side": side,
            "what": _fortification_label(event.campaign, data),
        }
    # --- end of purchases
    # --- perimeters (refit.perimeters.services, 11.605-11.6066)
    # ---------------------------------------
    if event.action.startswith("perimeter."):
        return _perimeter_sentence(event.action, data, side, day)
    # --- end of perimeters
    # --- short games (campaigns.shortgames.services, campaigns.shortgames.turns)
    # ---------------------------------
    if event.action == "shortgame.started":
        return _("Started the game (optional rules: %(options)s).") % {
            "options": ", ".join(data.get("options") or []) or "—"
        }
    if event.action == "units.added":
        return _("Added %(count)s units to the roster: %(units)s.") % {
            "count": data.get("count", 0),
            "units": ", ".join(data.get("units") or []),
        }
    if event.action == "unit.changed" and data.get("reconstituted"):
        return _(
            "%(unit)s was reconstituted in %(hex)s (12.1); %(count)s other units of the division "
            "were permanently eliminated."
        ) % {
            "unit": data.get("unit", ""),
            "hex": data.get("hex", ""),
            "count": len(data.get("eliminated") or []),
        }
    if event.action == "unit.changed":
        return _("%(side)s %(unit)s changed (%(fields)s).") % {
            "side": side,
            "unit": data.get("unit", ""),
            "fields": ", ".join(data.get("fields") or []),
        }
    if event.action == "unit.removed":
        return _("%(side)s %(unit)s removed from the roster.") % {
            "side": side,
            "unit": data.get("unit", ""),
        }
    if event.action == "turn.step_marked":
        text = (
            _("%(side)s skipped %(rule)s: %(reason)s")
            if data.get("status") == "skipped"
            else _("%(side)s finished %(rule)s.")
        )
        return text % {"side": side, "rule": data.get("rule", ""), "reason": data.get("reason", "")}
    if event.action == "turn.step_unmarked":
        return _("%(side)s took back %(rule)s.") % {"side": side, "rule": data.get("step", "")}
    if event.action == "turn.advanced":
        return _("Advanced the turn marker from %(day)s.") % {"day": day}
    if event.action == "points.added":
        return _("%(side)s %(kind)s, %(day)s: %(amount)+d.") % {
            "side": side,
            "kind": _point_kind(data.get("kind", "")),
            "day": day,
            "amount": data.get("amount", 0),
        }
    if event.action == "control.changed":
        return _("%(place)s is held by %(side)s.") % {
            "place": data.get("place", ""),
            "side": side or "—",
        }
    if event.action == "referee_table.saved":
        return _("The referee entered the table %(slot)s.") % {"slot": data.get("slot", "")}
    if event.action == "pocket.changed":
        return (
            _("The pocket closed with %(count)s German units in the Stemmermann Group.")
            if data.get("formed")
            else _("The pocket is recorded as not closed.")
        ) % {"count": data.get("count", 0)}
    if event.action == "victory.changed":
        return (
            _("Victory condition %(condition)s met.")
            if data.get("met")
            else _("Victory condition %(condition)s taken back.")
        ) % {"condition": data.get("condition", "")}
    # --- end of short games
    # --- short games: reinforcements, advancing the turn (campaigns.shortgames.turns)
    # ----------------------
    if event.action == "unit.arrived":
        return _("%(side)s %(unit)s entered the map in %(hex)s.") % {
            "side": side,
            "unit": data.get("unit", ""),
            "hex": data.get("hex") or "—",
        }
    # --- end of short games: reinforcements
    if event.action == "campaign.imported":
        return _("Imported “%(name)s” from an export file, as %(role)s.") % {
            "name": data.get("name", ""),
            "role": role_label(campaign, data.get("role", ""), data.get("side", "")),
        }
    return event.action


def _fortification_label(campaign: Campaign, data: dict[str, Any]) -> str:
    """ "2 × Foxhole (3S)" in the reader's language, from the item id the event stored."""
    if data.get("what"):
        return str(data["what"])
    charts = campaign.game.files.get("tables", {}).get("charts", [])
    table = next(
        (c for c in charts if c.get("kind") in ("purchase_costs", "fortification_costs")), {}
    )
    item = next((i for i in table.get("items", []) if i["id"] == data.get("item")), {})
    names = item.get("name") or {}
    name = names.get("ja" if (get_language() or "").startswith("ja") else "en") or names.get(
        "en", data.get("item", "")
    )
    detail = f" ({data['detail']})" if data.get("detail") else ""
    return f"{data.get('quantity', 1)} × {name}{detail}"


def _point_kind(kind: str) -> str:
    from campaigns.models import PointKind

    return str(PointKind(kind).label) if kind in PointKind.values else kind


def _chit_label(chit: str) -> str:
    return {"attack": _("Attack"), "idle": _("Idle")}.get(chit, chit)


def _day_label(campaign: Campaign, index: Any) -> str:
    periods = campaign.cg.periods
    if isinstance(index, int) and 0 <= index < len(periods):
        return periods[index].label.in_language(get_language())
    return ""


def _side_label(campaign: Campaign, side: str) -> str:
    try:
        return campaign.side(side).name.in_language(get_language())
    except KeyError:
        return side


def _ledger_kind(kind: str) -> str:
    from campaigns.models import LedgerKind

    return str(LedgerKind(kind).label) if kind in LedgerKind.values else kind


# --- perimeters (refit.perimeters.services)
# -------------------------------------------------------------


def _perimeter_sentence(action: str, data: dict, side: str, day: str) -> str:
    hexes = " ".join(data.get("hexes") or [])
    if action == "perimeter.control":
        if data.get("side"):
            return _("Placed control markers in %(hexes)s.") % {"hexes": hexes}
        return _("Removed control markers from %(hexes)s.") % {"hexes": hexes}
    if action == "perimeter.water":
        if data.get("water"):
            return _("Marked water obstacles in %(hexes)s.") % {"hexes": hexes}
        return _("Marked %(hexes)s as land.") % {"hexes": hexes}
    if action == "perimeter.fires":
        return _("Changed the fires in %(hexes)s.") % {"hexes": hexes}
    if action == "perimeter.units":
        return _("%(side)s placed units in %(hexes)s for the perimeter.") % {
            "side": side,
            "hexes": hexes,
        }
    if action == "perimeter.units_removed":
        return _("%(side)s removed units from %(hexes)s.") % {"side": side, "hexes": hexes}
    if action == "perimeter.declared":
        return _("%(side)s declared its units for the perimeter.") % {"side": side}
    if action == "perimeter.marker_added":
        return _("%(side)s placed the perimeter marker %(marker)s.") % {
            "side": side,
            "marker": data.get("marker", ""),
        }
    if action == "perimeter.marker_removed":
        return _("%(side)s removed the perimeter marker %(marker)s.") % {
            "side": side,
            "marker": data.get("marker", ""),
        }
    if action == "perimeter.proposed":
        return _("%(side)s took a proposed perimeter (%(count)s markers).") % {
            "side": side,
            "count": data.get("count", 0),
        }
    if action == "perimeter.pocket_added":
        return _("%(side)s entered a non-ground pocket in %(hexes)s.") % {
            "side": side,
            "hexes": hexes,
        }
    if action == "perimeter.pocket_removed":
        return _("%(side)s removed the non-ground pocket in %(hexes)s.") % {
            "side": side,
            "hexes": hexes,
        }
    if action == "perimeter.escape":
        return _("%(side)s %(units)s tried to escape: DR %(final)s, %(outcome)s.") % {
            "side": side,
            "units": ", ".join(data.get("units") or []),
            "final": data.get("final", ""),
            "outcome": {
                "eliminated": _("eliminated"),
                "abandoned": _("abandoned"),
            }.get(data.get("outcome", ""), _("escaped")),
        }
    if action == "perimeter.recorded":
        return _("Recorded the perimeters of %(day)s (isolated area types: %(types)s).") % {
            "day": day,
            "types": data.get("types") or "—",
        }
    return action
