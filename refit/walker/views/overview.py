"""Where the campaign stands (every side's steps) and finishing the Refit Phase."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.models import Campaign, RefitPhase, Scenario
from campaigns.periods import side_choices
from campaigns.records.end import end_missing_for, has_scenario_end
from refit.reserve import leaders
from refit.walker import services as walker
from refit.walker import situation
from refit.walker.forms import FinishForm
from refit.walker.services import WalkerError
from refit.walker.views.common import STALE, overview_url


def overview_context(
    viewer: Viewer, reph: RefitPhase | None, finish_form: FinishForm | None = None
) -> dict[str, Any]:
    """The overview page of ``reph`` (with its marks, see ``situation.with_marks``); a refused
    ``finish_form`` is shown again with its errors."""
    context: dict[str, Any] = {
        "viewer": viewer,
        "campaign": viewer.campaign,
        "reph": reph,
    }
    if reph is None:
        context["record"] = situation.finished_record(viewer)
        return context
    page = situation.overview_situation(viewer, reph)
    context["marker_legend"] = situation.marker_legend(
        viewer.campaign, [state.step for row in page.sides for state in row.states]
    )
    context.update({field.name: getattr(page, field.name) for field in fields(page)})
    if page.may_finish and finish_form is None:
        finish_form = FinishForm(
            question=page.question,
            sides=side_choices(viewer.campaign),
            initial={"reph": reph.pk},
            auto_id="id_finish_%s",
        )
    context["finish_form"] = finish_form if page.may_finish else None
    context.update(scenario_links(viewer, reph))
    context["before_cg"] = before_cg(viewer, reph, [row.side.key for row in page.sides if row.full])
    if reph.kind == "scenario":
        # What "Scenario over" waits for (issue 15), for every member to read.
        missing = end_missing_for(viewer.campaign, reph.index, reph.sequence)
        context["end_missing"] = missing.text if missing is not None else ""
    return context


def before_cg(viewer: Viewer, reph: RefitPhase, sides: list[str]) -> dict[str, dict[str, Any]]:
    """SaP CG9 (issue 16): in the pre-CG Refit Phase, the armor-leader rolls the data keeps
    outside the step list ("Armor leaders before the CG"), per side whose secrets the viewer
    sees: the step's name, how many platoons, whether rolled, and the page that rolls them.
    One query per side (two)."""
    campaign = viewer.campaign
    if reph.kind != "pre_cg" or campaign.module != leaders.SAP:
        return {}
    outside = (campaign.game.files.get("refit_steps") or {}).get("outside_steps") or []
    step = next((s for s in outside if leaders.TABLE in (s.get("tables") or [])), {})
    found = {}
    for side in sides:
        url = reverse("refit:arrivals", args=[campaign.pk, side]) + "#armor-leaders"
        found[side] = {
            "rule": step.get("rule", "CG9"),
            "name": step.get("name") or {},
            "platoons": len(leaders.platoons(campaign, side)),
            "rolled": bool(leaders.results(campaign, side)),
            "url": url,
        }
    return found


def scenario_links(viewer: Viewer, reph: RefitPhase) -> dict[str, str]:
    """While a scenario is played (and in the RePh right after it), where its end is recorded —
    for those who may record it (the players, the referee); the scenarios page when the day
    has no scenario yet. One query."""
    campaign = viewer.campaign
    if reph.kind not in ("scenario", "after_scenario") or not viewer.can_record:
        return {}
    if not has_scenario_end(campaign):
        return {}
    scenario = Scenario.objects.filter(
        campaign=campaign, index=reph.index, sequence=reph.sequence
    ).first()
    if scenario is None:
        return {"scenarios_url": reverse("campaigns:scenarios", args=[campaign.pk])}
    return {"scenario_end_url": reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])}


@vary_on_headers("HX-Request")
@require_safe
@login_required
def overview(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The overview; with HTMX (the live page fetching itself again) its ``#walker`` block."""
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    reph = situation.with_marks(walker.open_reph(viewer.campaign))
    template = "refit/walker/overview.html"
    if request.htmx:
        template += "#walker"
    return render(request, template, overview_context(viewer, reph))


def _position_sentence(campaign: Campaign, reph: RefitPhase | None) -> str:
    if reph is None:
        return _("The campaign game is over.")
    position = situation.position(campaign, reph)
    return _("Now: %(kind)s, %(day)s.") % {"kind": position.label, "day": position.day}


@require_POST
@login_required
def finish(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.campaign_actor(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    reph = walker.open_reph(campaign)
    if reph is None:
        messages.info(request, _("The campaign game is over."))
        return redirect(overview_url(campaign_id))
    if request.POST.get("reph") != str(reph.pk):
        messages.error(request, STALE)
        return redirect(overview_url(campaign_id))
    question = situation.finish_question(campaign, reph)
    form = FinishForm(
        request.POST, question=question, sides=side_choices(campaign), auto_id="id_finish_%s"
    )
    if not form.is_valid():
        situation.with_marks(reph)
        messages.error(request, _("The Refit Phase was not finished: answer the question."))
        return render(
            request, "refit/walker/overview.html", overview_context(viewer, reph, finish_form=form)
        )
    finished_kind = reph.kind
    try:
        following = walker.finish(campaign, reph, by=request.user, **form.outcome())
    except WalkerError as error:
        messages.error(request, str(error))
        return redirect(overview_url(campaign_id))
    done = (
        _("The scenario is over.")
        if finished_kind == "scenario"
        else _("The Refit Phase is finished.")
    )
    messages.success(request, f"{done} {_position_sentence(campaign, following)}")
    return redirect(overview_url(campaign_id))
