"""Rolling what an RG turns out to be (RF 11.620, SaP 11.618): one button per RG.

Every roll goes through campaigns.dice.services (secret: the side and the referee see it), with the
DRMs the
rules give worked out from the campaign state and each shown with its reason. The results are
stored on the RG (``strength``, ``details["received"]``) and the units, SW and leaders received
go into the RG's box of the order of battle, all in one transaction.

An RG is rolled for once: a second press finds ``details["received"]`` and changes nothing. The
rolls are made in the strength step of the RePh the RG was bought in (initial-OB RGs: the first
RePh), after the side has marked its purchases done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.dice import services as dice
from campaigns.games import map_groups as split_rules
from campaigns.games import step_engine
from campaigns.games.registry import localized
from campaigns.games.rules import Drm
from campaigns.history import services as history
from campaigns.models import Campaign, RefitPhase, ReinforcementGroup, SideDay, StepProgress
from campaigns.orbat import rg_status
from campaigns.orbat import services as orbat
from campaigns.records.balance import scenario_balance_drm
from refit.purchases.reading import PURCHASE_STEP, DayRg, cg_definition, map_groups
from refit.rules import receipt as rules
from refit.rules.purchase_costs import DUG_IN, group_by_id
from refit.walker import services as walker
from refit.walker import strictness

STRENGTH_STEP = {"red_factories": "11.620", "slaughter_at_ponyri": "11.618"}


class ReceiptError(ValueError):
    """The RG cannot be rolled for (now); the message says why."""


class Stopped(ReceiptError):
    """``receive_all`` stopped at an RG it could not roll for; ``done``: the RGs rolled
    before it, which stay rolled."""

    def __init__(self, message: str, done: list[tuple[ReinforcementGroup, dict[str, Any]]]):
        super().__init__(message)
        self.done = done


def group_of(campaign: Campaign, rg: ReinforcementGroup | DayRg) -> dict[str, Any]:
    return dict(group_by_id(campaign.game.files["rg_charts"], rg.side, rg.rg_id) or {})


def rolls_of(campaign: Campaign, rg: ReinforcementGroup | DayRg) -> list[str]:
    return rules.rolls_for(campaign.module, rg.side, group_of(campaign, rg))


def has_something_to_receive(campaign: Campaign, rg: ReinforcementGroup | DayRg) -> bool:
    """An RG with rolls to make, or (SaP) fixed units to receive (its side's and id's chart
    group decides: the same for every RG of one id)."""
    group = group_of(campaign, rg)
    return bool(rolls_of(campaign, rg)) or (
        campaign.module == rules.SAP and bool(group.get("components"))
    )


def received(rg: ReinforcementGroup) -> bool:
    return "received" in rg.details


def receipt_reph(campaign: Campaign, rg: ReinforcementGroup) -> RefitPhase:
    """The open RePh, if the RG's rolls belong to it now."""
    reph = walker.open_reph(campaign)
    rule = STRENGTH_STEP[campaign.module]
    if reph is None or not any(step.rule == rule for step in walker.steps(campaign, reph)):
        raise ReceiptError(_("RG strength is rolled in step %(rule)s.") % {"rule": rule})
    if rg.index != reph.index:
        raise ReceiptError(_("This RG's rolls belonged to an earlier Refit Phase."))
    marks = set(StepProgress.objects.filter(reph=reph, side=rg.side).values_list("rule", flat=True))
    if PURCHASE_STEP[campaign.module] not in marks:
        raise ReceiptError(
            _("Finish the purchases (%(rule)s) first: strength is rolled for what was bought.")
            % {"rule": PURCHASE_STEP[campaign.module]}
        )
    if rule in marks:
        raise ReceiptError(_("The side has marked %(rule)s done.") % {"rule": rule})
    return reph


class _Roller:
    """Rolls for one RG: logs each roll with the RG's label and the DRMs' reasons."""

    def __init__(
        self, campaign: Campaign, rg: ReinforcementGroup, reph: RefitPhase, by: AbstractBaseUser
    ):
        self.campaign, self.rg, self.reph, self.by = campaign, rg, reph, by
        self.step = STRENGTH_STEP[campaign.module]
        self.ids: list[int] = []
        self.tables = {t["id"]: t for t in campaign.game.files["tables"]["dice_tables"]}

    def reason(self, table_id: str, drm: Drm) -> str:
        fixed = {
            "historical": _("Historical DRM (11.6161)"),
            "balance": _("CG Scenario Balance (11.32)"),
        }
        if drm.id in fixed:
            return str(fixed[drm.id])
        for modifier in self.tables.get(table_id, {}).get("modifiers", []):
            if modifier["id"] == drm.id:
                return localized(modifier["when"], get_language())
        return drm.id

    def map_groups(self) -> tuple[str, ...]:
        """The map groups the RG's rolls are for: the one it was bought for (RF CG I), else the
        campaign game's one; none when unknown (a result printed per group keeps every one)."""
        if self.rg.details.get("map_group"):
            return (self.rg.details["map_group"],)
        groups = map_groups(self.campaign)
        return groups if len(groups) == 1 else ()

    def roll(self, table_id: str, drms: Sequence[Drm] = (), what: str = "") -> Any:
        table = self.campaign.game.dice_table(table_id)
        made = dice.roll(
            self.campaign,
            by=self.by,
            kind="DR" if table.roll in ("DR", "2dr") else "dr",
            step=self.step,
            index=self.reph.index,
            side=self.rg.side,
            visibility=self.rg.side,
            # Lazy: the dice service logs the reason in every language.
            modifiers=[Drm(d.value, lazy(self.reason, str)(table_id, d)) for d in drms],
            table=table,
            note=f"{self.rg.label} {what}".strip(),
            map_groups=self.map_groups(),
        )
        self.ids.append(made.pk)
        return made


def _strength_drms(campaign: Campaign, rg: ReinforcementGroup, index: int) -> list[Drm]:
    """11.6201/11.6204's DRMs; the Historical DRM is the day's — in RF CG I the value of the map
    group the RG was bought for (11.58)."""
    single, by_group = (
        SideDay.objects.filter(campaign=campaign, index=index, side=rg.side)
        .values_list("hist_drm", "hist_drms")
        .first()
    ) or (None, {})
    hist_drm = split_rules.hist_drm(
        cg_definition(campaign),
        single=single,
        by_group=by_group or {},
        map_group=rg.details.get("map_group", ""),
    )
    if hist_drm is None:
        raise ReceiptError(
            _(
                "The Historical DRM for this day is unknown: the referee enters it on the "
                "Historical DRM chart first (11.6161)."
            )
        )
    winners = list(
        campaign.scenarios.exclude(winner="")
        .order_by("index", "sequence")
        .values_list("winner", flat=True)
    )
    second_line = (
        campaign.campaign_game == "ro-cg-3"
        and rg.side == "german"
        and rg.rg_id == "I2"
        and rg.source == ReinforcementGroup.Source.INITIAL
    )
    return rules.rf_strength_drms(hist_drm, scenario_balance_drm(winners, rg.side), second_line)


def _rf(roller: _Roller, group: dict[str, Any]) -> dict[str, Any]:
    campaign, rg = roller.campaign, roller.rg
    side, kinds = rg.side, rules.rolls_for(campaign.module, rg.side, group)
    map_group = rg.details.get("map_group") or (map_groups(campaign) or ("RB",))[0]
    notes = campaign.game.files["rg_charts"]["sides"][side].get("notes", {})
    got: dict[str, Any] = {"units": {}, "sw": {}, "leaders": []}
    strength = ""
    if "strength" in kinds:
        made = roller.roll("rf.rg-strength", _strength_drms(campaign, rg, roller.reph.index))
        strength = rules.rf_strength(made.result)
        got["units"] = rules.rf_units(group, side, strength, notes)
    if "battery" in kinds:
        made = roller.roll("rf.gun-battery", _strength_drms(campaign, rg, roller.reph.index))
        strength = rules.rf_strength(made.result)
        guns = rules.battery_guns(group, strength)
        got["units"] = {**guns, "2-2-8": sum(guns.values())}
    if "oba" in kinds:
        table_id = "rf.oba-german" if side == "german" else "rf.oba-soviet"
        made = roller.roll(table_id, _strength_drms(campaign, rg, roller.reph.index))
        strength = made.result["ammo"]
    if "sw" in kinds:
        sw_chart = next(
            c for c in campaign.game.files["tables"]["charts"] if c["id"].endswith("sw-chart")
        )
        entitlement = rules.rf_sw_entitlement(sw_chart, side, rg.rg_id, map_group)
        if strength == "F":
            got["sw"] = dict(entitlement)
        else:
            weapons = rules.sw_rolls_needed(entitlement)
            drs = [roller.roll("rf.infantry-company-sw", what=w).final for w in weapons]
            got["sw"] = rules.received_by_dr(weapons, drs, 4)
    if "weapons" in kinds:
        weapons = rules.hw_weapons(group)
        if strength == "F":
            got["sw"] = {w: weapons.count(w) for w in dict.fromkeys(weapons)}
        else:
            rounds: list[list[int]] = []
            while True:
                rounds.append([roller.roll("rf.hw-molp-weapons", what=w).final for w in weapons])
                try:
                    got["sw"] = rules.hw_result(weapons, rounds)
                    break
                except ValueError:
                    continue
            got["rounds"] = rounds
        got["units"] = rules.hw_crews(got["sw"])
    if "leaders" in kinds:
        rifle_number = ReinforcementGroup.objects.filter(
            campaign=campaign,
            side=side,
            rg_id=rg.rg_id,
            source=ReinforcementGroup.Source.PURCHASED,
            id__lte=rg.pk,
        ).count()
        drms = rules.rf_leader_drms(
            side,
            group,
            depleted=strength == "D",
            cg=campaign.campaign_game,
            rifle_number=rifle_number if rg.source == ReinforcementGroup.Source.PURCHASED else 0,
        )
        table_id = "rf.leaders-german" if side == "german" else "rf.leaders-soviet"
        made = roller.roll(table_id, drms)
        got["leaders"] = list(made.result.get(map_group) or [])
    if "armor_leader" in kinds:
        made = roller.roll("rf.armor-leader", rules.rf_armor_leader_drms(side))
        got["armor_leader"] = made.result.get("armor_leader")
        got["inexperienced_crews"] = bool(made.result.get("inexperienced_crews"))
    got["strength"] = strength
    return got


def _sap(roller: _Roller, group: dict[str, Any]) -> dict[str, Any]:
    campaign, rg = roller.campaign, roller.rg
    side, kinds = rg.side, rules.rolls_for(campaign.module, rg.side, group)
    levels = group.get("strength_levels") or ["fixed"]
    level = levels[0] if levels == ["fixed"] else ""
    got: dict[str, Any] = {"units": {}, "sw": {}, "leaders": []}
    code = ""
    if "company_strength" in kinds:
        drm = group.get("strength_drm") or 0
        table = roller.tables["sap.infantry-company-strength"]
        ids = [m["id"] for m in table["modifiers"] if group["id"] in m.get("rgs", {}).get(side, [])]
        drms = [Drm(drm, id=ids[0] if ids else "strength")] if drm else []
        level = roller.roll("sap.infantry-company-strength", drms).result["strength"]
    elif "strength" in kinds:
        level = roller.roll("sap.platoon-gun-strength").result["strength"]
    if level:
        got["units"] = rules.sap_units(group, side, level)
        code = rules.SAP_LEVEL_CODES.get(level, "")
    if "oba" in kinds:
        table_id = "sap.oba-german" if side == "german" else "sap.oba-russian"
        made = roller.roll(table_id)
        code = made.result["code"]
        got["chits"] = list(
            rules.sap_oba_chits(made.result, rg.details.get("pre_registered_hexes", 0))
        )
    if "sw" in kinds:
        sw_chart = next(
            c for c in campaign.game.files["tables"]["charts"] if c["id"] == "sap.sw-chart"
        )
        row = rules.sap_sw_row(sw_chart, side, rg.rg_id)
        if row is not None:
            entitlement = {w: n for w, n in row["sw"].items() if n}
            if rules.sap_depleted(level):
                weapons = rules.sw_rolls_needed(entitlement)
                drms = rules.sap_sw_drms(level)
                drs = [roller.roll("sap.sw-receipt-depleted", drms, what=w).final for w in weapons]
                # The dr is compared after its DRM: the table's rows are on the final dr.
                got["sw"] = rules.received_by_dr(weapons, drs, 4)
            else:
                got["sw"] = dict(entitlement)
            if row.get("dagger") and (not rules.sap_depleted(level) or got["sw"].get("LMG")):
                extra = roller.roll("sap.guards-airborne-extra-sw").result["sw"]
                got["sw"][extra] = got["sw"].get(extra, 0) + 1
    if "leaders" in kinds:
        table_id = f"sap.company-leader-{side}"
        made = roller.roll(table_id, rules.sap_company_leader_drms(side, group, level))
        got["leaders"] = list(made.result.get("leaders") or [])
        extra = rules.sap_extra_leader(roller.tables[table_id], group, level)
        if extra:
            got["leaders"].append(extra)
    if "platoon_leader" in kinds:
        eligible = True
        if side == "russian":
            eligible = roller.roll("sap.platoon-leader-russian-eligibility").result["roll_on_table"]
        if eligible:
            made = roller.roll(
                f"sap.platoon-leader-{side}", rules.sap_platoon_leader_drms(side, group, level)
            )
            if made.result.get("leader"):
                got["leaders"] = [made.result["leader"]]
    if "armor_leader" in kinds:
        made = roller.roll("sap.armor-leader", rules.sap_armor_leader_drms(side, group))
        got["armor_leader"] = made.result.get("leader")
    got["strength"] = code
    return got


# The SW charts' "light mortar" column is the 50mm mortar counter of both sides (rules decision).
SW_COUNTERS = {"LtMTR": "50mm MTR", "Lt MTR": "50mm MTR"}


def ob_text(got: dict[str, Any]) -> str:
    """The received units, SW and leaders as OB entry text ("9 × 5-4-8; 1 × MMG; 9-1")."""
    parts = [f"{n} × {name}" for name, n in got.get("units", {}).items() if n]
    parts += [f"{n} × {SW_COUNTERS.get(name, name)}" for name, n in got.get("sw", {}).items() if n]
    parts += [str(rating) for rating in got.get("leaders", [])]
    if got.get("armor_leader"):
        parts.append(f"{got['armor_leader']} armor leader")
    return "; ".join(parts)


def summary(got: dict[str, Any]) -> str:
    text = ob_text(got)
    strength = got.get("strength", "")
    return f"{strength} · {text}" if strength and text else strength or text or "—"


def _dug_in(campaign: Campaign, rg: ReinforcementGroup) -> bool:
    """RF 11.6194c: an AFV platoon bought dug in. SaP CG7.23 [L481]: the purchasable dug-in
    T-34 RG (V1, 「埋設 T-34 M41RG(V1)」) is dug in by its nature — never mobile, BMG unusable,
    one LMG per AFV (issue 16; docs/rules-decisions.md)."""
    if campaign.module == rules.RF:
        return rg.option == DUG_IN
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    cg = definitions.get(campaign.campaign_game) or {}
    bought = (cg.get("dug_in_afvs") or {}).get("purchasable_rg") or {}
    return bool(bought) and (rg.side, rg.rg_id) == (bought.get("side"), bought.get("rg"))


@transaction.atomic
def receive(campaign: Campaign, rg: ReinforcementGroup, by: AbstractBaseUser) -> dict[str, Any]:
    """Make every roll of the RG, store the results, put what it received into its box."""
    rg = ReinforcementGroup.objects.select_for_update(of=("self",)).get(pk=rg.pk, campaign=campaign)
    if received(rg):
        return rg.details["received"]  # a second press (or a double submit) rolls nothing
    if not has_something_to_receive(campaign, rg):
        raise ReceiptError(_("Nothing to roll for this RG."))
    reph = receipt_reph(campaign, rg)
    before = history.snapshot(rg)
    roller = _Roller(campaign, rg, reph, by)
    group = group_of(campaign, rg)
    got = _rf(roller, group) if campaign.module == rules.RF else _sap(roller, group)
    dug_in = _dug_in(campaign, rg)
    if dug_in:
        got = rules.with_dug_in_lmg(got, rules.dug_in_lmg(group, got.get("units", {})))
    got["rolls"] = roller.ids
    rg.strength = got["strength"]
    rg.details = {**rg.details, "received": got}
    rg.status = rg_status.after_rolls(rg) or rg.status  # bought → rolled
    rg.save(update_fields=["strength", "details", "status"])
    if dug_in:
        # 11.6194c (SaP CG7.23): the AFVs go into the box dug in (never mobile, BMG taken
        # out); their LMG and the rest of the receipt as usual.
        afvs = ob_text({"units": got.get("units", {})})
        rest = ob_text({**got, "units": {}})
        if afvs:
            orbat.add_units(
                campaign, by=by, side=rg.side, box="rg", text=afvs, group=rg, statuses=["dug_in"]
            )
        if rest:
            orbat.add_units(campaign, by=by, side=rg.side, box="rg", text=rest, group=rg)
    elif text := ob_text(got):
        orbat.add_units(campaign, by=by, side=rg.side, box="rg", text=text, group=rg)
    history.record_change(
        campaign,
        by,
        "rg.received",
        visibility=rg.side,
        changes=[(rg, before, history.snapshot(rg))],
        side=rg.side,
        index=rg.index,
        rg=rg.label,
        what=summary(got),
    )
    return got


def receive_all(
    campaign: Campaign, reph: RefitPhase, side: str, by: AbstractBaseUser
) -> list[tuple[ReinforcementGroup, dict[str, Any]]]:
    """Every roll of every RG of ``side`` still to roll in ``reph``, in the order bought: one
    ``receive`` each, so each RG's rolls are logged and booked in its own transaction, exactly
    as its own button would. A refusal stops at that RG (``Stopped``, with the RGs rolled
    before it); those rolled stay rolled (a roll is never made again). A second press finds
    nothing left and rolls nothing."""
    done: list[tuple[ReinforcementGroup, dict[str, Any]]] = []
    for rg in pending(campaign, reph, side):
        try:
            got = receive(campaign, rg, by)
        except ValueError as error:
            raise Stopped(f"{rg.label}: {error}", done) from error
        done.append((rg, got))
    return done


# --- the strength step waits for the rolls (issue 15) --------------------------------------


def pending(campaign: Campaign, reph: RefitPhase, side: str) -> list[ReinforcementGroup]:
    """The side's RGs whose rolls belong to this RePh and are not made yet, in the order they
    came. Sorted here: asked to order by id, SQLite (without statistics) walks every RG of the
    campaign and filters them, instead of reading the day's from the index ``rg_newest``
    (``reading.day_rgs``)."""
    day = ReinforcementGroup.objects.filter(campaign=campaign, side=side, index=reph.index)
    groups = sorted(day.order_by(), key=lambda rg: rg.pk)
    return [rg for rg in groups if not received(rg) and has_something_to_receive(campaign, rg)]


def _strength_step_guard(
    campaign: Campaign, reph: RefitPhase, side: str, step: step_engine.StepDef
) -> list[strictness.Requirement]:
    """The strength step (RF 11.620, SaP 11.618) cannot be marked while an RG bought in this
    RePh has its strength / SW / leader rolls to make: once marked, they can never be made."""
    if step.rule != STRENGTH_STEP.get(campaign.module):
        return []
    waiting = pending(campaign, reph, side)
    if not waiting:
        return []
    text = _(
        "Roll for every RG bought in this Refit Phase first (%(rgs)s): %(rule)s is where "
        "their strength, SW and leaders are rolled, and they cannot be rolled after it."
    ) % {"rgs": ", ".join(rg.label for rg in waiting), "rule": step.rule}
    return [strictness.Requirement("rg_rolls:" + ",".join(rg.label for rg in waiting), text)]


def register() -> None:
    """Make the walker refuse the strength step while rolls are pending (refit/apps.py)."""
    if _strength_step_guard not in strictness.MARK_GUARDS:
        strictness.MARK_GUARDS.append(_strength_step_guard)
