"""The Historical DRM chart page: every CG day × side on one page, typed or pasted, one Save.

A side's Historical DRM lives on its secret CG Roster, and stays as secret here: each member
sees the columns of the sides whose secrets they may see (``Viewer.visible_sides``: a player
their own, the referee both); an observer, who sees no side's roster, finds no page (404), as
an outsider. Setting it is a call for the whole campaign (``Viewer.can_act_for_campaign``: the
referee; without a referee, each player for their own side); the others read it (a POST is 403).
With HTMX the form answers with the ``#histdrm-chart`` partial; without, it redirects.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.histdrm import services
from campaigns.histdrm.forms import rebase
from campaigns.histdrm.page import chart_page, side_days
from campaigns.state import StateError, split_map_groups

TEMPLATE = "campaigns/histdrm/chart.html"


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def chart(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=services.has_chart)
    if not viewer.visible_sides():
        raise Http404  # the values are the sides' secrets: nothing here for an observer
    template = TEMPLATE + "#histdrm-chart" if request.htmx else TEMPLATE
    if request.method != "POST":
        return render(request, template, chart_page(viewer).context())
    access.require(viewer.can_act_for_campaign)
    saved = side_days(viewer.campaign, viewer.visible_sides())
    page = chart_page(viewer, data=request.POST, saved=saved)
    form = page.form
    assert form is not None  # may act for the campaign, and sees a side
    if not form.is_valid():
        messages.error(request, _("Nothing was saved: correct what is marked below."))
        return render(request, template, page.context())
    try:
        count = services.save_chart(
            viewer.campaign, by=request.user, edits=form.cleaned_data["edits"]
        )
    except services.StaleChart as error:
        messages.error(request, str(error))
        fresh = side_days(viewer.campaign, viewer.visible_sides())
        data = rebase(request.POST, fresh, split_map_groups(viewer.campaign))
        page = chart_page(viewer, data=data, saved=fresh, stale=error.saved)
        return render(request, template, page.context())
    except StateError as error:
        messages.error(request, str(error))
        return render(request, template, page.context())
    if count:
        messages.success(
            request,
            ngettext(
                "Saved the Historical DRM chart: %(count)s value changed.",
                "Saved the Historical DRM chart: %(count)s values changed.",
                count,
            )
            % {"count": count},
        )
    else:
        messages.info(request, _("Nothing to save: no value was changed."))
    if request.htmx:
        return render(request, template, chart_page(viewer).context())
    return redirect("campaigns:histdrm", campaign_id=campaign_id)
