"""Marking a side's step done or skipped, and taking the mark back."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.templatetags.gamedata_tags import loc
from refit.walker import services as walker
from refit.walker.forms import MarkForm
from refit.walker.services import WalkerError
from refit.walker.views.common import STALE, step_actor
from refit.walker.views.step import after_change


@vary_on_headers("HX-Request")
@require_POST
@login_required
def mark(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer, step_def = step_actor(request, campaign_id, side, rule)
    campaign = viewer.campaign
    from_overview = request.POST.get("from") == "overview"
    reph = walker.posted_reph(campaign, request.POST.get("reph"))
    form: MarkForm | None = MarkForm(request.POST, auto_id=f"id_mark_{side}_%s")
    ok = False
    if reph is None:
        messages.error(request, STALE)
        form = None
    elif form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            walker.mark(
                campaign,
                reph,
                side=side,
                rule=rule,
                by=request.user,
                skipped=data["action"] == "skip",
                reason=data["reason"],
                note=data["note"],
                instead=data["instead"],
                overrule=data["overrule"],
            )
        except WalkerError as error:
            messages.error(request, str(error))
            typed = data["note"].strip() or data["reason"].strip() or data["overrule"].strip()
            if typed:
                messages.info(request, _("What you typed: %(text)s") % {"text": typed})
        else:
            ok = True
            name = loc(step_def.name)
            messages.success(
                request,
                (
                    _("%(rule)s %(name)s skipped.")
                    if data["action"] == "skip"
                    else _("%(rule)s %(name)s done.")
                )
                % {"rule": rule, "name": name},
            )
    elif from_overview:
        messages.error(request, _("The step was not marked."))
    return after_change(
        request,
        viewer,
        side,
        step_def,
        ok=ok,
        from_overview=from_overview,
        mark_form=form,
        advance=request.POST.get("then") == "next",
        reph=reph,
    )


@vary_on_headers("HX-Request")
@require_POST
@login_required
def unmark(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer, step_def = step_actor(request, campaign_id, side, rule)
    campaign = viewer.campaign
    reph = walker.posted_reph(campaign, request.POST.get("reph"))
    if reph is None:
        messages.error(request, STALE)
    else:
        try:
            walker.unmark(campaign, reph, side=side, rule=rule, by=request.user)
        except WalkerError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(rule)s %(name)s taken back: it is to do again.")
                % {"rule": rule, "name": loc(step_def.name)},
            )
    # Nothing typed to keep: back to the side's list (HTMX: the block the form was in).
    return after_change(
        request,
        viewer,
        side,
        step_def,
        ok=True,
        from_overview=request.POST.get("from") == "overview",
        reph=reph,
    )
