"""SaP CG9's armor-leader rolls before the CG, one action per side (issue 16).

The platoons come from ``refit.rules.armor_leaders`` (German: the reserve and the 9 July AM AFVs;
Russian: the Stavka AFVs and the dug-in T-34 M41s). Each platoon's DR goes through the dice
service (``sap.armor-leader``, secret to the side, step "CG9"). The results are stored as data on
the side's first roster row (``SideDay.arrival_plan["armor_leaders"]``: source, type, n, leader;
the roll itself is in the dice log, step "CG9", its note naming the platoon — no database id in
the row, so the export carries it as it is); a reserve platoon's leader goes onto its first
AFV (the AFVs of a type in number order, 3 per platoon); the others join the OB with their
time frame's arrivals (``refit.walker.arrivals``). Only while the pre-CG Refit Phase is open,
once per side; one side-scoped event (undoable; the rolls stay in the dice log).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.dice import services as dice
from campaigns.games.registry import localized
from campaigns.games.rules import Drm
from campaigns.history import services as history
from campaigns.models import Campaign, RefitPhase, SideDay
from campaigns.state import StateError, save_versioned
from refit.models import ArmorReserveVehicle
from refit.reserve.services import SAP, definition
from refit.rules import armor_leaders as rules

TABLE = "sap.armor-leader"
KEY = "armor_leaders"


def results(campaign: Campaign, side: str) -> list[dict[str, Any]]:
    row = SideDay.objects.filter(campaign=campaign, index=0, side=side).first()
    return list(((row.arrival_plan or {}) if row else {}).get(KEY) or [])


def may_roll(campaign: Campaign) -> bool:
    """Before the CG: the pre-CG Refit Phase is open."""
    return (
        campaign.module == SAP
        and RefitPhase.objects.filter(
            campaign=campaign, kind="pre_cg", finished_at__isnull=True
        ).exists()
    )


def platoons(campaign: Campaign, side: str) -> list[rules.Platoon]:
    return rules.to_roll(definition(campaign), side) if campaign.module == SAP else []


@transaction.atomic
def roll_all(campaign: Campaign, side: str, *, by: AbstractBaseUser) -> list[dict[str, Any]]:
    """Roll CG9 for every platoon of the side, store and attach the results."""
    if not may_roll(campaign):
        raise StateError(_("The armor leaders are rolled before the CG starts (CG9)."))
    row = SideDay.objects.select_for_update(of=("self",)).get(campaign=campaign, index=0, side=side)
    if (row.arrival_plan or {}).get(KEY):
        return list(row.arrival_plan[KEY])  # a second press rolls nothing
    table = campaign.game.dice_table(TABLE)
    data = next(t for t in campaign.game.files["tables"]["dice_tables"] if t["id"] == TABLE)
    words = {m["id"]: m for m in data.get("modifiers", [])}
    made = []
    for platoon in platoons(campaign, side):
        drms = [
            Drm(words[i]["value"], localized(words[i]["when"], get_language()))
            for i in rules.drm_ids(side, platoon)
        ]
        roll = dice.roll(
            campaign,
            by=by,
            kind="DR",
            step="CG9",
            index=0,
            side=side,
            visibility=side,
            modifiers=drms,
            table=table,
            note=f"{platoon.source} {platoon.vehicle_type} #{platoon.n}",
        )
        made.append(
            {
                "source": platoon.source,
                "type": platoon.vehicle_type,
                "n": platoon.n,
                "leader": roll.result.get("leader"),
            }
        )
    changes: list[history.Change] = []
    before = history.snapshot(row)
    save_versioned(row, row.version, {"arrival_plan": {**(row.arrival_plan or {}), KEY: made}})
    changes.append((row, before, history.snapshot(row)))
    if side == "german":
        changes += _attach_to_reserve(campaign, made)
    numbered = with_serials(campaign, made)
    history.record_change(
        campaign,
        by,
        "armor_leaders.rolled",
        visibility=side,
        changes=changes,
        side=side,
        index=0,
        units=[f"{platoon_words(r)}: {r['leader'] or '—'}" for r in numbered],
    )
    return made


def _by_type(vehicles: Any) -> dict[str, list[ArmorReserveVehicle]]:
    by_type: dict[str, list[ArmorReserveVehicle]] = {}
    for vehicle in vehicles.order_by("serial"):
        by_type.setdefault(vehicle.vehicle_type, []).append(vehicle)
    return by_type


def _carrier(by_type: dict[str, list[ArmorReserveVehicle]], result: dict[str, Any]) -> Any:
    """The reserve AFV a reserve platoon's leader rides in: its type's first AFV of the
    platoon, in number order (None for another source's platoon, or beyond the reserve)."""
    vehicles = by_type.get(result["type"], [])
    first = (result["n"] - 1) * rules.PLATOON
    if result["source"] != "reserve" or first >= len(vehicles):
        return None
    return vehicles[first]


def with_serials(campaign: Campaign, made: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results, a reserve platoon's with ``serial``: the number of the reserve AFV its
    leader rides in, as the Armor Reserve shows it ("#7 StuG III G"), the one numbering."""
    by_type = _by_type(ArmorReserveVehicle.objects.filter(campaign=campaign))
    rows = []
    for result in made:
        carrier = _carrier(by_type, result)
        rows.append({**result, "serial": carrier.serial if carrier is not None else None})
    return rows


def _attach_to_reserve(campaign: Campaign, made: list[dict[str, Any]]) -> list[history.Change]:
    by_type = _by_type(
        ArmorReserveVehicle.objects.select_for_update(of=("self",)).filter(campaign=campaign)
    )
    changes: list[history.Change] = []
    for result in made:
        vehicle = _carrier(by_type, result)
        if vehicle is None or not result["leader"]:
            continue
        before = history.snapshot(vehicle)
        save_versioned(vehicle, vehicle.version, {"armor_leader": result["leader"]})
        changes.append((vehicle, before, history.snapshot(vehicle)))
    return changes


def platoon_words(result: dict[str, Any]) -> str:
    """A platoon as the history names it: a reserve one by its leader's AFV ("#7 StuG III G",
    the reserve's numbering), another by its type and number in its time frame."""
    if result.get("serial") is not None:
        return f"#{result['serial']} {result['type']}"
    return f"{result['type']} #{result['n']}"


def leaders_arriving(campaign: Campaign, side: str, period: str) -> list[str]:
    """The armor leaders rolled for the platoons that arrive in ``period`` (their ratings)."""
    return [r["leader"] for r in results(campaign, side) if r["source"] == period and r["leader"]]
