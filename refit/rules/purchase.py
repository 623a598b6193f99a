"""RG purchase (RF 11.619, SaP 11.617): which RGs a side may buy now, and why not.

Plain Python over the module's data (``rg_charts.json``, ``campaign_games.json``) and plain facts
about the campaign (what the side has bought so far, the Historical DRM, the CPP left). No Django:
the reasons come back as ``campaigns.games.rules.Reason`` values (a code, the rule, the numbers)
and the service layer words them with ``Reason.sentence`` in the user's language. What an RG
costs with its options, and the chart data, is ``refit.rules.purchase_costs``.

Red Factories
* Day Max (11.6195) and CG Max (11.6196) come from the CG's chart columns
  (``campaign_games.<cg>.rg_limits``: RF CG I buys each RG for one map group and uses that
  group's columns). A "–" on the chart (``printed_dash``) means the RG is not in this CG; a
  printed 0 means none may be bought. RGs given in the initial OB never count.
* No more than 2 infantry companies per CG day, this 2 changed by the side's Historical DRM with
  its sign reversed (11.6195); an unknown Historical DRM stops company purchases until the
  referee enters it.
* Date notes (n, f, y, aa, bb) and the initial-RePh SSRs (RB CG I/III I.2) as data. A note
  printed on one CG Max cell holds in that CG only (``notes_in_force``).
* The options of 11.6194 the RG does not have, or the initial SSRs ban, are refused.

Slaughter at Ponyri
* Time-frame max and CG max from the chart (M1's override in 7 July AM, note h), at most 2
  infantry companies per time frame with 3 platoons (FRD) counting as one (11.6175), at most 2
  non-rocket OBA modules per time frame (CG5), airborne not before 8 July AM (note g), no I/V
  RGs in 7 July AM (CG-1.2/1.4); no on-map or Reserve purchases when the time frame forbids them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from campaigns.games.rules import Reason
from refit.rules.purchase_costs import (
    ON_MAP,
    PLACEMENTS,
    RESERVE,
    RF,
    RF_INITIAL_REPH,
    SAP,
    Options,
    Price,
    alternative_cost,
    chart_side,
    group_by_id,
    note_restrictions,
    placements_for,
    pre_registration,
    price,
    purchase_limits,
)


class Bought(NamedTuple):
    """An RG the side bought earlier in this CG (initial-OB RGs are not passed in). A named
    tuple, not a frozen dataclass: a reading makes one per RG, day and map group bought (811 at
    the bench's huge size: 0.22 ms, against 0.46 for a slotted frozen dataclass and 1.1 for a
    plain one)."""

    rg_id: str
    index: int  # CG day / time frame it was bought for
    period_key: str  # ISO date (RF) or "CG-n" (SaP)
    map_group: str = ""  # RF CG I: the map group it was bought for
    count: int = 1  # how many RGs alike (a reading counts them in the database)


@dataclass(frozen=True)
class Situation:
    """The facts a purchase is judged on."""

    module: str
    side: str
    cg: str  # campaign-game key
    index: int
    period_key: str
    reph_kind: str
    cpp_left: int
    hist_drm: int | None = None  # RF: the side's Historical DRM for this CG day
    # RF CG I (11.58): the Historical DRM per map group (the chart's RB CG and RO CG columns)
    hist_drms: Mapping[str, int] = field(default_factory=dict)
    bought: tuple[Bought, ...] = ()
    map_groups: tuple[str, ...] = ()  # RF: the CG's map groups
    oba_without_observer: int = 0  # the side's OBA RGs that have no offboard observer yet
    oba_for_plane: int = 0  # German OBA able to use an observation plane, without one
    # SaP CG5: the side's non-rocket OBA modules of earlier time frames it still possesses
    # (retained, not expended, eliminated or withdrawn; issue 16).
    oba_held: int = 0

    @cached_property
    def _bought_by_rg(self) -> dict[str, list[Bought]]:
        by_rg: dict[str, list[Bought]] = {}
        for b in self.bought:
            by_rg.setdefault(b.rg_id, []).append(b)
        return by_rg

    def bought_of(self, rg_id: str) -> Sequence[Bought]:
        """The RGs ``rg_id`` bought so far (each offer reads its own, not every RG bought)."""
        return self._bought_by_rg.get(rg_id, ())

    @cached_property
    def bought_today(self) -> tuple[Bought, ...]:
        """The RGs bought for this CG day / time frame."""
        return tuple(b for b in self.bought if b.index == self.index)


@dataclass(frozen=True)
class Offer:
    """One row of the side's RG chart as this campaign may buy it now."""

    group: Mapping[str, Any]
    map_group: str
    cg_max: int | None
    bought_in_cg: int
    day_max: int | None
    bought_today: int
    placements: tuple[str, ...]
    reasons: tuple[Reason, ...]  # empty = may be bought

    @property
    def rg_id(self) -> str:
        return self.group["id"]

    @property
    def available(self) -> bool:
        return not self.reasons

    @property
    def remaining(self) -> int | None:
        """#R: what the CG Max still allows (None when the chart prints no limit)."""
        return None if self.cg_max is None else max(self.cg_max - self.bought_in_cg, 0)


# --- the chart's columns -------------------------------------------------------------------


def _columns(cg_def: Mapping[str, Any], situation: Situation, map_group: str) -> tuple[str, str]:
    """(CG-max column, day-max column) of the chart for this CG (and RF map group)."""
    if situation.module == SAP:
        return situation.cg, "time_frame"
    limits = cg_def.get("rg_limits", {})
    column = limits.get(map_group) or {}
    return column.get("cg_max_column", ""), column.get("period_max_column", map_group)


def notes_in_force(group: Mapping[str, Any], cg_column: str) -> list[str]:
    """The chart notes that hold for ``group`` in the CG whose CG Max column is ``cg_column``:
    the row's own letters (printed by its units, e.g. "d0rw") in every CG, and a letter printed
    on one CG Max cell (``cg_max_notes``: German A3's n in RB CG II/III, Soviet A4's n in RO
    CG I only) in that CG alone."""
    row = list(group.get("notes", []))
    cell = group.get("cg_max_notes", {}).get(cg_column, [])
    return [*row, *(letter for letter in cell if letter not in row)]


def is_infantry_company(limits: Mapping[str, Any], side: str, rg_id: str) -> bool:
    """Whether ``rg_id`` counts against RF 11.6195's infantry-company cap (``limits``: the chart's
    ``purchase_limits``)."""
    cap = limits.get("infantry_companies_per_day", {})
    return rg_id in cap.get("rgs", {}).get(side, [])


# --- limits ------------------------------------------------------------------------------------


def company_cap(hist_drm: int | None, limits: Mapping[str, Any]) -> int | None:
    """RF 11.6195: infantry companies a side may buy on a CG day (None: Historical DRM unknown)."""
    cap = limits.get("infantry_companies_per_day", {})
    if hist_drm is None:
        return None
    return max(int(cap.get("base", 2)) + int(cap.get("historical_drm_factor", -1)) * hist_drm, 0)


def _initial_ssr_effects(cg_def: Mapping[str, Any], side: str, reph_kind: str) -> list[Mapping]:
    """The CG's SSR effects on purchases that hold in the RePh before the initial scenario."""
    if reph_kind != RF_INITIAL_REPH:
        return []
    return [
        effect
        for ssr in cg_def.get("ssrs", [])
        for effect in ssr.get("effects", [])
        if effect.get("side") == side
    ]


def _ssr_of(cg_def: Mapping[str, Any], kind: str, side: str) -> str:
    for ssr in cg_def.get("ssrs", []):
        if any(e.get("kind") == kind and e.get("side") == side for e in ssr.get("effects", [])):
            return f"SSR {ssr['id']}"
    return ""


def _count(bought: Sequence[Bought], **match: Any) -> int:
    return sum(b.count for b in bought if all(getattr(b, k) == v for k, v in match.items()))


def _rf_date_reasons(
    restrictions: Sequence[Mapping[str, Any]],
    situation: Situation,
    rg_id: str,
    same_group: Sequence[Bought],
    rule: str,
) -> tuple[list[Reason], int | None, int | None]:
    """Date notes: (reasons, a CG max that replaces the chart's, a day max that replaces it)."""
    day = situation.period_key
    reasons: list[Reason] = []
    cg_max = day_max = None
    for restriction in restrictions:
        kind = restriction.get("kind")
        if kind == "not_before" and day < restriction["date"]:
            reasons.append(Reason("not_before", rule, {"date": restriction["date"]}))
        elif kind == "only_between" and not restriction["from"] <= day <= restriction["to"]:
            reasons.append(
                Reason("only_between", rule, {"from": restriction["from"], "to": restriction["to"]})
            )
        elif kind == "cg_max_by_date":
            for cap in restriction["caps"]:
                if ("through" in cap and day <= cap["through"]) or (
                    "from" in cap and day >= cap["from"]
                ):
                    cg_max = int(cap["max"])
        elif kind == "dated_caps":
            before = restriction.get("cumulative_max_before") or {}
            if before and day < before["date"]:
                already = sum(
                    b.count
                    for b in same_group
                    if b.rg_id == rg_id and b.period_key < before["date"]
                )
                if already >= int(before["max"]):
                    reasons.append(
                        Reason(
                            "dated_cap_before",
                            rule,
                            {"date": before["date"], "max": before["max"], "bought": already},
                        )
                    )
            per_date = restriction.get("per_date_max") or {}
            if day in per_date:
                day_max = int(per_date[day])
    return reasons, cg_max, day_max


def offer(
    charts: Mapping[str, Any],
    cg_def: Mapping[str, Any],
    situation: Situation,
    group: Mapping[str, Any],
    map_group: str = "",
) -> Offer:
    """One RG of the side's chart as the side may buy it now (without the CPP check)."""
    module, side = situation.module, situation.side
    chart = chart_side(charts, side)
    limits = purchase_limits(module, charts, side)
    rg_id = group["id"]
    cg_column, day_column = _columns(cg_def, situation, map_group)
    dashes = set(group.get("printed_dash", []))
    reasons: list[Reason] = []
    purchase_rule = "11.619" if module == RF else "11.617"
    cg_rule = "11.6196" if module == RF else "11.6176"
    day_rule = "11.6195" if module == RF else "11.6175"

    same_group = [b for b in situation.bought_of(rg_id) if module != RF or b.map_group == map_group]
    cg_max = group.get("cg_max", {}).get(cg_column)
    day_max = group.get("period_max", {}).get(day_column)
    if module == SAP:
        overrides = group.get("period_max_overrides", {})
        if situation.period_key in overrides:
            day_max = overrides[situation.period_key]
    bought_in_cg = _count(same_group, rg_id=rg_id)
    bought_today = _count(same_group, rg_id=rg_id, index=situation.index)

    if f"cg_max.{cg_column}" in dashes or f"period_max.{day_column}" in dashes:
        reasons.append(Reason("not_in_cg", purchase_rule, {"map_group": map_group}))
    else:
        restrictions = note_restrictions(chart, notes_in_force(group, cg_column))
        if module == RF:
            date_reasons, cg_override, day_override = _rf_date_reasons(
                restrictions, situation, rg_id, same_group, purchase_rule
            )
            reasons += date_reasons
            if cg_override is not None:
                cg_max = cg_override
            if day_override is not None:
                day_max = day_override if day_max is None else min(day_max, day_override)
        else:
            periods = [r for r in restrictions if r.get("kind") == "earliest_purchase"]
            for restriction in periods:
                if situation.period_key < restriction["period"]:
                    reasons.append(
                        Reason(
                            "not_before_period", purchase_rule, {"period": restriction["period"]}
                        )
                    )
        if cg_max is not None and cg_max == 0:
            reasons.append(Reason("cg_max_zero", cg_rule, {}))
        elif cg_max is not None and bought_in_cg >= cg_max:
            reasons.append(Reason("cg_max", cg_rule, {"max": cg_max, "bought": bought_in_cg}))
        if day_max is not None and cg_max != 0 and bought_today >= day_max:
            reasons.append(Reason("day_max", day_rule, {"max": day_max, "bought": bought_today}))
        reasons += _side_wide_reasons(charts, cg_def, situation, group, same_group, map_group)
    return Offer(
        group=group,
        map_group=map_group,
        cg_max=cg_max,
        bought_in_cg=bought_in_cg,
        day_max=day_max,
        bought_today=bought_today,
        placements=placements_for(module, group, side, limits, situation.reph_kind),
        reasons=tuple(reasons),
    )


def _side_wide_reasons(
    charts: Mapping[str, Any],
    cg_def: Mapping[str, Any],
    situation: Situation,
    group: Mapping[str, Any],
    same_group: Sequence[Bought],
    map_group: str = "",
) -> list[Reason]:
    """Limits across RGs: the company caps, OBA caps, bans of the moment, attachments. In a
    campaign game on two map groups (RF CG I) the infantry-company cap of 11.6195 is the map
    group's: its companies bought today against 2 − its Historical DRM
    (docs/rules-decisions.md)."""
    module, side, rg_id = situation.module, situation.side, group["id"]
    limits = purchase_limits(module, charts, side)
    chart = chart_side(charts, side)
    reasons: list[Reason] = []
    split = len(situation.map_groups) > 1
    today = situation.bought_today
    group_today = [b for b in today if not split or b.map_group == map_group]
    hist_drm = situation.hist_drms.get(map_group) if split else situation.hist_drm
    if module == RF:
        for effect in _initial_ssr_effects(cg_def, side, situation.reph_kind):
            if effect.get("kind") == "purchase_ban" and rg_id in effect.get("rgs", []):
                reasons.append(Reason("ssr_ban", _ssr_of(cg_def, "purchase_ban", side), {}))
        if is_infantry_company(limits, side, rg_id):
            cap = company_cap(hist_drm, limits)
            companies = sum(
                b.count for b in group_today if is_infantry_company(limits, side, b.rg_id)
            )
            if cap is None:
                reasons.append(Reason("hist_drm_unknown", "11.6195", {}))
            elif companies >= cap:
                reasons.append(
                    Reason(
                        "company_cap",
                        "11.6195",
                        {"max": cap, "bought": companies, "hist_drm": hist_drm},
                    )
                )
        for restriction in note_restrictions(chart, group.get("notes", [])):
            if restriction.get("kind") == "attach_to":
                available = (
                    situation.oba_for_plane if rg_id == "O6" else situation.oba_without_observer
                )
                if available <= 0:
                    reasons.append(Reason("needs_oba", "11.619", {"rgs": restriction["rgs"]}))
        return reasons
    period_rule = limits.get("period_rules", {}).get(situation.period_key, {})
    if group.get("rg_class") in period_rule.get("forbidden_rg_classes", []):
        reasons.append(
            Reason("period_ban", period_rule.get("rule", "11.617"), {"class": group["rg_class"]})
        )
    cap = limits.get("company_cap_per_time_frame", {})
    counted = rg_id in cap.get("company_rgs", []) or rg_id in cap.get("platoon_rgs", [])
    if counted and _sap_companies_after(cap, today, rg_id) > int(cap.get("max_company_rgs", 2)):
        reasons.append(
            Reason("sap_company_cap", cap.get("rule", "11.6175"), {"max": cap["max_company_rgs"]})
        )
    oba = group.get("oba")
    module_cap = limits.get("oba_module_cap", {})
    if oba and not oba.get("rocket") and module_cap:
        # CG5 limits the modules a side *possesses* (所有) in a time frame: those bought for it
        # and those it still holds from earlier ones.
        modules = situation.oba_held + sum(
            b.count for b in today if _is_non_rocket_oba(chart, b.rg_id)
        )
        if modules >= int(module_cap["max_modules_per_time_frame"]):
            reasons.append(
                Reason("oba_module_cap", "CG5", {"max": module_cap["max_modules_per_time_frame"]})
            )
    if rg_id == "O5" and situation.oba_without_observer <= 0:
        reasons.append(Reason("needs_oba", "CG5", {"rgs": []}))
    return reasons


def _is_non_rocket_oba(chart: Mapping[str, Any], rg_id: str) -> bool:
    group = next((g for g in chart.get("groups", []) if g["id"] == rg_id), {})
    return bool(group.get("oba")) and not group["oba"].get("rocket")


def _sap_companies_after(cap: Mapping[str, Any], today: Sequence[Bought], rg_id: str) -> int:
    """Companies this time frame once ``rg_id`` is bought, 3 platoons (FRD) counting as one."""
    companies = sum(b.count for b in today if b.rg_id in cap.get("company_rgs", []))
    platoons = sum(b.count for b in today if b.rg_id in cap.get("platoon_rgs", []))
    if rg_id in cap.get("company_rgs", []):
        companies += 1
    else:
        platoons += 1
    return companies + platoons // int(cap.get("platoons_per_company", 3))


def offers(
    charts: Mapping[str, Any], cg_def: Mapping[str, Any], situation: Situation
) -> list[Offer]:
    """Every RG of the side's chart, per map group in RF CG I, with why it cannot be bought."""
    groups = chart_side(charts, situation.side).get("groups", [])
    map_groups = situation.map_groups if situation.module == RF else ("",)
    return [
        offer(charts, cg_def, situation, group, map_group)
        for map_group in map_groups or ("",)
        for group in groups
    ]


def check(
    charts: Mapping[str, Any],
    cg_def: Mapping[str, Any],
    situation: Situation,
    rg_id: str,
    options: Options,
) -> tuple[Price | None, list[Reason]]:
    """The price of buying ``rg_id`` with ``options`` now, and every rule it would break."""
    module, side = situation.module, situation.side
    group = group_by_id(charts, side, rg_id)
    if group is None:
        return None, [Reason("unknown_rg", "11.619" if module == RF else "11.617", {"rg": rg_id})]
    map_group = options.map_group
    if module == RF:
        if len(situation.map_groups) == 1:
            map_group = situation.map_groups[0]
        elif map_group not in situation.map_groups:
            return None, [Reason("choose_map_group", "11.58", {})]
    elif map_group:
        return None, [Reason("no_map_groups", "11.617", {})]
    row = offer(charts, cg_def, situation, group, map_group)
    reasons = list(row.reasons)
    limits = purchase_limits(module, charts, side)
    option_rule = "11.6194" if module == RF else "11.6174"
    if options.placement not in PLACEMENTS:
        reasons.append(Reason("unknown_option", option_rule, {}))
    elif options.placement not in row.placements:
        reasons.append(Reason("option_not_allowed", option_rule, {"option": options.placement}))
    elif options.placement:
        banned = _option_banned(module, limits, cg_def, situation)
        if options.placement in banned:
            reasons.append(
                Reason("option_banned", banned[options.placement], {"option": options.placement})
            )
    each, most = pre_registration(chart_side(charts, side), group)
    if options.pre_registered_hexes < 0 or options.pre_registered_hexes > most:
        reasons.append(
            Reason("pre_registered_hexes", "11.619" if module == RF else "CG5", {"max": most})
        )
    if options.stuka_two_cpp and alternative_cost(chart_side(charts, side), group) is None:
        reasons.append(Reason("no_alternative_cost", "11.619", {}))
    result = price(module, charts, side, group, options)
    if result.cost > situation.cpp_left:
        reasons.append(
            Reason(
                "cpp",
                "11.619" if module == RF else "11.617",
                {"cost": result.cost, "left": max(situation.cpp_left, 0)},
            )
        )
    return result, reasons


def _option_banned(
    module: str, limits: Mapping[str, Any], cg_def: Mapping[str, Any], situation: Situation
) -> dict[str, str]:
    """Placements the moment forbids, with the rule: RF initial SSRs, SaP 7 July AM."""
    banned: dict[str, str] = {}
    if module == RF:
        for effect in _initial_ssr_effects(cg_def, situation.side, situation.reph_kind):
            if effect.get("kind") == "purchase_option_ban":
                rule = _ssr_of(cg_def, "purchase_option_ban", situation.side)
                banned.update({option: rule for option in effect.get("options", [])})
        return banned
    period_rule = limits.get("period_rules", {}).get(situation.period_key, {})
    rule = period_rule.get("rule", "11.6174")
    if period_rule.get("on_map_purchase_allowed") is False:
        banned[ON_MAP] = rule
    if period_rule.get("reserve_purchase_allowed") is False:
        banned[RESERVE] = rule
    return banned
