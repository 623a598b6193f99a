"""SaP's German Armor Reserve (CG7.21, issue 16): the pool's rows and every change to them.

* ``create_pool``: a new SaP campaign starts with the 48 AFVs of ``initial_pool`` (a hook of
  ``campaigns.state.initialize``, registered in refit/apps.py).
* ``enter_play``: checked AFVs leave the reserve for the German OB of the coming time frame (one
  line each in the "Retained" box, where 11.621 finds them; its origin ``CG7.21 #n``), within
  CG-1's limits
  (``refit.rules.reserve.entry_refusals``).
* ``to_reserve``: AFVs retained off-map go back, with their repair state (11.6131 e–f); their OB
  lines leave the OB.
* ``join_from_cg5``: CG-5.2 — 9 July AM AFVs left off-map join the reserve (from their line);
  ``join_left_off_map`` does it by itself as the next time frame opens for those still awaiting
  entry.
* ``auto_repair``: 11.6132 — malfunctioned weapons of reserve AFVs repaired as a RePh opens.

Every change is one German-side event with the rows' snapshots (undoable); rows are versioned
and a stale page is refused. Access is checked by the caller (campaigns.access).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, OrbatBox, OrbatEntry
from campaigns.state import StaleEdit, StateError, save_versioned
from refit.models import ArmorReserveVehicle
from refit.rules import reserve as rules

SIDE = "german"
SAP = "slaughter_at_ponyri"
REASONS = {
    "not_in_reserve": gettext_lazy("AFV %(serial)s is not in the reserve."),
    "not_mobile": gettext_lazy("AFV %(serial)s is not mobile (under repair)."),
    "no_draw": gettext_lazy("No AFV of the reserve enters in %(period)s."),
    "type_not_allowed": gettext_lazy("A %(type)s may not enter from the reserve in %(period)s."),
    "over_max": gettext_lazy(
        "At most %(max)s of %(types)s enter in this time frame (%(n)s chosen)."
    ),
}


def definition(campaign: Campaign) -> dict[str, Any]:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return definitions.get(campaign.campaign_game) or {}


def reserve_data(campaign: Campaign) -> dict[str, Any]:
    return definition(campaign).get("german_armor_reserve") or {}


def has_reserve(campaign: Campaign) -> bool:
    return campaign.module == SAP and bool(reserve_data(campaign))


def tag(vehicle: ArmorReserveVehicle) -> str:
    """The OB line's origin: the rule and the AFV's number (the same in every language)."""
    return f"CG7.21 #{vehicle.serial}"


def rule_view(vehicle: ArmorReserveVehicle) -> rules.Vehicle:
    return rules.Vehicle(
        vehicle.serial, vehicle.vehicle_type, vehicle.state, vehicle.repair, vehicle.entered_index
    )


def create_pool(campaign: Campaign, cg: dict[str, Any], user: AbstractBaseUser) -> None:
    """The reserve at the CG start (CG7.21): one row per AFV, numbered 1 … 48."""
    data = cg.get("german_armor_reserve") or {}
    if campaign.module != SAP or not data:
        return
    rows, serial = [], 0
    for vehicle_type, count in rules.initial_pool(data):
        for _n in range(count):
            serial += 1
            rows.append(
                ArmorReserveVehicle(
                    campaign=campaign,
                    serial=serial,
                    vehicle_type=vehicle_type,
                    origin=rules.INITIAL,
                )
            )
    ArmorReserveVehicle.objects.bulk_create(rows)


def _locked(campaign: Campaign, versions: Mapping[int, int]) -> list[ArmorReserveVehicle]:
    if not versions:
        raise StateError(_("Check the AFVs first."))
    vehicles = list(
        ArmorReserveVehicle.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, pk__in=list(versions))
        .order_by("serial")
    )
    if len(vehicles) != len(versions):
        raise StateError(_("A checked AFV is not in the reserve's record any more."))
    for vehicle in vehicles:
        if vehicle.version != versions[vehicle.pk]:
            raise StaleEdit
    return vehicles


def _record(campaign: Campaign, by: AbstractBaseUser, action: str, changes, **data: Any):
    return history.record_change(
        campaign, by, action, visibility=SIDE, changes=changes, side=SIDE, **data
    )


@transaction.atomic
def enter_play(
    campaign: Campaign, versions: Mapping[int, int], *, by: AbstractBaseUser
) -> list[ArmorReserveVehicle]:
    """The checked AFVs enter play in the open time frame: out of the reserve, into the OB."""
    index = campaign.period_index
    period = campaign.cg.periods[index].key
    vehicles = _locked(campaign, versions)
    pool = [rule_view(v) for v in ArmorReserveVehicle.objects.filter(campaign=campaign)]
    refusals = rules.entry_refusals(
        reserve_data(campaign), period, index, [rule_view(v) for v in vehicles], pool
    )
    if refusals:
        raise StateError(" ".join(reason.sentence(REASONS) for reason in refusals))
    changes: list[history.Change] = []
    for vehicle in vehicles:
        before = history.snapshot(vehicle)
        save_versioned(vehicle, vehicle.version, {"state": rules.IN_PLAY, "entered_index": index})
        changes.append((vehicle, before, history.snapshot(vehicle)))
        # SaP 11.2 "Retained" [L379]: units entering other than by set-up wait in the Retained
        # box, where 11.621 (set-up / entry per CG7/7.1) finds them.
        line = OrbatEntry.objects.create(
            campaign=campaign,
            side=SIDE,
            box=OrbatBox.RETAINED,
            unit_type=vehicle.vehicle_type,
            kind="vehicle_or_gun",
            quantity=1,
            origin_rg=tag(vehicle),
            status_note=period,
        )
        changes.append((line, None, history.snapshot(line)))
        if vehicle.armor_leader:
            # CG9: the armor leader rides in this AFV and never changes vehicles.
            leader = OrbatEntry.objects.create(
                campaign=campaign,
                side=SIDE,
                box=OrbatBox.RETAINED,
                unit_type=f"{vehicle.armor_leader} armor leader",
                kind="leader",
                quantity=1,
                origin_rg=tag(vehicle),
                status_note=period,
            )
            changes.append((leader, None, history.snapshot(leader)))
    _record(
        campaign,
        by,
        "reserve.entered",
        changes,
        index=index,
        units=[f"#{v.serial} {v.vehicle_type}" for v in vehicles],
    )
    return vehicles


@transaction.atomic
def to_reserve(
    campaign: Campaign, versions: Mapping[int, int], *, repair: str, by: AbstractBaseUser
) -> list[ArmorReserveVehicle]:
    """AFVs retained off-map go back into the reserve (CG7.21), under repair or not; their OB
    lines leave the German OB."""
    if repair not in rules.REPAIRS:
        raise StateError(_("That is not a repair state."))
    vehicles = _locked(campaign, versions)
    if any(v.state != rules.IN_PLAY for v in vehicles):
        raise StateError(_("Only AFVs that entered play go back into the reserve."))
    changes: list[history.Change] = []
    lines = OrbatEntry.objects.select_for_update(of=("self",)).filter(
        campaign=campaign, side=SIDE, origin_rg__in=[tag(v) for v in vehicles]
    )
    for line in lines:
        changes.append((line, history.snapshot(line), None))
        line.delete()
    for vehicle in vehicles:
        before = history.snapshot(vehicle)
        save_versioned(
            vehicle,
            vehicle.version,
            {"state": rules.IN_RESERVE, "entered_index": None, "repair": repair},
        )
        changes.append((vehicle, before, history.snapshot(vehicle)))
    _record(
        campaign,
        by,
        "reserve.returned",
        changes,
        index=campaign.period_index,
        units=[f"#{v.serial} {v.vehicle_type}" for v in vehicles],
    )
    return vehicles


def cg5_lines(campaign: Campaign) -> list[OrbatEntry]:
    """The German OB lines of the 9 July AM group's AFVs (not reserve AFVs), outside the
    Casualties box: those CG-5.2 lets join the reserve."""
    types = rules.cg5_types(definition(campaign).get("time_frames") or {})
    if not types:
        return []
    return list(
        OrbatEntry.objects.filter(
            campaign=campaign, side=SIDE, unit_type__in=sorted(types), origin_rg=""
        )
        .exclude(box=OrbatBox.CASUALTIES)
        .order_by("pk")
    )


@transaction.atomic
def join_from_cg5(
    campaign: Campaign, entry: OrbatEntry, *, version: int, quantity: int, by: AbstractBaseUser
) -> list[ArmorReserveVehicle]:
    """CG-5.2: ``quantity`` of the 9 July AM group's AFVs on this line, left off-map, join the
    reserve; the line is reduced (or leaves the OB)."""
    entry = OrbatEntry.objects.select_for_update(of=("self",)).get(pk=entry.pk, campaign=campaign)
    types = rules.cg5_types(definition(campaign).get("time_frames") or {})
    if entry.side != SIDE or entry.unit_type not in types or entry.origin_rg:
        raise StateError(_("Only the 9 July AM group's AFVs join the reserve (CG-5.2)."))
    if not 1 <= quantity <= entry.quantity:
        raise StateError(_("Choose how many of the line's AFVs."))
    if entry.version != version:
        raise StaleEdit
    changes: list[history.Change] = []
    before = history.snapshot(entry)
    if quantity == entry.quantity:
        changes.append((entry, before, None))
        entry.delete()
    else:
        save_versioned(entry, version, {"quantity": entry.quantity - quantity})
        changes.append((entry, before, history.snapshot(entry)))
    made = _new_vehicles(campaign, [(entry.unit_type, quantity)])
    changes += [(vehicle, None, history.snapshot(vehicle)) for vehicle in made]
    _record(
        campaign,
        by,
        "reserve.joined",
        changes,
        index=campaign.period_index,
        units=[f"#{v.serial} {v.vehicle_type}" for v in made],
    )
    return made


def _new_vehicles(campaign: Campaign, joining: list[tuple[str, int]]) -> list[ArmorReserveVehicle]:
    """New reserve rows (CG-5.2's joiners), numbered after the reserve's last AFV."""
    top = (
        ArmorReserveVehicle.objects.filter(campaign=campaign).aggregate(top=Max("serial"))["top"]
        or 0
    )
    made = []
    for vehicle_type, count in joining:
        for _n in range(count):
            top += 1
            made.append(
                ArmorReserveVehicle.objects.create(
                    campaign=campaign, serial=top, vehicle_type=vehicle_type, origin=rules.CG5
                )
            )
    return made


def join_left_off_map(
    campaign: Campaign, index: int, *, by: AbstractBaseUser
) -> CampaignEvent | None:
    """CG-5.2, automatically as time frame ``index`` opens: the 9 July AM group's AFVs still
    awaiting entry (never moved out of the "time-frame reinforcements awaiting entry" box) were
    left off-map, and join the reserve; a platoon's CG9 armor leader rides into it in his
    platoon's first AFV when all three join. Call inside the transaction that opens the RePh;
    one German-side event (undoable by the referee), None when nothing joins."""
    if not has_reserve(campaign):
        return None
    frames = definition(campaign).get("time_frames") or {}
    period = rules.cg5_period(frames)
    keys = [p.key for p in campaign.cg.periods]
    if period not in keys or keys.index(period) >= index:
        return None
    lines = list(
        OrbatEntry.objects.select_for_update(of=("self",))
        .filter(
            campaign=campaign,
            side=SIDE,
            box=OrbatBox.ARRIVING,
            status_note=period,
            origin_rg="",
            unit_type__in=sorted(rules.cg5_types(frames)),
        )
        .order_by("pk")
    )
    if not lines:
        return None
    from refit.reserve.leaders import results  # leaders reads this module

    changes: list[history.Change] = []
    joined: dict[str, int] = {}
    for line in lines:
        joined[line.unit_type] = joined.get(line.unit_type, 0) + line.quantity
        changes.append((line, history.snapshot(line), None))
        line.delete()
    made = _new_vehicles(campaign, list(joined.items()))
    by_type: dict[str, list[ArmorReserveVehicle]] = {}
    for vehicle in made:
        by_type.setdefault(vehicle.vehicle_type, []).append(vehicle)
    leader_lines = list(
        OrbatEntry.objects.select_for_update(of=("self",)).filter(
            campaign=campaign, side=SIDE, box=OrbatBox.ARRIVING, status_note=period, kind="leader"
        )
    )
    for vehicle_type, n, rating in rules.leader_carriers(results(campaign, SIDE), joined, period):
        line = next((ln for ln in leader_lines if ln.unit_type == f"{rating} armor leader"), None)
        if line is None:
            continue  # he already left the box: he stays in the OB
        leader_lines.remove(line)
        changes.append((line, history.snapshot(line), None))
        line.delete()
        by_type[vehicle_type][n].armor_leader = rating
        by_type[vehicle_type][n].save(update_fields=["armor_leader"])
    changes += [(vehicle, None, history.snapshot(vehicle)) for vehicle in made]
    return _record(
        campaign,
        by,
        "reserve.joined",
        changes,
        index=index,
        units=[f"#{v.serial} {v.vehicle_type}" for v in made],
    )


def auto_repair(campaign: Campaign, index: int, *, by: AbstractBaseUser) -> CampaignEvent | None:
    """11.6132: every reserve AFV's malfunctioned weapons are repaired (call inside the
    transaction that opens the RePh); the event, or None when none needed it."""
    if not has_reserve(campaign):
        return None
    changes: list[history.Change] = []
    for vehicle in ArmorReserveVehicle.objects.select_for_update(of=("self",)).filter(
        campaign=campaign, state=rules.IN_RESERVE, repair=rules.MALFUNCTIONED
    ):
        before = history.snapshot(vehicle)
        save_versioned(vehicle, vehicle.version, {"repair": rules.after_11_6132(vehicle.repair)})
        changes.append((vehicle, before, history.snapshot(vehicle)))
    if not changes:
        return None
    return _record(
        campaign,
        by,
        "reserve.repaired",
        changes,
        index=index,
        units=[f"#{vehicle.serial} {vehicle.vehicle_type}" for vehicle, _b, _a in changes],
    )
