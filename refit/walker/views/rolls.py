"""Rolling a step's dice tables (and booking a roll's result again), undoing what a step
changed, and choosing the initiative chit."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.access import Viewer
from campaigns.dice.results import result_words
from campaigns.games import step_engine
from campaigns.games.rules import modifier_reason, signed
from campaigns.models import DiceRoll, RefitPhase
from campaigns.state import StateError
from campaigns.templatetags.gamedata_tags import loc
from refit.walker import automatic, initiative, ob_results, situation
from refit.walker import services as walker
from refit.walker.forms import ChitForm, HardenForm, RollForm
from refit.walker.services import WalkerError
from refit.walker.views.common import STALE, overview_url, step_actor
from refit.walker.views.step import after_change, roll_form_id, roll_lines, step_context


def _roll_sentence(table_name: str, roll: DiceRoll) -> str:
    faces = " + ".join(str(face) for face in roll.faces)
    language = get_language()
    modifiers = "".join(
        f" {signed(m['value'])} ({modifier_reason(m, language)})" for m in roll.modifiers
    )
    return _("%(table)s: %(kind)s %(faces)s%(modifiers)s = %(final)s → %(result)s") % {
        "table": table_name,
        "kind": roll.kind,
        "faces": faces,
        "modifiers": modifiers,
        "final": roll.final,
        "result": result_words(roll.result, language) or "—",
    }


@vary_on_headers("HX-Request")
@require_POST
@login_required
def roll(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer, step_def = step_actor(request, campaign_id, side, rule)
    campaign = viewer.campaign
    reph = situation.with_marks(walker.posted_reph(campaign, request.POST.get("reph")))
    if reph is None:
        messages.error(request, STALE)
        return _after_roll(request, viewer, side, step_def, None)
    posted_table = request.POST.get("table", "")
    try:  # asked here too, to say why before the DRMs are read; the service asks again
        rolled_step = automatic.check_roll(
            campaign, reph, side=side, step=rule, table_id=posted_table
        )
    except automatic.AutomaticRollError as error:
        messages.error(request, str(error))
        return _after_roll(request, viewer, side, step_def, reph)
    posted_group = request.POST.get("map_group", "")[:10]
    if request.POST.get("rebook"):
        try:
            rolled = automatic.book_again(
                campaign,
                reph,
                side=side,
                step=rule,
                table_id=posted_table,
                by=request.user,
                map_group=posted_group,
            )
        except automatic.AutomaticRollError as error:
            messages.error(request, str(error))
            return _after_roll(request, viewer, side, step_def, reph)
        messages.success(request, rolled.booked)
        return _after_roll(request, viewer, side, step_def, reph, rolled=True)
    the_plan = automatic.plan(campaign, reph, side, posted_table, map_group=posted_group)
    form = RollForm(
        request.POST,
        tables=automatic.rollable_tables(campaign, rolled_step),
        questions=the_plan.resolution.questions,
        lines=roll_lines(campaign, side, posted_table),
        auto_id=roll_form_id(posted_table, posted_group),
    )
    if not form.is_valid():
        messages.error(request, _("Nothing was rolled: check the DRMs."))
        return _after_roll(request, viewer, side, step_def, reph, roll_form=form)
    try:
        rolled = automatic.roll(
            campaign,
            reph,
            side=side,
            step=rule,
            table_id=posted_table,
            answers=form.cleaned_data["answers"],
            extra=form.cleaned_data["modifiers"],
            note=form.cleaned_data["note"],
            by=request.user,
            line=form.cleaned_data.get("line"),
            map_group=form.cleaned_data.get("map_group") or "",
        )
    except automatic.AutomaticRollError as error:
        messages.error(request, str(error))
        return _after_roll(request, viewer, side, step_def, reph, roll_form=form)
    sentence = _roll_sentence(situation.table_name(campaign, posted_table), rolled.roll)
    messages.success(request, f"{sentence} {rolled.booked}".strip())
    if request.POST.get("then") == "done":
        return _mark_after_roll(request, viewer, side, step_def, reph)
    return _after_roll(request, viewer, side, step_def, reph, rolled=True)


def _mark_after_roll(
    request: HttpRequest,
    viewer: Viewer,
    side: str,
    step_def: step_engine.StepDef,
    reph: RefitPhase,
    *,
    from_status: bool = False,
) -> HttpResponse:
    """ "Roll (or choose the chit), then mark done": the step is marked as its Done button would
    (the service checks again what the rules require); the side's next step opens. Refused,
    the roll or the chit stands and the page says why."""
    try:
        walker.mark(viewer.campaign, reph, side=side, rule=step_def.rule, by=request.user)
    except WalkerError as error:
        messages.error(request, str(error))
        if from_status:  # the chit form: its answer is the status block
            return after_change(request, viewer, side, step_def, ok=True, from_overview=False)
        reph = situation.with_marks(walker.open_reph(viewer.campaign))
        return _after_roll(request, viewer, side, step_def, reph, rolled=True)
    messages.success(
        request, _("%(rule)s %(name)s done.") % {"rule": step_def.rule, "name": loc(step_def.name)}
    )
    return after_change(request, viewer, side, step_def, ok=True, from_overview=False, advance=True)


def _after_roll(
    request: HttpRequest,
    viewer: Viewer,
    side: str,
    step_def: step_engine.StepDef,
    reph: RefitPhase | None,
    *,
    roll_form: RollForm | None = None,
    rolled: bool = False,
) -> HttpResponse:
    """The dice block (HTMX) or the step page again; the overview when the step is gone."""
    campaign = viewer.campaign
    if reph is None or not situation.in_reph(campaign, reph, step_def.rule):
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = overview_url(campaign.pk)
            return response
        return redirect(overview_url(campaign.pk))
    step_url = reverse("refit:step", args=[campaign.pk, side, step_def.rule])
    if request.htmx:
        return render(
            request,
            "refit/walker/step.html#dice",
            step_context(viewer, reph, side, step_def, roll_form=roll_form),
        )
    if roll_form is None:
        return redirect(f"{step_url}#rolls" if rolled else step_url)
    return render(
        request,
        "refit/walker/step.html",
        step_context(viewer, reph, side, step_def, roll_form=roll_form),
    )


@vary_on_headers("HX-Request")
@require_POST
@login_required
def harden(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    """Battle harden the MMC the owner chose, within the side's MMC Battle Hardening DR."""
    viewer, step_def = step_actor(request, campaign_id, side, rule)
    campaign = viewer.campaign
    reph = situation.with_marks(walker.posted_reph(campaign, request.POST.get("reph")))
    if reph is None:
        messages.error(request, STALE)
        return _after_roll(request, viewer, side, step_def, None)
    form = HardenForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.first_error())
        return _after_roll(request, viewer, side, step_def, reph)
    picks = form.picks()
    try:
        done = ob_results.harden_mmc(campaign, reph, side, picks=picks, by=request.user)
    except StateError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return _after_roll(request, viewer, side, step_def, reph, rolled=True)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def undo_effects(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer, step_def = step_actor(request, campaign_id, side, rule)
    campaign = viewer.campaign
    reph = walker.posted_reph(campaign, request.POST.get("reph"))
    if reph is None:
        messages.error(request, STALE)
    else:
        try:
            count = walker.undo_effects(campaign, reph, side=side, rule=rule, by=request.user)
        except WalkerError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(count)s change(s) of %(rule)s undone; the rolls stay in the log.")
                % {"count": count, "rule": rule},
            )
    return after_change(request, viewer, side, step_def, ok=True, from_overview=False)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def choose_chit(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer, step_def = step_actor(request, campaign_id, side, rule)
    campaign = viewer.campaign
    if not initiative.is_initiative_step(campaign, step_def.tables):
        raise Http404
    reph = walker.posted_reph(campaign, request.POST.get("reph"))
    if reph is None:
        messages.error(request, STALE)
        return after_change(request, viewer, side, step_def, ok=True, from_overview=False)
    form = ChitForm(
        request.POST, chits=initiative.allowed_chits(campaign, side, reph.index, reph.sequence)
    )
    if not form.is_valid():
        messages.error(request, _("Choose one of the chits you may use."))
    else:
        try:
            revealed = initiative.choose(
                campaign, reph, side=side, chit=form.cleaned_data["chit"], by=request.user
            )
        except (initiative.InitiativeError, StateError) as error:
            messages.error(request, str(error))
        else:
            if revealed is None:
                messages.success(
                    request, _("Chit chosen in secret; it is revealed when both sides have chosen.")
                )
            else:
                messages.success(
                    request,
                    _("Both chits revealed: %(result)s.") % {"result": loc(revealed.cell["name"])},
                )
            if request.POST.get("then") == "done":
                return _mark_after_roll(request, viewer, side, step_def, reph, from_status=True)
    return after_change(request, viewer, side, step_def, ok=True, from_overview=False)
