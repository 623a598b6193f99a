"""Buying RGs in the Refit Phase (RF 11.619, SaP 11.617) and taking a purchase back.

The rules are in ``refit.rules.purchase`` (pure); this module reads the campaign state they are
judged on, and makes the change: the ReinforcementGroup (its divider box comes with it), the CPP
debit (and the FPP credit of a fortification RG) and one history event scoped to the side — all
in one transaction that first locks the side's ledger rows, so two devices of one side cannot
spend the same CPP.

Double submits: each purchase form carries a random token; the token is stored on the RG it
bought, and a second POST with the same token returns that RG instead of buying again.

A referee may buy past a limit (day max, CG max, company caps, date notes, SSR bans) with a
written reason, stored on the RG and in the event. Nobody may spend CPP the side does not have
(a referee adjusts the ledger first) or choose an option the RG does not have.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.access import viewer_or_none
from campaigns.games.rules import signed
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    LedgerEntry,
    LedgerKind,
    RefitPhase,
    ReinforcementGroup,
    SideDay,
    StepProgress,
)
from campaigns.orbat.services import next_rg_number
from campaigns.roster.ledger import Movement, cpp_days, fpp_days
from campaigns.state import StateError
from refit.rules import purchase as rules
from refit.walker import services as walker

PURCHASE_STEP = {"red_factories": "11.619", "slaughter_at_ponyri": "11.617"}

# Refusals a referee's reason cannot lift: they are not limits but impossibilities.
NOT_OVERRIDABLE = {
    "unknown_rg",
    "choose_map_group",
    "no_map_groups",
    "unknown_option",
    "option_not_allowed",
    "pre_registered_hexes",
    "no_alternative_cost",
    "cpp",
}


class PurchaseError(StateError):
    """A purchase the rules refuse; ``reasons`` say which rule, the message says it in words."""

    def __init__(self, message: str, reasons: Sequence[rules.Reason] = ()) -> None:
        super().__init__(message)
        self.reasons = list(reasons)


def has_purchases(campaign: Campaign) -> bool:
    return campaign.module in PURCHASE_STEP and "rg_charts" in campaign.game.files


def purchase_rule(campaign: Campaign) -> str:
    return PURCHASE_STEP[campaign.module]


def cg_definition(campaign: Campaign) -> dict:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return definitions.get(campaign.campaign_game) or {}


def map_groups(campaign: Campaign) -> tuple[str, ...]:
    if campaign.module != rules.RF:
        return ()
    return tuple(cg_definition(campaign).get("map_groups") or ())


# --- reading the state ---------------------------------------------------------------------


@dataclass(frozen=True)
class CppState:
    total: int
    spent: int
    left: int  # what the purchases may still spend (recon already paid is taken off)


def cpp_state(rows: Sequence[tuple[int, str, int, str]], day_count: int, index: int) -> CppState:
    day = cpp_days(day_count, [Movement(*row) for row in rows])[index]
    return CppState(total=day.total, spent=day.spent, left=day.left - day.recon)


def _ledger_rows(campaign: Campaign, side: str, ledger: str, *, lock: bool) -> list:
    rows = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger=ledger)
    if lock:
        rows = rows.select_for_update(of=("self",))
    return list(rows.values_list("index", "kind", "amount", "rg"))


def side_cpp(campaign: Campaign, side: str, index: int, *, lock: bool = False) -> CppState:
    rows = _ledger_rows(campaign, side, LedgerEntry.CPP, lock=lock)
    return cpp_state(rows, len(campaign.cg.periods), index)


def purchased(campaign: Campaign, side: str) -> list[ReinforcementGroup]:
    return list(
        ReinforcementGroup.objects.filter(
            campaign=campaign, side=side, source=ReinforcementGroup.Source.PURCHASED
        ).order_by("index", "id")
    )


def _observer_counts(campaign: Campaign, side: str, groups: list[ReinforcementGroup]) -> tuple:
    """(OBA modules without an offboard observer, OBA able to take a plane without one)."""
    chart = rules.chart_side(campaign.game.files["rg_charts"], side)
    by_id = {group["id"]: group for group in chart.get("groups", [])}
    if campaign.module == rules.RF:
        observer_targets = {"O1", "O2", "O3", "O4"}
        plane_targets = {"O2", "O3"}
    else:
        # SaP: rocket modules come with their observer (note o).
        observer_targets = {
            rg_id
            for rg_id, group in by_id.items()
            if group.get("oba") and not group["oba"].get("includes_observer")
        }
        plane_targets = set()
    counts = {rg.rg_id: 0 for rg in groups}
    for rg in groups:
        counts[rg.rg_id] += 1
    observers = sum(counts.get(rg_id, 0) for rg_id in observer_targets) - counts.get("O5", 0)
    planes = sum(counts.get(rg_id, 0) for rg_id in plane_targets) - counts.get("O6", 0)
    return max(observers, 0), max(planes, 0)


def situation(
    campaign: Campaign, side: str, reph: RefitPhase, *, cpp_left: int | None = None
) -> rules.Situation:
    """The facts a purchase for ``side`` in ``reph`` is judged on (a handful of queries)."""
    periods = campaign.cg.periods
    groups = list(
        ReinforcementGroup.objects.filter(campaign=campaign, side=side).order_by("index", "id")
    )
    bought = tuple(
        rules.Bought(
            rg_id=rg.rg_id,
            index=rg.index,
            period_key=periods[rg.index].key if rg.index < len(periods) else "",
            map_group=rg.details.get("map_group", ""),
            placement=rg.option,
        )
        for rg in groups
        if rg.source == ReinforcementGroup.Source.PURCHASED
    )
    hist_drm = (
        SideDay.objects.filter(campaign=campaign, index=reph.index, side=side)
        .values_list("hist_drm", flat=True)
        .first()
    )
    observers, planes = _observer_counts(campaign, side, groups)
    if cpp_left is None:
        cpp_left = side_cpp(campaign, side, reph.index).left
    return rules.Situation(
        module=campaign.module,
        side=side,
        cg=campaign.campaign_game,
        index=reph.index,
        period_key=periods[reph.index].key,
        reph_kind=reph.kind,
        cpp_left=cpp_left,
        hist_drm=hist_drm,
        bought=bought,
        map_groups=map_groups(campaign),
        oba_without_observer=observers,
        oba_for_plane=planes,
    )


def offers(campaign: Campaign, side: str, reph: RefitPhase) -> list[rules.Offer]:
    return rules.offers(
        campaign.game.files["rg_charts"], cg_definition(campaign), situation(campaign, side, reph)
    )


def purchase_step_done(reph: RefitPhase, side: str, rule: str) -> bool:
    return StepProgress.objects.filter(reph=reph, side=side, rule=rule).exists()


def open_purchase_reph(campaign: Campaign, side: str) -> RefitPhase:
    """The open RePh, if it has the purchase step and the side has not marked it."""
    reph = walker.open_reph(campaign)
    rule = purchase_rule(campaign)
    if reph is None or not any(step.rule == rule for step in walker.steps(campaign, reph)):
        raise PurchaseError(_("RGs are bought in the purchase step (%(rule)s).") % {"rule": rule})
    if purchase_step_done(reph, side, rule):
        raise PurchaseError(
            _("The side has marked %(rule)s done; take the mark back to change its purchases.")
            % {"rule": rule}
        )
    return reph


# --- reasons in words ----------------------------------------------------------------------


def option_label(option: str) -> str:
    return {
        rules.REINFORCEMENT: _("reinforcement"),
        rules.ON_MAP: _("on-map set-up"),
        rules.RESERVE: _("Reserve"),
        rules.DUG_IN: _("dug-in"),
    }.get(option, option)


REASONS = {
    "unknown_rg": gettext_lazy("%(rg)s is not on this side's RG chart."),
    "not_in_cg": gettext_lazy("Not offered in this CG (“–” on the chart)."),
    "cg_max_zero": gettext_lazy("This CG allows none (CG Max 0)."),
    "cg_max": gettext_lazy("CG Max reached: %(bought)s of %(max)s bought."),
    "day_max": gettext_lazy("Day Max reached: %(bought)s of %(max)s bought today."),
    "company_cap": gettext_lazy(
        "Infantry-company cap reached: %(bought)s of %(max)s today "
        "(2 − Historical DRM %(hist_drm)s)."
    ),
    "hist_drm_unknown": gettext_lazy(
        "The Historical DRM of this day is unknown, and the day's infantry-company cap "
        "depends on it: the referee enters it on the CG Roster first."
    ),
    "not_before": gettext_lazy("Not before %(date)s."),
    "only_between": gettext_lazy("Only from %(from)s to %(to)s."),
    "dated_cap_before": gettext_lazy("Before %(date)s at most %(max)s in all; %(bought)s bought."),
    "ssr_ban": gettext_lazy("The initial scenario's SSR forbids it."),
    "needs_oba": gettext_lazy("Needs an OBA module of the side without one already."),
    "period_ban": gettext_lazy("No %(class)s RGs in this time frame."),
    "not_before_period": gettext_lazy("Not before %(period)s."),
    "sap_company_cap": gettext_lazy(
        "At most %(max)s infantry companies per time frame (3 platoons count as one)."
    ),
    "oba_module_cap": gettext_lazy("At most %(max)s non-rocket OBA modules per time frame."),
    "choose_map_group": gettext_lazy("Choose the map group the RG is bought for."),
    "no_map_groups": gettext_lazy("This campaign game has no map groups."),
    "unknown_option": gettext_lazy("Unknown purchase option."),
    "option_not_allowed": gettext_lazy("This RG cannot be bought with the %(option)s option."),
    "option_banned": gettext_lazy("The %(option)s option is not allowed now."),
    "pre_registered_hexes": gettext_lazy("At most %(max)s pre-registered hexes for this RG."),
    "no_alternative_cost": gettext_lazy("This RG has no other price."),
    "cpp": gettext_lazy("That costs %(cost)s CPP but only %(left)s are left."),
}


def reason_text(campaign: Campaign, reason: rules.Reason) -> str:
    """A refusal as a sentence naming the rule."""
    p = dict(reason.params)
    if "option" in p:
        p["option"] = option_label(p["option"])
    if "class" in p:
        p["class"] = f"{p['class']}-"
    if "period" in p:
        p["period"] = _period_label(campaign, p["period"])
    if isinstance(p.get("hist_drm"), int):
        p["hist_drm"] = signed(p["hist_drm"])
    return reason.sentence(REASONS, p)


def _period_label(campaign: Campaign, key: str) -> str:
    for period in campaign.cg.periods:
        if period.key == key:
            return period.label.in_language(get_language())
    return key


def may_buy_past_limits(campaign: Campaign, user: AbstractBaseUser) -> bool:
    """Only a member who may overrule (campaigns.access: the referee) buys past a limit."""
    viewer = viewer_or_none(user, campaign.pk)
    return viewer is not None and viewer.can_overrule


# --- buying and taking back ----------------------------------------------------------------


@transaction.atomic
def buy(
    campaign: Campaign,
    side: str,
    index: int,
    rg_id: str,
    options: rules.Options,
    by: AbstractBaseUser,
    override_reason: str = "",
    token: str = "",
) -> ReinforcementGroup:
    """Buy one RG for ``side`` on day ``index``; the RG, its CPP debit and its event, at once."""
    if side not in campaign.game.side_keys:
        raise PurchaseError(_("That is not a side of this game."))
    # Lock the side's CPP rows first: whatever is read below stays true until the commit.
    cpp_rows = _ledger_rows(campaign, side, LedgerEntry.CPP, lock=True)
    if token:
        already = ReinforcementGroup.objects.filter(
            campaign=campaign, side=side, details__form_token=token
        ).first()
        if already is not None:
            return already
    reph = open_purchase_reph(campaign, side)
    if index != reph.index:
        raise PurchaseError(_("That page was for another CG day; nothing was bought."))
    cpp = cpp_state(cpp_rows, len(campaign.cg.periods), index)
    charts = campaign.game.files["rg_charts"]
    facts = situation(campaign, side, reph, cpp_left=cpp.left)
    result, reasons = rules.check(charts, cg_definition(campaign), facts, rg_id, options)
    override_reason = override_reason.strip()
    blocking = [r for r in reasons if r.code in NOT_OVERRIDABLE]
    limits = [r for r in reasons if r.code not in NOT_OVERRIDABLE]
    if limits and override_reason and not may_buy_past_limits(campaign, by):
        raise PurchaseError(_("Only the referee may buy past a limit."), limits)
    if blocking or (limits and not override_reason):
        shown = blocking or limits
        raise PurchaseError(" ".join(reason_text(campaign, r) for r in shown), reasons)
    assert result is not None
    group = rules.group_by_id(charts, side, rg_id) or {}
    map_group = options.map_group or (facts.map_groups[0] if len(facts.map_groups) == 1 else "")
    details: dict = {
        "map_group": map_group,
        "price": [list(part) for part in result.parts],
    }
    if options.pre_registered_hexes:
        details["pre_registered_hexes"] = options.pre_registered_hexes
    if options.stuka_two_cpp:
        details["stuka_two_cpp"] = True
    if token:
        details["form_token"] = token
    if limits:
        details["override"] = {
            "reason": override_reason,
            "rules": [reason_text(campaign, r) for r in limits],
        }
    rg = ReinforcementGroup.objects.create(
        campaign=campaign,
        side=side,
        rg_id=rg_id,
        number=next_rg_number(campaign, side, rg_id),
        index=index,
        source=ReinforcementGroup.Source.PURCHASED,
        option=options.placement,
        cpp_cost=result.cost,
        details=details,
    )
    entries = []
    if result.cost:
        entries.append(
            LedgerEntry.objects.create(
                campaign=campaign,
                side=side,
                ledger=LedgerEntry.CPP,
                index=index,
                kind=LedgerKind.RG_PURCHASE,
                amount=-result.cost,
                rg=rg_id,
                note=rg.label,
                created_by=by,
            )
        )
    fpp = rules.fpp_of(group) if group.get("type") == "fortification" else 0
    if fpp:
        entries.append(
            LedgerEntry.objects.create(
                campaign=campaign,
                side=side,
                ledger=LedgerEntry.FPP,
                index=index,
                kind=LedgerKind.FORTIFICATION_RG,
                amount=fpp,
                rg=rg_id,
                note=rg.label,
                created_by=by,
            )
        )
    rg.details["ledger_entries"] = [entry.pk for entry in entries]
    san_changes = _raise_san(campaign, side, index, group, rg)
    rg.save(update_fields=["details"])
    history.record_change(
        campaign,
        by,
        "rg.purchased",
        visibility=side,
        changes=[(rg, None, history.snapshot(rg))]
        + [(entry, None, history.snapshot(entry)) for entry in entries]
        + san_changes,
        side=side,
        index=index,
        rg=rg.label,
        cpp=result.cost,
        option=options.placement,
        override=override_reason,
        referee_only=bool(limits),
    )
    return rg


def _san_increase(group: dict) -> int:
    """A Sniper RG (M2) raises the side's SAN (SaP data: ``san``; RF: "SAN increase +1")."""
    if "san" in group:
        return int(group["san"] or 0)
    return 1 if "SAN increase" in str(group.get("units", "")) else 0


def _raise_san(
    campaign: Campaign, side: str, index: int, group: dict, rg: ReinforcementGroup, sign: int = 1
) -> list:
    """The SAN of the day on the CG Roster goes up with a Sniper RG (down when taken back)."""
    increase = _san_increase(group)
    if not increase:
        return []
    side_day = (
        SideDay.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, side=side, index=index)
        .first()
    )
    if side_day is None or side_day.san is None:
        return []
    before = history.snapshot(side_day)
    side_day.san = max(side_day.san + sign * increase, 0)
    side_day.version += 1
    side_day.save(update_fields=["san", "version"])
    if sign > 0:
        rg.details["san_increase"] = increase
    return [(side_day, before, history.snapshot(side_day))]


@transaction.atomic
def remove(campaign: Campaign, rg: ReinforcementGroup, by: AbstractBaseUser) -> None:
    """Take back a purchase (RG, its box, its CPP/FPP entries) before the step is marked done."""
    _ledger_rows(campaign, rg.side, LedgerEntry.CPP, lock=True)
    fpp_rows = _ledger_rows(campaign, rg.side, LedgerEntry.FPP, lock=True)
    rg = (
        ReinforcementGroup.objects.select_for_update(of=("self",))
        .filter(pk=rg.pk, campaign=campaign)
        .first()
    )
    if rg is None:
        raise PurchaseError(_("That purchase is already gone."))
    if rg.source != ReinforcementGroup.Source.PURCHASED:
        raise PurchaseError(_("RGs given in the initial OB cannot be taken back."))
    reph = open_purchase_reph(campaign, rg.side)
    if rg.index != reph.index:
        raise PurchaseError(_("Only purchases of the current Refit Phase can be taken back."))
    # The rows its purchase booked, never another campaign's (the ids come from the RG's data).
    entries = list(
        LedgerEntry.objects.filter(campaign=campaign, pk__in=rg.details.get("ledger_entries", []))
    )
    fpp = sum(e.amount for e in entries if e.ledger == LedgerEntry.FPP)
    if fpp:
        day = fpp_days(len(campaign.cg.periods), [Movement(*row) for row in fpp_rows])[rg.index]
        if day.lost < fpp:
            raise PurchaseError(
                _("Its FPP are already spent on fortifications; take those back first.")
            )
    changes: list = [(entry, history.snapshot(entry), None) for entry in entries]
    if rg.details.get("san_increase"):
        group = {"san": rg.details["san_increase"]}
        changes += _raise_san(campaign, rg.side, rg.index, group, rg, sign=-1)
    units = list(rg.entries.all())
    changes += [(unit, history.snapshot(unit), None) for unit in units]
    changes.append((rg, history.snapshot(rg), None))
    label = rg.label
    for unit in units:
        unit.delete()
    for entry in entries:
        entry.delete()
    rg.delete()
    history.record_change(
        campaign,
        by,
        "rg.purchase_removed",
        visibility=rg.side,
        changes=changes,
        side=rg.side,
        index=rg.index,
        rg=label,
    )


# --- what the RG Purchase Record's "Other" column keeps ---------------------------------------


def notes_seen(rg: ReinforcementGroup) -> str:
    """A fingerprint of the RG's written notes, posted back so a page left open cannot
    overwrite what another device saved since (RGs carry no version)."""
    details = rg.details
    values = [details.get(key, "") for key in ("hexes", "observer_location", "note", "e721")]
    return hashlib.sha256(json.dumps(values).encode()).hexdigest()[:16]


def is_stuka(campaign: Campaign, rg: ReinforcementGroup) -> bool:
    """RF S1: how many Stukas come is E7.21's number + 1 (RF9); E7.21 is in the ASL rulebook,
    not in the CG's rules, so the player enters its number."""
    return campaign.module == rules.RF and rg.rg_id == "S1"


def has_observer(campaign: Campaign, rg: ReinforcementGroup) -> bool:
    """OBA modules and observers (O- RGs): where the offboard observer sets up is recorded."""
    return rg.rg_id.startswith("O")


HEX_SPLIT = re.compile(r"[\s,、;]+")


@transaction.atomic
def record_notes(
    campaign: Campaign,
    rg: ReinforcementGroup,
    *,
    seen: str,
    hexes: str,
    observer_location: str,
    note: str,
    by: AbstractBaseUser,
    e721: int | None = None,
) -> ReinforcementGroup:
    """Write the pre-registered hexes, the offboard observer's Location and a note (the MOL
    day …) on an RG: secret to its side, written any time after the purchase."""
    rg = ReinforcementGroup.objects.select_for_update(of=("self",)).get(pk=rg.pk, campaign=campaign)
    if seen != notes_seen(rg):
        raise PurchaseError(
            _("Someone saved this RG's notes since the page was opened; reload and try again.")
        )
    hexes = " ".join(part for part in HEX_SPLIT.split(hexes.strip()) if part)
    allowed = int(rg.details.get("pre_registered_hexes") or 0)
    if hexes and len(hexes.split()) > allowed:
        raise PurchaseError(
            _("%(rg)s was bought with %(n)s pre-registered hex(es); %(given)s are written.")
            % {"rg": rg.label, "n": allowed, "given": len(hexes.split())}
        )
    if observer_location.strip() and not has_observer(campaign, rg):
        raise PurchaseError(_("Only OBA RGs have an offboard observer."))
    if e721 is not None and not is_stuka(campaign, rg):
        raise PurchaseError(_("Only a Stuka RG (S1) has an E7.21 number."))
    before = history.snapshot(rg)
    details = dict(rg.details)
    if e721 is None:
        details.pop("e721", None)
        details.pop("stukas", None)
    else:
        details["e721"] = e721
        details["stukas"] = e721 + 1  # RF9
    for key, value in (
        ("hexes", hexes),
        ("observer_location", observer_location.strip()[:60]),
        ("note", note.strip()[:200]),
    ):
        if value:
            details[key] = value
        else:
            details.pop(key, None)
    rg.details = details
    rg.save(update_fields=["details"])
    history.record_change(
        campaign,
        by,
        "rg.noted",
        visibility=rg.side,
        changes=[(rg, before, history.snapshot(rg))],
        side=rg.side,
        index=rg.index,
        rg=rg.label,
    )
    return rg
