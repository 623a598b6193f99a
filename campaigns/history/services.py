"""Every change to campaign state is recorded here: who, when, what, and who may read it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.apps import apps
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, Viewer, viewer_or_none
from campaigns.compiled import CompiledQuery

# role_label: the member and transfer pages and the template tags read it from here.
from campaigns.history.labels import role_label as role_label
from campaigns.history.labels import side_label as side_label
from campaigns.history.sentences import SENTENCES
from campaigns.models import Campaign, CampaignEvent, RefitPhase

# The Refit Phase step a change is made for, so that the step's effects can be undone together.
_refit_step: ContextVar[dict[str, Any] | None] = ContextVar("refit_step", default=None)


@contextmanager
def refit_step(reph: Any, rule: str, side: str, **more: Any) -> Iterator[None]:
    """Tag every event recorded inside the block with the RePh step it belongs to (and, for a
    roll's booking, the roll)."""
    token = _refit_step.set({"reph": reph.pk, "rule": rule, "side": side, **more})
    try:
        yield
    finally:
        _refit_step.reset(token)


class CampaignRevealed(PermissionDenied):
    """A change to a revealed campaign, which is read-only but for its notes (a 403 where a view
    lets it through)."""

    def __init__(self) -> None:
        super().__init__(_("The campaign is revealed: nothing changes any more but the notes."))


# What a revealed campaign still records: its notes, its reveal, and who is a member (people
# may still join to read the story, or leave).
AFTER_REVEAL = frozenset({"rg.noted", "campaign.revealed", "campaign.imported"})
AFTER_REVEAL_FAMILIES = ("member.", "invitation.")


def check_writable(campaign: Campaign, action: str) -> None:
    """Refuse ``action`` on a revealed campaign unless it is one a revealed campaign takes. Every
    change of the app records its event through ``record`` in its own transaction, so this one
    check refuses (and rolls back) every write of every service."""
    if campaign.revealed_at is None:
        return
    if action in AFTER_REVEAL or action.startswith(AFTER_REVEAL_FAMILIES):
        return
    raise CampaignRevealed


def record(
    campaign: Campaign,
    actor: AbstractBaseUser | None,
    action: str,
    *,
    visibility: str = PUBLIC,
    target: models.Model | None = None,
    **data: Any,
) -> CampaignEvent:
    """Store one change. Call inside the same transaction as the change itself: on a revealed
    campaign a change other than a note is refused here (``check_writable``), and the
    transaction's writes with it."""
    check_writable(campaign, action)
    step = _refit_step.get()
    if step is not None and "refit_step" not in data:
        data["refit_step"] = step
    event = CampaignEvent(
        campaign=campaign,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        visibility=visibility,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=target.pk if target is not None else None,
        data=data,
    )
    event.tag_step()
    event.save(force_insert=True)
    return event


# Fields that change on every save and say nothing about the campaign's state.
NOT_COMPARED = {"version", "created_at"}


def snapshot(obj: models.Model) -> dict[str, Any]:
    """The row's fields as JSON-ready data (foreign keys as ids). A column the database derives
    (``GeneratedField``, e.g. ``ReinforcementGroup.map_group``) is not the row's state: left out,
    so that events recorded before it existed still compare, and an undo never writes it."""
    data = {}
    for field in obj._meta.concrete_fields:
        if field.generated:
            continue
        value = getattr(obj, field.attname)
        if isinstance(value, dt.datetime | dt.date):
            value = value.isoformat()
        data[field.attname] = value
    return data


def _comparable(data: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if data is None else {k: v for k, v in data.items() if k not in NOT_COMPARED}


Change = tuple[models.Model, dict[str, Any] | None, dict[str, Any] | None]


def record_change(
    campaign: Campaign,
    actor: AbstractBaseUser | None,
    action: str,
    *,
    visibility: str,
    changes: Iterable[Change],
    **data: Any,
) -> CampaignEvent:
    """Record a change with the rows it touched (before/after), so that it can be undone."""
    undo = []
    for obj, before, after in changes:
        pk = (after or before or {}).get(obj._meta.pk.attname)
        undo.append({"model": obj._meta.label_lower, "pk": pk, "before": before, "after": after})
    return record(campaign, actor, action, visibility=visibility, undo=undo, **data)


class UndoError(ValueError):
    """The change cannot be undone (any more); the message is for the user."""


# Checks an app registers for an action whose undo depends on more than its own rows (e.g.
# campaigns.shortgames.turn_marks: a turn advanced may be taken back only while nothing happened
# on the new turn; refit.purchases: a purchase is taken back only while its step is open).
# A guard gets the locked event and whether the referee overrules the rules' timing with a
# reason, and raises UndoError with a sentence for the user. It runs before anything is written.
UndoGuard = Callable[[CampaignEvent, bool], None]
UNDO_GUARDS: dict[str, UndoGuard] = {}

# Checks every undo must pass, whatever its action, even the referee's (campaigns.roster.books:
# no side's CPP or FPP run below zero). Each gets the locked event and its undo steps, before
# anything is written.
UndoCheck = Callable[[CampaignEvent, list[dict[str, Any]]], None]
UNDO_CHECKS: list[UndoCheck] = []


# Checks that tell in advance, for a page of the history, which undos the checks above would
# refuse, so that the page shows the reason instead of an Undo button that only fails when
# posted. Each gets the campaign and the page's undoable events (their ``campaign`` set) and
# answers {event id: the sentence}, reading a fixed number of queries for the whole page
# (campaigns.shortgames.per_turn: a turn's recorded VP; turn_marks: a turn advanced).
UndoPreview = Callable[[Campaign, list[CampaignEvent]], dict[int, str]]
UNDO_PREVIEWS: list[UndoPreview] = []


def undo_refusals(campaign: Campaign, events: list[CampaignEvent]) -> dict[int, str]:
    """Event id → why its undo would be refused now, for the events given (``UNDO_PREVIEWS``)."""
    refused: dict[int, str] = {}
    if not events:
        return refused
    for preview in UNDO_PREVIEWS:
        for pk, reason in preview(campaign, events).items():
            refused.setdefault(pk, reason)
    return refused


# The latest time a Refit Phase of the campaign finished (the MAX, as the newest first), compiled
# once: the history page asks it on every read (campaigns.compiled).
_last_finished = CompiledQuery(
    lambda campaign_id: (
        RefitPhase.objects.filter(campaign_id=campaign_id, finished_at__isnull=False)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)[:1]
    ),
    1,
)


def closed_at(campaign: Campaign) -> dt.datetime | None:
    """When the campaign's last Refit Phase (or scenario) finished: what was recorded before then
    belongs to a finished phase, and only the referee undoes it, with a reason."""
    found = _last_finished(campaign.pk)
    return found[0] if found else None


def is_closed(event: CampaignEvent, closed: dt.datetime | None) -> bool:
    return closed is not None and event.created_at <= closed


UNREAD = object()  # undoable_for: ``closed`` not read yet


def undone_alone(viewer: Viewer, closed: Any = UNREAD) -> models.Q | bool:
    """Which of the events the viewer sees that can be undone (not undone, with undo steps) the
    viewer undoes alone: True every one (whoever may overrule: the referee), False none (who may
    not record: an observer, anyone once revealed), else the condition on the event's row — a
    player's own changes of a phase not yet finished, and not those only a referee may make.

    ``closed``: ``closed_at(viewer.campaign)`` when the caller read it already."""
    if not viewer.can_record:
        return False
    if viewer.can_overrule:
        return True
    if closed is UNREAD:
        closed = closed_at(viewer.campaign)
    # has_key first: a missing key would make the comparison NULL, and the negation with it.
    own = models.Q(actor_id=viewer.membership.user_id) & ~(
        models.Q(data__has_key="referee_only") & models.Q(data__referee_only=True)
    )
    if closed is not None:
        own &= models.Q(created_at__gt=closed)
    return own


def undoable_for(
    viewer: Viewer, among: Collection[int] | None = None, closed: Any = UNREAD
) -> models.QuerySet[CampaignEvent]:
    """The events this viewer may undo: whoever may overrule (the referee) any visible one,
    whoever may record (a player) their own of a phase not yet finished; an observer none
    (``undone_alone``).

    ``among``: only these events (a page of the history, the one event posted). The data's keys
    are then read for those rows only, not for every event the campaign ever recorded.
    ``closed``: ``closed_at(viewer.campaign)`` when the caller read it already."""
    events = CampaignEvent.objects.filter(campaign=viewer.campaign)
    if among is not None:
        events = events.filter(pk__in=among)
    events = viewer.filter_visible(events.filter(undone_at__isnull=True, data__has_key="undo"))
    alone = undone_alone(viewer, closed)
    if alone is False:
        return events.none()
    return events if alone is True else events.filter(alone)


def undoable_among(
    viewer: Viewer, events: Collection[CampaignEvent], closed: dt.datetime | None
) -> set[int]:
    """``undoable_for(viewer, among=…, closed=closed)`` answered from events already read (a
    page of the history, read through the viewer's ``filter_visible``): the same conditions on
    the loaded rows, without a query. ``closed``: ``closed_at(viewer.campaign)``."""
    if not viewer.can_record:
        return set()
    scopes = set(viewer.visible_scopes())
    overrule = viewer.can_overrule
    user_id = viewer.membership.user_id if not overrule else None
    return {
        event.pk
        for event in events
        if event.campaign_id == viewer.campaign.pk
        and event.visibility in scopes
        and event.undone_at is None
        and isinstance(event.data, dict)
        and "undo" in event.data
        and (
            overrule
            or (
                event.actor_id == user_id
                and event.data.get("referee_only") is not True
                and (closed is None or event.created_at > closed)
            )
        )
    }


@transaction.atomic
def undo(
    event: CampaignEvent, *, by: AbstractBaseUser, reason: str = "", agreed: bool = False
) -> None:
    """Put back the rows as they were before ``event`` — if nothing has changed them since, the
    books stay balanced and the rules the change was made under still allow it.

    A change of a finished Refit Phase or a played scenario is undone only by the referee, with a
    ``reason`` (kept with the undo's own event). ``agreed``: in a campaign without a referee, the
    other side's player agreed to it (campaigns.corrections), which stands for the referee."""
    event = CampaignEvent.objects.select_for_update(of=("self",)).get(pk=event.pk)
    if event.undone_at is not None:
        raise UndoError(_("That change was already undone."))
    steps = event.data.get("undo")
    if not steps:
        raise UndoError(_("That change cannot be undone."))
    reason = reason.strip()
    viewer = viewer_or_none(by, event.campaign_id)
    overruling = agreed or (viewer is not None and viewer.can_overrule)
    closed = is_closed(event, closed_at(event.campaign))
    if closed and not overruling:
        raise UndoError(
            _(
                "That change belongs to a finished Refit Phase or a played scenario; only the "
                "referee may undo it, with a reason."
            )
        )
    if closed and not reason:
        raise UndoError(
            _(
                "That change belongs to a finished Refit Phase or a played scenario: give the "
                "reason."
            )
        )
    guard = UNDO_GUARDS.get(event.action)
    if guard is not None:
        guard(event, closed)
    for check in UNDO_CHECKS:
        check(event, steps)
    for step in reversed(steps):
        model = apps.get_model(step["model"])
        _check_same_campaign(event, model, step)
        current = model.objects.select_for_update(of=("self",)).filter(pk=step["pk"]).first()
        now = snapshot(current) if current is not None else None
        if _comparable(now) != _comparable(step["after"]):
            raise UndoError(_("It has been changed again since; undo the later change first."))
        if step["before"] is None:
            try:
                current.delete()
            except models.ProtectedError:
                raise UndoError(_("Other records refer to it; undo those first.")) from None
        elif current is None:
            model.objects.create(**step["before"])
        else:
            fields = {k: v for k, v in step["before"].items() if k not in NOT_COMPARED}
            if "version" in step["before"]:
                fields["version"] = current.version + 1
            model.objects.filter(pk=step["pk"]).update(**fields)
    event.undone_at = timezone.now()
    event.undone_by = by
    event.save(update_fields=["undone_at", "undone_by"])
    more = {"reason": reason} if closed else {}
    record(
        event.campaign,
        by,
        "change.undone",
        visibility=event.visibility,
        undone=event.pk,
        action_undone=event.action,
        **more,
    )


def _check_same_campaign(event: CampaignEvent, model: type[models.Model], step: dict) -> None:
    """An undo only ever touches rows of the event's own campaign."""
    row = step["after"] or step["before"] or {}
    if model is Campaign:
        owners = {step["pk"]}
    elif "campaign_id" in row:
        owners = {row["campaign_id"]}
        owners |= set(model.objects.filter(pk=step["pk"]).values_list("campaign_id", flat=True))
    elif "reph_id" in row:
        refit_phase = apps.get_model("campaigns", "RefitPhase")
        owners = set(
            refit_phase.objects.filter(pk=row["reph_id"]).values_list("campaign_id", flat=True)
        )
    else:
        owners = set()
    if owners != {event.campaign_id}:
        raise UndoError(_("That change cannot be undone."))


def describe(event: CampaignEvent) -> str:
    """One line for the history page, in the active language: the sentence the event's feature
    registered (campaigns.history.sentences), or the action's key for an unknown action."""
    return SENTENCES.describe(event)
