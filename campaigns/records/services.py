"""Changes to the public records: the calendar days, the CVP entries and the scenarios played.

Each change runs in one transaction and records a public history event (the shared core is
campaigns.state). Calendar days and scenarios are versioned; CVP entries are append-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.games.weather import ec_types_of, type_of
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignDay,
    CvpEntry,
    CvpPhase,
    OrbatBox,
    OrbatEntry,
    Scenario,
    ScenarioType,
)
from campaigns.records.conditions import EC_WORDS, ec_after_rain
from campaigns.records.losses import OUTCOMES, outcomes_for
from campaigns.state import StateError, check_day, check_side, edit_row, save_versioned


@transaction.atomic
def update_day(
    campaign: Campaign, day: CampaignDay, *, by: AbstractBaseUser, version: int, **fields: Any
) -> None:
    edit_row(
        campaign,
        day,
        by=by,
        version=version,
        fields=fields,
        action="day.updated",
        visibility=PUBLIC,
        index=day.index,
    )
    if fields.get("rain") is not None:
        book_ec_after_rain(campaign, day.index + 1, by=by)


def rain_decides_next_ec(campaign: Campaign, index: int) -> bool:
    """SaP CG-6.1: the next time frame's EC depends on rain in time frame ``index``."""
    return bool(_next_condition(campaign, index + 1).get("ec_depends_on"))


def _next_condition(campaign: Campaign, index: int) -> dict[str, Any]:
    periods = campaign.cg.periods
    if not 0 < index < len(periods):
        return {}
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    frames = (definitions.get(campaign.campaign_game) or {}).get("time_frames") or {}
    return (frames.get(periods[index].key) or {}).get("initial_conditions") or {}


def book_ec_after_rain(campaign: Campaign, index: int, *, by: AbstractBaseUser) -> None:
    """Write the EC CG-6.1 gives time frame ``index`` once the previous one's rain is recorded
    (a typed EC is never replaced; booked, not asked)."""
    condition = _next_condition(campaign, index)
    if not condition.get("ec_depends_on"):
        return
    previous = CampaignDay.objects.get(campaign=campaign, index=index - 1)
    key = ec_after_rain(condition, previous.rain)
    day = CampaignDay.objects.get(campaign=campaign, index=index)
    if key is None or day.ec:
        return
    # Stored by key where the game names its ECs (weather.json), else in the calendar's words.
    ec = key if type_of(ec_types_of(campaign.game.files), key) else EC_WORDS[key]
    update_day(campaign, day, by=by, version=day.version, ec=ec)


@transaction.atomic
def add_cvp(campaign: Campaign, *, by: AbstractBaseUser, **fields: Any) -> CvpEntry:
    check_side(campaign, fields["side"])
    check_day(campaign, fields["index"])
    entry = CvpEntry.objects.create(campaign=campaign, created_by=by, **fields)
    history.record_change(
        campaign,
        by,
        "cvp.added",
        visibility=PUBLIC,
        changes=[(entry, None, history.snapshot(entry))],
        side=entry.side,
        cvp=entry.cvp,
        what=entry.what,
        index=entry.index,
    )
    return entry


def play_order(campaign: Campaign, scenario_type: str) -> dict[str, str]:
    """Who sets up and who moves first where the CG data gives it: Red Factories' initial
    scenario (11.5), every SaP CG time frame (the Russian sets up first, the German moves
    first). Other RF scenarios take theirs from 11.6233 (the chits or the Dual Attack roll)."""
    if scenario_type not in (ScenarioType.INITIAL, ScenarioType.TIME_FRAME):
        return {}
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    definition = definitions.get(campaign.campaign_game) or {}
    return {
        role: definition[role]
        for role in ("sets_up_first", "moves_first")
        if definition.get(role) in campaign.game.side_keys
    }


@transaction.atomic
def start_scenario(
    campaign: Campaign, *, by: AbstractBaseUser, index: int, sequence: int, scenario_type: str
) -> Scenario:
    """The scenario of a day (time frame) when its play starts, made from what the app knows:
    the day, the type, the set-up order the CG data gives (RF 11.5, SaP every time frame).
    One already recorded (RF 11.623's chits) is kept as it is. The attacker is asked later."""
    existing = Scenario.objects.filter(campaign=campaign, index=index, sequence=sequence).first()
    if existing is not None:
        return existing
    return save_scenario(
        campaign,
        by=by,
        index=index,
        sequence=sequence,
        scenario_type=scenario_type,
        **play_order(campaign, scenario_type),
    )


@transaction.atomic
def save_scenario(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    scenario: Scenario | None = None,
    version: int | None = None,
    **fields: Any,
) -> Scenario:
    check_day(campaign, fields.get("index", scenario.index if scenario else 0))
    for key in ("attacker", "sets_up_first", "moves_first", "winner"):
        if fields.get(key):
            check_side(campaign, fields[key])
    if scenario is None:
        if Scenario.objects.filter(
            campaign=campaign, index=fields["index"], sequence=fields.get("sequence", 1)
        ).exists():
            raise StateError(_("A scenario is already recorded for that day; edit it instead."))
        scenario = Scenario.objects.create(campaign=campaign, **fields)
        history.record_change(
            campaign,
            by,
            "scenario.added",
            visibility=PUBLIC,
            changes=[(scenario, None, history.snapshot(scenario))],
            index=scenario.index,
        )
        return scenario
    index, sequence = fields.get("index", scenario.index), fields.get("sequence", scenario.sequence)
    if (
        Scenario.objects.filter(campaign=campaign, index=index, sequence=sequence)
        .exclude(pk=scenario.pk)
        .exists()
    ):
        raise StateError(_("Another scenario is already recorded in that slot."))
    edit_row(
        campaign,
        scenario,
        by=by,
        version=version if version is not None else -1,
        fields=fields,
        action="scenario.updated",
        visibility=PUBLIC,
        index=scenario.index,
    )
    return scenario


# --- the scenario's end -------------------------------------------------------------------


@dataclass(frozen=True)
class Loss:
    """What happened to (some of) one OB line at a scenario's end (campaigns.records.losses)."""

    entry: OrbatEntry
    version: int
    outcome: str
    quantity: int
    cvp_each: int = 0
    phase: str = CvpPhase.SCENARIO
    no_cvp: bool = False


def _what(entry: OrbatEntry, quantity: int) -> str:
    return entry.unit_type if quantity == 1 else f"{quantity} × {entry.unit_type}"


@transaction.atomic
def record_losses(
    scenario: Scenario, *, by: AbstractBaseUser, side: str, losses: list[Loss]
) -> list[CvpEntry]:
    """Book what happened to the side's OB lines at the scenario's end, in one transaction:
    each line (or the part of it concerned) goes to its divider box (11.15) and gains its status,
    each loss worth CVP becomes a CVP entry of the scenario linked to the line it came from.
    One event, scoped to the side (its OB lines are its secret); undone together."""
    campaign = scenario.campaign
    check_side(campaign, side)
    if not losses:
        raise StateError(_("Choose what happened to at least one unit."))
    changes: list[tuple[Model, Any, Any]] = []
    created: list[CvpEntry] = []
    units: list[str] = []
    outcomes: list[str] = []
    for loss in losses:
        entry = loss.entry
        outcome = OUTCOMES.get(loss.outcome)
        if entry.campaign_id != campaign.pk or entry.side != side:
            raise StateError(_("That unit is not in this side's order of battle."))
        if outcome is None or loss.outcome not in outcomes_for(entry.kind):
            raise StateError(_("%(unit)s cannot be recorded as that.") % {"unit": entry.unit_type})
        if entry.box in (OrbatBox.CASUALTIES, OrbatBox.FORTIFICATIONS) and outcome.box:
            raise StateError(
                _("%(unit)s is already in the %(box)s box.")
                % {"unit": entry.unit_type, "box": entry.get_box_display()}
            )
        if not 1 <= loss.quantity <= entry.quantity:
            raise StateError(
                _("%(unit)s: between 1 and %(n)s.") % {"unit": entry.unit_type, "n": entry.quantity}
            )
        if loss.phase not in CvpPhase.values:
            raise StateError(_("Choose when it was lost."))
        before = history.snapshot(entry)
        statuses = list(entry.statuses)
        if outcome.status and outcome.status not in statuses:
            statuses.append(outcome.status)
        target = entry
        if outcome.box and loss.quantity < entry.quantity:
            save_versioned(entry, loss.version, {"quantity": entry.quantity - loss.quantity})
            target = OrbatEntry.objects.create(
                campaign=campaign,
                side=side,
                box=outcome.box,
                group=None,
                unit_type=entry.unit_type,
                kind=entry.kind,
                quantity=loss.quantity,
                origin_rg=entry.origin_rg,
                statuses=statuses,
                status_note=entry.status_note,
            )
            changes += [
                (entry, before, history.snapshot(entry)),
                (target, None, history.snapshot(target)),
            ]
        else:
            fields: dict[str, Any] = {"statuses": statuses}
            if outcome.box:
                fields.update(box=outcome.box, group=None)
            save_versioned(entry, loss.version, fields)
            changes.append((entry, before, history.snapshot(entry)))
        units.append(_what(entry, loss.quantity))
        outcomes.append(loss.outcome)
        if outcome.loss:
            # Every loss is listed, even one typed at 0 CVP.
            cvp = CvpEntry.objects.create(
                campaign=campaign,
                side=side,
                index=scenario.index,
                scenario=scenario,
                phase=loss.phase,
                what=_what(entry, loss.quantity),
                cvp=loss.cvp_each * loss.quantity,
                exited_uncontrolled=outcome.exited_uncontrolled,
                no_cvp=loss.no_cvp,
                manual=outcome.manual,
                orbat_entry=target,
                created_by=by,
            )
            created.append(cvp)
            changes.append((cvp, None, history.snapshot(cvp)))
    history.record_change(
        campaign,
        by,
        "scenario.losses",
        visibility=side,
        changes=changes,
        side=side,
        index=scenario.index,
        sequence=scenario.sequence,
        units=units,
        outcomes=outcomes,
        cvp=sum(entry.cvp for entry in created if not entry.no_cvp),
    )
    return created


@transaction.atomic
def save_end(
    scenario: Scenario,
    *,
    by: AbstractBaseUser,
    version: int,
    locations: dict[str, dict[str, int]],
    end: dict[str, Any],
    winner: str,
) -> None:
    """Save the public facts of the scenario's end and its winner (derived by the caller from
    the VC where they are structured, else the players' choice); one public event."""
    campaign = scenario.campaign
    for side in locations:
        check_side(campaign, side)
    if winner:
        check_side(campaign, winner)
    edit_row(
        campaign,
        scenario,
        by=by,
        version=version,
        fields={"locations": locations, "end": end, "winner": winner},
        action="scenario.ended",
        visibility=PUBLIC,
        index=scenario.index,
        winner=winner,
    )
