"""A RePh roll's result booked onto the order-of-battle lines it concerns.

The rules (which lines, what changes) are ``refit.rules.ob_results``; this module reads the
side's lines, applies the outcome to them and records one ``orbat.result`` event, scoped to the
side (OB lines are its secret), with every line's before/after snapshot: undoing the step's
effects (``refit.walker.services.undo_effects``) or the event in the history puts the lines
back. The event names the line by its id (``line``) and the result by its key (``result``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, DiceRoll, OrbatEntry, RefitPhase
from campaigns.said import said
from campaigns.state import StateError, save_versioned
from refit.rules import ob_results as rules
from refit.rules.ob_results import Line, LineChange, Outcome

ACTION = "orbat.result"

# A result key in words (the history sentence, the roll's note, the page's message).
RESULT_WORDS = {
    "leader_eliminated": gettext_lazy("leader eliminated"),
    "leader_stays_wounded": gettext_lazy("stays wounded and Retained"),
    "leader_hardened": gettext_lazy("leader battle hardened"),
    "leader_top": gettext_lazy("no higher leader counter: the owner chooses"),
    "no_leader": gettext_lazy("no Retained leader to battle harden"),
    "repaired": gettext_lazy("repaired"),
    "weapon_eliminated": gettext_lazy("weapon eliminated"),
    "weapon_disabled": gettext_lazy("weapon disabled (mark a Recall if it was the MA)"),
    "afv_retained": gettext_lazy("platoon retained"),
    "withdrawn": gettext_lazy("platoon withdrawn"),
    "fortification_removed": gettext_lazy("fortification removed"),
    "no_effect": gettext_lazy("no effect"),
    "escaped": gettext_lazy("escaped"),
    "replaced": gettext_lazy("escaped, replaced: the owner names the new unit"),
    "casualty_reduced": gettext_lazy("escaped, casualty reduced: the owner names the new unit"),
    "eliminated": gettext_lazy("eliminated"),
    "abandoned": gettext_lazy("abandoned"),
    "destroyed": gettext_lazy("destroyed"),
    "mmc_hardened": gettext_lazy("MMC battle hardened"),
}

# Why a line cannot take a table's result.
REFUSALS = {
    "not_wounded_leader": gettext_lazy("Choose one of the side's wounded leaders."),
    "not_malfunctioned": gettext_lazy("Choose a malfunctioned, non-captured weapon."),
    "not_afv": gettext_lazy("Choose a non-isolated, non-dug-in AFV platoon."),
    "not_fortification": gettext_lazy("Choose one of the side's fortification counters."),
    "count": gettext_lazy("The line has fewer counters than that."),
    "unknown_escape": gettext_lazy("That is not an escape result."),
    "not_mmc": gettext_lazy("Choose Retained infantry MMC (not crews)."),
    "not_mmc_type": gettext_lazy("Name the squad or half-squad it becomes, e.g. 4-5-8."),
    "none_picked": gettext_lazy("Say how many of which MMC battle harden."),
    "too_many": gettext_lazy("More MMC than the MMC Battle Hardening Table allows."),
}

# What the owner is left to do by hand, when the rules leave a choice the app cannot make.
CHOICES = {
    "leader_type": gettext_lazy(
        "Remove one of the leader's line and add the counter it becomes on the order of battle."
    ),
    "recall_if_ma": gettext_lazy("If it was the main armament, mark the AFV Recalled."),
    "other_minefields": gettext_lazy(
        "A Known minefield: remove the other minefields of its Location too (footnote *)."
    ),
    "reduced_type": gettext_lazy("Name the unit it becomes."),
}


def result_words(key: str) -> str:
    return str(RESULT_WORDS.get(key, key))


def refusal(key: str) -> str:
    return str(REFUSALS.get(key, key))


def family(table_id: str) -> str:
    return rules.FAMILIES.get(table_id, "")


def to_line(entry: OrbatEntry) -> Line:
    return Line(
        id=entry.pk,
        unit_type=entry.unit_type,
        kind=entry.kind,
        quantity=entry.quantity,
        box=entry.box,
        statuses=tuple(entry.statuses or ()),
        origin_rg=entry.origin_rg,
    )


def side_entries(campaign: Campaign, side: str, *, lock: bool = False) -> list[OrbatEntry]:
    entries = OrbatEntry.objects.filter(campaign=campaign, side=side).order_by("id")
    if lock:
        entries = entries.select_for_update(of=("self",))
    return list(entries)


def line_label(entry: OrbatEntry) -> str:
    parts = [f"{entry.quantity} × {entry.unit_type}"]
    if entry.origin_rg:
        parts.append(_("from %(rg)s") % {"rg": entry.origin_rg})
    if entry.status_note:
        parts.append(f"({entry.status_note})")
    return " ".join(parts)


def line_choices(campaign: Campaign, side: str, table_id: str) -> list[tuple[int, str]]:
    """The side's own lines the player may name for a roll of ``table_id`` (one query)."""
    kind = family(table_id)
    if kind not in rules.PICKED:
        return []
    return [
        (entry.pk, line_label(entry))
        for entry in side_entries(campaign, side)
        if rules.eligible(kind, to_line(entry))
    ]


def booked_for_line(campaign: Campaign, reph: RefitPhase, table_id: str, line_id: int) -> bool:
    """Was a roll of ``table_id`` (not voided) already booked onto this line in this RePh,
    even if the booking was undone since? Such a line is not rolled for again."""
    events = CampaignEvent.objects.filter(
        campaign=campaign,
        action=ACTION,
        data__table=table_id,
        data__line=line_id,
        step_reph=reph.pk,
    ).values_list("step_roll", flat=True)
    rolls = list(events)
    return DiceRoll.objects.filter(pk__in=[r for r in rolls if r], voided_at__isnull=True).exists()


def _changed(entry: OrbatEntry, change: LineChange) -> tuple[list[Any], OrbatEntry | None]:
    """Apply one change to a locked line; its history changes and the line split off."""
    before = history.snapshot(entry)
    applied = rules.apply(to_line(entry), change)
    if applied.removed:
        entry.delete()
        entry.pk = before["id"]
        return [(entry, before, None)], None
    fields: dict[str, Any] = {}
    kept = applied.line
    if kept.quantity != entry.quantity:
        fields["quantity"] = kept.quantity
    if applied.split is None:
        if kept.box != entry.box:
            fields["box"] = kept.box
            fields["group"] = None
        if kept.unit_type != entry.unit_type:
            fields["unit_type"] = kept.unit_type
        if list(kept.statuses) != list(entry.statuses or ()):
            fields["statuses"] = list(kept.statuses)
    changes: list[Any] = []
    if fields:
        save_versioned(entry, entry.version, fields)
        changes.append((entry, before, history.snapshot(entry)))
    split = None
    if applied.split is not None:
        part = applied.split
        split = OrbatEntry.objects.create(
            campaign_id=entry.campaign_id,
            side=entry.side,
            box=part.box,
            group=entry.group if part.box == entry.box else None,
            unit_type=part.unit_type,
            kind=entry.kind,
            quantity=part.quantity,
            origin_rg=entry.origin_rg,
            statuses=list(part.statuses),
            status_note=entry.status_note,
        )
        changes.append((split, None, history.snapshot(split)))
    return changes, split


def book(
    campaign: Campaign,
    *,
    side: str,
    outcome: Outcome,
    entries: Mapping[int, OrbatEntry],
    by: AbstractBaseUser,
    table: str,
    line: int | None,
    index: int,
    count: int | None = None,
) -> CampaignEvent | None:
    """Apply ``outcome`` to the side's locked ``entries`` and record it (None: nothing
    changed and no line named, nothing recorded — the roll's note says the result)."""
    changes: list[tuple[Model | None, Any, Any]] = []
    units = []
    for change in outcome.changes:
        entry = entries.get(change.line)
        if entry is None or entry.side != side:
            raise StateError(_("That line is not in this side's order of battle."))
        units.append(f"{change.count} × {entry.unit_type}")
        done, _split = _changed(entry, change)
        changes += done
    if not changes and line is None:
        return None
    # A roll for a named line is recorded even when its result changes nothing (stays wounded,
    # retained, no effect): the line is then known to be rolled for (``booked_for_line``).
    data: dict[str, Any] = {
        "side": side,
        "index": index,
        "table": table,
        "result": outcome.key,
        "units": units,
    }
    if line is not None:
        data["line"] = line
    if count is not None:
        data["count"] = count
    if not changes:  # nothing to undo: no undo payload, no undo button
        return history.record(campaign, by, "orbat.result", visibility=side, **data)
    return history.record_change(
        campaign, by, "orbat.result", visibility=side, changes=changes, **data
    )


def outcome_for(
    table_id: str,
    result: Mapping[str, Any],
    line: OrbatEntry | None,
    entries: Iterable[OrbatEntry],
    *,
    side: str,
) -> Outcome:
    """The rules' outcome of a roll of ``table_id`` for ``line`` (or, for leader battle
    hardening, for the side's lines). ResultError for a line the table does not concern."""
    kind = family(table_id)
    lines = [to_line(entry) for entry in entries]
    if kind == "leader_hardening":
        return rules.leader_hardening(result, lines, soviet=side != "german")
    if line is None:
        raise rules.ResultError("no_line")
    subject = to_line(line)
    if kind == "wounded_leader":
        return rules.wounded_leader(subject, result)
    if kind == "repair":
        return rules.repair(subject, result)
    if kind == "afv_withdrawal":
        return rules.afv_withdrawal(subject, lines, result)
    if kind == "fortification_removal":
        return rules.fortification_removal(subject, result)
    raise rules.ResultError("no_line")


def sentence(outcome: Outcome, units: Sequence[str] = ()) -> str:
    """What was booked, for the player (the result's words, what is left to them)."""
    text = _("Order of battle: %(result)s.") % {"result": result_words(outcome.key)}
    if units:
        text = _("Order of battle: %(units)s — %(result)s.") % {
            "units": ", ".join(units),
            "result": result_words(outcome.key),
        }
    if outcome.choose:
        text += " " + str(CHOICES.get(outcome.choose, ""))
    return text


# --- the walker's effects: a roll booked onto the lines (refit.walker.effects) --------------


def _book_roll(booking: Any) -> str:
    from refit.walker.effects import EffectError

    campaign, reph, side, roll, by = booking.unpack()
    kind = family(roll.table_id)
    entries = {entry.pk: entry for entry in side_entries(campaign, side, lock=True)}
    line = None
    if kind in rules.PICKED:
        line = entries.get(booking.line) if booking.line else None
        if line is None:
            raise EffectError(_("Choose the order-of-battle line this roll is for."))
        if booked_for_line(campaign, reph, roll.table_id, line.pk):
            raise EffectError(
                _(
                    "This line was already rolled for on this table in this Refit Phase; a "
                    "referee may void that roll with a reason."
                )
            )
    try:
        outcome = outcome_for(roll.table_id, roll.result or {}, line, entries.values(), side=side)
    except rules.ResultError as error:
        raise EffectError(refusal(error.key)) from None
    event = book(
        campaign,
        side=side,
        outcome=outcome,
        entries=entries,
        by=by,
        table=roll.table_id,
        line=line.pk if line is not None else None,
        index=reph.index,
    )
    # A public roll's note is read by every member: it names the result, never the side's lines.
    units = event.data["units"] if event is not None and roll.visibility == side else ()
    if line is not None and roll.visibility == side and not units:
        units = [line_label(line)]
    return said(lambda: sentence(outcome, units))


def register() -> None:
    """Add the OB-line tables to the walker's effects (called when the app is ready), and name
    the line a booking was for by its file id in an export (``data.line``)."""
    from campaigns.transfer.sections import register_reference
    from refit.walker.effects import EFFECTS, Effect

    register_reference(CampaignEvent, "data", ("line",), OrbatEntry)

    button = gettext_lazy("Roll and apply to the order of battle")
    for table_id, kind in rules.FAMILIES.items():
        roller = ""
        if kind == "leader_hardening":
            roller = table_id.rsplit("-", 1)[-1]  # the side whose column it is
        EFFECTS[table_id] = Effect(
            button, _book_roll, once="line" if kind in rules.PICKED else "side", roller=roller
        )


# --- MMC battle hardening (11.6112): the owner chooses which MMC ----------------------------

MMC_TABLES = ("rf.mmc-battle-hardening", "sap.mmc-battle-hardening")


def hardening_roll(campaign: Campaign, reph: RefitPhase, side: str) -> DiceRoll | None:
    """The side's MMC Battle Hardening DR of this RePh (not voided), if rolled."""
    return (
        DiceRoll.objects.filter(
            campaign=campaign,
            side=side,
            table_id__in=MMC_TABLES,
            index=reph.index,
            rolled_at__gte=reph.started_at,
            voided_at__isnull=True,
        )
        .order_by("id")
        .first()
    )


def hardened_so_far(campaign: Campaign, roll: DiceRoll) -> int:
    rows = CampaignEvent.objects.filter(
        campaign=campaign,
        action="orbat.result",
        data__table=roll.table_id,
        step_roll=roll.pk,
        undone_at__isnull=True,
    ).values_list("data", flat=True)
    return sum(int(data.get("count", 0)) for data in rows)


def hardening_lines(campaign: Campaign, side: str) -> list[OrbatEntry]:
    return [e for e in side_entries(campaign, side) if rules.mmc_eligible(to_line(e))]


def harden_mmc(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    *,
    picks: Mapping[int, tuple[int, str]],
    by: AbstractBaseUser,
) -> str:
    """Battle harden the MMC the owner chose (line id → how many, the type they become),
    within the count the side's MMC Battle Hardening DR gave; one event tagged with the roll,
    undone with the step's effects."""
    with transaction.atomic():
        roll = hardening_roll(campaign, reph, side)
        if roll is None:
            raise StateError(_("Roll the MMC Battle Hardening Table first."))
        entries = {entry.pk: entry for entry in side_entries(campaign, side, lock=True)}
        chosen = []
        for line_id, (count, becomes) in picks.items():
            entry = entries.get(line_id)
            if entry is None:
                raise StateError(_("That line is not in this side's order of battle."))
            chosen.append((to_line(entry), count, becomes))
        try:
            outcome = rules.mmc_hardening(
                chosen, int((roll.result or {}).get("mmc", 0)), hardened_so_far(campaign, roll)
            )
        except rules.ResultError as error:
            raise StateError(refusal(error.key)) from None
        with history.refit_step(reph, roll.step, side, roll=roll.pk):
            event = book(
                campaign,
                side=side,
                outcome=outcome,
                entries=entries,
                by=by,
                table=roll.table_id,
                line=None,
                index=reph.index,
                count=int(outcome.detail["count"]),
            )
    return sentence(outcome, event.data["units"] if event is not None else ())


def booked_lines(
    campaign: Campaign, reph: RefitPhase, side: str, events: list[CampaignEvent] | None = None
) -> dict[int, str]:
    """Roll id → the OB lines its result was booked onto, in words (the side's secret: for
    those who see the side only). One query, none with ``events`` (``walker.reph_events``)."""
    if events is None:
        from refit.walker.services import reph_events

        events = reph_events(campaign, reph)
    found = [
        event
        for event in events
        if event.action == "orbat.result" and event.data.get("side") == side
    ]
    # Sorted here, newest first: sorted by the database, SQLite would walk the campaign's every
    # event by time instead of the step's few (the step_reph index).
    rows = [
        event.data
        for event in sorted(found, key=lambda event: (event.created_at, event.pk), reverse=True)
    ]
    booked: dict[int, str] = {}
    for data in rows:
        roll = (data.get("refit_step") or {}).get("roll")
        if roll:
            words = _("%(units)s: %(result)s") % {
                "units": ", ".join(data.get("units", [])) or "—",
                "result": result_words(data.get("result", "")),
            }
            booked[int(roll)] = "; ".join(filter(None, (booked.get(int(roll)), words)))
    return booked
