"""The shared core of every change to a campaign's state, and the state a campaign starts with.

Each feature writes its own changes next to itself (``campaigns.roster.services``: side days and
the CPP/FPP ledger; ``campaigns.records.services``: calendar days, CVP and scenarios;
``campaigns.orbat.services``: OB lines and RG numbers; the short games and the Refit Phase
likewise). What they all share lives here, so that every change behaves alike:

- ``StateError`` / ``StaleEdit``: a change refused, with a message for the user;
- ``save_versioned``: editable rows carry a version, and a save based on a stale version is
  refused (nothing of the later save is lost);
- ``edit_row``: a versioned edit of one row recorded as a history event with its before/after
  values, so that it can be shown and undone (campaigns.history.services.undo);
- ``check_day`` / ``check_side``: the calendar day and the side a change names exist;
- ``initialize``: the calendar (with the weather, EC and wind the SSRs fix:
  ``campaigns.records.conditions``), side days, ledgers, RGs, OB lines and the initial OB's
  Fortified Building Locations a new campaign starts with, from its campaign game's data
  (``initial_ob``, ``known_hist_drm``, ``vehicles_of``, ``fortified_building_item``).

Each change runs in one transaction with its history event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import F, Model
from django.utils.translation import gettext as _

from campaigns.games.registry import localized
from campaigns.games.weather import ec_types_of, types_of
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignDay,
    FortificationPurchase,
    LedgerEntry,
    LedgerKind,
    OrbatBox,
    OrbatEntry,
    RefitPhase,
    ReinforcementGroup,
    SideDay,
)
from campaigns.orbat.entry import UnitLine, parse_entry, vehicle_and_gun_names
from campaigns.records.conditions import initial_conditions


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


def _definition(campaign: Campaign) -> dict[str, Any]:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return definitions.get(campaign.campaign_game) or {}


def fixed_conditions(campaign: Campaign) -> dict[int, dict[str, str]]:
    """Calendar index → the weather, EC and wind the campaign game's SSRs fix for that day or
    time frame (as the calendar stores them)."""
    return initial_conditions(
        _definition(campaign),
        [period.key for period in campaign.cg.periods],
        weather_types=types_of(campaign.game.files),
        ec_types=ec_types_of(campaign.game.files),
    )


def split_map_groups(campaign: Campaign) -> tuple[str, ...]:
    """The map groups of a campaign game played on more than one (RF CG I, 11.58), else ():
    where a value is kept, or a roll made, per map group."""
    groups = tuple(_definition(campaign).get("map_groups") or ())
    return groups if len(groups) > 1 else ()


def initial_ob(campaign: Campaign) -> dict[str, Any]:
    return _definition(campaign).get("initial_ob") or {}


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


def known_hist_drms(campaign: Campaign, period_key: str, side: str) -> dict[str, int]:
    """RF CG I (11.58): the values the data knows for the day and side, per map group (the
    chart's RB CG and RO CG columns); empty for a campaign game on one map group."""
    groups = split_map_groups(campaign)
    chart = campaign.game.files.get("historical_drm")
    if not groups or not chart:
        return {}
    day = chart.get("days", {}).get(period_key, {})
    values = {group: day.get(group, {}).get(side, {}).get("value") for group in groups}
    return {group: int(value) for group, value in values.items() if value is not None}


# The initial OB data's kinds of lines that are fortification counters.
DATA_FORTIFICATION_KINDS = ("fortification", "fanatic_strongpoint")


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


BUILDING_LOCATION = ("building Location", "building_location")


def fortified_building_item(campaign: Campaign) -> dict[str, Any] | None:
    """The Fortification Purchase Table's Fortified Building Location (priced per building
    Location: RF ``fortified-building``, SaP ``fortified_building_location``)."""
    kinds = ("purchase_costs", "fortification_costs")
    for chart in campaign.game.files.get("tables", {}).get("charts", []):
        if chart.get("kind") in kinds:
            for item in chart.get("items", []):
                # ``per`` is a printed text ({"en", "ja"}); its English names the unit priced.
                if localized(item.get("per"), "en") in BUILDING_LOCATION:
                    return dict(item)
    return None


def initial_fortified_buildings(campaign: Campaign, side: str) -> int:
    """The Fortified Building Locations the side's initial OB gives (RB CG I Soviet 5, RB CG II
    Soviet 20 and German 5, SaP Russian 8 …); 0 when none."""
    return int(initial_ob(campaign).get(side, {}).get("fortified_building_locations") or 0)


# What other apps add to a new campaign's state (refit: SaP's German Armor Reserve), registered
# when they are ready; each gets the campaign, its CG definition and the user.
NEW_CAMPAIGN_HOOKS: list[Callable[[Campaign, dict[str, Any], AbstractBaseUser], None]] = []


def initialize(campaign: Campaign, user: AbstractBaseUser) -> None:
    """The state a new campaign starts with, from its campaign-game definition."""
    _initialize(campaign, user)
    for hook in NEW_CAMPAIGN_HOOKS:
        hook(campaign, _definition(campaign), user)


def _initialize(campaign: Campaign, user: AbstractBaseUser) -> None:
    periods = campaign.cg.periods
    # The weather, EC and wind the CG's SSRs fix (RB CG I SSR I.1: Clear, Moderate, no wind).
    fixed = fixed_conditions(campaign)
    CampaignDay.objects.bulk_create(
        CampaignDay(campaign=campaign, index=i, **fixed.get(i, {})) for i in range(len(periods))
    )
    ob = initial_ob(campaign)
    split = bool(split_map_groups(campaign))
    side_days = []
    for index, period in enumerate(periods):
        for side in campaign.game.side_keys:
            first = ob.get(side, {}) if index == 0 else {}
            side_days.append(
                SideDay(
                    campaign=campaign,
                    index=index,
                    side=side,
                    # RF CG I keeps a value per map group (hist_drms), none for the side.
                    hist_drm=None if split else known_hist_drm(campaign, period.key, side),
                    hist_drms=known_hist_drms(campaign, period.key, side),
                    elr=first.get("elr"),
                    san=first.get("san"),
                    # The initial ELR and SAN are printed in the rules: no secret.
                    elr_san_revealed=index == 0 and bool(first),
                )
            )
    SideDay.objects.bulk_create(side_days)
    if "refit_steps" in campaign.game.files:
        from campaigns.games.step_engine import first_position

        first = first_position(campaign.module)
        from campaigns.dice.services import commit

        commit(
            campaign,
            reph=RefitPhase.objects.create(campaign=campaign, kind=first.kind, index=first.index),
        )
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
                    # RF CG I: the map group of its OB (first set-up there, 11.58 CG10); its
                    # strength roll takes that group's Historical DRM.
                    details={"map_group": entry["map_group"]} if entry.get("map_group") else {},
                )
        for unit in side_ob.get("units", []):
            if unit.get("kind") == "armor_reserve_draw":
                # SaP CG7.21: AFVs drawn from the German Armor Reserve are its per-vehicle rows
                # (refit.reserve), put into the OB as they enter play — not a text line.
                continue
            text = unit.get("text", "")
            try:
                (line,) = parse_entry(text, vehicles)
            except ValueError:
                # Data-given items that are not counters of a known type (e.g. "Hidden Mine
                # Belt (SSR CG17) [only …]") are kept as written.
                line = UnitLine(1, text, "other")
            box = OrbatBox.FORTIFICATIONS if line.kind == "fortification" else OrbatBox.RETAINED
            if unit.get("kind") in DATA_FORTIFICATION_KINDS:
                # The data says what the line is (SaP CG16 Fanatic Strongpoints, CG17 Mine
                # Belts): a fortification (only ever eliminated), whatever its words read as —
                # the initial OB's own texts name it among the "vehicles and guns". It stays
                # in the box it always had (in play, its loss recorded at a scenario's end).
                line = UnitLine(line.quantity, line.unit_type, "fortification", line.origin_rg)
            OrbatEntry.objects.create(
                campaign=campaign,
                side=side,
                box=box,
                unit_type=line.unit_type[:60],
                kind=line.kind,
                quantity=unit.get("count") or line.quantity,
            )
        buildings = initial_fortified_buildings(campaign, side)
        building = fortified_building_item(campaign)
        if buildings and building is not None:
            # Given, not bought (no FPP): on the Fortification Purchase Record, to be set up and
            # its Locations written there, and in the divider's fortification box.
            FortificationPurchase.objects.create(
                campaign=campaign,
                side=side,
                index=0,
                item=building["id"],
                details={"initial": True},
                quantity=buildings,
                fpp=0,
                created_by=user,
            )
            OrbatEntry.objects.create(
                campaign=campaign,
                side=side,
                box=OrbatBox.FORTIFICATIONS,
                unit_type=str((building.get("name") or {}).get("en", building["id"]))[:60],
                kind="fortification",
                quantity=buildings,
            )


# --- versioned edits -----------------------------------------------------------------------


def save_versioned(obj: Model, version: int, fields: dict[str, Any]) -> None:
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


def check_day(campaign: Campaign, index: int) -> None:
    if not 0 <= index < len(campaign.cg.periods):
        raise StateError(_("That day is not in this campaign's calendar."))


def check_side(campaign: Campaign, side: str) -> None:
    if side not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))


def edit_row(
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
    save_versioned(obj, version, fields)
    history.record_change(
        campaign,
        by,
        action,
        visibility=visibility,
        changes=[(obj, before, history.snapshot(obj))],
        **data,
    )
