"""Where a roll's result lands: the ledger, the CG Roster row, the calendar, the scenario.

Each entry names a dice table whose result the app books itself, how often it is rolled (once
per side, or once for the whole RePh), which side rolls it when only one does, what must be
true before rolling, and the booking. The tables whose result lands on order-of-battle lines
(wounded leaders, battle hardening, repair, AFV withdrawal, fortification removal) register
themselves from refit.walker.ob_results. A table without an entry is rolled and logged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.games.weather import booked, ec_types_of, label_of, types_of
from campaigns.models import (
    Campaign,
    CampaignDay,
    DiceRoll,
    LedgerEntry,
    LedgerKind,
    RefitPhase,
    Scenario,
    SideDay,
)
from campaigns.records import services as records
from campaigns.roster import services as roster
from campaigns.said import said
from refit.rules.carry import san_at_new_day
from refit.rules.results import changed_within
from refit.walker.facts import month_of


def table_data(campaign: Campaign, table_id: str) -> Mapping[str, Any]:
    """A dice table's raw data (its modifiers, result limits, notes) from the module files."""
    for raw in campaign.game.files.get("tables", {}).get("dice_tables", []):
        if raw["id"] == table_id:
            return raw
    raise KeyError(table_id)


class EffectError(ValueError):
    """The roll cannot be made (yet); the message says why, for the user."""


Check = Callable[[Campaign, RefitPhase, str, Mapping[str, Any]], None]


@dataclass(frozen=True)
class Booking:
    """A roll just made (or made earlier and booked again), with who books it and the answers
    the player gave to the table's questions."""

    campaign: Campaign
    reph: RefitPhase
    side: str
    roll: DiceRoll
    by: AbstractBaseUser
    answers: Mapping[str, Any]
    line: int | None = None  # the OB line the roll is for (refit.walker.ob_results)

    def unpack(self) -> tuple[Campaign, RefitPhase, str, DiceRoll, AbstractBaseUser]:
        return self.campaign, self.reph, self.side, self.roll, self.by


Book = Callable[[Booking], str]


@dataclass(frozen=True)
class Effect:
    button: Promise  # the roll button's words
    book: Book  # books the result; returns what was booked, as a sentence
    once: str = "side"  # "side": once per side per RePh; "reph": once for both sides;
    # "line": once per OB line (refit.walker.ob_results checks it when booking)
    roller: str = ""  # the only side that rolls it ("" = each side for itself)
    check: Check | None = None


def _side_day(campaign: Campaign, reph: RefitPhase, side: str) -> SideDay:
    return SideDay.objects.select_for_update(of=("self",)).get(
        campaign=campaign, index=reph.index, side=side
    )


def _calendar_day(campaign: Campaign, reph: RefitPhase) -> CampaignDay:
    return CampaignDay.objects.select_for_update(of=("self",)).get(
        campaign=campaign, index=reph.index
    )


# --- CPP replenishment (RF 11.616, SaP 11.616) -------------------------------------------


def _check_cpp(campaign: Campaign, reph: RefitPhase, side: str, facts: Mapping[str, Any]) -> None:
    if reph.index == 0:
        raise EffectError(_("There is no CPP replenishment on the first CG day (11.5)."))
    map_group = facts.get("map_group") or ""  # RF CG I: one DR per map group (11.58)
    booked = LedgerEntry.objects.filter(
        campaign=campaign,
        side=side,
        ledger=LedgerEntry.CPP,
        index=reph.index,
        kind=LedgerKind.REPLENISHMENT,
        map_group=map_group,
    )
    if booked.exists():
        if map_group:
            raise EffectError(
                _(
                    "The CPP replenishment of this day for %(group)s is already booked; a "
                    "referee voids the roll and the entry is undone before rolling again."
                )
                % {"group": map_group}
            )
        raise EffectError(
            _(
                "The CPP replenishment of this day is already booked; a referee voids the roll "
                "and the entry is undone before rolling again."
            )
        )


def _book_cpp(booking: Booking) -> str:
    campaign, reph, side, roll, by = booking.unpack()
    cpp = int(roll.result["cpp"])
    map_group = str(roll.result.get("map_group") or "")
    roster.add_ledger_entry(
        campaign,
        by=by,
        side=side,
        ledger=LedgerEntry.CPP,
        index=reph.index,
        kind=LedgerKind.REPLENISHMENT,
        amount=cpp,
        note=said(
            lambda: (
                _("CPP replenishment DR %(final)s, %(group)s")
                % {"final": roll.final, "group": map_group}
                if map_group
                else _("CPP replenishment DR %(final)s") % {"final": roll.final}
            )
        ),
        map_group=map_group,
    )
    if map_group:
        return said(
            lambda: (
                _("%(cpp)s CPP booked as this day's replenishment for %(group)s.")
                % {"cpp": cpp, "group": map_group}
            )
        )
    return said(lambda: _("%(cpp)s CPP booked as this day's replenishment.") % {"cpp": cpp})


# --- ELR and SAN (RF 11.617, 11.6122; SaP 11.612) ----------------------------------------


def _check_elr(campaign: Campaign, reph: RefitPhase, side: str, facts: Mapping[str, Any]) -> None:
    if facts.get("elr") is None:
        raise EffectError(_("This CG day's ELR is not on the roster yet; enter it first."))


def _book_elr(booking: Booking) -> str:
    campaign, reph, side, roll, by = booking.unpack()
    side_day = _side_day(campaign, reph, side)
    limits = table_data(campaign, roll.table_id).get("result_limits") or {}
    new = changed_within(
        side_day.elr, roll.result["elr_change"], limits.get("elr_min", 0), limits.get("elr_max")
    )
    old = side_day.elr
    roster.update_side_day(campaign, side_day, by=by, version=side_day.version, elr=new)
    return said(lambda: _("ELR %(old)s → %(new)s on the roster.") % {"old": old, "new": new})


def _check_san(campaign: Campaign, reph: RefitPhase, side: str, facts: Mapping[str, Any]) -> None:
    san = facts.get("san")
    if san is None:
        raise EffectError(_("This CG day's SAN is not on the roster yet; enter it first."))
    if san_at_new_day(san) != san:
        # A new day's SAN carried from a 0 is already 2 (refit.walker.carry); one typed as 0 is
        # not changed behind the player's back.
        raise EffectError(
            _(
                "A SAN of %(san)s rises to %(raised)s without a roll (11.6122): write "
                "%(raised)s on the roster."
            )
            % {"san": san, "raised": san_at_new_day(san)}
        )
    if san < 4:
        raise EffectError(
            _("Only a side whose SAN is 4 or more rolls (SAN now %(san)s): nothing to roll.")
            % {"san": san}
        )


def _book_san(booking: Booking) -> str:
    campaign, reph, side, roll, by = booking.unpack()
    side_day = _side_day(campaign, reph, side)
    old = side_day.san
    new = changed_within(old, roll.result["san_change"], 0, None)
    if new == old:
        return said(lambda: _("SAN unchanged (%(san)s).") % {"san": old})
    roster.update_side_day(campaign, side_day, by=by, version=side_day.version, san=new)
    return said(lambda: _("SAN %(old)s → %(new)s on the roster.") % {"old": old, "new": new})


# --- weather and EC (RF 11.618) ------------------------------------------------------------

DECEMBER_EC = "wet"  # 11.618: in December the EC is always Wet, without a roll


def _once_per_day(field: str) -> Check:
    def check(campaign: Campaign, reph: RefitPhase, side: str, facts: Mapping[str, Any]) -> None:
        day = CampaignDay.objects.get(campaign=campaign, index=reph.index)
        value = getattr(day, field)
        if value.strip():
            named = types_of if field == "weather" else ec_types_of
            value = label_of(named(campaign.game.files), value, get_language())
            raise EffectError(
                _("The calendar already has this day's %(what)s (%(value)s).")
                % {"what": _("weather") if field == "weather" else _("EC"), "value": value}
            )
        if field == "ec" and facts.get("month") == 12:
            raise EffectError(_("In December the EC is always Wet (11.618): nothing to roll."))

    return check


def _book_weather(booking: Booking) -> str:
    """The day's weather as a key of the game's weathers (weather.json), with its flags there:
    in December the table's result becomes December's type (Ground Snow; Mist as Overcast with
    Falling Snow; Falling Snow possible after Overcast) and the EC is Wet."""
    campaign, reph, side, roll, by = booking.unpack()
    day = _calendar_day(campaign, reph)
    types = types_of(campaign.game.files)
    month = month_of(campaign, reph.index)
    rolled = str(roll.result["weather"])
    key = booked(types, rolled, month)
    if key is None:  # the data names no weather for this result: never invent one
        raise EffectError(
            _("The game data names no weather for the result “%(result)s”.") % {"result": rolled}
        )
    fields = {"weather": key}
    if month == 12:
        fields["ec"] = DECEMBER_EC
    records.update_day(campaign, day, by=by, version=day.version, **fields)
    return said(
        lambda: (
            _("Weather on the calendar: %(weather)s.")
            % {"weather": label_of(types, key, get_language())}
        )
    )


def _book_ec(booking: Booking) -> str:
    """The day's EC as a key of the game's ECs (weather.json ``ec_types``)."""
    campaign, reph, side, roll, by = booking.unpack()
    day = _calendar_day(campaign, reph)
    ec = str(roll.result["ec"])
    records.update_day(campaign, day, by=by, version=day.version, ec=ec)
    return said(
        lambda: (
            _("EC on the calendar: %(ec)s.")
            % {"ec": label_of(ec_types_of(campaign.game.files), ec, get_language())}
        )
    )


# --- recon (RF 11.622, SaP 11.620): paid in CPP, the Locations kept with the payment ---------


def _book_recon(booking: Booking) -> str:
    campaign, reph, side, roll, by = booking.unpack()
    cost = 2 if booking.answers.get("two-cpp") else 1
    roster.add_ledger_entry(
        campaign,
        by=by,
        side=side,
        ledger=LedgerEntry.CPP,
        index=reph.index,
        kind=LedgerKind.RECON,
        amount=-cost,
        note=said(
            lambda: (
                _("Recon dr %(final)s: %(locations)s Locations")
                % {"final": roll.final, "locations": roll.result["locations"]}
            )
        ),
        locations=int(roll.result["locations"]),
    )
    locations = roll.result["locations"]
    return said(
        lambda: (
            _("%(cost)s CPP paid for recon; %(locations)s Locations may be reconnoitred.")
            % {"cost": cost, "locations": locations}
        )
    )


# --- Dual Attack set-up order and first player (RF 11.6233, 11.625) -----------------------


def _scenario_of_day(campaign: Campaign, reph: RefitPhase) -> Scenario | None:
    return (
        Scenario.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, index=reph.index, sequence=reph.sequence)
        .first()
    )


def _check_dual_attack(
    campaign: Campaign, reph: RefitPhase, side: str, facts: Mapping[str, Any]
) -> None:
    scenario = Scenario.objects.filter(
        campaign=campaign, index=reph.index, sequence=reph.sequence
    ).first()
    if scenario is None or scenario.scenario_type != "dual_attack":
        raise EffectError(_("Only a Dual Attack scenario rolls this."))


def _book_scenario_field(field: str) -> Book:
    def book(booking: Booking) -> str:
        campaign, reph, side, roll, by = booking.unpack()
        scenario = _scenario_of_day(campaign, reph)
        chosen = roll.result[field]
        records.save_scenario(
            campaign, by=by, scenario=scenario, version=scenario.version, **{field: chosen}
        )
        name = campaign.side(chosen).name
        return said(
            lambda: (
                (
                    _("%(side)s sets up first.")
                    if field == "sets_up_first"
                    else _("%(side)s moves first.")
                )
                % {"side": name.in_language(get_language())}
            )
        )

    return book


EFFECTS: dict[str, Effect] = {
    "rf.cpp-replenishment": Effect(
        gettext_lazy("Roll and book the CPP"), _book_cpp, check=_check_cpp
    ),
    "sap.cpp-replenishment": Effect(
        gettext_lazy("Roll and book the CPP"), _book_cpp, check=_check_cpp
    ),
    "rf.elr-change": Effect(gettext_lazy("Roll and change the ELR"), _book_elr, check=_check_elr),
    "rf.san-adjustment": Effect(
        gettext_lazy("Roll and adjust the SAN"), _book_san, check=_check_san
    ),
    "sap.san-adjustment": Effect(
        gettext_lazy("Roll and adjust the SAN"), _book_san, check=_check_san
    ),
    "rf.weather": Effect(
        gettext_lazy("Roll and record the weather"),
        _book_weather,
        once="reph",
        roller="soviet",
        check=_once_per_day("weather"),
    ),
    "rf.ec": Effect(
        gettext_lazy("Roll and record the EC"),
        _book_ec,
        once="reph",
        roller="soviet",
        check=_once_per_day("ec"),
    ),
    "rf.recon": Effect(gettext_lazy("Pay the CPP and roll"), _book_recon),
    "sap.recon": Effect(gettext_lazy("Pay the CPP and roll"), _book_recon),
    "rf.dual-attack-setup-order": Effect(
        gettext_lazy("Roll who sets up first"),
        _book_scenario_field("sets_up_first"),
        once="reph",
        check=_check_dual_attack,
    ),
    "rf.dual-attack-first-player": Effect(
        gettext_lazy("Roll who moves first"),
        _book_scenario_field("moves_first"),
        once="reph",
        check=_check_dual_attack,
    ),
}
