"""A SaP time frame's reinforcements join each side's OB when its Refit Phase opens (issue 16).

``services.finish`` calls ``arrive`` when it opens the RePh of a later time frame (the one whose
11.617/11.618 belong to it), after the ELR/SAN carry. The rules are ``refit.rules.arrivals``
(pure, over ``campaign_games.json`` → ``time_frames``); here they become rows:

* each RG of a group is a ``ReinforcementGroup`` (source ``time_frame``, the time frame's index,
  numbered after the side's RGs of that id) with ``details["arrival"]`` = period, group, entry
  turn: it is rolled in that RePh's 11.618 like any RG and then waits for entry (its life cycle,
  ``campaigns.orbat.lifecycle``);
* each unit line (Stavka AFVs, CG7.22; dug-in T-34 M41s, CG7.23; CG-5's German AFVs) goes into
  the divider's "arriving" box, marked ``stavka`` / ``dug_in``, with the LMG CG7.23 gives for
  each T-34 M41.

Once per side and time frame (an arrival not undone is never made again), one side-scoped event
per side with every row it made, so that an undo takes the whole arrival back. Before the new
arrivals, the Stavka AFVs of the time frame that has just ended leave the CG (CG7.22, 11.602h;
``refit.walker.stavka``).
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignEvent,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    RgStatus,
    SideDay,
)
from campaigns.state import StaleEdit, StateError, save_versioned
from refit.reserve.leaders import leaders_arriving
from refit.rules import arrivals as rules

ACTION = "orbat.arrived"
STAVKA = "stavka"
DUG_IN = "dug_in"
SAP = "slaughter_at_ponyri"


def time_frames(campaign: Campaign) -> dict:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return (definitions.get(campaign.campaign_game) or {}).get("time_frames") or {}


def arrivals_for(campaign: Campaign, index: int, side: str) -> list[rules.Arrival]:
    """What time frame ``index`` brings ``side`` (from the data; none outside SaP)."""
    periods = campaign.cg.periods
    if campaign.module != SAP or not 0 <= index < len(periods):
        return []
    return rules.arrivals(time_frames(campaign), periods[index].key, side)


def arrived(campaign: Campaign, index: int, side: str) -> bool:
    return CampaignEvent.objects.filter(
        campaign=campaign,
        action=ACTION,
        undone_at__isnull=True,
        data__index=index,
        data__side=side,
    ).exists()


def _unit_lines(arrival: rules.Arrival) -> list[tuple[str, int, list[str]]]:
    lines = []
    for unit in arrival.units:
        statuses = [STAVKA] if unit.stavka else [DUG_IN] if unit.dug_in else []
        lines.append((unit.text, unit.count, statuses))
    lmg = rules.dug_in_lmg(arrival.units)
    if lmg:
        lines.append(("LMG", lmg, []))
    return lines


def arrive(campaign: Campaign, index: int, *, by: AbstractBaseUser) -> list[CampaignEvent]:
    """Put time frame ``index``'s reinforcements into each side's OB (once); the events."""
    events = []
    for side in campaign.game.side_keys:
        found = arrivals_for(campaign, index, side)
        if not found or arrived(campaign, index, side):
            continue
        numbers = dict(
            ReinforcementGroup.objects.filter(campaign=campaign, side=side)
            .values("rg_id")
            .annotate(top=Max("number"))
            .values_list("rg_id", "top")
        )
        made: list[ReinforcementGroup | OrbatEntry] = []
        words = []
        for arrival in found:
            where = {"period": arrival.period, "group": arrival.group, "turn": arrival.turn}
            for rg_id, count in arrival.rgs:
                for _n in range(count):
                    numbers[rg_id] = numbers.get(rg_id, 0) + 1
                    made.append(
                        ReinforcementGroup.objects.create(
                            campaign=campaign,
                            side=side,
                            rg_id=rg_id,
                            number=numbers[rg_id],
                            index=index,
                            source=ReinforcementGroup.Source.TIME_FRAME,
                            status=RgStatus.BOUGHT,
                            details={"arrival": where},
                        )
                    )
                words.append(f"{count} × RG {rg_id}")
            for text, count, statuses in _unit_lines(arrival):
                made.append(
                    OrbatEntry.objects.create(
                        campaign=campaign,
                        side=side,
                        box=OrbatBox.ARRIVING,
                        unit_type=text[:60],
                        kind="vehicle_or_gun" if text != "LMG" else "support_weapon",
                        quantity=count,
                        statuses=statuses,
                        status_note=arrival.period,  # the rules' own label ("CG-3")
                    )
                )
                words.append(f"{count} × {text}")
        # CG9: the armor leaders rolled before the CG for these platoons come with them (and
        # share the Stavka AFVs' fate, CG7.22).
        stavka = [STAVKA] if any(u.stavka for a in found for u in a.units) else []
        for rating in leaders_arriving(campaign, side, found[0].period):
            made.append(
                OrbatEntry.objects.create(
                    campaign=campaign,
                    side=side,
                    box=OrbatBox.ARRIVING,
                    unit_type=f"{rating} armor leader",
                    kind="leader",
                    quantity=1,
                    statuses=stavka,
                    status_note=found[0].period,
                )
            )
            words.append(f"{rating} armor leader")
        events.append(
            history.record_change(
                campaign,
                by,
                "orbat.arrived",
                visibility=side,
                changes=[(row, None, history.snapshot(row)) for row in made],
                side=side,
                index=index,
                period=found[0].period,
                units=words,
            )
        )
    return events


# --- CG-3.1 / CG-3.2 / CG-4.1 / CG-4.2: the Russian's designations --------------------------

TURN_TWO_RULES = ("CG-3.1", "CG-3.2", "CG-4.1")
SOUTH_RULE = "CG-4.2"
DESIGNATION_REASONS = {
    "designation_over": gettext_lazy("%(unit)s: %(n)s designated for turn 2, but %(max)s arrive."),
    "south_edge_minimum": gettext_lazy(
        "At least %(min)s of these AFVs must enter via the south edge."
    ),
    "south_edge_over": gettext_lazy("Only %(max)s AFVs arrive."),
}


def designation_rules(campaign: Campaign, index: int) -> tuple[bool, bool]:
    """(turn-2 designations may be made, CG-4.2's south-edge minimum applies) for the time
    frame ``index``."""
    periods = campaign.cg.periods
    if campaign.module != SAP or not 0 <= index < len(periods):
        return False, False
    special = (time_frames(campaign).get(periods[index].key) or {}).get("special_rules") or []
    return any(rule in special for rule in TURN_TWO_RULES), SOUTH_RULE in special


@transaction.atomic
def designate(
    campaign: Campaign,
    side: str,
    *,
    turn_two: dict[str, int],
    south: int | None,
    version: int,
    by: AbstractBaseUser,
) -> SideDay:
    """Record the designations for the open time frame (before set-up): which arrivals enter on
    turn 2 through German-controlled edge hexes (CG-3.1/3.2/4.1) and how many AFVs enter via
    the south edge (CG-4.2, at least 10). Refused when over what arrives or under CG-4.2."""
    index = campaign.period_index
    may, south_rule = designation_rules(campaign, index)
    if not may:
        raise StateError(_("This time frame has no designations to record."))
    if placed(campaign, index, side):
        raise StateError(
            _("The arrivals are already in the Retained box: take the placement back first.")
        )
    found = arrivals_for(campaign, index, side)
    problems = rules.designation_problems(
        found, turn_two=turn_two, south=south, south_rule=south_rule
    )
    if problems:
        raise StateError(" ".join(p.sentence(DESIGNATION_REASONS) for p in problems))
    row = SideDay.objects.select_for_update(of=("self",)).get(
        campaign=campaign, index=index, side=side
    )
    if row.version != version:
        raise StaleEdit
    before = history.snapshot(row)
    plan = {"turn_two": {k: n for k, n in turn_two.items() if n}, "south": south}
    save_versioned(row, version, {"arrival_plan": plan})
    history.record_change(
        campaign,
        by,
        "orbat.designated",
        visibility=side,
        changes=[(row, before, history.snapshot(row))],
        side=side,
        index=index,
        units=[f"{n} × {k}" for k, n in plan["turn_two"].items()],
        **({"south": south} if south is not None else {}),
    )
    return row


# --- Into the Retained box, where 11.621 needs them (SaP 11.2 "Retained" [L379]) -------------

PLACED = "orbat.placed"


def special_rules(campaign: Campaign, index: int) -> list[str]:
    periods = campaign.cg.periods
    if not 0 <= index < len(periods):
        return []
    return list((time_frames(campaign).get(periods[index].key) or {}).get("special_rules") or [])


def to_place(campaign: Campaign, side: str) -> list[OrbatEntry]:
    """The side's lines of the open time frame still in the arriving box that go to the Retained
    box (all but CG-5's German AFVs, CG-5.2), in order."""
    index = campaign.period_index
    if campaign.module != SAP or rules.waits_off_map(side, special_rules(campaign, index)):
        return []
    period = campaign.cg.periods[index].key
    return list(
        OrbatEntry.objects.filter(
            campaign=campaign, side=side, box=OrbatBox.ARRIVING, status_note=period
        ).order_by("pk")
    )


def placed(campaign: Campaign, index: int, side: str) -> bool:
    return CampaignEvent.objects.filter(
        campaign=campaign,
        action=PLACED,
        undone_at__isnull=True,
        data__index=index,
        data__side=side,
    ).exists()


def _rule_of(campaign: Campaign, index: int, side: str) -> dict[str, str]:
    """Per unit text, the designation rule of its group (CG-3.1 / CG-3.2 / CG-4.1)."""
    special = special_rules(campaign, index)
    frame = time_frames(campaign).get(campaign.cg.periods[index].key) or {}
    found = {}
    for group in (frame.get("reinforcements") or {}).get(side) or []:
        rule = rules.designation_rule(str((group.get("entry") or {}).get("en", "")), special)
        for unit in group.get("units") or []:
            if rule:
                found[str(unit.get("text"))] = rule
    return found


@transaction.atomic
def place(campaign: Campaign, side: str, *, by: AbstractBaseUser) -> list[OrbatEntry]:
    """Move the open time frame's arriving lines of ``side`` into the Retained box (one action,
    one side-scoped event): the designated ones split off, marked to enter on turn 2 by their
    rule (CG-3.1/3.2/4.1). In a time frame with designations they must be recorded first; the
    lines moved (and split off)."""
    index = campaign.period_index
    lines = list(
        OrbatEntry.objects.select_for_update(of=("self",)).filter(
            pk__in=[line.pk for line in to_place(campaign, side)]
        )
    )
    if not lines:
        raise StateError(_("Nothing of this time frame waits to be placed."))
    may, _south_rule = designation_rules(campaign, index)
    plan = (SideDay.objects.get(campaign=campaign, index=index, side=side).arrival_plan) or {}
    if may and arrivals_for(campaign, index, side) and "turn_two" not in plan:
        raise StateError(_("Record the designations first (none is an answer too)."))
    period = campaign.cg.periods[index].key
    by_id = {line.pk: line for line in lines}
    moves = rules.placements(
        [rules.ArrivingLine(ln.pk, ln.unit_type, ln.quantity, ln.kind) for ln in lines],
        turn_two=plan.get("turn_two") or {},
        rule_of=_rule_of(campaign, index, side),
        period=period,
    )
    changes: list[history.Change] = []
    befores = {line.pk: history.snapshot(line) for line in lines}
    done: list[OrbatEntry] = []
    words, designated = [], []
    for move in moves:
        line = by_id[move.line]
        statuses = [*line.statuses, rules.TURN_TWO] if move.turn_two else list(line.statuses)
        if move.turn_two and move.count < line.quantity:
            made = OrbatEntry.objects.create(
                campaign=campaign,
                side=side,
                box=OrbatBox.RETAINED,
                unit_type=line.unit_type,
                kind=line.kind,
                quantity=move.count,
                origin_rg=line.origin_rg,
                statuses=statuses,
                status_note=move.note,
            )
            changes.append((made, None, history.snapshot(made)))
            line.quantity -= move.count
            done.append(made)
        else:
            line.box = OrbatBox.RETAINED
            line.statuses = statuses
            line.status_note = move.note
            line.version += 1
            line.save()
            done.append(line)
        words.append(f"{move.count} × {line.unit_type}")
        if move.turn_two:
            designated.append(f"{move.count} × {line.unit_type} ({move.note})")
    for line in lines:
        line.refresh_from_db()
        changes.append((line, befores[line.pk], history.snapshot(line)))
    history.record_change(
        campaign,
        by,
        "orbat.placed",  # PLACED, as a literal: the history's scan reads recorded keys
        visibility=side,
        changes=changes,
        side=side,
        index=index,
        units=words,
        turn_two=designated,
        # An event's data holds no None (the export's check of its shape would refuse it).
        **({"south": plan["south"]} if plan.get("south") is not None else {}),
    )
    return done


def _designation_guard(event: CampaignEvent, closed: bool) -> None:
    """Designations are taken back only while the arrivals they split are not placed."""
    data = event.data
    if placed(event.campaign, data.get("index"), data.get("side")):
        raise history.UndoError(
            _("The arrivals were placed by these designations: take the placement back first.")
        )


DUG_IN_REASONS = {
    "dug_in_never_mobile": gettext_lazy(
        "A dug-in AFV is never mobile: its line stays dug in (%(rule)s)."
    ),
}


def keep_dug_in(entry: OrbatEntry, statuses: list[str]) -> None:
    """CG7.23 on every change of an OB line's statuses in SaP (campaigns.orbat.services)."""
    if entry.campaign.module != SAP:
        return
    refusal = rules.dug_in_refusal(entry.statuses, statuses)
    if refusal is not None:
        raise StateError(refusal.sentence(DUG_IN_REASONS))


def register() -> None:
    from campaigns.orbat import services as orbat

    history.UNDO_GUARDS.setdefault("orbat.designated", _designation_guard)
    if keep_dug_in not in orbat.STATUS_CHECKS:
        orbat.STATUS_CHECKS.append(keep_dug_in)
