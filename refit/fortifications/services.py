"""Buying fortifications with FPP (RF 11.621, SaP 11.619 / 11.6191), taking a purchase back,
and writing down later where it was set up (RF 11.6242/11.6244, SaP 11.6213) or placed after
being bought Under Construction (SaP 11.622).

The costs and limits are in ``refit.rules.fortification`` (pure); this module reads the state
they are judged on and makes the change: the FortificationPurchase row and its FPP debit, with
one history event scoped to the side, in one transaction that first locks the side's FPP rows.
Each form carries a random token: a second POST with the same token returns the first purchase.
A referee may buy past a limit (the minefield cap, the booby-trap maximum, an SSR or time-frame
restriction) with a written reason; nobody may spend FPP the side does not have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet, Sum
from django.db.models.fields.json import KeyTransform
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.games.registry import localized
from campaigns.games.rules import Reason
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    DiceRoll,
    FortificationPurchase,
    LedgerEntry,
    LedgerKind,
    RefitPhase,
    StepProgress,
)
from campaigns.roster.ledger import Movement, fpp_days
from campaigns.said import in_every_language, said
from campaigns.state import StaleEdit, StateError, save_versioned
from refit.purchases.reading import cg_definition
from refit.purchases.services import may_buy_past_limits
from refit.queries import fpp_day_rows, per_side
from refit.rules import fortification as rules
from refit.rules.purchase_costs import RF
from refit.walker import services as walker
from refit.walker import strictness

FORTIFICATION_STEP = {"red_factories": "11.621", "slaughter_at_ponyri": "11.619"}
BOOBY_TRAP_ITEMS = ("booby-trap", "booby_trap")
BOOBY_TRAP_DROP_TABLES = ("rf.booby-trap-reduction", "sap.booby-trap-decay")
MINEFIELDS = ("ap-minefield", "at-minefield")

# Limits a referee may lift with a written reason; everything else is an impossibility.
OVERRIDABLE = {"minefield_cap", "booby_trap_max", "only_concealment", "no_hidden_belts_daytime"}


class FortificationError(StateError):
    def __init__(self, message: str, reasons: Sequence[Reason] = ()) -> None:
        super().__init__(message)
        self.reasons = list(reasons)


def has_fortifications(campaign: Campaign) -> bool:
    return campaign.module in FORTIFICATION_STEP and bool(items(campaign))


def fortification_rule(campaign: Campaign) -> str:
    return FORTIFICATION_STEP[campaign.module]


def table(campaign: Campaign) -> dict[str, Any]:
    return dict(rules.purchase_table(campaign.game.files.get("tables", {})))


def items(campaign: Campaign) -> list[dict[str, Any]]:
    return list(table(campaign).get("items", []))


def item_name(campaign: Campaign, item_id: str) -> str:
    """The item's name in the active language (a ledger note is read by people, not code)."""
    item = next((i for i in items(campaign) if i["id"] == item_id), None)
    return localized((item or {}).get("name"), get_language()) or item_id


def item_for_side(campaign: Campaign, item: dict[str, Any], side: str) -> bool:
    """Whether the side may buy the item at all (RF "R" items, SaP ``sides``)."""
    if campaign.module == RF:
        only = table(campaign).get("flags", {}).get("R", {}).get("sides", [])
        return "R" not in item.get("flags", []) or side in only
    return side in item.get("sides", [])


# --- the state a purchase is judged on ------------------------------------------------------


@dataclass(frozen=True)
class FppState:
    available: int
    spent: int
    left: int


def fpp_state(rows: Sequence[tuple[int, str, int, str]], day_count: int, index: int) -> FppState:
    day = fpp_days(day_count, [Movement(*row) for row in rows])[index]
    return FppState(available=day.available, spent=day.spent, left=day.lost)


@dataclass(frozen=True)
class SideReading:
    """A side's fortification state, read once per request in a fixed handful of queries
    however long the record: its FPP ledger summed per day, kind and sign (``(index, kind,
    amount, rg)``, what ``fpp_days`` reads), the purchases not yet set up summed per item and
    variant (what the Total # boxes read), the booby traps bought summed per day (what the
    level and the day's limit read), the 11.6123 drops when first asked, and the
    purchases themselves as an ordered queryset, read a page at a time. The page and the
    purchase both judge on it, so neither reads the ledger twice."""

    campaign: Campaign
    side: str
    fpp_rows: list[tuple[int, str, int, str]]
    pending: list[rules.Pending]
    # (index, under construction, quantity, lost): booby traps bought, summed per day.
    booby_traps: list[tuple[int, bool, int, Any]]
    purchases: QuerySet[FortificationPurchase]

    def fpp(self, index: int) -> FppState:
        return fpp_state(self.fpp_rows, len(self.campaign.cg.periods), index)

    @cached_property
    def drops(self) -> list[int]:
        """The days of the side's 11.6123 booby-trap drops (one query, when first asked)."""
        # Unordered: sorted by time, SQLite would walk every roll of the campaign for them.
        rolls = per_side(
            "booby-trap drops",
            self.side,
            lambda campaign_id: (
                DiceRoll.objects.filter(
                    campaign_id=campaign_id,
                    side=self.side,
                    table_id__in=BOOBY_TRAP_DROP_TABLES,
                    voided_at__isnull=True,
                )
                .order_by()
                .values_list("index", "result")
            ),
            1,
        )(self.campaign.pk)
        return [
            index
            for index, result in rolls
            if isinstance(result, dict) and result.get("level_change") == -1
        ]


MOVEMENT = ("index", "kind", "amount", "rg")  # a ledger row as fpp_days reads it
ORDER_KEYS = ("factors", "unit", "belt", "size")  # what rules.record_totals reads of an order


def _order_key(key: str) -> KeyTransform:
    return KeyTransform(key, KeyTransform("order", "details"))


def read_side(
    campaign: Campaign, side: str, *, lock: bool = False, limits_only: bool = False
) -> SideReading:
    """Three queries, the same for any length of record (the purchases' own rows are read only
    when a page of them is). With ``lock`` (inside a transaction) the FPP rows stay locked until
    the commit, so two devices of one side cannot spend the same FPP. ``limits_only``: the
    booby traps bought alone (one query: what the booby-trap level reads), the ledger and the
    Total # boxes left empty."""
    purchases = FortificationPurchase.objects.filter(campaign=campaign, side=side)

    def booby_traps() -> list[tuple[int, bool, int, Any]]:
        rows = per_side(
            "booby traps",
            side,
            lambda campaign_id: (
                FortificationPurchase.objects.filter(
                    campaign_id=campaign_id, side=side, item__in=BOOBY_TRAP_ITEMS
                )
                .order_by()
                .values_list("index", "under_construction", KeyTransform("lost", "details"))
                .annotate(quantity=Sum("quantity"))
            ),
            1,
        )(campaign.pk)
        return [(index, uc, quantity, lost) for index, uc, lost, quantity in rows]

    if limits_only:
        return SideReading(campaign, side, [], [], booby_traps(), purchases.order_by("index", "id"))
    # The ledger first: with ``lock``, the purchases read after it cannot change until the commit.
    rows = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger=LedgerEntry.FPP)
    if lock:
        # FOR UPDATE cannot group: the rows themselves, which fpp_days sums the same way.
        fpp_rows = list(rows.select_for_update(of=("self",)).values_list(*MOVEMENT))
    else:
        fpp_rows = fpp_day_rows(campaign.pk, side)  # the ledger's totals (LedgerTotal)
    pending = [
        rules.Pending(
            item, quantity, {k: v for k, v in zip(ORDER_KEYS, order, strict=True) if v is not None}
        )
        for item, lost, *order, quantity in per_side(
            "pending",
            side,
            lambda campaign_id: (
                FortificationPurchase.objects.filter(
                    campaign_id=campaign_id, side=side, location=""
                )
                .order_by()
                .values_list("item", KeyTransform("lost", "details"), *map(_order_key, ORDER_KEYS))
                .annotate(quantity=Sum("quantity"))
            ),
            1,
        )(campaign.pk)
        if not lost
    ]
    return SideReading(
        campaign=campaign,
        side=side,
        fpp_rows=fpp_rows,
        pending=pending,
        booby_traps=booby_traps(),
        purchases=purchases.order_by("index", "id"),
    )


def side_fpp(campaign: Campaign, side: str, index: int) -> FppState:
    return read_side(campaign, side).fpp(index)


def _booby_trap_changes(
    reading: SideReading, index: int, *, todays: bool = False
) -> list[tuple[int, int]]:
    """Level changes before day ``index``'s purchases (with ``todays``, including them):
    purchases (Under Construction ones hold from the next time frame, a lost one never) and
    the 11.6123 drops rolled so far."""
    changes = [
        (bought + (1 if under_construction else 0), quantity)
        for bought, under_construction, quantity, lost in reading.booby_traps
        if (bought <= index if todays else bought < index) and not lost
    ]
    return changes + [(roll_index, -1) for roll_index in reading.drops]


def booby_trap_level(
    campaign: Campaign, side: str, index: int, reading: SideReading | None = None
) -> str:
    reading = reading or read_side(campaign, side, limits_only=True)
    changes = _booby_trap_changes(reading, index)
    return rules.booby_trap_level(changes, index)


def booby_trap_level_in_force(
    campaign: Campaign, side: str, index: int, reading: SideReading | None = None
) -> str:
    """The level in force for day ``index``'s scenario: the day's drop and its own purchases
    count (they come before the scenario); an Under Construction purchase counts from the next
    time frame (SaP 11.6191)."""
    reading = reading or read_side(campaign, side, limits_only=True)
    changes = _booby_trap_changes(reading, index, todays=True)
    return rules.booby_trap_level(changes, index)


def moment(campaign: Campaign, side: str, reph: RefitPhase, reading: SideReading) -> rules.Moment:
    """The facts an order of ``side`` in ``reph`` is judged on (one query: the day's
    minefields)."""
    minefields = reading.purchases.filter(index=reph.index, item__in=MINEFIELDS).aggregate(
        fpp=Sum("fpp")
    )
    cg_def = cg_definition(campaign)
    ssr_effects = [
        effect
        for ssr in cg_def.get("ssrs", [])
        for effect in ssr.get("effects", [])
        if effect.get("side") == side
    ]
    changes = _booby_trap_changes(reading, reph.index)
    return rules.Moment(
        module=campaign.module,
        side=side,
        cg=campaign.campaign_game,
        period_key=campaign.cg.periods[reph.index].key,
        reph_kind=reph.kind,
        ssr_effects=ssr_effects,
        minefield_fpp_today=minefields["fpp"] or 0,
        booby_trap_level=rules.booby_trap_level(changes, reph.index),
        booby_traps_today=sum(
            quantity for index, _uc, quantity, _lost in reading.booby_traps if index == reph.index
        ),
    )


def step_done(reph: RefitPhase, side: str, rule: str) -> bool:
    return StepProgress.objects.filter(reph=reph, side=side, rule=rule).exists()


def open_fortification_reph(campaign: Campaign, side: str) -> RefitPhase:
    """The open RePh, if it has the fortification step and the side has not marked it."""
    reph = walker.open_reph(campaign)
    rule = fortification_rule(campaign)
    if reph is None or not any(step.rule == rule for step in walker.steps(campaign, reph)):
        raise FortificationError(_("Fortifications are bought in step %(rule)s.") % {"rule": rule})
    if step_done(reph, side, rule):
        raise FortificationError(
            _("The side has marked %(rule)s done; take the mark back to change its purchases.")
            % {"rule": rule}
        )
    return reph


# --- reasons in words -----------------------------------------------------------------------


REASONS = {
    "unknown_fortification": gettext_lazy("%(item)s is not on the Fortification Purchase Table."),
    "quantity": gettext_lazy("Buy at least one."),
    "only_concealment": gettext_lazy("Only “?” may be bought now."),
    "soviet_only": gettext_lazy("Only the Soviet / Russian side may buy this."),
    "hip_afv_soviet_only": gettext_lazy("Only the Soviet side may set up AFVs HIP."),
    "choose_variant": gettext_lazy("Choose which one (size, factors, unit, strength …)."),
    "no_under_construction": gettext_lazy("This cannot be bought Under Construction."),
    "hexes_needed": gettext_lazy("Write the hexes it will be placed in."),
    "detonating_unit": gettext_lazy("Name the unit that will detonate the Set DC."),
    "minefield_cap": gettext_lazy(
        "At most %(max)s FPP of minefields per CG day; %(spent)s already spent today."
    ),
    "booby_trap_max": gettext_lazy("The booby-trap level cannot rise above A."),
    "no_hidden_belts_daytime": gettext_lazy("No Hidden Mine Belts in a Daytime Refit Phase."),
    "fpp": gettext_lazy("That costs %(cost)s FPP but only %(left)s are left."),
    "hexes_unconfirmed": gettext_lazy(
        "Confirm that every hex is Russian-controlled and at least 8 hexes from every "
        "German-controlled hex."
    ),
}


def reason_text(reason: Reason) -> str:
    """A refusal as a sentence naming the rule."""
    return reason.sentence(REASONS)


# --- buying, taking back, writing down where ------------------------------------------------


@transaction.atomic
def buy(
    campaign: Campaign,
    side: str,
    index: int,
    order: rules.FortificationOrder,
    by: AbstractBaseUser,
    *,
    hexes_confirmed: bool = False,
    override_reason: str = "",
    token: str = "",
) -> FortificationPurchase:
    """Buy ``order`` for ``side`` on day ``index``: the record line, its FPP debit, its event."""
    if side not in campaign.game.side_keys:
        raise FortificationError(_("That is not a side of this game."))
    # Lock the side's FPP rows first: whatever is read below stays true until the commit.
    reading = read_side(campaign, side, lock=True)
    if token:
        already = reading.purchases.filter(details__form_token=token).first()
        if already is not None:
            return already
    reph = open_fortification_reph(campaign, side)
    if index != reph.index:
        raise FortificationError(_("That page was for another CG day; nothing was bought."))
    tables = campaign.game.files.get("tables", {})
    total, reasons = rules.cost(tables, moment(campaign, side, reph, reading), order)
    construction = table(campaign).get("under_construction") or {}
    if order.under_construction and not hexes_confirmed:
        reasons.append(Reason("hexes_unconfirmed", construction.get("rule", "11.6191"), {}))
    fpp = reading.fpp(index)
    if total is not None and total > fpp.left:
        reasons.append(
            Reason("fpp", fortification_rule(campaign), {"cost": total, "left": fpp.left})
        )
    override_reason = override_reason.strip()
    limits = [r for r in reasons if r.code in OVERRIDABLE]
    blocking = [r for r in reasons if r.code not in OVERRIDABLE]
    if limits and override_reason and not may_buy_past_limits(campaign, by):
        raise FortificationError(_("Only the referee may buy past a limit."), limits)
    if blocking or (limits and not override_reason):
        shown = blocking or limits
        raise FortificationError(" ".join(reason_text(r) for r in shown), reasons)
    assert total is not None
    details: dict[str, Any] = {"order": _order_data(order)}
    if token:
        details["form_token"] = token
    if limits:
        details["override"] = {
            "reason": override_reason,
            "rules": [reason_text(r) for r in limits],
        }
    entry = None
    if total:
        # The app's words, read in each reader's language (campaigns.said).
        note = said(lambda: f"{order.quantity} × {item_name(campaign, order.item)}"[:200])
        entry = LedgerEntry.objects.create(
            campaign=campaign,
            side=side,
            ledger=LedgerEntry.FPP,
            index=index,
            kind=LedgerKind.FORTIFICATION_PURCHASE,
            amount=-total,
            note=str(note),
            note_words=in_every_language(note),
            created_by=by,
        )
    purchase = FortificationPurchase.objects.create(
        campaign=campaign,
        side=side,
        index=index,
        item=order.item,
        detail=rules.order_detail(order)[:100],
        details=details,
        quantity=order.quantity,
        fpp=total,
        under_construction=order.under_construction,
        hexes=order.hexes.strip()[:200],
        ledger_entry=entry,
        created_by=by,
    )
    changes: list = [(purchase, None, history.snapshot(purchase))]
    if entry is not None:
        changes.insert(0, (entry, None, history.snapshot(entry)))
    history.record_change(
        campaign,
        by,
        "fortification.purchased",
        visibility=side,
        changes=changes,
        side=side,
        index=index,
        item=order.item,
        detail=purchase.detail,
        order=details["order"],  # the variant as data: the sentence words it for the reader
        quantity=order.quantity,
        fpp=total,
        under_construction=order.under_construction,
        override=override_reason,
        referee_only=bool(limits),
    )
    return purchase


def _order_data(order: rules.FortificationOrder) -> dict[str, Any]:
    data = {
        key: value
        for key, value in vars(order).items()
        if value not in (None, "", False) and key not in ("item", "quantity", "hexes")
    }
    return data


@transaction.atomic
def remove(campaign: Campaign, purchase: FortificationPurchase, by: AbstractBaseUser) -> None:
    """Take back a purchase of the current RePh (its FPP come back) before the step is done."""
    # Lock the side's FPP rows, read once: the purchase's debit is among them.
    ledger = list(
        LedgerEntry.objects.filter(
            campaign=campaign, side=purchase.side, ledger=LedgerEntry.FPP
        ).select_for_update(of=("self",))
    )
    purchase = (
        FortificationPurchase.objects.select_for_update(of=("self",))
        .filter(pk=purchase.pk, campaign=campaign)
        .first()
    )
    if purchase is None:
        raise FortificationError(_("That purchase is already gone."))
    if purchase.details.get("initial"):
        raise FortificationError(_("The initial OB's fortifications are given, not bought."))
    reph = open_fortification_reph(campaign, purchase.side)
    if purchase.index != reph.index:
        raise FortificationError(_("Only purchases of the current Refit Phase can be taken back."))
    entry = next((e for e in ledger if e.pk == purchase.ledger_entry_id), None)
    changes: list = [(purchase, history.snapshot(purchase), None)]
    if entry is not None:
        changes.append((entry, history.snapshot(entry), None))
    side, index, item, quantity = purchase.side, purchase.index, purchase.item, purchase.quantity
    detail = purchase.detail
    purchase.delete()
    if entry is not None:
        entry.delete()
    history.record_change(
        campaign,
        by,
        "fortification.removed",
        visibility=side,
        changes=changes,
        side=side,
        index=index,
        item=item,
        detail=detail,
        quantity=quantity,
    )


@transaction.atomic
def set_location(
    campaign: Campaign,
    purchase: FortificationPurchase,
    version: int,
    location: str,
    by: AbstractBaseUser,
    *,
    lost: bool = False,
) -> FortificationPurchase:
    """Write where the fortification was set up (or, bought Under Construction, that it was
    lost because a hex no longer qualified at placement, SaP 11.6191). Secret to the side."""
    location = location.strip()
    if lost and not purchase.under_construction:
        raise FortificationError(_("Only a fortification Under Construction can be lost."))
    if lost:
        location = ""
    details = dict(purchase.details)
    if lost:
        details["lost"] = True
    else:
        details.pop("lost", None)
    before = history.snapshot(purchase)
    try:
        save_versioned(purchase, version, {"location": location[:200], "details": details})
    except StaleEdit as error:
        raise FortificationError(str(error)) from error
    after = history.snapshot(purchase)
    history.record_change(
        campaign,
        by,
        "fortification.located",
        visibility=purchase.side,
        changes=[(purchase, before, after)],
        side=purchase.side,
        index=purchase.index,
        item=purchase.item,
        detail=purchase.detail,
        quantity=purchase.quantity,
        location=location,
        lost=lost,
    )
    return purchase


def _booby_trap_level_now(campaign: Campaign, reph: RefitPhase, side: str) -> str:
    """The side's booby-trap level in force in ``reph`` (what 11.6123 is rolled on)."""
    return booby_trap_level(campaign, side, reph.index)


def register() -> None:
    """Tell the walker's roll rules the booby-trap level (refit/apps.py): 11.6123 is rolled
    only at level A or B, and then must be."""
    strictness.FACTS["booby_trap_level"] = _booby_trap_level_now
