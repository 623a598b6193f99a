"""Buying RGs in the Refit Phase (RF 11.619, SaP 11.617) and taking a purchase back.

The rules are in ``refit.rules.purchase`` (pure); the campaign state they are judged on is read
once by ``refit.purchases.reading.read_side``. This module makes the change: the
ReinforcementGroup (its divider box comes with it), the CPP debit (and the FPP credit of a
fortification RG) and one history event scoped to the side — all in one transaction that first
locks the side's ledger rows, so two devices of one side cannot spend the same CPP.

Double submits: each purchase form carries a random token; the token is stored on the RG it
bought, and a second POST with the same token returns that RG instead of buying again.

A referee may buy past a limit (day max, CG max, company caps, date notes, SSR bans) with a
written reason, stored on the RG and in the event. Nobody may spend CPP the side does not have
(a referee adjusts the ledger first) or choose an option the RG does not have.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.access import viewer_or_none
from campaigns.games.rules import Reason, signed
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
from campaigns.models.state import RG_OPTION_WORDS
from campaigns.orbat.services import next_rg_number
from campaigns.roster.ledger import Movement, fpp_days
from campaigns.state import StateError
from refit.purchases.reading import cg_definition, purchase_rule, read_side
from refit.rules import purchase as rules
from refit.rules import purchase_costs as costs
from refit.walker import services as walker

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

    def __init__(self, message: str, reasons: Sequence[Reason] = ()) -> None:
        super().__init__(message)
        self.reasons = list(reasons)


# --- reasons in words ----------------------------------------------------------------------


def option_label(option: str) -> str:
    return str(RG_OPTION_WORDS.get(option, option.replace("_", " ")))


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
        "depends on it: the referee enters it on the Historical DRM chart first."
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


def reason_text(campaign: Campaign, reason: Reason) -> str:
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


# --- buying and taking back ----------------------------------------------------------------


@transaction.atomic
def buy(
    campaign: Campaign,
    side: str,
    index: int,
    rg_id: str,
    options: costs.Options,
    by: AbstractBaseUser,
    override_reason: str = "",
    token: str = "",
) -> ReinforcementGroup:
    """Buy one RG for ``side`` on day ``index``; the RG, its CPP debit and its event, at once."""
    if side not in campaign.game.side_keys:
        raise PurchaseError(_("That is not a side of this game."))
    # Read the side once, its CPP rows locked first: what is judged below stays true until the
    # commit, so two devices of one side cannot spend the same CPP.
    reading = read_side(campaign, side, index, lock=True)
    if token:
        already = ReinforcementGroup.objects.filter(
            campaign=campaign, side=side, details__form_token=token
        ).first()
        if already is not None:
            return already
    reph = open_purchase_reph(campaign, side)
    if index != reph.index:
        raise PurchaseError(_("That page was for another CG day; nothing was bought."))
    charts = campaign.game.files["rg_charts"]
    facts = reading.facts(reph)
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
    group = costs.group_by_id(charts, side, rg_id) or {}
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
    fpp = costs.fpp_of(group) if group.get("type") == "fortification" else 0
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
    # Lock both of the side's ledgers in one read: its CPP come back, a fortification RG's FPP go.
    ledger = list(
        LedgerEntry.objects.filter(campaign=campaign, side=rg.side).select_for_update(of=("self",))
    )
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
    # The rows its purchase booked, found among this campaign's side rows only (the ids come
    # from the RG's data, which an imported file could fill with another campaign's ids).
    own = set(rg.details.get("ledger_entries", []))
    entries = [entry for entry in ledger if entry.pk in own]
    fpp = sum(e.amount for e in entries if e.ledger == LedgerEntry.FPP)
    if fpp:
        movements = [
            Movement(e.index, e.kind, e.amount, e.rg) for e in ledger if e.ledger == LedgerEntry.FPP
        ]
        day = fpp_days(len(campaign.cg.periods), movements)[rg.index]
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
