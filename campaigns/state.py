"""Changes to a campaign's state (calendar, ledgers, CVP, scenarios, order of battle).

Each change runs in one transaction and records a history event with what it changed, so that
it can be shown and undone (campaigns.history.services.undo). Editable rows are versioned: a save
based
on a stale version is refused with StaleEdit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Max, Model
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignDay,
    CvpEntry,
    LedgerEntry,
    LedgerKind,
    OrbatBox,
    OrbatEntry,
    RefitPhase,
    ReinforcementGroup,
    Scenario,
    SideDay,
)
from campaigns.models.state import CPP_KINDS, FPP_KINDS
from campaigns.orbat.entry import UnitLine, parse_entry, vehicle_and_gun_names
from campaigns.roster.ledger import Movement, cpp_days, fpp_days


class StateError(ValueError):
    """A change the rules or the data do not allow; the message is for the user."""


class StaleEdit(StateError):
    """Someone saved this row since the form was opened."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Someone else changed this in the meantime. Reload to see their change; nothing of "
                "yours was saved."
            )
        )


# --- initial state -------------------------------------------------------------------------


def initial_ob(campaign: Campaign) -> dict[str, Any]:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return (definitions.get(campaign.campaign_game) or {}).get("initial_ob") or {}


def known_hist_drm(campaign: Campaign, period_key: str, side: str) -> int | None:
    """The Historical DRM the data knows for this day and side (RF), else None (unknown)."""
    chart = campaign.game.files.get("historical_drm")
    if not chart:
        return None
    day = chart.get("days", {}).get(period_key, {})
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    groups = (definitions.get(campaign.campaign_game) or {}).get("map_groups") or []
    values = {day.get(group, {}).get(side, {}).get("value") for group in groups}
    values.discard(None)
    return values.pop() if len(values) == 1 else None


def vehicles_of(campaign: Campaign) -> tuple[str, ...]:
    files = campaign.game.files
    texts = [
        group.get("units", "")
        for chart in files.get("rg_charts", {}).get("sides", {}).values()
        for group in chart.get("groups", [])
    ]
    for ob in initial_ob(campaign).values():
        texts += [unit.get("text", "") for unit in ob.get("units", [])]
    return vehicle_and_gun_names(texts)


def initialize(campaign: Campaign, user: AbstractBaseUser) -> None:
    """The state a new campaign starts with, from its campaign-game definition."""
    periods = campaign.cg.periods
    CampaignDay.objects.bulk_create(
        CampaignDay(campaign=campaign, index=i) for i in range(len(periods))
    )
    ob = initial_ob(campaign)
    side_days = []
    for index, period in enumerate(periods):
        for side in campaign.game.side_keys:
            first = ob.get(side, {}) if index == 0 else {}
            side_days.append(
                SideDay(
                    campaign=campaign,
                    index=index,
                    side=side,
                    hist_drm=known_hist_drm(campaign, period.key, side),
                    elr=first.get("elr"),
                    san=first.get("san"),
                    # The initial ELR and SAN are printed in the rules: no secret.
                    elr_san_revealed=index == 0 and bool(first),
                )
            )
    SideDay.objects.bulk_create(side_days)
    if "refit_steps" in campaign.game.files:
        from campaigns.games.steps import first_position

        first = first_position(campaign.module)
        RefitPhase.objects.create(campaign=campaign, kind=first.kind, index=first.index)
    vehicles = vehicles_of(campaign)
    for side, side_ob in ob.items():
        for ledger, key in ((LedgerEntry.CPP, "cpp"), (LedgerEntry.FPP, "fpp")):
            if side_ob.get(key):
                LedgerEntry.objects.create(
                    campaign=campaign,
                    side=side,
                    ledger=ledger,
                    index=0,
                    kind=LedgerKind.INITIAL,
                    amount=side_ob[key],
                    created_by=user,
                )
        numbers: dict[str, int] = {}
        for entry in side_ob.get("rgs", []):
            for _n in range(entry.get("count", 1)):
                numbers[entry["rg"]] = numbers.get(entry["rg"], 0) + 1
                ReinforcementGroup.objects.create(
                    campaign=campaign,
                    side=side,
                    rg_id=entry["rg"],
                    number=numbers[entry["rg"]],
                    index=0,
                    source=ReinforcementGroup.Source.INITIAL,
                )
        for unit in side_ob.get("units", []):
            text = unit.get("text", "")
            try:
                (line,) = parse_entry(text, vehicles)
            except ValueError:
                # Data-given items that are not counters of a known type (e.g. "Fanatic
                # Strongpoint (SSR CG16)") are kept as written.
                line = UnitLine(1, text, "other")
            OrbatEntry.objects.create(
                campaign=campaign,
                side=side,
                box=(
                    OrbatBox.FORTIFICATIONS if line.kind == "fortification" else OrbatBox.RETAINED
                ),
                unit_type=line.unit_type[:60],
                kind=line.kind,
                quantity=unit.get("count") or line.quantity,
            )


# --- versioned edits -----------------------------------------------------------------------


def _save_versioned(obj: Model, version: int, fields: dict[str, Any]) -> None:
    """Write ``fields`` only if the row is still at ``version``; bump it."""
    updated = (
        type(obj)
        .objects.filter(pk=obj.pk, version=version)
        .update(version=F("version") + 1, **fields)
    )
    if not updated:
        raise StaleEdit
    for name, value in fields.items():
        setattr(obj, name, value)
    obj.version = version + 1


def _check_day(campaign: Campaign, index: int) -> None:
    if not 0 <= index < len(campaign.cg.periods):
        raise StateError(_("That day is not in this campaign's calendar."))


def _check_side(campaign: Campaign, side: str) -> None:
    if side not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))


def _edit(
    campaign: Campaign,
    obj: Model,
    *,
    by: AbstractBaseUser,
    version: int,
    fields: dict[str, Any],
    action: str,
    visibility: str,
    **data: Any,
) -> None:
    """A versioned edit of one row, recorded with its before/after values."""
    before = history.snapshot(obj)
    _save_versioned(obj, version, fields)
    history.record_change(
        campaign,
        by,
        action,
        visibility=visibility,
        changes=[(obj, before, history.snapshot(obj))],
        **data,
    )


@transaction.atomic
def update_day(
    campaign: Campaign, day: CampaignDay, *, by: AbstractBaseUser, version: int, **fields: Any
) -> None:
    _edit(
        campaign,
        day,
        by=by,
        version=version,
        fields=fields,
        action="day.updated",
        visibility=PUBLIC,
        index=day.index,
    )


@transaction.atomic
def update_side_day(
    campaign: Campaign, side_day: SideDay, *, by: AbstractBaseUser, version: int, **fields: Any
) -> None:
    _edit(
        campaign,
        side_day,
        by=by,
        version=version,
        fields=fields,
        action="side_day.updated",
        visibility=side_day.side,
        index=side_day.index,
        side=side_day.side,
    )


# --- ledgers -------------------------------------------------------------------------------


@transaction.atomic
def add_ledger_entry(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    side: str,
    ledger: str,
    index: int,
    kind: str,
    amount: int,
    rg: str = "",
    note: str = "",
) -> LedgerEntry:
    _check_side(campaign, side)
    _check_day(campaign, index)
    kinds = CPP_KINDS if ledger == LedgerEntry.CPP else FPP_KINDS
    if kind not in kinds:
        raise StateError(_("That kind of entry does not belong in this ledger."))
    sign = kinds[kind]
    if amount == 0 or (sign and amount * sign < 0):
        raise StateError(
            _("A gain must be more than 0, a cost less than 0.")
            if sign
            else _("An adjustment cannot be 0.")
        )
    if abs(amount) > 999:
        raise StateError(_("That is more points than a campaign sees."))
    if kind == LedgerKind.REPLENISHMENT and index == 0:
        raise StateError(
            _(
                "There is no CPP replenishment on the first CG day (11.5); its CPP come from "
                "the initial OB."
            )
        )
    if kind == LedgerKind.ADJUSTMENT and not note.strip():
        raise StateError(_("Give the reason for the adjustment."))
    chart = campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side)
    if (
        kind == LedgerKind.RG_PURCHASE
        and chart is not None
        and rg not in {group["id"] for group in chart.get("groups", [])}
    ):
        raise StateError(_("%(rg)s is not on this side's RG chart.") % {"rg": rg or "—"})
    if amount < 0 and kind != LedgerKind.ADJUSTMENT:
        _check_affordable(campaign, side, ledger, index, -amount)
    entry = LedgerEntry.objects.create(
        campaign=campaign,
        side=side,
        ledger=ledger,
        index=index,
        kind=kind,
        amount=amount,
        rg=rg,
        note=note.strip(),
        created_by=by,
    )
    history.record_change(
        campaign,
        by,
        "ledger.added",
        visibility=side,
        changes=[(entry, None, history.snapshot(entry))],
        ledger=ledger,
        kind=kind,
        amount=amount,
        index=index,
        side=side,
        referee_only=kind == LedgerKind.ADJUSTMENT,
    )
    return entry


def _check_affordable(campaign: Campaign, side: str, ledger: str, index: int, cost: int) -> None:
    """A purchase may not spend more than the side has that day (11.619, 11.621, 11.622)."""
    # Lock the side's ledger rows: two players of one side cannot spend the same points at once.
    rows = (
        LedgerEntry.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, side=side, ledger=ledger)
        .values_list("index", "kind", "amount", "rg")
    )
    movements = [Movement(*row) for row in rows]
    days = len(campaign.cg.periods)
    if ledger == LedgerEntry.FPP:
        available = fpp_days(days, movements)[index].lost
    else:
        day = cpp_days(days, movements)[index]
        available = day.left - day.recon  # recon is paid from what the purchases left
    if cost > available:
        raise StateError(
            _("That costs %(cost)s but only %(left)s are left that day.")
            % {"cost": cost, "left": max(available, 0)}
        )


# --- CVP and scenarios ---------------------------------------------------------------------


@transaction.atomic
def add_cvp(campaign: Campaign, *, by: AbstractBaseUser, **fields: Any) -> CvpEntry:
    _check_side(campaign, fields["side"])
    _check_day(campaign, fields["index"])
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


@transaction.atomic
def save_scenario(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    scenario: Scenario | None = None,
    version: int | None = None,
    **fields: Any,
) -> Scenario:
    _check_day(campaign, fields.get("index", scenario.index if scenario else 0))
    for key in ("attacker", "sets_up_first", "moves_first", "winner"):
        if fields.get(key):
            _check_side(campaign, fields[key])
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
    _edit(
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


# --- order of battle -----------------------------------------------------------------------


def _check_box(campaign: Campaign, side: str, box: str, group: ReinforcementGroup | None) -> None:
    if box not in OrbatBox.values:
        raise StateError(_("That is not a box of the divider."))
    if (box == OrbatBox.RG) != (group is not None):
        raise StateError(_("Choose which RG's box."))
    if group is not None and (group.campaign_id != campaign.pk or group.side != side):
        raise StateError(_("That RG is not one of this side's."))


@transaction.atomic
def add_units(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    side: str,
    box: str,
    text: str,
    group: ReinforcementGroup | None = None,
    statuses: Iterable[str] = (),
) -> list[OrbatEntry]:
    _check_side(campaign, side)
    _check_box(campaign, side, box, group)
    lines = parse_entry(text, vehicles_of(campaign))
    entries = [
        OrbatEntry.objects.create(
            campaign=campaign,
            side=side,
            box=box,
            group=group,
            unit_type=line.unit_type,
            kind=line.kind,
            quantity=line.quantity,
            origin_rg=line.origin_rg,
            statuses=list(statuses),
        )
        for line in lines
    ]
    history.record_change(
        campaign,
        by,
        "orbat.added",
        visibility=side,
        changes=[(entry, None, history.snapshot(entry)) for entry in entries],
        side=side,
        box=box,
        units=[f"{e.quantity} × {e.unit_type}" for e in entries],
    )
    return entries


@transaction.atomic
def change_entry(
    entry: OrbatEntry,
    *,
    by: AbstractBaseUser,
    version: int,
    quantity: int | None = None,
    box: str | None = None,
    group: ReinforcementGroup | None = None,
    move_quantity: int | None = None,
    statuses: list[str] | None = None,
    status_note: str | None = None,
) -> OrbatEntry | None:
    """Change a line's quantity or statuses, or move some or all of it to another box.

    Returns the line that was moved into (a new one when only part moves), else None.
    """
    campaign = entry.campaign
    before = history.snapshot(entry)
    changes: list[tuple[Model | None, Any, Any]] = []
    moved = None
    fields: dict[str, Any] = {}
    if quantity is not None:
        if quantity < 1:
            raise StateError(_("A quantity must be 1 or more; remove the line instead."))
        fields["quantity"] = quantity
    if statuses is not None:
        fields["statuses"] = statuses
    if status_note is not None:
        fields["status_note"] = status_note
    if box is not None:
        _check_box(campaign, entry.side, box, group)
        count = move_quantity or entry.quantity
        if not 1 <= count <= entry.quantity:
            raise StateError(_("Move between 1 and %(n)s.") % {"n": entry.quantity})
        if count == entry.quantity:
            fields.update(box=box, group=group)
        else:
            fields["quantity"] = entry.quantity - count
            moved = OrbatEntry.objects.create(
                campaign=campaign,
                side=entry.side,
                box=box,
                group=group,
                unit_type=entry.unit_type,
                kind=entry.kind,
                quantity=count,
                origin_rg=entry.origin_rg,
                statuses=entry.statuses,
                status_note=entry.status_note,
            )
            changes.append((moved, None, history.snapshot(moved)))
    if not fields and moved is None:
        return None
    _save_versioned(entry, version, fields)
    changes.insert(0, (entry, before, history.snapshot(entry)))
    history.record_change(
        campaign,
        by,
        "orbat.changed",
        visibility=entry.side,
        changes=changes,
        side=entry.side,
        unit=entry.unit_type,
        box=box or entry.box,
    )
    return moved or (entry if box is not None else None)


@transaction.atomic
def remove_entry(entry: OrbatEntry, *, by: AbstractBaseUser, version: int) -> None:
    if not OrbatEntry.objects.filter(pk=entry.pk, version=version).exists():
        raise StaleEdit
    before = history.snapshot(entry)
    entry.delete()
    history.record_change(
        entry.campaign,
        by,
        "orbat.removed",
        visibility=entry.side,
        changes=[(entry, before, None)],
        side=entry.side,
        unit=f"{entry.quantity} × {entry.unit_type}",
    )


def next_rg_number(campaign: Campaign, side: str, rg_id: str) -> int:
    current = ReinforcementGroup.objects.filter(
        campaign=campaign, side=side, rg_id=rg_id
    ).aggregate(Max("number"))["number__max"]
    return (current or 0) + 1
