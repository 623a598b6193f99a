"""A scenario's control record (11.605): which hexes changed control during the scenario, entered
at its end by clicking hexes or choosing from the hexes along the front, kept as data
(``ScenarioControl``) and carried into the next Refit Phase's perimeter — when that perimeter
starts (``state._starting``) or, if it has already started, at once. Public, like perimeters.

A player records hexes his side took (and removes his side's markers); the referee any side's.
Each change and each take-back is one short transaction with its history event; the generic
undo takes a change back too."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, Viewer
from campaigns.history import services as history
from campaigns.models import Campaign, Scenario
from campaigns.state import StaleEdit, StateError
from refit.models import PerimeterState, ScenarioControl
from refit.perimeters import scenario_records
from refit.perimeters.state import base_map, initial_control, peek_reph
from refit.rules.hexgrid import HexError
from refit.rules.perimeter.control_changes import apply_changes, change_list


@dataclass(frozen=True)
class ControlRecord:
    record: ScenarioControl | None
    before: dict[str, str]  # control before the scenario
    after: dict[str, str]  # and after its recorded changes

    @property
    def changes(self) -> list[dict]:
        return list(self.record.changes) if self.record is not None else []

    @property
    def version(self) -> int:
        return self.record.version if self.record is not None else 1


def _state_after(state: PerimeterState, scenario: Scenario, positions: dict) -> bool:
    if state.reph is not None:
        return scenario_records.played_before(state.reph, scenario, positions)
    return state.index > scenario.index


def control_before(campaign: Campaign, scenario: Scenario) -> dict[str, str]:
    """Control as the scenario began: the last perimeter of a Refit Phase before it (its
    recorded result, else what was entered; the SSRs' initial control if none), changed by
    the records of earlier scenarios played since."""
    positions = scenario_records.scenario_rephs(campaign)
    states = PerimeterState.objects.filter(campaign=campaign).select_related("reph").order_by("-id")
    last = next((s for s in states if not _state_after(s, scenario, positions)), None)
    control = (
        dict(last.recorded.get("control") or last.control)
        if last is not None
        else initial_control(campaign)
    )
    earlier = [
        r
        for r in ScenarioControl.objects.filter(campaign=campaign)
        .exclude(scenario=scenario)
        .select_related("scenario")
        .order_by("scenario__index", "scenario__sequence")
        if (r.scenario.index, r.scenario.sequence) < (scenario.index, scenario.sequence)
        # (an earlier scenario played before ``last``'s Refit Phase is in it already)
        and (last is None or not _state_after(last, r.scenario, positions))
    ]
    return scenario_records.applied(control, earlier)


def control_record(campaign: Campaign, scenario: Scenario) -> ControlRecord:
    record = ScenarioControl.objects.filter(scenario=scenario).first()
    before = control_before(campaign, scenario)
    changes = record.changes if record is not None else []
    return ControlRecord(record, before, apply_changes(before, changes))


def _open_state_after(campaign: Campaign, scenario: Scenario) -> PerimeterState | None:
    """The open Refit Phase's perimeter if it has started and comes after the scenario: a
    change recorded now is carried into it at once."""
    reph = peek_reph(campaign)
    if reph is None or reph.pk is None:
        return None
    positions = scenario_records.scenario_rephs(campaign)
    if not scenario_records.played_before(reph, scenario, positions):
        return None
    return PerimeterState.objects.filter(campaign=campaign, reph=reph).first()


def _save(
    viewer: Viewer,
    scenario: Scenario,
    *,
    by: AbstractBaseUser,
    version: int,
    action: str,
    changes: list[dict],
    carry: dict[str, str],
    **data: object,
) -> None:
    """Write the record's new entries and carry ``carry`` ({hex: side or ""}) into the open
    perimeter after the scenario, if started; one event for both."""
    campaign = viewer.campaign
    open_state = _open_state_after(campaign, scenario)
    with transaction.atomic():
        record, created = ScenarioControl.objects.select_for_update(of=("self",)).get_or_create(
            scenario=scenario, defaults={"campaign": campaign}
        )
        if record.version != version:
            raise StaleEdit
        before = None if created else history.snapshot(record)
        record.changes = changes
        record.version += 1
        record.save()
        rows = [(record, before, history.snapshot(record))]
        if open_state is not None and carry:
            state = PerimeterState.objects.select_for_update(of=("self",)).get(pk=open_state.pk)
            state_before = history.snapshot(state)
            state.control = apply_changes(
                state.control, [{"hex": h, "to": side} for h, side in carry.items()]
            )
            state.version += 1
            state.save()
            rows.append((state, state_before, history.snapshot(state)))
        history.record_change(
            campaign,
            by,
            action,
            visibility=PUBLIC,
            changes=rows,
            index=scenario.index,
            **data,
        )


def set_control(
    viewer: Viewer,
    scenario: Scenario,
    *,
    by: AbstractBaseUser,
    version: int,
    names: list[str],
    side: str,
) -> list[str]:
    """Record that ``names`` ended the scenario controlled by ``side`` ("" no marker)."""
    campaign = viewer.campaign
    if side and side not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))
    if side and not viewer.can_act_for_side(side):
        raise StateError(_("A player places their own side's control markers."))
    hexmap = base_map(campaign)
    names = list(dict.fromkeys(names))
    for name in names:
        try:
            hexmap.hex(name)  # the caller parsed them; a stale name fails here
        except HexError:
            raise StateError(_("“%(text)s” is not a hex of this map.") % {"text": name}) from None
    current = control_record(campaign, scenario)
    if not side:
        for name in names:
            owner = current.after.get(name, "")
            if owner and not viewer.can_act_for_side(owner):
                raise StateError(_("Only the referee may remove the other side's control markers."))
    changes = change_list(current.changes, current.before, names, side)
    _save(
        viewer,
        scenario,
        by=by,
        version=version,
        action="perimeter.scenario_control",
        changes=changes,
        carry=dict.fromkeys(names, side),
        side=side,
        hexes=names,
    )
    return names


def take_back(
    viewer: Viewer, scenario: Scenario, *, by: AbstractBaseUser, version: int, name: str
) -> None:
    """Take one hex out of the record: it goes back to its control before the scenario (in the
    open perimeter too, unless changed there since)."""
    current = control_record(viewer.campaign, scenario)
    entry = next((e for e in current.changes if e["hex"] == name), None)
    if entry is None:
        raise StateError(_("That hex is not in the scenario's control record."))
    if not any(viewer.can_act_for_side(s) for s in (entry["to"], entry["from"]) if s):
        raise StateError(_("Only the referee may take back the other side's control change."))
    changes = [e for e in current.changes if e["hex"] != name]
    carry = {}
    open_state = _open_state_after(viewer.campaign, scenario)
    if open_state is not None and open_state.control.get(name, "") == entry["to"]:
        carry[name] = entry["from"]
    _save(
        viewer,
        scenario,
        by=by,
        version=version,
        action="perimeter.scenario_control_taken_back",
        changes=changes,
        carry=carry,
        hexes=[name],
    )


def end_section(viewer: Viewer, scenario: Scenario) -> dict[str, str] | None:
    """The scenario end page's line about the control record (campaigns.records.end)."""
    from django.urls import reverse
    from django.utils.translation import ngettext

    from refit.perimeters.state import has_perimeters

    campaign = viewer.campaign
    if not has_perimeters(campaign):
        return None
    record = ScenarioControl.objects.filter(scenario=scenario).only("changes").first()
    count = len(record.changes) if record is not None else 0
    return {
        "title": _("Control after the scenario"),
        "text": ngettext(
            "%(count)s hex changed control.", "%(count)s hexes changed control.", count
        )
        % {"count": count},
        "url": reverse("perimeters:scenario_control", args=[campaign.pk, scenario.pk]),
        "link": _("Record the control changes")
        if viewer.can_record
        else _("See the control changes"),
    }
