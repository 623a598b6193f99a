"""The corrections page (campaign without a referee): ask the other side to agree to void a roll
or adjust one's own ledger; the other side agrees or declines; the asker may withdraw."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.corrections import services
from campaigns.corrections.history import kind_words
from campaigns.history.labels import side_label
from campaigns.history.services import describe
from campaigns.models import CampaignEvent, Correction, DiceRoll, LedgerEntry
from campaigns.oid import from_oid, oid
from campaigns.periods import day_label
from campaigns.roster.forms import period_choices

# The newest rolls a player may ask to void (the dice log's rows link here with theirs).
ROLL_CHOICES = 30
# The answered requests shown under the open ones.
ANSWERED_SHOWN = 20
# The newest changes a player may ask to undo (the history's rows link here with theirs).
EVENT_CHOICES = 30


def _roll_label(viewer: Viewer, roll: DiceRoll) -> str:
    faces = " + ".join(str(face) for face in roll.faces)
    day = day_label(viewer.campaign, roll.index)
    return f"{day} · {roll.step} {roll.kind} · {faces} = {roll.final}"


class VoidAskForm(forms.Form):
    roll = forms.TypedChoiceField(label=gettext_lazy("Roll"), coerce=from_oid)
    reason = forms.CharField(label=gettext_lazy("Why is the roll void?"), max_length=150)

    def __init__(self, *args: Any, rolls: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["roll"].choices = rolls


class AdjustAskForm(forms.Form):
    ledger = forms.ChoiceField(
        label=gettext_lazy("Ledger"), choices=[(LedgerEntry.CPP, "CPP"), (LedgerEntry.FPP, "FPP")]
    )
    index = forms.TypedChoiceField(label=gettext_lazy("CG day"), coerce=int)
    amount = forms.IntegerField(
        label=gettext_lazy("Amount"),
        min_value=-999,
        max_value=999,
        help_text=gettext_lazy("−3 takes 3 away, 3 adds 3."),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=150)

    def __init__(self, *args: Any, campaign: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["index"].choices = period_choices(campaign)


class UndoAskForm(forms.Form):
    event = forms.TypedChoiceField(label=gettext_lazy("Change"), coerce=from_oid)
    reason = forms.CharField(label=gettext_lazy("Why undo it?"), max_length=150)

    def __init__(self, *args: Any, events: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = events


def _change_label(viewer: Viewer, event: CampaignEvent) -> str:
    event.campaign = viewer.campaign  # the sentences read it
    when = date_format(localtime(event.created_at), "SHORT_DATETIME_FORMAT")
    return f"{when} · {describe(event)}"


def _events(viewer: Viewer, wanted: Any = None) -> list[tuple[str, str]]:
    """The newest changes the viewer may ask to undo, and the one ``wanted`` if it is one."""
    if not viewer.can_ask_correction:
        return []
    targets = services.undo_targets(viewer)
    shown = list(targets.order_by("-created_at", "-id")[:EVENT_CHOICES])
    pk = _wanted(wanted)
    if pk is not None and pk not in {event.pk for event in shown}:
        shown += list(targets.filter(pk=pk))
    return [(oid(event.pk), _change_label(viewer, event)) for event in shown]


def _wanted(value: Any) -> int | None:
    """A roll or change named in the query or the form by its opaque id (the dice log's and
    history's links, the select's values)."""
    try:
        return from_oid(str(value))
    except (TypeError, ValueError):
        return None


def _rolls(viewer: Viewer, wanted: Any = None) -> list[tuple[str, str]]:
    """The newest rolls the viewer may ask to void, and the one ``wanted`` if it is one."""
    if not viewer.can_ask_correction:
        return []
    rolls = viewer.filter_visible(
        DiceRoll.objects.filter(campaign=viewer.campaign, voided_at__isnull=True)
    )
    shown = list(rolls.order_by("-rolled_at", "-id")[:ROLL_CHOICES])
    pk = _wanted(wanted)
    if pk is not None and pk not in {roll.pk for roll in shown}:
        shown += list(rolls.filter(pk=pk))
    return [(oid(roll.pk), _roll_label(viewer, roll)) for roll in shown]


def _row(
    viewer: Viewer, correction: Correction, changes: dict[int, CampaignEvent]
) -> dict[str, Any]:
    """What the viewer may read of one request: the kind, side and reason for every member; the
    roll or the adjustment only where the viewer may see its scope."""
    detail = ""
    if viewer.can_see(correction.visibility):
        if correction.kind == Correction.VOID and correction.roll is not None:
            detail = _roll_label(viewer, correction.roll)
        elif correction.kind == Correction.UNDO and correction.pk in changes:
            detail = _change_label(viewer, changes[correction.pk])
        elif correction.kind == Correction.ADJUST:
            amount = correction.amount or 0
            day = day_label(viewer.campaign, correction.index)
            detail = f"{correction.ledger.upper()} {amount:+d} · {day}"
    secret = not viewer.can_see(correction.visibility)
    return {
        "correction": correction,
        "side": side_label(viewer.campaign, correction.side),
        "what": kind_words(correction.kind),
        "secret": secret,
        "detail": detail,
        "may_answer": correction.state == Correction.OPEN
        and viewer.can_agree_correction(correction.side),
        "may_withdraw": correction.state == Correction.OPEN
        and viewer.can_ask_correction
        and viewer.side == correction.side,
    }


def _context(viewer: Viewer, **forms_: Any) -> dict[str, Any]:
    campaign = viewer.campaign
    rows = Correction.objects.filter(campaign=campaign).select_related("roll")
    opened = list(rows.filter(state=Correction.OPEN))
    answered = rows.exclude(state=Correction.OPEN).order_by("-answered_at", "-id")
    closed = list(answered[:ANSWERED_SHOWN])
    # The changes undo requests name, those the viewer may see (two queries for the page).
    named = services.asked_changes([*opened, *closed])
    found = {
        event.pk: event
        for event in viewer.filter_visible(
            CampaignEvent.objects.filter(campaign=campaign, pk__in=set(named.values()))
        )
    }
    changes = {pk: found[event] for pk, event in named.items() if event in found}
    open_rows = [_row(viewer, c, changes) for c in opened]
    answered = [_row(viewer, c, changes) for c in closed]
    may_ask = viewer.can_ask_correction
    rolls = _rolls(viewer, (forms_.get("void_initial") or {}).get("roll"))
    events = _events(viewer, (forms_.get("undo_initial") or {}).get("event"))
    return {
        "viewer": viewer,
        "campaign": campaign,
        "has_referee": viewer.campaign_has_referee,
        "may_ask": may_ask,
        "open_rows": open_rows,
        "answered": answered,
        "void_form": forms_.get("void_form")
        or (VoidAskForm(rolls=rolls, initial=forms_.get("void_initial")) if rolls else None),
        "undo_form": forms_.get("undo_form")
        or (UndoAskForm(events=events, initial=forms_.get("undo_initial")) if events else None),
        "adjust_form": forms_.get("adjust_form")
        or (
            AdjustAskForm(campaign=campaign, initial={"index": campaign.period_index})
            if may_ask
            else None
        ),
        "my_side": side_label(campaign, viewer.side) if viewer.side else "",
    }


@require_safe
@login_required
def corrections(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    return render(
        request,
        "campaigns/corrections/corrections.html",
        _context(
            viewer,
            void_initial={"roll": request.GET.get("roll")},
            undo_initial={"event": request.GET.get("event")},
        ),
    )


def _back(campaign_id: int) -> HttpResponse:
    return redirect("campaigns:corrections", campaign_id=campaign_id)


def _ask(
    request: HttpRequest,
    viewer: Viewer,
    form: forms.Form,
    form_name: str,
    send: Callable[[dict[str, Any]], object],
) -> HttpResponse:
    """One ask form's answer: the page again with the form's errors, or the request sent (a
    refusal as a message) and back to the page."""
    if not form.is_valid():
        messages.error(request, _("The request was not sent: correct the fields marked below."))
        return render(
            request,
            "campaigns/corrections/corrections.html",
            _context(viewer, **{form_name: form}),
        )
    try:
        send(form.cleaned_data)
    except services.CorrectionError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Asked; a player of the other side agrees or declines."))
    return _back(viewer.campaign.pk)


@require_POST
@login_required
def ask_void(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    access.require(viewer.can_ask_correction)
    form = VoidAskForm(request.POST, rolls=_rolls(viewer, request.POST.get("roll")))

    def send(data: dict[str, Any]) -> object:
        rolls = viewer.filter_visible(DiceRoll.objects.filter(campaign=viewer.campaign))
        return services.ask_void(viewer, rolls.get(pk=data["roll"]), data["reason"])

    return _ask(request, viewer, form, "void_form", send)


@require_POST
@login_required
def ask_adjustment(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    access.require(viewer.can_ask_correction)
    form = AdjustAskForm(request.POST, campaign=viewer.campaign)

    def send(data: dict[str, Any]) -> object:
        return services.ask_adjustment(
            viewer,
            ledger=data["ledger"],
            index=data["index"],
            amount=data["amount"],
            reason=data["reason"],
        )

    return _ask(request, viewer, form, "adjust_form", send)


@require_POST
@login_required
def ask_undo(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    access.require(viewer.can_ask_correction)
    form = UndoAskForm(request.POST, events=_events(viewer, request.POST.get("event")))

    def send(data: dict[str, Any]) -> object:
        return services.ask_undo(viewer, data["event"], data["reason"])

    return _ask(request, viewer, form, "undo_form", send)


ANSWERS = {
    "agree": (services.agree, gettext_lazy("Agreed: the correction is made.")),
    "decline": (services.decline, gettext_lazy("Declined.")),
    "withdraw": (services.withdraw, gettext_lazy("Withdrawn.")),
}


@vary_on_headers("HX-Request")
@require_POST
@login_required
def answer(request: HttpRequest, campaign_id: int, correction_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    access.require(viewer.can_ask_correction)
    chosen = ANSWERS.get(request.POST.get("answer", ""))
    if chosen is None:
        messages.error(request, _("Agree, decline or withdraw."))
        return _back(campaign_id)
    act, done = chosen
    try:
        act(viewer, correction_id)
    except services.CorrectionError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, str(done))
    if request.htmx:
        # The open requests swap in place; the answered ones follow with the live poll.
        return render(
            request, "campaigns/corrections/corrections.html#open-corrections", _context(viewer)
        )
    return _back(campaign_id)
