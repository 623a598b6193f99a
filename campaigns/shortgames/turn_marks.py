"""Marking the turn's steps in order for a side, taking a mark back, and moving the turn marker
on once every step that takes place is marked (undoable while nothing happened on the new
turn: the undo guard of "turn.advanced" is registered here)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignDay,
    CampaignEvent,
    DiceRoll,
    PointEntry,
    PointKind,
    TurnMark,
)
from campaigns.records import services as records
from campaigns.shortgames import per_turn
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import air as cp_air
from campaigns.shortgames.rules.cherkassy import turn_sequence as cp_sequence
from campaigns.shortgames.turn_points import air_credit_entries, balance, left_by_front
from campaigns.shortgames.turn_steps import (
    TurnError,
    current_day,
    is_last_turn,
    is_weather_step,
    locked_campaign,
    marks_of,
    recorded_weather,
    turn_complete,
    turn_steps,
    weather_now,
)


@transaction.atomic
def mark(
    campaign: Campaign,
    *,
    index: int,
    side: str,
    step_id: str,
    by: AbstractBaseUser,
    skipped: bool = False,
    reason: str = "",
    note: str = "",
    order: str = "",
) -> TurnMark:
    """``order``: Cherkassy Pocket's declared order of movement and combat (5.4), given as the
    side marks an activation segment's air power step done; ignored on every other step."""
    campaign = locked_campaign(campaign, index)
    if side not in campaign.game.side_keys:
        raise TurnError(_("That is not a side of this game."))
    game = short_games.setup_of(campaign)
    if game is None:
        raise TurnError(_("Start the game first: choose the optional rules."))
    day = current_day(campaign)
    weather = weather_now(campaign, day, game)
    steps = turn_steps(campaign, game, weather, marks_of(campaign))
    step = next((s for s in steps if s.id == step_id), None)
    if step is None:
        raise TurnError(_("%(step)s is not a step of this turn.") % {"step": step_id})
    if step.side and step.side != side:
        raise TurnError(_("This step belongs to the other side."))
    if side in step.marks:
        return step.marks[side]  # the same form sent twice
    if step.status != "current":
        raise TurnError(
            _("%(rule)s does not take place this turn.") % {"rule": step.rule}
            if step.status == "skipped"
            else _("Finish the earlier steps first.")
        )
    if skipped and not reason.strip():
        raise TurnError(_("Say why the step is skipped."))
    needs_order = (
        campaign.module == "cherkassy_pocket"
        and not skipped
        and cp_sequence.order_needed(step_id, side, steps)
    )
    if not needs_order:
        order = ""
    elif order not in cp_sequence.ORDERS:
        raise TurnError(
            _("Declare whether movement or combat comes first in this activation segment (5.4).")
        )
    # Defiant Russia's steps depend on the weather; Cherkassy Pocket's weather only changes
    # movement costs, and the players may read it off the printed track themselves.
    if (
        not skipped
        and is_weather_step(step)
        and not weather
        and campaign.module == "defiant_russia"
    ):
        raise TurnError(_("Roll or record the turn's weather first."))
    turn_mark = TurnMark.objects.create(
        campaign=campaign,
        index=index,
        side=side,
        step=step_id,
        status=TurnMark.Status.SKIPPED if skipped else TurnMark.Status.DONE,
        reason=reason.strip(),
        note=note.strip(),
        order=order,
        by=by,
    )
    changes: list[history.Change] = [(turn_mark, None, history.snapshot(turn_mark))]
    credits = _fixed_air_credit(campaign, step_id, side, index, by) if not skipped else []
    changes += [(credit, None, history.snapshot(credit)) for credit in credits]
    if is_weather_step(step) and weather and recorded_weather(campaign, day) is None:
        # The weather the rules fixed is written on the turn record when its step is done (over
        # calendar text that is no weather of the game, which counts as not recorded).
        records.update_day(campaign, day, by=by, version=day.version, weather=weather)
    history.record_change(
        campaign,
        by,
        "turn.step_marked",
        visibility=PUBLIC,
        changes=changes,
        step=step_id,
        rule=step.rule,
        side=side,
        status=turn_mark.status,
        reason=turn_mark.reason,
        index=index,
        order=order,
        air_credits=[credit.pk for credit in credits],
        air_points=sum(credit.amount for credit in credits),
        fronts={credit.front: credit.amount for credit in credits if credit.front},
    )
    return turn_mark


def _fixed_air_credit(
    campaign: Campaign, step_id: str, side: str, index: int, by: AbstractBaseUser
) -> list[PointEntry]:
    """Cherkassy Pocket's air points the rules fix (11.16 B: Soviet 3 per segment on turn 0, 6
    on turn 1; the German 3 on scenario 2/3's first turn), credited to ``side`` as it marks its
    air power step done, in the same action (taken back with the mark); the Soviet's turn-1
    points split between the Fronts (11.16)."""
    if campaign.module != "cherkassy_pocket" or not step_id.endswith(".air_power"):
        return []
    segment = int(step_id[1]) if step_id[:1] == "s" and step_id[1:2].isdigit() else 1
    points = cp_air.fixed_credit(
        short_games.turn_number(campaign), segment, side, campaign.campaign_game
    )
    if not points:
        return []
    return air_credit_entries(
        campaign,
        side=side,
        index=index,
        amount=points,
        note=f"11.16 · {step_id}",
        by=by,
        segment=segment,
    )


def _air_credits_of(campaign: Campaign, index: int, side: str, step_id: str) -> list[PointEntry]:
    event = (
        CampaignEvent.objects.filter(
            campaign=campaign,
            action="turn.step_marked",
            undone_at__isnull=True,
            data__step=step_id,
            data__side=side,
            data__index=index,
        )
        .order_by("-id")
        .first()
    )
    data = (event.data or {}) if event is not None else {}
    # Events written before the Front split hold one "air_credit".
    credits = data.get("air_credits") or ([data["air_credit"]] if data.get("air_credit") else [])
    if not credits:
        return []
    return list(
        PointEntry.objects.select_for_update(of=("self",)).filter(campaign=campaign, pk__in=credits)
    )


@transaction.atomic
def unmark(
    campaign: Campaign, *, index: int, side: str, step_id: str, by: AbstractBaseUser
) -> None:
    """Take back a mark while no later step has been marked by anyone."""
    campaign = locked_campaign(campaign, index)
    marks = marks_of(campaign)
    target = next((m for m in marks if m.step == step_id and m.side == side), None)
    if target is None:
        raise TurnError(_("That step is not marked."))
    order = [raw["id"] for raw in campaign.game.files["turn_sequence"]["steps"]]
    if any(order.index(m.step) > order.index(step_id) for m in marks if m.step in order):
        raise TurnError(_("A later step is already marked; take that back first."))
    before = history.snapshot(target)
    changes: list[history.Change] = [(target, before, None)]
    credits = _air_credits_of(campaign, index, side, step_id)
    if credits:
        # The fixed air points go with the mark, never leaving the side's balance (nor a
        # Front's share, 11.16) below 0.
        segment = credits[0].segment
        left = left_by_front(campaign, side, index, segment)
        taken: dict[str, int] = {}
        for credit in credits:
            taken[credit.front] = taken.get(credit.front, 0) + credit.amount
        if balance(campaign, side, index, PointKind.AIR, segment) - sum(taken.values()) < 0 or any(
            left.get(front, 0) - amount < 0 for front, amount in taken.items()
        ):
            raise TurnError(
                _("The air points credited with this step are spent; take those back first.")
            )
        for credit in credits:
            changes.append((credit, history.snapshot(credit), None))
            credit.delete()
    target.delete()
    history.record_change(
        campaign,
        by,
        "turn.step_unmarked",
        visibility=PUBLIC,
        changes=changes,
        step=step_id,
        side=side,
        index=index,
    )


@transaction.atomic
def advance(campaign: Campaign, *, index: int, by: AbstractBaseUser) -> Campaign:
    """Move the turn marker on once every step of the turn that takes place is marked."""
    campaign = locked_campaign(campaign, index)
    game = short_games.setup_of(campaign)
    day = current_day(campaign)
    steps = turn_steps(campaign, game, weather_now(campaign, day, game), marks_of(campaign))
    if not turn_complete(steps):
        raise TurnError(_("Every step of the turn must be marked first."))
    if is_last_turn(campaign):
        raise TurnError(_("This is the last turn of the game."))
    # The turn's VP as it ends, kept for the after-action report (taken back with the advance).
    vp = per_turn.book_turn_vp(campaign, index)
    before = history.snapshot(campaign)
    campaign.period_index = index + 1
    campaign.save(update_fields=["period_index"])
    # The turn's rolls are over: their seeds are shown; the next turn's are committed to.
    dice.reveal_commitments(campaign, index=index)
    dice.commit(campaign, index=index + 1)
    # Undoable while nothing has happened on the new turn (see _refuse_undo_of_advance).
    history.record_change(
        campaign,
        by,
        "turn.advanced",
        visibility=PUBLIC,
        changes=[*vp, (campaign, before, history.snapshot(campaign))],
        index=index,
        next=index + 1,
    )
    return campaign


def _refuse_undo_of_advance(event: CampaignEvent, overruled: bool) -> None:
    """Taking the turn marker back would orphan what was already done on the new turn (a
    referee's reason does not change that: the new turn's records would be orphaned all the
    same)."""
    new_turn = event.data.get("next")
    campaign = event.campaign
    if campaign.period_index != new_turn:
        raise history.UndoError(_("The turn marker has moved since; undo the later turn first."))
    happened = (
        TurnMark.objects.filter(campaign=campaign, index=new_turn).exists()
        or DiceRoll.objects.filter(
            campaign=campaign, index=new_turn, voided_at__isnull=True
        ).exists()
        or PointEntry.objects.filter(campaign=campaign, index=new_turn).exists()
        or CampaignDay.objects.filter(campaign=campaign, index=new_turn)
        .exclude(weather="")
        .exists()
    )
    if happened:
        raise history.UndoError(
            _(
                "The new turn already has marks, rolls, points or weather; take those back "
                "first (a referee voids a roll)."
            )
        )


history.UNDO_GUARDS["turn.advanced"] = _refuse_undo_of_advance


def _preview_advances(campaign: Campaign, events: list[CampaignEvent]) -> dict[int, str]:
    """The guard above for a page of the history: an advance from a turn the marker has left is
    refused without a query; only the one that moved the marker to where it is asks the
    database (at most one such advance is not undone)."""
    refused = {}
    for event in events:
        if event.action != "turn.advanced":
            continue
        try:
            _refuse_undo_of_advance(event, False)
        except history.UndoError as error:
            refused[event.pk] = str(error)
    return refused


history.UNDO_PREVIEWS.append(_preview_advances)
