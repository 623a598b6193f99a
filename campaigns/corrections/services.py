"""Corrections agreed between the players of a campaign without a referee (docs/decisions.md).

What the referee alone does (``Viewer.can_overrule``) nobody could do in a campaign without one.
Here a player asks (``ask_void``: a roll the player sees; ``ask_adjustment``: an adjustment of
its own side's ledger; ``ask_undo``: a change the player sees but may not undo alone), with a
reason; a player of another side agrees (``agree``: carried out
through the same services the referee's overrule uses, checked again now) or declines
(``decline``); the asker's side may withdraw (``withdraw``). Each step is a public history event
(``correction.asked`` / ``agreed`` / ``declined`` / ``withdrawn``) naming the kind, the asking side
and the reason — never a secret roll's faces or a ledger's amount.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, Viewer
from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.history.labels import side_label
from campaigns.models import Campaign, CampaignEvent, Correction, DiceRoll, LedgerEntry, LedgerKind
from campaigns.periods import day_label
from campaigns.roster import services as roster
from campaigns.roster.ledger import Movement, new_shortfalls
from campaigns.state import StateError


class CorrectionError(ValueError):
    """The request or the answer is refused; the message is for the user."""


def _name(viewer: Viewer) -> str:
    return viewer.membership.user.get_username()


def _check_asker(viewer: Viewer, reason: str) -> str:
    if not viewer.can_ask_correction:
        raise CorrectionError(
            _("Only a player of a campaign without a referee asks the other side for this.")
        )
    reason = reason.strip()
    if not reason:
        raise CorrectionError(_("Give the reason."))
    return reason


def _asked(viewer: Viewer, correction: Correction, **more: int) -> Correction:
    correction.save(force_insert=True)
    history.record(
        viewer.campaign,
        viewer.membership.user,
        "correction.asked",
        visibility=PUBLIC,
        target=correction,
        kind=correction.kind,
        side=correction.side,
        reason=correction.reason,
        correction=correction.pk,
        **more,
    )
    return correction


def undo_targets(viewer: Viewer) -> QuerySet[CampaignEvent]:
    """The changes the viewer may ask the other side to let undo: visible, undoable, not undone,
    and not ones the viewer may undo alone (``history.undone_alone``, as ``undoable_for``).

    The viewer's own are left out by a condition on each row, not by a subquery of them: a
    subquery read every change the user ever made and its data (50 ms at the bench's huge size),
    so that asking for one change (``ask_undo``) cost as much as the whole history; now one change
    is read by its id, and the newest (the request form's choices) by the campaign's newest
    first index until enough are found."""
    events = viewer.filter_visible(
        CampaignEvent.objects.filter(
            campaign=viewer.campaign, undone_at__isnull=True, data__has_key="undo"
        )
    )
    alone = history.undone_alone(viewer)
    if alone is True:
        return events.none()
    return events if alone is False else events.exclude(alone)


def asked_changes(corrections: list[Correction]) -> dict[int, int]:
    """The change each undo request names (correction id → event id), from the requests'
    ``correction.asked`` events (one query)."""
    wanted = [c.pk for c in corrections if c.kind == Correction.UNDO]
    if not wanted:
        return {}
    rows = CampaignEvent.objects.filter(
        campaign_id=corrections[0].campaign_id,
        action="correction.asked",
        data__has_key="change",
        data__correction__in=wanted,
    ).values_list("data", flat=True)
    return {
        row["correction"]: row["change"]
        for row in rows
        if isinstance(row.get("correction"), int) and isinstance(row.get("change"), int)
    }


@transaction.atomic
def ask_undo(viewer: Viewer, event_id: int, reason: str) -> Correction:
    """Ask the other side to agree to undo a change the viewer sees but may not undo alone (a
    change of a finished phase, the referee-only kind, the other player's)."""
    reason = _check_asker(viewer, reason)
    event = undo_targets(viewer).filter(pk=event_id).first()
    if event is None:
        raise CorrectionError(
            _(
                "That change cannot be asked for: it is undone, cannot be undone, or you may "
                "undo it yourself."
            )
        )
    asked = list(
        Correction.objects.filter(
            campaign=viewer.campaign, kind=Correction.UNDO, state=Correction.OPEN
        )
    )
    if event.pk in asked_changes(asked).values():
        raise CorrectionError(_("Undoing that change is already asked."))
    return _asked(
        viewer,
        Correction(
            campaign=viewer.campaign,
            kind=Correction.UNDO,
            side=viewer.side,
            visibility=event.visibility,
            reason=reason,
            asked_by=viewer.membership.user,
            asked_by_name=_name(viewer),
        ),
        change=event.pk,
    )


@transaction.atomic
def ask_void(viewer: Viewer, roll: DiceRoll, reason: str) -> Correction:
    """Ask the other side to agree that ``roll`` (one the viewer sees) is void."""
    reason = _check_asker(viewer, reason)
    if roll.campaign_id != viewer.campaign.pk or not viewer.can_see(roll.visibility):
        raise CorrectionError(_("That roll is not in this campaign."))
    if roll.voided_at is not None:
        raise CorrectionError(_("That roll is already void."))
    if Correction.objects.filter(roll=roll, state=Correction.OPEN).exists():
        raise CorrectionError(_("Voiding that roll is already asked."))
    return _asked(
        viewer,
        Correction(
            campaign=viewer.campaign,
            kind=Correction.VOID,
            side=viewer.side,
            visibility=roll.visibility,
            reason=reason,
            roll=roll,
            asked_by=viewer.membership.user,
            asked_by_name=_name(viewer),
        ),
    )


@transaction.atomic
def ask_adjustment(
    viewer: Viewer, *, ledger: str, index: int, amount: int, reason: str
) -> Correction:
    """Ask the other side to agree to an adjustment of the viewer's own side's ledger."""
    reason = _check_asker(viewer, reason)
    if ledger not in (LedgerEntry.CPP, LedgerEntry.FPP):
        raise CorrectionError(_("Choose the CPP or the FPP ledger."))
    if not 0 <= index < len(viewer.campaign.cg.periods):
        raise CorrectionError(_("That is not a day of the calendar."))
    if amount == 0:
        raise CorrectionError(_("An adjustment cannot be 0."))
    if abs(amount) > 999:
        raise CorrectionError(_("That is more points than a campaign sees."))
    _check_balance(viewer.campaign, viewer.side, ledger, index, amount)
    return _asked(
        viewer,
        Correction(
            campaign=viewer.campaign,
            kind=Correction.ADJUST,
            side=viewer.side,
            visibility=viewer.side,
            reason=reason,
            ledger=ledger,
            index=index,
            amount=amount,
            asked_by=viewer.membership.user,
            asked_by_name=_name(viewer),
        ),
    )


def _check_balance(campaign: Campaign, side: str, ledger: str, index: int, amount: int) -> None:
    """An agreed adjustment may not take a day of the side's ledger below zero (the books stay
    balanced, as an undo's do: campaigns.roster.books)."""
    if amount > 0:
        return
    rows = (
        LedgerEntry.objects.select_for_update(of=("self",))
        .filter(campaign=campaign, side=side, ledger=ledger)
        .values_list("index", "kind", "amount", "rg")
    )
    before = [Movement(*row) for row in rows]
    after = [*before, Movement(index, LedgerKind.ADJUSTMENT, amount)]
    try:
        short = new_shortfalls(ledger, len(campaign.cg.periods), before, after)
    except ValueError:
        return
    if short:
        day = min(short)
        raise CorrectionError(
            _("That would leave %(side)s %(ledger)s at %(balance)s on %(day)s.")
            % {
                "side": side_label(campaign, side),
                "ledger": ledger.upper(),
                "balance": short[day],
                "day": day_label(campaign, day),
            }
        )


def _open(viewer: Viewer, correction_id: int) -> Correction:
    correction = (
        Correction.objects.select_for_update(of=("self",))
        .filter(campaign=viewer.campaign, pk=correction_id)
        .first()
    )
    if correction is None:
        raise CorrectionError(_("There is no such request."))
    if correction.state != Correction.OPEN:
        raise CorrectionError(_("That request was already answered."))
    return correction


def _answer(viewer: Viewer, correction: Correction, state: str, action: str) -> None:
    correction.state = state
    correction.answered_by = viewer.membership.user
    correction.answered_by_name = _name(viewer)
    correction.answered_at = timezone.now()
    correction.save(update_fields=["state", "answered_by", "answered_by_name", "answered_at"])
    history.record(
        viewer.campaign,
        viewer.membership.user,
        action,
        visibility=PUBLIC,
        target=correction,
        kind=correction.kind,
        side=correction.side,
        reason=correction.reason,
        asked_by=correction.asked_by_name,
    )


@transaction.atomic
def agree(viewer: Viewer, correction_id: int) -> Correction:
    """A player of the other side agrees: the correction is carried out now, checked again."""
    correction = _open(viewer, correction_id)
    if not viewer.can_agree_correction(correction.side):
        raise CorrectionError(_("A player of the other side agrees to this request."))
    reason = _agreed_reason(correction.reason, correction.asked_by_name, _name(viewer))
    try:
        _carry_out(viewer, correction, reason)
    except (dice.DiceError, history.UndoError, StateError, CorrectionError) as error:
        raise _refusal(viewer, correction, error) from None
    _answer(viewer, correction, Correction.AGREED, "correction.agreed")
    return correction


# The longest reason the services keep (a void's, an undo's, a ledger note).
REASON_KEPT = 200


def _agreed_reason(reason: str, asker: str, agreer: str) -> str:
    """The reason with both names, as the services keep it: where it is too long, the asker's
    words are shortened (marked "…"), never the names."""
    template = _("%(reason)s (asked by %(asker)s, agreed by %(agreer)s)")
    text = template % {"reason": reason, "asker": asker, "agreer": agreer}
    over = len(text) - REASON_KEPT
    if over > 0:
        shortened = reason[: max(len(reason) - over - 1, 0)] + "…"
        text = template % {"reason": shortened, "asker": asker, "agreer": agreer}
    return text[:REASON_KEPT]


def _carry_out(viewer: Viewer, correction: Correction, reason: str) -> None:
    """Through the services the referee's overrule uses, checked by them again now."""
    by = viewer.membership.user
    if correction.kind == Correction.VOID:
        dice.void(correction.roll, by=by, reason=reason)
    elif correction.kind == Correction.UNDO:
        target = asked_changes([correction]).get(correction.pk)
        event = CampaignEvent.objects.filter(campaign=viewer.campaign, pk=target).first()
        if event is None:
            raise CorrectionError(_("That change is not in this campaign any more."))
        history.undo(event, by=by, reason=reason, agreed=True)
    else:
        _check_balance(
            viewer.campaign, correction.side, correction.ledger, correction.index, correction.amount
        )
        roster.add_ledger_entry(
            viewer.campaign,
            by=correction.asked_by or by,
            side=correction.side,
            ledger=correction.ledger,
            index=correction.index,
            kind=LedgerKind.ADJUSTMENT,
            amount=correction.amount,
            note=reason,
        )


def _refusal(viewer: Viewer, correction: Correction, error: Exception) -> CorrectionError:
    """Why the correction cannot be made, for the agreeing player: the service's own sentence
    where the player may see the details' scope; otherwise one that names no secret (a refused
    undo or adjustment would tell the other side's balance)."""
    if viewer.can_see(correction.visibility):
        return CorrectionError(str(error))
    return CorrectionError(
        _(
            "It cannot be made now: what stops it is secret to %(side)s, whose player sees why. "
            "The request stays open."
        )
        % {"side": side_label(viewer.campaign, correction.side)}
    )


@transaction.atomic
def decline(viewer: Viewer, correction_id: int) -> Correction:
    correction = _open(viewer, correction_id)
    if not viewer.can_agree_correction(correction.side):
        raise CorrectionError(_("A player of the other side answers this request."))
    _answer(viewer, correction, Correction.DECLINED, "correction.declined")
    return correction


@transaction.atomic
def withdraw(viewer: Viewer, correction_id: int) -> Correction:
    correction = _open(viewer, correction_id)
    if not (viewer.can_ask_correction and viewer.side == correction.side):
        raise CorrectionError(_("Only the side that asked withdraws its request."))
    _answer(viewer, correction, Correction.WITHDRAWN, "correction.withdrawn")
    return correction
