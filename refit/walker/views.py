"""The Refit Phase walker pages: where the campaign stands, one step for one side, marking,
rolling and finishing.

Access goes through campaigns.access: a secret step's page, marks and rolls belong to its
side and the referee (``require_side_reader``/``require_side_actor`` with ``secret``: 404 for the
opponent and observers); a public step may be read by every member and acted on by the side's
players and the referee (403 for the others); the referee finishes a Refit Phase, or any player
when the campaign has none (``campaign_actor``). Changes go through refit.walker.services and
refit.walker.automatic, which decide themselves which step and table may be rolled and who sees
the roll. Every form carries the id of the Refit Phase it was shown for, so a page left open
while the campaign moved on changes nothing and says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import access
from campaigns.access import Viewer
from campaigns.games import steps as engine
from campaigns.games.registry import Side
from campaigns.games.rules import signed
from campaigns.history import services as history
from campaigns.models import Campaign, DiceRoll, RefitPhase, SideDay, StepProgress
from campaigns.state import StateError
from campaigns.templatetags.gamedata_tags import is_text, loc
from refit.fortifications import services as fortifications
from refit.purchases import reading as purchases
from refit.purchases import receipt
from refit.walker import automatic, facts, initiative
from refit.walker import services as walker
from refit.walker.forms import ChitForm, FinishForm, MarkForm, RollForm, UnmarkForm
from refit.walker.services import StepState, WalkerError

KIND_LABELS = {
    "before_initial": gettext_lazy("Before the initial scenario"),
    "after_scenario": gettext_lazy("After the scenario"),
    "new_day": gettext_lazy("New CG day"),
    "scenario_day": gettext_lazy("Scenario day"),
    "scenario": gettext_lazy("Scenario being played"),
    "pre_cg": gettext_lazy("Before 7 July AM"),
    "daytime": gettext_lazy("Daytime RePh"),
    "full": gettext_lazy("Full RePh"),
}

CHIT_LABELS = {"attack": gettext_lazy("Attack"), "idle": gettext_lazy("Idle")}

STALE = gettext_lazy(
    "That page was for a Refit Phase that is already finished; nothing was changed. "
    "Here is where the campaign stands now."
)


# --- where the campaign stands -------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    kind: str
    label: str
    day: str
    sequence: int


def _position(campaign: Campaign, reph: RefitPhase) -> Position:
    periods = campaign.cg.periods
    day = periods[reph.index].label.in_language(get_language()) if reph.index < len(periods) else ""
    return Position(reph.kind, str(KIND_LABELS.get(reph.kind, reph.kind)), day, reph.sequence)


def _position_sentence(campaign: Campaign, reph: RefitPhase | None) -> str:
    if reph is None:
        return _("The campaign game is over.")
    position = _position(campaign, reph)
    return _("Now: %(kind)s, %(day)s.") % {"kind": position.label, "day": position.day}


def _with_marks(reph: RefitPhase | None) -> RefitPhase | None:
    """Read the RePh's marks (both sides', with who made them) once, for every use after."""
    if reph is not None:
        prefetch_related_objects(
            [reph], Prefetch("progress", queryset=StepProgress.objects.select_related("by"))
        )
    return reph


def _open_reph(campaign: Campaign) -> RefitPhase:
    """The open RePh with its marks; 404 when the campaign game is over."""
    reph = _with_marks(walker.open_reph(campaign))
    if reph is None:
        raise Http404
    return reph


def _marks(reph: RefitPhase) -> list[StepProgress]:
    return list(reph.progress.all())


def _question(campaign: Campaign, reph: RefitPhase) -> str:
    """What the rules decide when this RePh (or scenario) ends (nothing to ask when the revealed
    initiative chits have decided it)."""
    if campaign.module == "slaughter_at_ponyri":
        return "cg_won" if reph.kind == "scenario" else ""
    if reph.kind == "new_day":
        return "" if initiative.revealed(campaign, reph.index) else "scenario_generated"
    if reph.kind == "after_scenario":
        return "cg_won"
    return ""


def _dice_log_url(campaign: Campaign) -> str | None:
    try:
        return reverse("campaigns:dice_log", args=[campaign.pk])
    except NoReverseMatch:
        return None


@dataclass(frozen=True)
class SideProgress:
    side: Side
    states: list[StepState]
    full: bool  # the viewer sees this side's secret steps
    can_act: bool
    at: StepState | None  # the step the side is at (current or waiting); None when through
    waiting_for: list[Side]  # when waiting: the sides that have not finished `blocker`
    blocker: engine.StepDef | None


def _waiting_on(
    campaign: Campaign, states: list[StepState], marks: list[StepProgress], side: str
) -> tuple[engine.StepDef | None, list[Side]]:
    """The both-sides step this side has marked and the others have not, and who they are."""
    marked: dict[str, set[str]] = {}
    for mark in marks:
        marked.setdefault(mark.rule, set()).add(mark.side)
    for state in states:
        if state.status == "waiting":
            break
        if state.step.both_sides_together and state.mark is not None:
            missing = [s for s in campaign.sides if s.key not in marked.get(state.step.rule, ())]
            if missing:
                return state.step, missing
    return None, []


def _progress(viewer: Viewer, reph: RefitPhase, marks: list[StepProgress]) -> list[SideProgress]:
    campaign = viewer.campaign
    rows = []
    for side in campaign.sides:
        states = walker.side_states(campaign, reph, side.key, marks)
        at = next((s for s in states if s.status in ("current", "waiting")), None)
        blocker, waiting_for = (None, [])
        if at is not None and at.status == "waiting":
            blocker, waiting_for = _waiting_on(campaign, states, marks, side.key)
        rows.append(
            SideProgress(
                side=side,
                states=states,
                full=viewer.can_see_side(side.key),
                can_act=viewer.can_act_for_side(side.key),
                at=at,
                waiting_for=waiting_for,
                blocker=blocker,
            )
        )
    return rows


def _overview_context(
    viewer: Viewer, reph: RefitPhase | None, finish_form: FinishForm | None = None
) -> dict[str, Any]:
    campaign = viewer.campaign
    context: dict[str, Any] = {"viewer": viewer, "campaign": campaign, "reph": reph}
    if reph is None:
        return context
    marks = _marks(reph)
    complete = walker.complete(campaign, reph)
    may_finish = complete and viewer.can_act_for_campaign
    if may_finish and finish_form is None:
        finish_form = FinishForm(
            question=_question(campaign, reph), initial={"reph": reph.pk}, auto_id="id_finish_%s"
        )
    context.update(
        position=_position(campaign, reph),
        sides=_progress(viewer, reph, marks),
        complete=complete,
        may_finish=may_finish,
        finish_form=finish_form if may_finish else None,
        has_referee=viewer.campaign_has_referee,
    )
    return context


@require_GET
@login_required
def overview(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    reph = _with_marks(walker.open_reph(viewer.campaign))
    return render(request, "refit/walker/overview.html", _overview_context(viewer, reph))


def _overview_url(campaign_id: int, side: str = "") -> str:
    url = reverse("refit:overview", args=[campaign_id])
    return f"{url}#side-{side}" if side else url


@require_POST
@login_required
def finish(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.campaign_actor(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    reph = walker.open_reph(campaign)
    if reph is None:
        messages.info(request, _("The campaign game is over."))
        return redirect(_overview_url(campaign_id))
    if request.POST.get("reph") != str(reph.pk):
        messages.error(request, STALE)
        return redirect(_overview_url(campaign_id))
    form = FinishForm(request.POST, question=_question(campaign, reph), auto_id="id_finish_%s")
    if not form.is_valid():
        _with_marks(reph)
        messages.error(request, _("The Refit Phase was not finished: answer the question."))
        return render(
            request, "refit/walker/overview.html", _overview_context(viewer, reph, finish_form=form)
        )
    finished_kind = reph.kind
    try:
        following = walker.finish(campaign, reph, by=request.user, **form.outcome())
    except WalkerError as error:
        messages.error(request, str(error))
        return redirect(_overview_url(campaign_id))
    done = (
        _("The scenario is over.")
        if finished_kind == "scenario"
        else _("The Refit Phase is finished.")
    )
    messages.success(request, f"{done} {_position_sentence(campaign, following)}")
    return redirect(_overview_url(campaign_id))


# --- one step for one side -----------------------------------------------------------------


def _all_steps(campaign: Campaign) -> dict[str, engine.StepDef]:
    """Every numbered step of the module's Refit Phase, by rule."""
    return {step.rule: step for step, _raw in engine.main_steps(campaign.game.files["refit_steps"])}


def _reph_step(campaign: Campaign, reph: RefitPhase, rule: str) -> engine.StepDef | None:
    return next((step for step in walker.steps(campaign, reph) if step.rule == rule), None)


def _step_def(campaign: Campaign, side: str, rule: str) -> engine.StepDef:
    """The numbered step ``rule`` of the module's Refit Phase (404 for an unknown side or step;
    who may read or act on it is asked of campaigns.access with the step's ``secret``)."""
    if side not in campaign.game.side_keys:
        raise Http404
    step = _all_steps(campaign).get(rule)
    if step is None:
        raise Http404
    return step


@dataclass(frozen=True)
class TableRow:
    id: str
    name: str
    roll: str  # "dr" or "DR"; "" for a chart or a table the dice service does not roll
    secret: bool  # its rolls are seen by the side and the referee only
    form: RollForm | None
    plan: automatic.Plan | None = None  # the DRMs the campaign gives, what is missing…


def _table_data(campaign: Campaign) -> tuple[dict[str, Any], dict[str, Any]]:
    tables = campaign.game.files.get("tables", {})
    return (
        {raw["id"]: raw for raw in tables.get("dice_tables", [])},
        {raw["id"]: raw for raw in tables.get("charts", [])},
    )


def _table_name(campaign: Campaign, table_id: str) -> str:
    """A dice table's or chart's name in the active language (its id when it has none)."""
    raw_tables, charts = _table_data(campaign)
    raw = raw_tables.get(table_id) or charts.get(table_id) or {}
    return str(loc(raw["name"])) if is_text(raw.get("name")) else table_id


def _roll_form_id(table_id: str) -> str:
    return "id_" + table_id.replace(".", "-") + "_%s"


def _table_rows(
    campaign: Campaign,
    step: engine.StepDef,
    reph: RefitPhase,
    side: str,
    may_roll: bool,
    roll_form: RollForm | None,
) -> list[TableRow]:
    rollable = automatic.rollable_tables(campaign, step)
    known = facts.for_side(campaign, reph, side) if may_roll and rollable else None
    rows = []
    for table_id in automatic.table_ids(step):
        table = rollable.get(table_id)
        form = plan = None
        if table is not None and may_roll:
            plan = automatic.plan(campaign, reph, side, table_id, known=known)
            if roll_form is not None and roll_form.data.get("table") == table_id:
                form = roll_form
            else:
                form = RollForm(
                    tables=rollable,
                    questions=plan.resolution.questions,
                    initial={"reph": reph.pk, "table": table_id},
                    auto_id=_roll_form_id(table_id),
                )
        rows.append(
            TableRow(
                id=table_id,
                name=_table_name(campaign, table_id),
                roll=(automatic.dice_kind(table) or "") if table is not None else "",
                secret=automatic.is_secret_roll(campaign, step, table_id),
                form=form,
                plan=plan,
            )
        )
    return rows


def _rolls(viewer: Viewer, reph: RefitPhase, side: str, step: engine.StepDef) -> list[DiceRoll]:
    """The rolls made for this step and side in this RePh that the viewer may see, newest first."""
    return list(
        viewer.filter_visible(
            DiceRoll.objects.filter(
                campaign=viewer.campaign,
                step=step.rule,
                side=side,
                index=reph.index,
                rolled_at__gte=reph.started_at,
            )
        ).select_related("rolled_by", "voided_by")
    )


def _step_context(
    viewer: Viewer,
    reph: RefitPhase,
    side: str,
    step: engine.StepDef,
    *,
    mark_form: MarkForm | None = None,
    roll_form: RollForm | None = None,
) -> dict[str, Any]:
    campaign = viewer.campaign
    states = walker.side_states(campaign, reph, side, _marks(reph))
    position = next(i for i, s in enumerate(states) if s.step.rule == step.rule)
    state = states[position]
    at = next((s for s in states if s.status in ("current", "waiting")), None)
    can_act = viewer.can_act_for_side(side)
    blocker, waiting_for = (None, [])
    if state.status == "waiting":
        blocker, waiting_for = _waiting_on(campaign, states, _marks(reph), side)
    may_roll = can_act and state.status == "current"
    tables = _table_rows(campaign, step, reph, side, may_roll, roll_form)
    return {
        "viewer": viewer,
        "campaign": campaign,
        "reph": reph,
        "position": _position(campaign, reph),
        "side": campaign.side(side),
        "step": step,
        "state": state,
        "at": at,
        "next_state": states[position + 1] if position + 1 < len(states) else None,
        "blocker": blocker,
        "waiting_for": waiting_for,
        "can_act": can_act,
        "may_roll": may_roll,
        "mark_form": (
            mark_form
            if mark_form is not None
            else MarkForm(initial={"reph": reph.pk}, auto_id=f"id_mark_{side}_%s")
        ),
        "unmark_form": UnmarkForm(initial={"reph": reph.pk}),
        "tables": tables,
        "table_names": {row.id: row.name for row in tables},
        "rolls": _rolls(viewer, reph, side, step),
        "effects": _effects(viewer, reph, side, step, state, states, position),
        "purchases_url": _purchases_url(campaign, side, step),
        "fortifications_url": _fortifications_url(viewer, side, step),
        "perimeters_url": _perimeters_url(campaign, step),
        "record_links": _record_links(viewer, side),
        "chit": _chit(viewer, reph, side, step, state),
        "dice_log_url": _dice_log_url(campaign),
        "tables_url": reverse("campaigns:game_section", args=[campaign.module, "tables"]),
    }


def _record_links(viewer: Viewer, side: str) -> list[tuple[str, str]]:
    """Where a step's outcome is written down: the side's order of battle and ledger (for those
    who may see them), the public CVP tally, scenarios and calendar."""
    campaign = viewer.campaign
    links = []
    if viewer.can_see_side(side):
        links.append((_("Order of battle"), reverse("campaigns:orbat", args=[campaign.pk, side])))
        links.append((_("CG Roster"), reverse("campaigns:roster", args=[campaign.pk, side])))
    links += [
        (_("CVP"), reverse("campaigns:cvp", args=[campaign.pk])),
        (_("Scenarios"), reverse("campaigns:scenarios", args=[campaign.pk])),
        (_("Calendar"), reverse("campaigns:calendar", args=[campaign.pk])),
    ]
    return links


def _purchases_url(campaign: Campaign, side: str, step: engine.StepDef) -> str | None:
    """The RG purchase page, from the steps that buy RGs and roll what they turn out to be."""
    if step.rule not in (
        purchases.PURCHASE_STEP.get(campaign.module),
        receipt.STRENGTH_STEP.get(campaign.module),
    ):
        return None
    return reverse("purchases:page", args=[campaign.pk, side])


# Where fortifications are bought, and where their Locations are written at set-up (RF 11.624x;
# SaP 11.621x, and 11.622 where Under Construction items are placed).
FORTIFICATION_STEPS = {
    "red_factories": ("11.621", "11.624"),
    "slaughter_at_ponyri": ("11.619", "11.621", "11.622"),
}


def _perimeters_url(campaign: Campaign, step: engine.StepDef) -> str | None:
    """The perimeter map, from the perimeter and isolation steps (11.605, 11.606)."""
    if "maps" not in campaign.game.files or step.rule not in ("11.605", "11.606"):
        return None
    return reverse("perimeters:page", args=[campaign.pk])


def _fortifications_url(viewer: Viewer, side: str, step: engine.StepDef) -> str | None:
    campaign = viewer.campaign
    if step.rule not in FORTIFICATION_STEPS.get(campaign.module, ()):
        return None
    if not viewer.can_see_side(side) or not fortifications.has_fortifications(campaign):
        return None
    return reverse("fortifications:page", args=[campaign.pk, side])


def _effects(
    viewer: Viewer,
    reph: RefitPhase,
    side: str,
    step: engine.StepDef,
    state: StepState,
    states: list[StepState],
    position: int,
) -> list[str]:
    """What the side's step changed that can still be undone (while no later step is started),
    as sentences; empty for a viewer who cannot act."""
    if not viewer.can_act_for_side(side) or state.status not in ("current", "done", "skipped"):
        return []
    if any(later.mark is not None for later in states[position + 1 :]):
        return []
    return [
        history.describe(event) for event in walker.effects(viewer.campaign, reph, side, step.rule)
    ]


def _chit(
    viewer: Viewer, reph: RefitPhase, side: str, step: engine.StepDef, state: StepState
) -> dict[str, Any] | None:
    """The initiative chit block of RF 11.623: the side's secret choice, then both revealed."""
    campaign = viewer.campaign
    if not initiative.is_initiative_step(campaign, step.tables):
        return None
    revealed = initiative.revealed(campaign, reph.index)
    block: dict[str, Any] = {"revealed": revealed}
    if revealed is not None:
        block["result_name"] = loc(revealed.cell["name"])
        block["lines"] = [
            (s.name.in_language(get_language()), CHIT_LABELS.get(revealed.chits.get(s.key, ""), ""))
            for s in campaign.sides
        ]
        return block
    if viewer.can_see_side(side):
        mine = SideDay.objects.filter(campaign=campaign, index=reph.index, side=side).first()
        block["mine"] = mine.initiative_chit if mine is not None else ""
        block["mine_label"] = CHIT_LABELS.get(block["mine"], block["mine"])
        block["allowed"] = initiative.allowed_chits(campaign, side, reph.index)
        block["refusals"] = [why for why in block["allowed"].values() if why]
        if viewer.can_act_for_side(side) and state.status in ("current", "waiting", "done"):
            block["form"] = ChitForm(
                chits=block["allowed"],
                initial={"reph": reph.pk, "chit": block["mine"] or None},
                auto_id=f"id_chit_{side}_%s",
            )
    return block


@require_GET
@login_required
def step(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    step_def = _step_def(campaign, side, rule)
    access.require_side_reader(viewer, side, secret=step_def.secret)
    reph = _open_reph(campaign)
    if _reph_step(campaign, reph, rule) is None:
        raise Http404
    return render(request, "refit/walker/step.html", _step_context(viewer, reph, side, step_def))


def _render_status(request: HttpRequest, context: Mapping[str, Any]) -> HttpResponse:
    """The step's status block, and its dice block out of band (the roll forms follow the
    status: a side rolls on its current step)."""
    status = render_to_string("refit/walker/step.html#status", context, request=request)
    dice_block = render_to_string(
        "refit/walker/step.html#dice", {**context, "oob": True}, request=request
    )
    return HttpResponse(status + dice_block)


def _after_change(
    request: HttpRequest,
    viewer: Viewer,
    side: str,
    step_def: engine.StepDef,
    *,
    ok: bool,
    from_overview: bool,
    mark_form: MarkForm | None = None,
) -> HttpResponse:
    """Where a mark or unmark goes next: the overview's side list (HTMX: the block it came from);
    after a refused mark from the step page, that page again with what was typed."""
    campaign = viewer.campaign
    reph = _with_marks(walker.open_reph(campaign))
    in_reph = reph is not None and _reph_step(campaign, reph, step_def.rule) is not None
    if request.htmx:
        if from_overview:
            return render(
                request, "refit/walker/overview.html#walker", _overview_context(viewer, reph)
            )
        if not in_reph:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = _overview_url(campaign.pk, side)
            return response
        return _render_status(
            request,
            _step_context(viewer, reph, side, step_def, mark_form=None if ok else mark_form),
        )
    if ok or from_overview or not in_reph:
        return redirect(_overview_url(campaign.pk, side))
    return render(
        request,
        "refit/walker/step.html",
        _step_context(viewer, reph, side, step_def, mark_form=mark_form),
    )


@vary_on_headers("HX-Request")
@require_POST
@login_required
def mark(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    step_def = _step_def(campaign, side, rule)
    access.require_side_actor(viewer, side, secret=step_def.secret)
    from_overview = request.POST.get("from") == "overview"
    reph = walker.open_reph(campaign)
    form = MarkForm(request.POST, auto_id=f"id_mark_{side}_%s")
    ok = False
    if reph is None or request.POST.get("reph") != str(reph.pk):
        messages.error(request, STALE)
        form = None
    elif form.is_valid():
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
            )
        except WalkerError as error:
            messages.error(request, str(error))
            typed = data["note"].strip() or data["reason"].strip()
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
    return _after_change(
        request, viewer, side, step_def, ok=ok, from_overview=from_overview, mark_form=form
    )


@vary_on_headers("HX-Request")
@require_POST
@login_required
def unmark(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    step_def = _step_def(campaign, side, rule)
    access.require_side_actor(viewer, side, secret=step_def.secret)
    reph = walker.open_reph(campaign)
    if reph is None or request.POST.get("reph") != str(reph.pk):
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
    return _after_change(
        request,
        viewer,
        side,
        step_def,
        ok=True,
        from_overview=request.POST.get("from") == "overview",
    )


def _result_text(result: Any) -> str:
    """A table result as one line of text in the active language."""
    if result is None:
        return "—"
    if is_text(result):
        return str(loc(result))
    if isinstance(result, dict):
        if is_text(result.get("text")):
            return str(loc(result["text"]))
        return "; ".join(
            f"{key.replace('_', ' ')}: {_result_text(value)}" for key, value in result.items()
        )
    if isinstance(result, list):
        return ", ".join(_result_text(item) for item in result)
    return str(result)


def _roll_sentence(table_name: str, roll: DiceRoll) -> str:
    faces = " + ".join(str(face) for face in roll.faces)
    modifiers = "".join(f" {signed(m['value'])} ({m['reason']})" for m in roll.modifiers)
    return _("%(table)s: %(kind)s %(faces)s%(modifiers)s = %(final)s → %(result)s") % {
        "table": table_name,
        "kind": roll.kind,
        "faces": faces,
        "modifiers": modifiers,
        "final": roll.final,
        "result": _result_text(roll.result),
    }


@vary_on_headers("HX-Request")
@require_POST
@login_required
def roll(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    step_def = _step_def(campaign, side, rule)
    access.require_side_actor(viewer, side, secret=step_def.secret)
    reph = walker.open_reph(campaign)
    if reph is None or request.POST.get("reph") != str(reph.pk):
        messages.error(request, STALE)
        return _after_roll(request, viewer, side, step_def, None)
    _with_marks(reph)
    posted_table = request.POST.get("table", "")
    try:  # asked here too, to say why before the DRMs are read; the service asks again
        rolled_step = automatic.check_roll(
            campaign, reph, side=side, step=rule, table_id=posted_table
        )
    except automatic.AutomaticRollError as error:
        messages.error(request, str(error))
        return _after_roll(request, viewer, side, step_def, reph)
    if request.POST.get("rebook"):
        try:
            rolled = automatic.book_again(
                campaign, reph, side=side, step=rule, table_id=posted_table, by=request.user
            )
        except automatic.AutomaticRollError as error:
            messages.error(request, str(error))
            return _after_roll(request, viewer, side, step_def, reph)
        messages.success(request, rolled.booked)
        return _after_roll(request, viewer, side, step_def, reph, rolled=True)
    the_plan = automatic.plan(campaign, reph, side, posted_table)
    form = RollForm(
        request.POST,
        tables=automatic.rollable_tables(campaign, rolled_step),
        questions=the_plan.resolution.questions,
        auto_id=_roll_form_id(posted_table),
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
        )
    except automatic.AutomaticRollError as error:
        messages.error(request, str(error))
        return _after_roll(request, viewer, side, step_def, reph, roll_form=form)
    sentence = _roll_sentence(_table_name(campaign, posted_table), rolled.roll)
    messages.success(request, f"{sentence} {rolled.booked}".strip())
    return _after_roll(request, viewer, side, step_def, reph, rolled=True)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def undo_effects(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    step_def = _step_def(campaign, side, rule)
    access.require_side_actor(viewer, side, secret=step_def.secret)
    reph = walker.open_reph(campaign)
    if reph is None or request.POST.get("reph") != str(reph.pk):
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
    return _after_change(request, viewer, side, step_def, ok=True, from_overview=False)


@vary_on_headers("HX-Request")
@require_POST
@login_required
def choose_chit(request: HttpRequest, campaign_id: int, side: str, rule: str) -> HttpResponse:
    viewer = access.member(request, campaign_id, feature=walker.has_refit)
    campaign = viewer.campaign
    step_def = _step_def(campaign, side, rule)
    access.require_side_actor(viewer, side, secret=step_def.secret)
    if not initiative.is_initiative_step(campaign, step_def.tables):
        raise Http404
    reph = walker.open_reph(campaign)
    if reph is None or request.POST.get("reph") != str(reph.pk):
        messages.error(request, STALE)
        return _after_change(request, viewer, side, step_def, ok=True, from_overview=False)
    form = ChitForm(request.POST, chits=initiative.allowed_chits(campaign, side, reph.index))
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
    return _after_change(request, viewer, side, step_def, ok=True, from_overview=False)


def _after_roll(
    request: HttpRequest,
    viewer: Viewer,
    side: str,
    step_def: engine.StepDef,
    reph: RefitPhase | None,
    *,
    roll_form: RollForm | None = None,
    rolled: bool = False,
) -> HttpResponse:
    campaign = viewer.campaign
    if reph is None or _reph_step(campaign, reph, step_def.rule) is None:
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = _overview_url(campaign.pk)
            return response
        return redirect(_overview_url(campaign.pk))
    step_url = reverse("refit:step", args=[campaign.pk, side, step_def.rule])
    if request.htmx:
        return render(
            request,
            "refit/walker/step.html#dice",
            _step_context(viewer, reph, side, step_def, roll_form=roll_form),
        )
    if roll_form is None:
        return redirect(f"{step_url}#rolls" if rolled else step_url)
    return render(
        request,
        "refit/walker/step.html",
        _step_context(viewer, reph, side, step_def, roll_form=roll_form),
    )
