"""Applying an escape roll's result to the side's order-of-battle lines: one form for the
whole stack (a line for each unit), secret to the side and the referee like the OB itself."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns import access
from campaigns.state import StateError
from refit.perimeters import escape_results
from refit.perimeters import state as perimeter
from refit.walker import ob_results
from refit.walker import services as walker

PAGE = "refit/perimeters/escape_ob.html"


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def escape_ob(request: HttpRequest, campaign_id: int, side: str, roll_id: int) -> HttpResponse:
    roll = roll_id
    viewer = access.side_actor(request, campaign_id, side, feature=perimeter.has_perimeters)
    campaign = viewer.campaign
    reph = walker.open_reph(campaign)
    state = escape_results.state_of(campaign, reph.pk if reph else None)
    escape = escape_results.escape_of(campaign, state, side, roll) if state else None
    if escape is None:
        raise Http404
    posted = request.POST.getlist("lines") if request.method == "POST" else []
    becomes = request.POST.get("becomes", "").strip() if request.method == "POST" else ""
    if request.method == "POST":
        try:
            lines = [int(value) for value in posted if value]
            done = escape_results.apply_escape(
                campaign, state, side, roll=roll, lines=lines, becomes=becomes, by=request.user
            )
        except ValueError as error:  # StateError, or a value that is not a line
            messages.error(
                request,
                str(error)
                if isinstance(error, StateError)
                else _("Choose one of the lines listed."),
            )
        else:
            messages.success(request, done)
            return redirect(reverse("campaigns:orbat", args=[campaign.pk, side]))
    choices = [(e.pk, ob_results.line_label(e)) for e in escape_results.live_lines(campaign, side)]
    rows = [(unit, posted[i] if i < len(posted) else "") for i, unit in enumerate(escape.units)]
    return render(
        request,
        PAGE,
        {
            "viewer": viewer,
            "campaign": campaign,
            "side": side,
            "side_name": campaign.side(side).name,
            "escape": escape,
            "result": ob_results.result_words(escape.key),
            "rows": rows,
            "choices": [(str(pk), label) for pk, label in choices],
            "becomes": becomes,
            "perimeter_url": reverse("perimeters:page", args=[campaign.pk]),
        },
    )
