"""The points of the turn: replacement and air points booked per side per turn (Defiant Russia
10.13, 10.14, 11.7; Cherkassy Pocket air points come from rolls), and spending replacement
points to restore or rebuild a unit (Defiant Russia 10.11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Case, Sum, Value, When
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns import state
from campaigns.access import PUBLIC
from campaigns.games.rules import Reason
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    ControlPoint,
    GameUnit,
    PointEntry,
    PointKind,
    UnitState,
)
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.defiant_russia import air as dr_air
from campaigns.shortgames.rules.defiant_russia import replacements as dr_replacements
from campaigns.shortgames.turn_steps import (
    TurnError,
    locked_campaign,
    reader_language,
)
from campaigns.state import StateError

NOW = "now"  # the segment argument's default: the activation segment the turn is at


def per_segment(campaign: Campaign, kind: str) -> bool:
    """Cherkassy Pocket's air points are given per activation segment (11.16)."""
    return campaign.module == "cherkassy_pocket" and kind == PointKind.AIR


def air_segment_now(campaign: Campaign) -> int | None:
    """The activation segment whose Cherkassy air points can be spent now (None: none)."""
    from campaigns.shortgames import cp_segments  # it reads the turn's steps

    return cp_segments.segment_now(campaign)


def _rows(campaign: Campaign, side: str, index: int, kind: str, segment: Any = NOW) -> Any:
    """A side's point rows of a turn; Cherkassy's air points only those of ``segment`` (by
    default the segment the turn is at: the others' points have lapsed or are not given)."""
    rows = PointEntry.objects.filter(campaign=campaign, side=side, index=index, kind=kind)
    if per_segment(campaign, kind):
        if segment == NOW:
            segment = air_segment_now(campaign) if index == campaign.period_index else None
        rows = rows.filter(segment=segment)  # None: the rows of no segment (IS NULL)
    return rows


@dataclass(frozen=True)
class AirNow:
    """A Cherkassy side's air points that can be spent now, and why (11.16)."""

    segment: int | None
    left: int

    def words(self) -> str:
        if self.segment is None:
            return _(
                "%(n)s: the turn is at no activation segment (11.16: air points are given "
                "per segment and lapse at its end)"
            ) % {"n": self.left}
        return _(
            "%(n)s in activation segment %(segment)s (11.16: given per segment; what is "
            "left lapses at the segment's end)"
        ) % {"n": self.left, "segment": self.segment}


def air_now(campaign: Campaign, side: str) -> AirNow:
    segment = air_segment_now(campaign)
    return AirNow(segment, balance(campaign, side, campaign.period_index, PointKind.AIR, segment))


def balance(campaign: Campaign, side: str, index: int, kind: str, segment: Any = NOW) -> int:
    total = _rows(campaign, side, index, kind, segment).aggregate(total=Sum("amount"))["total"]
    return total or 0


@dataclass(frozen=True)
class TurnPoints:
    """A side's points of one kind in one turn: what came in, what went out, what is left
    (``balance``'s figure)."""

    received: int = 0
    spent: int = 0

    @property
    def left(self) -> int:
        return self.received - self.spent


def turn_sums(campaign: Campaign) -> dict[tuple[int, str, str], TurnPoints]:
    """Every turn's points per (turn index, side, kind), summed in SQL by sign (one query)."""
    sums: dict[tuple[int, str, str], TurnPoints] = {}
    rows = (
        PointEntry.objects.filter(campaign=campaign)
        .annotate(negative=Case(When(amount__lt=0, then=Value(1)), default=Value(0)))
        .order_by("index", "side", "kind", "negative")
        .values_list("index", "side", "kind", "negative")
        .annotate(total=Sum("amount"))
    )
    for index, side, kind, negative, total in rows:
        found = sums.get((index, side, kind), TurnPoints())
        if negative:
            found = TurnPoints(found.received, found.spent - total)
        else:
            found = TurnPoints(found.received + total, found.spent)
        sums[(index, side, kind)] = found
    return sums


@transaction.atomic
def add_points(
    campaign: Campaign,
    *,
    by: AbstractBaseUser,
    side: str,
    index: int,
    kind: str,
    action: str,
    amount: int,
    note: str = "",
    unit: GameUnit | None = None,
    front: str = "",
) -> PointEntry:
    """``front``: Cherkassy Pocket's Soviet Front (11.16) whose share is spent or adjusted; a
    spending takes it from that Front's points, else from points no Front owns. Cherkassy's
    air points are booked in the activation segment the turn is at (11.16)."""
    segment = (
        air_segment_now(campaign)
        if per_segment(campaign, kind) and index == campaign.period_index
        else None
    )
    if side not in campaign.game.side_keys:
        raise StateError(_("That is not a side of this game."))
    if kind not in PointKind.values or action not in PointEntry.Action.values:
        raise StateError(_("That kind of points does not exist."))
    if amount == 0:
        raise StateError(_("An entry of 0 points changes nothing."))
    if action == PointEntry.Action.ADJUSTMENT and not note.strip():
        raise StateError(_("Give the reason for the adjustment."))
    if amount < 0 and action != PointEntry.Action.ADJUSTMENT:
        # Lock the side's rows of the turn: two players cannot spend the same points at once.
        list(
            PointEntry.objects.select_for_update(of=("self",)).filter(
                campaign=campaign, side=side, index=index, kind=kind
            )
        )
        if balance(campaign, side, index, kind, segment) + amount < 0:
            if per_segment(campaign, kind):
                raise StateError(
                    _(
                        "Not enough points left in this activation segment (11.16: air points "
                        "are given per segment and lapse at its end)."
                    )
                )
            raise StateError(_("Not enough points left this turn."))
        if per_segment(campaign, kind):
            front, refused = cp_air.front_to_spend(
                side, front, -amount, left_by_front(campaign, side, index, segment)
            )
            if refused is not None:
                raise StateError(refused.in_language(reader_language()))
    if front and (
        front not in cp_air.FRONTS
        or side != "soviet"
        or kind != PointKind.AIR
        or campaign.module != "cherkassy_pocket"
    ):
        raise StateError(_("Only the Soviet air points of Cherkassy Pocket belong to a Front."))
    entry = PointEntry.objects.create(
        campaign=campaign,
        side=side,
        index=index,
        kind=kind,
        action=action,
        amount=amount,
        unit=unit,
        note=note.strip()[:200],
        front=front,
        segment=segment,
        created_by=by,
    )
    history.record_change(
        campaign,
        by,
        "points.added",
        visibility=PUBLIC,
        changes=[(entry, None, history.snapshot(entry))],
        side=side,
        kind=kind,
        what=action,
        amount=amount,
        unit=unit.name if unit is not None else "",
        index=index,
        front=front,
    )
    return entry


def left_by_front(campaign: Campaign, side: str, index: int, segment: Any = NOW) -> dict[str, int]:
    """A side's air points left per Front (11.16; "" for points no Front owns): those of the
    activation segment the turn is at (or of ``segment``) in Cherkassy Pocket."""
    rows = (
        _rows(campaign, side, index, PointKind.AIR, segment)
        .order_by("front")
        .values_list("front")
        .annotate(total=Sum("amount"))
    )
    return {front: total for front, total in rows}


def air_credit_entries(
    campaign: Campaign,
    *,
    side: str,
    index: int,
    amount: int,
    note: str,
    by: AbstractBaseUser,
    segment: int | None,
) -> list[PointEntry]:
    """Cherkassy Pocket's air points received for activation ``segment`` (11.16: spent in it
    only), as rows: the Soviet points split between the Fronts while 11.16 says so (turn 1 on,
    until the pocket forms), recorded as data now."""
    game = short_games.setup_of(campaign)
    rows = cp_air.credited_by_front(
        side,
        amount,
        short_games.turn_number(campaign, index),
        game is not None and game.pocket_formed_index is not None,
    )
    return [
        PointEntry.objects.create(
            campaign=campaign,
            side=side,
            index=index,
            kind=PointKind.AIR,
            action=PointEntry.Action.RECEIVED,
            amount=points,
            note=note[:200],
            front=front,
            segment=segment,
            created_by=by,
        )
        for front, points in rows
    ]


@transaction.atomic
def receive_air(
    campaign: Campaign,
    *,
    side: str,
    index: int,
    amount: int,
    note: str,
    by: AbstractBaseUser,
    segment: int | None,
) -> list[PointEntry]:
    """Credit a Cherkassy side's rolled air points for activation ``segment`` (split between
    the Soviet Fronts when 11.16 says so), one history event for all rows."""
    entries = air_credit_entries(
        campaign, side=side, index=index, amount=amount, note=note, by=by, segment=segment
    )
    history.record_change(
        campaign,
        by,
        "points.added",
        visibility=PUBLIC,
        changes=[(entry, None, history.snapshot(entry)) for entry in entries],
        side=side,
        kind=PointKind.AIR,
        what=PointEntry.Action.RECEIVED,
        amount=amount,
        unit="",
        index=index,
        fronts={entry.front: entry.amount for entry in entries if entry.front},
        segment=segment,
    )
    return entries


def _held_and_cut(campaign: Campaign, side: str) -> tuple[list[str], list[str]]:
    """Places the enemy of ``side`` holds, and places cut off by rail (DR 10.14, 10.15)."""
    held, cut = [], []
    for point in ControlPoint.objects.filter(campaign=campaign):
        if point.controller and point.controller != side:
            held.append(point.key)
        if point.cut_off:
            cut.append(point.key)
    return held, cut


def replacements_now(campaign: Campaign, side: str) -> Any:
    """The side's replacement points this turn by the rules, from the places' control."""
    held, cut = _held_and_cut(campaign, side)
    return dr_replacements.replacement_points(
        side, short_games.turn_number(campaign), held, cut, short_games.game_data(campaign)
    )


def received(campaign: Campaign, side: str, index: int, kind: str) -> bool:
    return PointEntry.objects.filter(
        campaign=campaign, side=side, index=index, kind=kind, action=PointEntry.Action.RECEIVED
    ).exists()


@transaction.atomic
def receive_points(
    campaign: Campaign, *, side: str, index: int, kind: str, by: AbstractBaseUser
) -> PointEntry:
    """Book the turn's allotment by the rules (DR replacement 10.13/10.14, air 11.7), once."""
    campaign = locked_campaign(campaign, index)
    if campaign.module != "defiant_russia":
        raise TurnError(_("In this game air points are rolled on the turn page."))
    if received(campaign, side, index, kind):
        raise TurnError(_("This turn's points are already booked."))
    turn = short_games.turn_number(campaign)
    data = short_games.game_data(campaign)
    if kind == PointKind.REPLACEMENT:
        answer = replacements_now(campaign, side)
        amount = answer.points
        note = "; ".join(d.text.en for d in answer.deductions)[:200]
    else:
        amount = dr_air.air_points(turn, side, data)
        note = ""
    if amount <= 0:
        raise TurnError(_("The rules give this side no such points this turn."))
    return add_points(
        campaign,
        by=by,
        side=side,
        index=index,
        kind=kind,
        action=PointEntry.Action.RECEIVED,
        amount=amount,
        note=note,
    )


def armor_replaced(campaign: Campaign, side: str, index: int) -> int:
    return PointEntry.objects.filter(
        campaign=campaign,
        side=side,
        index=index,
        kind=PointKind.REPLACEMENT,
        action__in=(PointEntry.Action.RESTORE, PointEntry.Action.REBUILD),
        unit__unit_type__in=ARMOR_TYPES,
    ).count()


ARMOR_TYPES = ("armor", "tank_corps")


def unit_facts(unit: GameUnit) -> Any:
    return dr_replacements.UnitFacts(
        side=unit.side,
        nationality=unit.nationality,
        type=unit.unit_type,
        state=unit.state,
        in_supply=not unit.out_of_supply,
        unit_id=slugify(unit.name),
    )


def replacement_refusals(
    campaign: Campaign,
    unit: GameUnit,
    action: str,
    index: int,
    *,
    points_left: int | None = None,
    armor_units: int | None = None,
) -> list[Reason]:
    """Why the unit may not receive replacement points now (the page passes the side's points
    and armor count, read once for all its units)."""
    if points_left is None:
        points_left = balance(campaign, unit.side, index, PointKind.REPLACEMENT)
    if armor_units is None:
        armor_units = armor_replaced(campaign, unit.side, index)
    return dr_replacements.replacement_refusals(
        unit_facts(unit),
        action,
        turn=short_games.turn_number(campaign, index),
        points_left=points_left,
        armor_units_this_turn=armor_units,
        game=short_games.game_data(campaign),
    )


@transaction.atomic
def replace_unit(
    campaign: Campaign,
    unit: GameUnit,
    *,
    action: str,
    index: int,
    version: int,
    by: AbstractBaseUser,
) -> list[str]:
    """Spend replacement points on a unit (DR 10.11): restore a reduced unit (1) or rebuild an
    eliminated one at reduced strength (2). Returns where a rebuilt unit may appear."""
    campaign = locked_campaign(campaign, index)
    unit = GameUnit.objects.select_for_update(of=("self",)).get(pk=unit.pk, campaign=campaign)
    if unit.version != version:
        raise state.StaleEdit
    refusals = replacement_refusals(campaign, unit, action, index)
    if refusals:
        raise TurnError(refusals[0].in_language(reader_language()))
    cost = dr_replacements.replacement_cost(action)
    add_points(
        campaign,
        by=by,
        side=unit.side,
        index=index,
        kind=PointKind.REPLACEMENT,
        action=action,
        amount=-cost,
        unit=unit,
        note=unit.name,
    )
    short_games.change_unit(
        campaign,
        unit,
        by=by,
        version=unit.version,
        state=UnitState.FULL if action == "restore" else UnitState.REDUCED,
        **({"hex": ""} if action == "rebuild" else {}),
    )
    if action != "rebuild":
        return []
    held, cut = _held_and_cut(campaign, unit.side)
    return dr_replacements.rebuild_locations(
        unit.side, unit.nationality, held, cut, short_games.game_data(campaign)
    )


@dataclass(frozen=True)
class FrontPoints:
    """A Soviet Front's share of the air points of a turn (Cherkassy Pocket 11.16)."""

    front: str
    received: int
    left: int

    @property
    def name(self) -> str:
        return cp_air.FRONTS[self.front].in_language(reader_language())


def front_points(campaign: Campaign, index: int) -> list[FrontPoints]:
    """Each Front's air points of turn ``index``: received and left (empty while no point
    was split, turn 0 or after the pocket formed). One query."""
    rows = (
        _rows(campaign, "soviet", index, PointKind.AIR)
        .exclude(front="")
        .order_by("front")
        .values_list("front", "action")
        .annotate(total=Sum("amount"))
    )
    received: dict[str, int] = {}
    left: dict[str, int] = {}
    for front, action, total in rows:
        if front not in cp_air.FRONTS:
            continue
        left[front] = left.get(front, 0) + total
        if action == PointEntry.Action.RECEIVED:
            received[front] = received.get(front, 0) + total
    if not left:
        return []
    return [FrontPoints(key, received.get(key, 0), left.get(key, 0)) for key in cp_air.FRONTS]


def fronts_text(fronts: list[FrontPoints]) -> str:
    """ "1st Ukrainian Front: 3 received, 2 left; …" in the reader's language."""
    return "; ".join(
        _("%(front)s: %(received)s received, %(left)s left")
        % {"front": f.name, "received": f.received, "left": f.left}
        for f in fronts
    )
