"""The campaign history: every change the viewer may see, newest first, a page at a time, each
with its undo where the viewer may undo it.

What a viewer sees is decided by campaigns.access (``filter_visible`` on the event's scope): the
rows, the count and the number of pages all come from that one filtered queryset, so an event the
viewer may not see never shows, not even in a count. The filters (campaigns.history.forms) and
the page number live in the query string (campaigns.paging, as the dice log): a page number past
the end shows the last page, one that is not a number the first. A page reads a fixed handful of
queries however long the history is: which of its events may be undone is asked of its own
events only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import F, QuerySet
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access, paging
from campaigns.access import Viewer
from campaigns.history import services as history
from campaigns.history.forms import HistoryFilterForm, UndoForm
from campaigns.history.html import history_rows
from campaigns.history.reads import ListQuery, ListRows
from campaigns.history.rows import Lookup, url_maker, when_drawn
from campaigns.models import CampaignEvent
from campaigns.oid import oid
from campaigns.templatetags.nav import campaign_url

HISTORY_PAGE_SIZE = 50  # docs/decisions.md: a page of the history


@dataclass(eq=False)  # written once, read by the page; a frozen one took 3× as long to make
class HistoryRow(Lookup):
    """One change as the page draws it: every value already in words (see ``_rows``)."""

    event: CampaignEvent
    text: str
    can_undo: bool
    # Of a finished phase (asked only when the row may be undone): the referee gives a reason.
    closed: bool
    # Why the undo would be refused now (history.undo_refusals), shown instead of the button.
    refused: str = ""
    # Without a referee: the viewer may ask the other side to let this change be undone.
    may_ask: bool = False
    oid: str = ""
    when_iso: str = ""  # the time as <time datetime="…"> gives it
    when: str = ""  # the time as the reader reads it
    actor: str = ""
    undone: bool = False
    undo_url: str = ""  # where its Undo posts ("" when it may not be undone)


def _actor_name(event: CampaignEvent) -> str:
    # The actor's name read with the event (``_named``); imported events keep their original
    # actor's name in data (no user on this server).
    if event.actor_id is not None:
        return event.actor_username
    return event.data.get("original", {}).get("actor", "")


def _named(events: QuerySet[CampaignEvent]) -> QuerySet[CampaignEvent]:
    """The page's events, newest first, each with its actor's name (``actor_username``): a
    column of the join, not a user made of every row (``select_related`` took ~1 ms a page)."""
    username = get_user_model().USERNAME_FIELD
    return events.annotate(actor_username=F(f"actor__{username}")).order_by("-created_at", "-id")


def _visible_events(campaign_id: int, scopes: tuple[str, ...]) -> QuerySet[CampaignEvent]:
    # The scopes are the viewer's own (``Viewer.visible_scopes``: what ``filter_visible`` asks).
    return CampaignEvent.objects.filter(campaign_id=campaign_id, visibility__in=scopes)


# The unfiltered history's count and pages, compiled once per set of visible scopes (a few
# fixed words: campaigns.access) and run with the campaign's id (campaigns.history.reads).
_UNFILTERED = ListQuery(
    lambda campaign_id, scopes: (
        _named(_visible_events(campaign_id, scopes)),
        _visible_events(campaign_id, scopes),
    )
)


def asked_among(viewer: Viewer, events: list[CampaignEvent], undoable: set[int]) -> set[int]:
    """Which of the page's ``events`` (read through the viewer's ``filter_visible``) the viewer
    may ask the other side to let undo: ``corrections.undo_targets`` among these events — not
    undone, undoable, and not among the ``undoable`` ones the viewer undoes alone — read from the
    rows already loaded. Asked of the database for a page's ids, SQLite walked the campaign's
    every event by its newest-first index instead of looking up the page's rows (9–22 ms at the
    bench's huge size)."""
    if not events or not viewer.can_ask_correction:
        return set()
    return {
        event.pk
        for event in events
        if event.undone_at is None
        and isinstance(event.data, dict)
        and "undo" in event.data
        and event.pk not in undoable
    }


def _rows(viewer: Viewer, events: list[CampaignEvent]) -> list[HistoryRow]:
    undoable: set[int] = set()
    # When the last phase finished: read once, for the undoable question and the rows.
    closed = history.closed_at(viewer.campaign) if events and viewer.can_record else None
    if events:
        # Read from the page's rows (history.undoable_among: undoable_for's conditions, no query).
        undoable = history.undoable_among(viewer, events, closed)
    campaign_of = CampaignEvent.campaign.field.set_cached_value
    for event in events:
        # Already loaded (the event's campaign_id is its id); describe() reads its game data.
        campaign_of(event, viewer.campaign)
    refused = history.undo_refusals(
        viewer.campaign, [event for event in events if event.pk in undoable]
    )
    askable = asked_among(viewer, events, undoable)
    undo_url = url_maker("campaigns:undo", viewer.campaign.pk)
    drawn = when_drawn()
    rows = []
    for event in events:
        event.actor_name = _actor_name(event)
        when_iso, when = drawn(event.created_at)
        can_undo = event.pk in undoable
        key = oid(event.pk)
        rows.append(
            HistoryRow(
                event,
                history.describe(event),
                can_undo,
                history.is_closed(event, closed),
                refused.get(event.pk, ""),
                event.pk in askable,
                oid=key,
                when_iso=when_iso,
                when=when,
                actor=event.actor_name,
                undone=bool(event.undone_at),
                undo_url=undo_url(event.pk, key) if can_undo else "",
            )
        )
    return rows


def _history_url(viewer: Viewer) -> str:
    return campaign_url("campaigns:history", viewer.campaign.pk)


def _history_context(request: HttpRequest, viewer: Viewer) -> dict[str, Any]:
    params = request.GET
    filter_form = HistoryFilterForm(params, viewer=viewer)
    if filter_form.chosen():
        visible = viewer.filter_visible(CampaignEvent.objects.filter(campaign=viewer.campaign))
        filtered = filter_form.apply(visible)
        events = ListRows.of(_named(filtered), filtered)
    else:
        events = _UNFILTERED.rows(viewer.campaign.pk, tuple(viewer.visible_scopes()))
    listing = paging.listing(
        events, params, size=HISTORY_PAGE_SIZE, path=_history_url(viewer), capped=True
    )
    rows = _rows(viewer, list(listing.page.object_list))
    corrections_url = campaign_url("campaigns:corrections", viewer.campaign.pk)
    return {
        "viewer": viewer,
        "campaign": viewer.campaign,
        "filter_form": filter_form,
        "filtered": bool(filter_form.chosen()),
        "ignored": bool(filter_form.errors),
        "listing": listing,
        "page": listing.page,
        "rows": rows,
        # The rows' HTML written in Python (campaigns.history.html); the token as the page's
        # ``{% csrf_token %}`` gives it (asked only if a row has an Undo form).
        "rows_html": history_rows(
            rows,
            here=listing.here,
            corrections_url=corrections_url,
            csrf_token=SimpleLazyObject(lambda: get_token(request)),
        ),
        "history_url": _history_url(viewer),
        "corrections_url": corrections_url,
    }


@vary_on_headers("HX-Request")
@require_safe
@login_required
def campaign_history(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    context = _history_context(request, viewer)
    if request.htmx and not request.htmx.history_restore_request:
        # A filter or a page link: the list swaps in place (the address bar follows).
        return render(request, "campaigns/history/history.html#history-list", context)
    return render(request, "campaigns/history/history.html", context)


@require_POST
@login_required
def undo_change(request: HttpRequest, campaign_id: int, event_id: int) -> HttpResponse:
    """Undo a change: one's own, or any the referee can see (a change of a finished phase with
    the referee's reason). Back to the page of the history the button was on (its filters and
    page number, posted as ``next``)."""
    viewer = access.member(request, campaign_id)
    event = get_object_or_404(history.undoable_for(viewer, among=[event_id]), pk=event_id)
    form = UndoForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        try:
            history.undo(event, by=request.user, reason=form.cleaned_data["reason"])
        except history.UndoError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Undone: %(what)s") % {"what": history.describe(event)})
    next_page = form.cleaned_data.get("next", "") if form.is_valid() else ""
    back = paging.back_to(request, next_page, _history_url(viewer))
    return redirect(f"{back}#event-{oid(event.pk)}")
