"""One step for one side: its page, and the answer after a change made from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache, partial
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.games import step_engine
from campaigns.games.registry import localized
from campaigns.models import Campaign, DiceRoll, RefitPhase, Scenario
from campaigns.oid import from_oid
from campaigns.records.end import has_scenario_end
from campaigns.templatetags.nav import fast_url
from refit.rules.ob_results import PICKED
from refit.walker import automatic, ob_results, situation
from refit.walker import services as walker
from refit.walker.facts import completed_index
from refit.walker.forms import ChitForm, MarkForm, RollForm, UnmarkForm
from refit.walker.situation import ChitBlock, StepSituation, StepTable
from refit.walker.views.common import overview_url, step_or_404
from refit.walker.views.overview import overview_context


@dataclass(frozen=True)
class TableRow(StepTable):
    """A table of the step as the page shows it: with its roll form when the viewer may roll."""

    form: RollForm | None = None


def roll_form_id(table_id: str, map_group: str = "") -> str:
    suffix = f"-{map_group}" if map_group else ""
    return "id_" + table_id.replace(".", "-") + suffix + "_%s"


def roll_lines(campaign: Campaign, side: str, table_id: str) -> list[tuple[int, str]] | None:
    """The side's OB lines a roll of the table may name (None: the table names no line)."""
    if ob_results.family(table_id) not in PICKED:
        return None
    return ob_results.line_choices(campaign, side, table_id)


def _hardening(campaign: Campaign, page: StepSituation, reph: RefitPhase) -> dict | None:
    """The MMC the side may battle harden after its MMC Battle Hardening DR (11.6112)."""
    if not page.may_roll or not any(t.id in ob_results.MMC_TABLES for t in page.tables):
        return None
    roll = ob_results.hardening_roll(campaign, reph, page.side.key)
    if roll is None:
        return None
    allowed = int((roll.result or {}).get("mmc", 0))
    done = ob_results.hardened_so_far(campaign, roll)
    lines = []
    if allowed > done:
        lines = [
            (entry.pk, ob_results.line_label(entry), entry.quantity)
            for entry in ob_results.hardening_lines(campaign, page.side.key)
        ]
    return {"allowed": allowed, "done": done, "left": allowed - done, "lines": lines}


def _table_rows(
    campaign: Campaign,
    page: StepSituation,
    reph: RefitPhase,
    roll_form: RollForm | None,
) -> list[TableRow]:
    """Each table with its roll form; the one a refused roll was posted for keeps what was
    typed."""
    rollable = automatic.rollable_tables(campaign, page.step) if page.may_roll else {}
    rows = []
    for table in page.tables:
        form = None
        if table.plan is not None:
            if (
                roll_form is not None
                and roll_form.data.get("table") == table.id
                and (roll_form.data.get("map_group") or "") == table.map_group
            ):
                form = roll_form
            else:
                form = RollForm(
                    tables=rollable,
                    questions=table.plan.resolution.questions,
                    lines=roll_lines(campaign, page.side.key, table.id),
                    initial={"reph": reph.pk, "table": table.id, "map_group": table.map_group},
                    auto_id=roll_form_id(table.id, table.map_group),
                )
        rows.append(TableRow(**_shallow(table), form=form))
    return rows


def rolled_tables(
    viewer: Viewer,
    reph: RefitPhase,
    step: step_engine.StepDef,
    rolls: list[DiceRoll] | None = None,
) -> set[str]:
    """The tables rolled (not void) in ``step`` of this RePh, by either side, as far as the
    viewer may see the rolls: a step over says of each table whether it was rolled. ``rolls``:
    the step's rolls as the viewer sees them (``situation.step_rolls``), when read already."""
    if rolls is None:
        rolls = situation.step_rolls(viewer, reph, step)
    return {roll.table_id for roll in rolls if roll.voided_at is None}


OPEN_AT_MOST = 3


def next_rolls(page: StepSituation, tables: list[TableRow]) -> set[str]:
    """The tables whose roll is the step's next action, their forms open on the page
    (JavaScript or not): the tables the rules require that are not rolled yet; when none is,
    every table the side may roll and has not rolled in this step — unless there are more than
    ``OPEN_AT_MOST`` (RF 11.620's nine tables for rolls made by hand: the RG rolls are made
    on the RG page, or all at once), which stay folded."""
    rolled = {roll.table_id for roll in page.rolls if roll.voided_at is None}
    ready = [
        table.id
        for table in tables
        if table.form is not None
        and table.plan is not None
        and not table.plan.refused
        and not table.plan.missing
        and table.id not in rolled
    ]
    mandatory = {entry.get("table") for entry in page.step.mandatory_rolls}
    required = {t for t in ready if t in mandatory}
    if required or len(ready) > OPEN_AT_MOST:
        return required
    return set(ready)


def last_roll(page: StepSituation, due: set[str]) -> str:
    """The table whose roll is the last thing the rules require of the step: its form may roll
    and mark the step done in one action. "" when more than one roll is due, when the step asks
    for something else first (RG rolls pending, an initiative chit), or when the roll is not a
    required one."""
    mandatory = {entry.get("table") for entry in page.step.mandatory_rolls}
    if len(due) != 1 or page.pending_rgs or page.chit is not None:
        return ""
    (table,) = due
    required_left = len(page.required)
    return table if table in mandatory and required_left <= 1 else ""


def _chit(chit: ChitBlock | None, reph: RefitPhase, side: str) -> dict[str, Any] | None:
    if chit is None:
        return None
    block = _shallow(chit)
    if chit.may_choose:
        block["form"] = ChitForm(
            chits=chit.allowed or {},
            initial={"reph": reph.pk, "chit": chit.mine or None},
            auto_id=f"id_chit_{side}_%s",
        )
    return block


def _shallow(data: Any) -> dict[str, Any]:
    """A dataclass's fields, not copied (``dataclasses.asdict`` would copy them deep)."""
    return {field.name: getattr(data, field.name) for field in fields(data)}


# The steps that read the scenario's recorded end: victory (11.603), wounded leaders (11.610),
# battle hardening (11.611; its CVP DRM, heroes).
READS_SCENARIO_END = ("11.603", "11.610", "11.611")
# SaP steps whose page links the time frame's reinforcements (rolls, designations, CG9).
ARRIVAL_STEPS = ("11.617", "11.618", "11.621", "11.622")


def _record_links(
    viewer: Viewer, page: StepSituation, reph: RefitPhase, rule: str
) -> list[tuple[str, str]]:
    """Where a step's outcome is written down: the side's order of battle and ledger (for those
    who may see them), the public CVP tally, scenarios and calendar; for the steps that read it,
    the end of the scenario just completed."""
    campaign_id, side = viewer.campaign.pk, page.side.key
    links = []
    if rule.startswith(READS_SCENARIO_END):
        done = completed_index(viewer.campaign, reph)
        scenario = (
            Scenario.objects.filter(campaign=viewer.campaign, index=done)
            .order_by("-sequence")
            .first()
        )
        if scenario is not None and has_scenario_end(viewer.campaign):
            links.append(
                (
                    _("Scenario end"),
                    fast_url("campaigns:scenario_end", campaign_id, scenario.pk),
                )
            )
    if page.sees_side:
        links.append((_("Order of battle"), fast_url("campaigns:orbat", campaign_id, side)))
        links.append((_("CG Roster"), fast_url("campaigns:roster", campaign_id, side)))
        if viewer.campaign.module == "slaughter_at_ponyri" and rule in ARRIVAL_STEPS:
            # Issue 16: the time frame's reinforcements, CG9's leaders, the designations.
            links.append(
                (
                    _("This time frame's reinforcements"),
                    fast_url("refit:arrivals", campaign_id, side),
                )
            )
    links += [
        (_("CVP"), fast_url("campaigns:cvp", campaign_id)),
        (_("Scenarios"), fast_url("campaigns:scenarios", campaign_id)),
        (_("Calendar"), fast_url("campaigns:calendar", campaign_id)),
    ]
    return links


def note_audience(
    campaign: Campaign, side: str, step: step_engine.StepDef, *, has_referee: bool
) -> str:
    """Who will read the note a side writes when it marks ``step`` (the mark's visibility,
    ``walker.services._scope``): a public step's every member, a secret step's side and the
    referee (the side alone in a campaign without one)."""
    language = get_language()
    if step.secret:
        name = {"side": localized(campaign.game.side(side).name, language)}
        if not has_referee:
            return _("A secret step: only the %(side)s side will read this note.") % name
        return (
            _("A secret step: only the %(side)s side and the referee will read this note.") % name
        )
    others = ", ".join(
        localized(other.name, language) for other in campaign.game.sides if other.key != side
    )
    return _("A public step: the %(others)s side and the observers will read this note.") % {
        "others": others
    }


def keep_typed(form: forms.Form) -> None:
    """The live page fetching itself again keeps what the member has typed into ``form`` so
    far: htmx's ``hx-preserve`` keeps each visible field as it is in the page (by its id)."""
    for field in form.fields.values():
        if not field.widget.is_hidden:
            field.widget.attrs["hx-preserve"] = "true"


def _mark_form(mark_form: MarkForm | None, reph: RefitPhase, side: str) -> MarkForm:
    form = (
        mark_form
        if mark_form is not None
        else MarkForm(initial={"reph": reph.pk}, auto_id=f"id_mark_{side}_%s")
    )
    form.fields["note"].widget.attrs["aria-describedby"] = f"note-audience-{side}"
    return form


def _dice_log_url(campaign: Campaign) -> str | None:
    try:
        return fast_url("campaigns:dice_log", campaign.pk)
    except NoReverseMatch:
        return None


def step_context(
    viewer: Viewer,
    reph: RefitPhase,
    side: str,
    step: step_engine.StepDef,
    *,
    mark_form: MarkForm | None = None,
    roll_form: RollForm | None = None,
    live: bool = False,
) -> dict[str, Any]:
    """The step page (``reph`` with its marks, see ``situation.with_marks``); a refused mark or
    roll form is shown again with what was typed. ``live``: the page fetching itself again
    after another member's change, keeping what is typed in its forms."""
    campaign = viewer.campaign
    # The RePh's changes, read once if the page shows its effects or its booked lines.
    reph_events = cache(partial(walker.reph_events, campaign, reph))
    page = situation.step_situation(viewer, reph, side, step, reph_events)
    tables = _table_rows(campaign, page, reph, roll_form)
    # The forms the status block shows: marking the side's current step, or taking a mark back.
    marks = page.can_act and page.state.status == "current"
    marking = _mark_form(mark_form, reph, side) if marks else None
    unmarking = (
        UnmarkForm(initial={"reph": reph.pk})
        if page.can_act and not marks and page.state.mark is not None
        else None
    )
    due = next_rolls(page, tables)
    if live:
        if marking is not None:
            keep_typed(marking)
        for table in tables:
            if table.form is not None:
                keep_typed(table.form)
    return {
        **_shallow(page),
        "viewer": viewer,
        "campaign": campaign,
        "reph": reph,
        "mark_form": marking,
        "live": live,
        "note_audience": note_audience(
            campaign, side, step, has_referee=viewer.campaign_has_referee
        )
        if marks
        else "",
        "marker_legend": situation.marker_legend(campaign, [step]),
        "unmark_form": unmarking,
        "tables": tables,
        "next_rolls": due,
        "last_roll": last_roll(page, due),
        "table_names": page.table_names,
        "rolled_tables": rolled_tables(viewer, reph, step, page.step_rolls)
        if page.state.status in ("done", "skipped") and any(t.roll for t in page.tables)
        else set(),
        "chit": _chit(page.chit, reph, side),
        "hardening": _hardening(campaign, page, reph),
        # The OB lines each roll's result was booked onto (the side's secret).
        "booked_lines": ob_results.booked_lines(campaign, reph, side, reph_events())
        if page.sees_side
        else {},
        "purchases_url": fast_url("purchases:page", campaign.pk, side) if page.buys_rgs else None,
        "fortifications_url": fast_url("fortifications:page", campaign.pk, side)
        if page.buys_fortifications
        else None,
        "perimeters_url": fast_url("perimeters:page", campaign.pk)
        if page.draws_perimeters
        else None,
        "record_links": _record_links(viewer, page, reph, step.rule),
        "dice_log_url": _dice_log_url(campaign),
        "tables_url": fast_url("campaigns:game_section", campaign.module, "tables"),
    }


def reph_shown(campaign: Campaign, rule: str, token: str) -> RefitPhase:
    """The RePh whose step ``rule`` the page shows: the open one while the CG goes on; once no
    RePh is open (the CG is over) a finished one, read-only — the one ``?reph=`` names, else the
    last that ran the step (issue 22: each step's record stays readable after the end)."""
    reph = situation.with_marks(walker.open_reph(campaign))
    if reph is not None:
        if not situation.in_reph(campaign, reph, rule):
            raise Http404
        return reph
    finished = RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=False)
    if token:
        try:
            chosen = finished.filter(pk=from_oid(token)).first()
        except ValueError:
            chosen = None
    else:
        # The last finished RePh that ran the step (one query, whatever the campaign's size).
        chosen = next(
            (
                candidate
                for candidate in finished.order_by("-index", "-sequence", "-id")
                if situation.in_reph(campaign, candidate, rule)
            ),
            None,
        )
    if chosen is None or not situation.in_reph(campaign, chosen, rule):
        raise Http404
    return situation.with_marks(chosen)


@vary_on_headers("HX-Request")
@require_safe
@login_required
def step(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    """The step page; with HTMX (the live page fetching itself again) its status block and its
    dice block, or the overview when the RePh no longer runs the step."""
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    step_def = step_or_404(viewer.campaign, side, rule)
    access.require_side_reader(viewer, side, secret=step_def.secret)
    if request.htmx:
        return after_change(
            request, viewer, side, step_def, ok=True, from_overview=False, live=True
        )
    reph = reph_shown(viewer.campaign, rule, request.GET.get("reph", ""))
    return render(request, "refit/walker/step.html", step_context(viewer, reph, side, step_def))


def _render_status(request: HttpRequest, context: Mapping[str, Any]) -> HttpResponse:
    """The step's status block, and its dice block out of band (the roll forms follow the
    status: a side rolls on its current step)."""
    status = render_to_string("refit/walker/step.html#status", context, request=request)
    dice_block = render_to_string(
        "refit/walker/step.html#dice", {**context, "oob": True}, request=request
    )
    return HttpResponse(status + dice_block)


def next_step_url(campaign: Campaign, reph: RefitPhase, side: str, rule: str) -> str:
    """The page of the side's step after ``rule`` (waiting or not: it follows the other side
    live), or the overview when ``rule`` was the side's last step."""
    rules = [step.rule for step in walker.steps(campaign, reph)]
    later = rules[rules.index(rule) + 1 :] if rule in rules else []
    if not later:
        return overview_url(campaign.pk, side)
    return reverse("refit:step", args=[campaign.pk, side, later[0]])


def after_change(
    request: HttpRequest,
    viewer: Viewer,
    side: str,
    step_def: step_engine.StepDef,
    *,
    ok: bool,
    from_overview: bool,
    mark_form: MarkForm | None = None,
    live: bool = False,
    advance: bool = False,
    reph: RefitPhase | None = None,
) -> HttpResponse:
    """Where a mark, unmark, undo or chit goes next: the overview's side list (HTMX: the block
    it came from); after a refused mark from the step page, that page again with what was
    typed. ``advance``: a step marked on its page opens the side's next step (the overview
    after its last one), with or without JavaScript. ``reph``: the open RePh when the caller
    has read it in this request (a mark or unmark leaves it open); its marks are read again."""
    campaign = viewer.campaign
    reph = situation.with_marks(reph if reph is not None else walker.open_reph(campaign))
    running = situation.in_reph(campaign, reph, step_def.rule)
    if advance and ok and running and not from_overview:
        assert reph is not None
        url = next_step_url(campaign, reph, side, step_def.rule)
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = url
            return response
        return redirect(url)
    if request.htmx:
        if from_overview:
            return render(
                request, "refit/walker/overview.html#walker", overview_context(viewer, reph)
            )
        if not running:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = overview_url(campaign.pk, side)
            return response
        assert reph is not None
        return _render_status(
            request,
            step_context(
                viewer, reph, side, step_def, mark_form=None if ok else mark_form, live=live
            ),
        )
    if ok or from_overview or not running:
        return redirect(overview_url(campaign.pk, side))
    assert reph is not None
    return render(
        request,
        "refit/walker/step.html",
        step_context(viewer, reph, side, step_def, mark_form=mark_form),
    )
