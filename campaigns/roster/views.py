"""A side's secret sheets: the CG Roster (one row per CG day) and its CPP/FPP ledgers.

Access goes through campaigns.access (``side_reader``/``side_actor``: the side's players and the
referee only), changes through campaigns.roster.services, and every CPP/FPP column is derived by
campaigns.roster.ledger from the ledger's sums per day (campaigns.roster.rows.side_movements).
Each page reads with a fixed handful of queries; the ledgers show a page of entries at a time
(the newest first, "all" on request), so that their time stays about flat as the campaign
grows (bench/pages.py, docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access, paging
from campaigns.access import Viewer
from campaigns.games.registry import Period
from campaigns.models import LedgerEntry, SideDay
from campaigns.periods import period_word
from campaigns.roster import services
from campaigns.roster.forms import LedgerEntryForm, SideDayForm, hist_drm_field, rg_chart_ids
from campaigns.roster.html import LedgerRows, roster_body
from campaigns.roster.ledger import CppDay, FppDay, cpp_days, fpp_days
from campaigns.roster.rows import (
    chit_label,
    cpp_fpp_note,
    last_filled_day,
    ledger_movements,
    rf_columns,
    roster_rows,
)
from campaigns.state import StaleEdit, StateError, split_map_groups

# --- the CG Roster -------------------------------------------------------------------------


def _roster_context(viewer: Viewer, side: str, **extra: Any) -> dict[str, Any]:
    campaign = viewer.campaign
    rows = roster_rows(campaign, side)
    columns = {
        "has_adjustments": any(row.cpp.adjustment for row in rows),
        # A game without a Historical DRM chart (SaP) has no column for it.
        "has_hist_drm": bool(campaign.game.files.get("historical_drm")),
        # The moon, the scenario's type and attacker, the initiative chit and the Idle Day are
        # Red Factories' columns (SaP's roster has none of them: one scenario a time frame, no
        # initiative chit; its spec §11.1), as on the printed sheet (rosters.builders.roster).
        "rf_columns": rf_columns(campaign),
        "can_edit": viewer.can_act_for_side(side),
    }
    return {
        "viewer": viewer,
        "campaign": campaign,
        "side": side,
        "side_obj": campaign.side(side),
        "rows": rows,
        "rows_html": roster_body(
            rows, campaign, side, edit_index=extra.get("edit_index"), **columns
        ),
        "has_multiples": any(row.cpp.has_multiples for row in rows),
        "period_word": period_word(campaign),
        "cpp_fpp_note": cpp_fpp_note(campaign),
        **columns,
        **extra,
    }


@require_safe
@login_required
def roster(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(request, campaign_id, side)
    return render(request, "campaigns/roster/roster.html", _roster_context(viewer, side))


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def side_day(request: HttpRequest, campaign_id: int, side: str, index: int) -> HttpResponse:
    viewer = access.side_actor(request, campaign_id, side)
    campaign = viewer.campaign
    if not 0 <= index < len(campaign.cg.periods):
        raise Http404
    record = SideDay.objects.filter(campaign=campaign, side=side, index=index).first()
    if record is None:
        raise Http404
    # The Historical DRM chart is not in our rules: whoever makes the referee's calls fills it in.
    groups = split_map_groups(campaign)
    form_options = {
        "campaign": campaign,
        "may_set_hist_drm": viewer.can_act_for_campaign,
        "map_groups": groups,
    }
    initial = {
        "hist_drm": record.hist_drm,
        **{hist_drm_field(g): (record.hist_drms or {}).get(g) for g in groups},
        "elr": record.elr,
        "san": record.san,
        "elr_san_revealed": record.elr_san_revealed,
        "initiative_chit": record.initiative_chit,
        "chit_revealed": record.chit_revealed,
        "version": record.version,
    }
    stale = None
    if request.method == "POST":
        form = SideDayForm(request.POST, initial=initial, **form_options)
        if form.is_valid():
            try:
                services.update_side_day(
                    campaign,
                    record,
                    by=request.user,
                    version=form.cleaned_data["version"],
                    **form.changed_values(),
                )
            except StaleEdit as error:
                messages.error(request, str(error))
                # Show what is saved now beside the user's own input, which stays in the form.
                stale = SideDay.objects.get(pk=record.pk)
            except StateError as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request,
                    _("Saved %(day)s.")
                    % {"day": campaign.cg.periods[index].label.in_language(get_language())},
                )
                if request.htmx:
                    return render(
                        request,
                        "campaigns/roster/roster.html#roster-body",
                        _roster_context(viewer, side),
                    )
                return redirect(
                    reverse("campaigns:roster", args=[campaign.pk, side]) + f"#day-{index}"
                )
        else:
            messages.error(request, _("Please correct the fields marked below."))
    else:
        form = SideDayForm(initial=initial, **form_options)
    context = _roster_context(
        viewer,
        side,
        form=form,
        edit_index=index,
        edit_period=campaign.cg.periods[index],
        stale=stale,
        stale_chit=chit_label(campaign.module, stale.initiative_chit) if stale else "",
    )
    template = "campaigns/roster/roster.html"
    if request.htmx:
        template += "#roster-body"
    return render(request, template, context)


# --- the CPP and FPP ledgers ---------------------------------------------------------------


@dataclass
class LedgerDay:
    index: int
    period: Period
    entries: list[LedgerEntry]
    cpp: CppDay | None = None
    fpp: FppDay | None = None
    entries_html: str = ""


# Entries of a ledger on one page: the newest first (the current CG day's), "all" on request.
LEDGER_PAGE_SIZE = 50


# What a row of a ledger shows of its entry (campaigns.roster.html.LedgerRows), read alone.
ENTRY_SHOWN = (
    *("index", "kind", "amount", "rg", "note", "note_words", "created_at"),
    "created_by__username",
)


class _Counted:
    """A ledger's entries (an ordered queryset) whose number is already known: the paginator
    takes a page of it (a ``LIMIT`` query) without counting them again."""

    def __init__(self, queryset: QuerySet, count: int) -> None:
        self.queryset, self.number = queryset, count

    def count(self) -> int:
        return self.number

    def __len__(self) -> int:
        return self.number

    def __getitem__(self, key: Any) -> Any:
        return self.queryset[key]

    def __iter__(self) -> Iterator[LedgerEntry]:
        return iter(self.queryset)


def _ledger_days(
    entries: list[LedgerEntry], periods: list[Period], cpp: list[CppDay], fpp: list[FppDay]
) -> list[LedgerDay]:
    """A page's entries (newest first) by CG day, oldest first, each with its day's sums."""
    days: dict[int, LedgerDay] = {}
    for entry in reversed(entries):
        if entry.index not in days:
            days[entry.index] = LedgerDay(entry.index, periods[entry.index], [])
        days[entry.index].entries.append(entry)
    written = LedgerRows()
    for day in days.values():
        day.cpp, day.fpp = cpp[day.index], fpp[day.index]
        day.entries_html = written.day(day.period, day.entries)
    return sorted(days.values(), key=lambda d: d.index)


def _ledger_context(
    viewer: Viewer, side: str, form: LedgerEntryForm, params: Any = None
) -> dict[str, Any]:
    campaign = viewer.campaign
    periods = campaign.cg.periods
    count = len(periods)
    moved, past_calendar = ledger_movements(campaign, side, count)
    cpp = cpp_days(count, moved[LedgerEntry.CPP])
    fpp = fpp_days(count, moved[LedgerEntry.FPP])
    rows = LedgerEntry.objects.filter(campaign=campaign, side=side).select_related("created_by")
    path = reverse("campaigns:ledger", args=[campaign.pk, side])
    params = params if params is not None else QueryDict()
    windows = {
        ledger: paging.window(
            # each ledger's length is known from its movements: no COUNT query
            _Counted(
                rows.filter(ledger=ledger, index__lt=count)
                .order_by("-index", "-id")
                .only(*ENTRY_SHOWN),
                sum(movement.count for movement in moved[ledger]),
            ),
            params,
            size=LEDGER_PAGE_SIZE,
            path=path,
            param=ledger,
        )
        for ledger in (LedgerEntry.CPP, LedgerEntry.FPP)
    }
    # Only after a calendar change in the game data.
    outside = list(rows.filter(index__gte=count)) if past_calendar else []
    current = last_filled_day(
        campaign.period_index, [*moved[LedgerEntry.CPP], *moved[LedgerEntry.FPP]], count
    )
    return {
        "viewer": viewer,
        "campaign": campaign,
        "side": side,
        "side_obj": campaign.side(side),
        "form": form,
        "rg_ids": rg_chart_ids(campaign, side),
        "cpp_days": _ledger_days(windows[LedgerEntry.CPP].rows, periods, cpp, fpp),
        "fpp_days": _ledger_days(windows[LedgerEntry.FPP].rows, periods, cpp, fpp),
        "cpp_window": windows[LedgerEntry.CPP],
        "fpp_window": windows[LedgerEntry.FPP],
        "outside": outside,
        "current_period": periods[current],
        "current_cpp": cpp[current],
        "current_fpp": fpp[current],
    }


def _new_ledger_form(
    viewer: Viewer, side: str, data: Any = None, **initial: Any
) -> LedgerEntryForm:
    current = min(viewer.campaign.period_index, len(viewer.campaign.cg.periods) - 1)
    return LedgerEntryForm(
        data,
        campaign=viewer.campaign,
        side=side,
        can_overrule=viewer.can_overrule,
        map_groups=split_map_groups(viewer.campaign),
        initial={"index": current, **initial},
    )


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def ledger(request: HttpRequest, campaign_id: int, side: str) -> HttpResponse:
    viewer = access.side_reader(request, campaign_id, side)
    if request.method == "POST":
        access.require(viewer.can_act_for_side(side))
        form = _new_ledger_form(viewer, side, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.add_ledger_entry(
                    viewer.campaign,
                    by=request.user,
                    side=side,
                    ledger=data["ledger"],
                    index=data["index"],
                    kind=data["kind"],
                    amount=data["signed_amount"],
                    rg=data["rg"],
                    note=data["note"],
                    locations=data.get("locations"),
                    map_group=data.get("map_group") or "",
                )
            except StateError as error:
                messages.error(request, str(error))
            else:
                messages.success(request, _("Entry added."))
                if not request.htmx:
                    return redirect("campaigns:ledger", campaign_id=campaign_id, side=side)
                # Ready for the next entry of the same kind and day (fast entry at the table).
                form = _new_ledger_form(viewer, side, entry=data["entry"], index=data["index"])
        else:
            messages.error(request, _("The entry was not added: correct the fields marked below."))
    else:
        form = _new_ledger_form(viewer, side)
    template = "campaigns/roster/ledger.html"
    if request.htmx:
        template += "#ledger-section"
    return render(request, template, _ledger_context(viewer, side, form, request.GET))
