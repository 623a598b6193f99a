"""The referee's tables (Cherkassy Pocket): every member reads them, the referee enters them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns import access
from campaigns.shortgames import services as short_games
from campaigns.shortgames.forms import RefereeTableForm, error_texts
from campaigns.shortgames.pages.tables import tables_page
from campaigns.shortgames.views.common import page_context
from campaigns.state import StateError

TEMPLATE = "campaigns/shortgames/tables.html"


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def tables(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=short_games.is_short_game)
    campaign = viewer.campaign
    if campaign.module != "cherkassy_pocket":
        raise Http404
    if request.method != "POST":
        return render(request, TEMPLATE, page_context(viewer, tables_page(viewer)))
    access.require(viewer.can_overrule)
    slots = [slot["id"] for slot in short_games.referee_slots(campaign)]
    form = RefereeTableForm(request.POST, slots=slots)
    slot = form.data.get("slot", "")
    if form.is_valid():
        try:
            short_games.save_referee_table(
                campaign,
                by=request.user,
                slot_id=slot,
                data=form.cleaned_data["data"],
                version=form.cleaned_data["version"],
            )
        except StateError as error:
            refused = str(error)
        else:
            messages.success(request, _("Table saved."))
            return redirect(reverse("shortgames:tables", args=[campaign.pk]) + f"#{slot}")
    elif slot in slots and not form.has_error("slot"):
        # The slot is known: its errors are shown at its table (the field is the textarea).
        refused = " ".join(message for errors in form.errors.values() for message in errors)
    else:
        refused = ""
        messages.error(
            request, _("The table was not saved: %(errors)s") % {"errors": error_texts(form)}
        )
    page = tables_page(
        viewer,
        typed={slot: form.data.get("data", "").strip()} if refused else {},
        errors={slot: refused} if refused else {},
    )
    return render(request, TEMPLATE, page_context(viewer, page), status=400)
