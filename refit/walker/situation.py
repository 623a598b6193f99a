"""What the Refit Phase walker pages show, each built by one function from the open RePh.

``overview_situation(viewer, reph)`` is where the campaign stands: every side's steps with its
marks, who waits for whom, whether the RePh may be finished. ``step_situation(viewer, reph,
side, step)`` is one step of one side: its status and neighbours, the tables it rolls with the
DRMs the campaign gives, the rolls made, what it changed that can still be undone, the
initiative chits, and which other pages it leads to. Both read the RePh's marks once
(``with_marks``) and ask campaigns.access's capabilities of the viewer; the views add the forms
and the URLs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from django.db import models
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy

from campaigns.access import Viewer
from campaigns.games import step_engine
from campaigns.games.registry import Side, localized
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignEvent,
    DiceRoll,
    RefitPhase,
    SideDay,
    StepProgress,
)
from campaigns.oid import oid
from campaigns.templatetags.gamedata_tags import is_text, loc
from refit.fortifications import services as fortifications
from refit.purchases.reading import PURCHASE_STEP
from refit.purchases.receipt import STRENGTH_STEP
from refit.queries import per_side
from refit.walker import automatic, facts, initiative, strictness
from refit.walker import services as walker
from refit.walker.by_reph import day_and_start, value
from refit.walker.services import StepState

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

# Where fortifications are bought, and where their Locations are written at set-up (RF 11.624x;
# SaP 11.621x, and 11.622 where Under Construction items are placed).
FORTIFICATION_STEPS = {
    "red_factories": ("11.621", "11.624"),
    "slaughter_at_ponyri": ("11.619", "11.621", "11.622"),
}

# The perimeter and isolation steps, which the perimeter map serves (11.605, 11.606).
PERIMETER_STEPS = ("11.605", "11.606")


# --- the RePh and its steps ----------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    kind: str
    label: str
    day: str
    sequence: int


def position(campaign: Campaign, reph: RefitPhase) -> Position:
    periods = campaign.cg.periods
    day = periods[reph.index].label.in_language(get_language()) if reph.index < len(periods) else ""
    return Position(reph.kind, str(KIND_LABELS.get(reph.kind, reph.kind)), day, reph.sequence)


def with_marks(reph: RefitPhase | None) -> RefitPhase | None:
    """Read the RePh's marks (both sides', with who made them) once, for every use after."""
    if reph is not None:
        # ``prefetch_related_objects([reph], Prefetch("progress", select_related("by")))`` with
        # its query compiled once: the marks kept where ``reph.progress.all()`` finds them.
        marks = walker.marks_of(reph.pk)
        for mark in marks:
            mark.reph = reph
        progress = reph.progress.all()
        progress._result_cache = marks
        progress._prefetch_done = True
        reph._prefetched_objects_cache = {
            **getattr(reph, "_prefetched_objects_cache", {}),
            "progress": progress,
        }
    return reph


@dataclass(frozen=True)
class RecordedStep:
    side: Side
    rule: str
    name: Any
    url: str


@dataclass(frozen=True)
class RecordedPhase:
    """A finished RePh on the overview after the CG's end: its position and the steps marked
    in it that the viewer may read, each linking its record (``?reph=``)."""

    position: Position
    steps: list[RecordedStep]


def finished_record(viewer: Viewer) -> list[RecordedPhase]:
    """Once the CG is over: every finished RePh with the marked steps the viewer may read (a
    secret step only for its side and the referee until the reveal). Two queries."""
    campaign = viewer.campaign
    phases = list(
        RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=False).order_by(
            "index", "sequence", "id"
        )
    )
    marks: dict[int, list[tuple[str, str]]] = {}
    for reph_id, side, rule in (
        StepProgress.objects.filter(reph__in=phases)
        .order_by("reph_id", "id")
        .values_list("reph_id", "side", "rule")
    ):
        marks.setdefault(reph_id, []).append((side, rule))
    definitions: dict[str, dict[str, step_engine.StepDef]] = {}
    record = []
    for reph in phases:
        if reph.kind not in definitions:
            definitions[reph.kind] = {step.rule: step for step in walker.steps(campaign, reph)}
        steps = definitions[reph.kind]
        token = oid(reph.pk)
        shown = [
            RecordedStep(
                campaign.side(side),
                rule,
                steps[rule].name,
                reverse("refit:step", args=[campaign.pk, side, rule]) + f"?reph={token}",
            )
            for side, rule in marks.get(reph.pk, [])
            if rule in steps and (not steps[rule].secret or viewer.can_see_side(side))
        ]
        if shown:
            record.append(RecordedPhase(position(campaign, reph), shown))
    return record


MARKERS = ("*", "#", "†")


@dataclass(frozen=True)
class LegendEntry:
    marker: str  # "*", "#", "†"; "" for the steps without a marker
    text: str  # what it means, in the reader's language


def marker_legend(
    campaign: Campaign, steps: Iterable[step_engine.StepDef]
) -> tuple[LegendEntry, ...]:
    """What the markers of ``steps`` (the steps a page shows) mean, as the game's
    ``refit_steps.json`` says (RF ``* # †``; SaP ``* †`` and the steps without a marker), in the
    reader's language."""
    shown: set[str] = set()
    for step in steps:
        shown.update(step.markers or ("",))
    described = campaign.game.files["refit_steps"].get("markers") or {}
    language = get_language()
    entries = [
        LegendEntry(marker, localized(described[marker], language))
        for marker in MARKERS
        if marker in described and marker in shown
    ]
    if "none" in described and "" in shown:
        entries.append(LegendEntry("", localized(described["none"], language)))
    return tuple(entry for entry in entries if entry.text)


def step_def(campaign: Campaign, rule: str) -> step_engine.StepDef | None:
    """The numbered step ``rule`` of the module's Refit Phase (None when it has no such step)."""
    return walker.step_def(campaign, rule)


def in_reph(campaign: Campaign, reph: RefitPhase | None, rule: str) -> bool:
    """Does the RePh (one of its kind) run step ``rule``?"""
    return reph is not None and any(step.rule == rule for step in walker.steps(campaign, reph))


def finish_question(campaign: Campaign, reph: RefitPhase) -> str:
    """What the rules decide when this RePh (or scenario) ends (nothing to ask when the revealed
    initiative chits have decided it)."""
    if campaign.module == "slaughter_at_ponyri":
        return "cg_won" if reph.kind == "scenario" else ""
    if reph.kind == "new_day":
        return (
            "" if initiative.revealed(campaign, reph.index, reph.sequence) else "scenario_generated"
        )
    if reph.kind == "after_scenario":
        return "cg_won"
    return ""


def _waiting_on(
    campaign: Campaign, states: list[StepState], marks: list[StepProgress]
) -> tuple[step_engine.StepDef | None, list[Side]]:
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


# --- where the campaign stands ---------------------------------------------------------------


@dataclass(frozen=True)
class SideProgress:
    side: Side
    states: list[StepState]
    full: bool  # the viewer sees this side's secret steps
    can_act: bool
    at: StepState | None  # the step the side is at (current or waiting); None when through
    waiting_for: list[Side]  # when waiting: the sides that have not finished `blocker`
    blocker: step_engine.StepDef | None


@dataclass(frozen=True)
class OverviewSituation:
    position: Position
    sides: list[SideProgress]
    complete: bool  # every side has marked every step
    may_finish: bool  # … and the viewer may finish the RePh
    question: str  # what finishing asks (see finish_question)
    has_referee: bool


def overview_situation(viewer: Viewer, reph: RefitPhase) -> OverviewSituation:
    """The open RePh as ``viewer`` sees it (``reph`` with its marks, see ``with_marks``)."""
    campaign = viewer.campaign
    marks = list(reph.progress.all())
    complete = walker.complete(campaign, reph)
    may_finish = complete and viewer.can_act_for_campaign
    return OverviewSituation(
        position=position(campaign, reph),
        sides=[_side_progress(viewer, reph, marks, side) for side in campaign.sides],
        complete=complete,
        may_finish=may_finish,
        question=finish_question(campaign, reph) if may_finish else "",
        has_referee=viewer.campaign_has_referee,
    )


def _side_progress(
    viewer: Viewer, reph: RefitPhase, marks: list[StepProgress], side: Side
) -> SideProgress:
    campaign = viewer.campaign
    states = walker.side_states(campaign, reph, side.key, marks)
    at = next((s for s in states if s.status in ("current", "waiting")), None)
    blocker, waiting_for = (None, [])
    if at is not None and at.status == "waiting":
        blocker, waiting_for = _waiting_on(campaign, states, marks)
    return SideProgress(
        side=side,
        states=states,
        full=viewer.can_see_side(side.key),
        can_act=viewer.can_act_for_side(side.key),
        at=at,
        waiting_for=waiting_for,
        blocker=blocker,
    )


# --- one step for one side -------------------------------------------------------------------


@dataclass(frozen=True)
class StepTable:
    """A dice table or chart the step uses."""

    id: str
    name: str
    roll: str  # "dr" or "DR"; "" for a chart or a table the dice service does not roll
    secret: bool  # its rolls are seen by the side and the referee only
    plan: automatic.Plan | None = None  # when the viewer may roll it: the DRMs, what is missing…
    map_group: str = ""  # RF CG I: the map group this row rolls for (11.616, one DR per group)


@dataclass(frozen=True)
class ChitBlock:
    """The initiative chits of RF 11.623: the side's secret choice, then both revealed."""

    revealed: initiative.Revealed | None
    result_name: str = ""  # revealed: the matrix's result
    lines: tuple[tuple[str, str], ...] = ()  # revealed: (side name, chit label)
    mine: str = ""  # not revealed, for those who see the side: its chit so far
    mine_label: str = ""
    allowed: dict[str, str] | None = None  # chit → why not ("" when allowed)
    refusals: tuple[str, ...] = ()
    may_choose: bool = False  # the viewer may choose (or change) the side's chit now


@dataclass(frozen=True)
class StepSituation:
    position: Position
    side: Side
    step: step_engine.StepDef
    state: StepState
    at: StepState | None  # the step the side is at (current or waiting)
    next_state: StepState | None
    blocker: (
        step_engine.StepDef | None
    )  # when waiting: the both-sides step the others have not marked
    waiting_for: list[Side]
    can_act: bool
    may_roll: bool  # the viewer may roll: the side's current step
    tables: list[StepTable]
    rolls: list[DiceRoll]  # made for this step and side in this RePh, as the viewer may see
    step_rolls: list[DiceRoll]  # … for this step by every side
    effects: list[str]  # what the step changed that can still be undone, in words
    chit: ChitBlock | None
    sees_side: bool  # the viewer sees the side's secrets (its order of battle and roster)
    buys_rgs: bool  # the RG purchase page serves this step
    buys_fortifications: bool  # … the fortification page, for those who see the side
    draws_perimeters: bool  # … the perimeter map
    # When the viewer may mark the side's current step: what the rules require first (the
    # mandatory rolls not made, the RG rolls pending), the rules a side may follow instead of a
    # roll (11.6114), and whether the viewer may mark it all the same with a reason (referee).
    required: list[str]
    alternatives: list[str]
    may_overrule: bool
    # The RGs whose strength / SW / leader rolls the side still has to make in this step (one
    # action on the page rolls them all).
    pending_rgs: int = 0

    @property
    def table_names(self) -> dict[str, str]:
        return {table.id: table.name for table in self.tables}


def step_situation(
    viewer: Viewer,
    reph: RefitPhase,
    side: str,
    step: step_engine.StepDef,
    reph_events: Callable[[], list[CampaignEvent]] | None = None,
) -> StepSituation:
    """Step ``step`` of ``side`` in ``reph`` (with its marks, see ``with_marks``) as ``viewer``
    sees it; the step must be one the RePh runs. ``reph_events``: reads ``walker.reph_events``
    once when first called (the page's booked lines are picked from them too)."""
    campaign = viewer.campaign
    if reph_events is None:
        reph_events = cache(partial(walker.reph_events, campaign, reph))
    marks = list(reph.progress.all())
    states = walker.side_states(campaign, reph, side, marks)
    index = next(i for i, s in enumerate(states) if s.step.rule == step.rule)
    state = states[index]
    # A finished RePh (read after the CG's end) is a record: nobody acts on it.
    can_act = reph.finished_at is None and viewer.can_act_for_side(side)
    blocker, waiting_for = (None, [])
    if state.status == "waiting":
        blocker, waiting_for = _waiting_on(campaign, states, marks)
    may_roll = can_act and state.status == "current"
    sees_side = viewer.can_see_side(side)
    module = campaign.module
    # The side's facts, read once for the tables' DRMs, their roll limits and what is missing.
    # (What the strictness rules read beyond the DRMs' facts only where the step has rules.)
    known = strict = None
    if may_roll and (step.mandatory_rolls or automatic.rollable_tables(campaign, step)):
        known = facts.for_side(campaign, reph, side, modifiers=_modifier_ids(campaign, step))
        if step.mandatory_rolls or step.roll_limits:
            strict = strictness.facts_for(campaign, reph, side, base=known, step=step)
    # The RePh's rolls, read once if the step's tables or its required rolls look at them.
    rolls = cache(partial(strictness.reph_rolls, campaign, reph))
    missing = (
        strictness.missing(campaign, reph, side, step, known=strict, rolls=rolls)
        if may_roll
        else []
    )
    required = [r.text for r in missing]
    every_side = step_rolls(viewer, reph, step)
    pending_rgs = sum(
        len(r.key.split(":", 1)[1].split(",")) for r in missing if r.key.startswith("rg_rolls:")
    )
    return StepSituation(
        position=position(campaign, reph),
        side=campaign.side(side),
        step=step,
        state=state,
        at=next((s for s in states if s.status in ("current", "waiting")), None),
        next_state=states[index + 1] if index + 1 < len(states) else None,
        blocker=blocker,
        waiting_for=waiting_for,
        can_act=can_act,
        may_roll=may_roll,
        tables=_tables(campaign, step, reph, side, may_roll, known, strict, rolls),
        rolls=_rolls(viewer, reph, side, step, every_side),
        step_rolls=every_side,
        effects=_effects(viewer, reph, side, states, index, reph_events),
        chit=_chit(viewer, reph, side, step, state),
        sees_side=sees_side,
        buys_rgs=step.rule in (PURCHASE_STEP.get(module), STRENGTH_STEP.get(module)),
        buys_fortifications=step.rule in FORTIFICATION_STEPS.get(module, ())
        and sees_side
        and fortifications.has_fortifications(campaign),
        draws_perimeters="maps" in campaign.game.files and step.rule in PERIMETER_STEPS,
        required=required,
        alternatives=strictness.rules.alternatives(step.mandatory_rolls) if may_roll else [],
        may_overrule=bool(required) and viewer.can_overrule,
        pending_rgs=pending_rgs,
    )


def _modifier_ids(campaign: Campaign, step: step_engine.StepDef) -> set[str]:
    """The ids of the DRMs of the tables the step's page plans a roll for."""
    return {
        modifier.get("id", "")
        for table_id in automatic.rollable_tables(campaign, step)
        for modifier in automatic.table_data(campaign, table_id).get("modifiers") or []
    }


def table_name(campaign: Campaign, table_id: str) -> str:
    """A dice table's or chart's name in the active language (its id when it has none)."""
    tables = campaign.game.files.get("tables", {})
    raw = next(
        (
            raw
            for raw in (*tables.get("dice_tables", []), *tables.get("charts", []))
            if raw["id"] == table_id
        ),
        {},
    )
    return str(loc(raw["name"])) if is_text(raw.get("name")) else table_id


def _tables(
    campaign: Campaign,
    step: step_engine.StepDef,
    reph: RefitPhase,
    side: str,
    may_roll: bool,
    known: dict[str, Any] | None = None,
    strict: dict[str, Any] | None = None,
    rolls: strictness.RephRolls | None = None,
) -> list[StepTable]:
    rollable = automatic.rollable_tables(campaign, step)
    if known is None and may_roll and rollable:
        known = facts.for_side(campaign, reph, side)
    rows = []
    for table_id in automatic.tables_of_side(campaign, step, side):
        table = rollable.get(table_id)
        name = table_name(campaign, table_id)
        groups = automatic.map_groups_of(campaign, table_id) if table is not None else ("",)
        for group in groups:  # RF CG I's 11.616: one row, one roll, per map group
            plan = None
            if table is not None and may_roll:
                plan = automatic.plan(
                    campaign,
                    reph,
                    side,
                    table_id,
                    known=known,
                    step=step,
                    map_group=group,
                    strict=strict,
                    reph_rolls=rolls,
                )
            rows.append(
                StepTable(
                    id=table_id,
                    name=f"{name} — {group}" if group else name,
                    roll=(automatic.dice_kind(table) or "") if table is not None else "",
                    secret=automatic.is_secret_roll(campaign, step, table_id),
                    plan=plan,
                    map_group=group,
                )
            )
    return rows


def step_rolls(viewer: Viewer, reph: RefitPhase, step: step_engine.StepDef) -> list[DiceRoll]:
    """The rolls made for ``step`` in this RePh, every side's, that the viewer may see, newest
    first (sorted here: sorted by the database, SQLite walks every roll since the RePh began by
    time instead of the day's few). One query, compiled once per step and the viewer's scopes
    (words of its SQL), the RePh's day and start its values (``by_reph``)."""
    scopes = tuple(viewer.visible_scopes())
    rule = step.rule
    query = per_side(
        "step_rolls",
        (rule, scopes),
        lambda campaign_id, day, start: (
            DiceRoll.objects.filter(
                campaign_id=campaign_id,
                step=rule,
                index=value(day, models.PositiveSmallIntegerField()),
                rolled_at__gte=value(start, models.DateTimeField()),
                visibility__in=scopes,
            )
            .select_related("rolled_by", "voided_by")
            .order_by()
        ),
        3,
    )
    rolls = query(viewer.campaign.pk, *day_and_start(reph, DiceRoll))
    for roll in rolls:
        roll.campaign = viewer.campaign
    return sorted(rolls, key=lambda roll: (roll.rolled_at, roll.pk), reverse=True)


def _rolls(
    viewer: Viewer,
    reph: RefitPhase,
    side: str,
    step: step_engine.StepDef,
    rolls: list[DiceRoll] | None = None,
) -> list[DiceRoll]:
    """The rolls made for this step and side in this RePh that the viewer may see, newest first
    (from ``rolls``, the step's ``step_rolls``, when the caller has read them)."""
    if rolls is None:
        rolls = step_rolls(viewer, reph, step)
    return [roll for roll in rolls if roll.side == side]


def _effects(
    viewer: Viewer,
    reph: RefitPhase,
    side: str,
    states: list[StepState],
    index: int,
    reph_events: Callable[[], list[CampaignEvent]],
) -> list[str]:
    """What the side's step changed that can still be undone (while no later step is started),
    as sentences; empty for a viewer who cannot act."""
    state = states[index]
    if (
        reph.finished_at is not None
        or not viewer.can_act_for_side(side)
        or state.status not in ("current", "done", "skipped")
    ):
        return []
    if any(later.mark is not None for later in states[index + 1 :]):
        return []
    events = walker.effects(viewer.campaign, reph, side, state.step.rule, reph_events())
    return [history.describe(event) for event in events]


def _chit(
    viewer: Viewer, reph: RefitPhase, side: str, step: step_engine.StepDef, state: StepState
) -> ChitBlock | None:
    campaign = viewer.campaign
    if not initiative.is_initiative_step(campaign, step.tables):
        return None
    revealed = initiative.revealed(campaign, reph.index, reph.sequence)
    if revealed is not None:
        return ChitBlock(
            revealed=revealed,
            result_name=str(loc(revealed.cell["name"])),
            lines=tuple(
                (
                    s.name.in_language(get_language()),
                    str(CHIT_LABELS.get(revealed.chits.get(s.key, ""), "")),
                )
                for s in campaign.sides
            ),
        )
    if not viewer.can_see_side(side):
        return ChitBlock(revealed=None)
    chosen = SideDay.objects.filter(campaign=campaign, index=reph.index, side=side).first()
    mine = initiative.chit_of(chosen, reph.sequence)
    allowed = initiative.allowed_chits(campaign, side, reph.index, reph.sequence)
    return ChitBlock(
        revealed=None,
        mine=mine,
        mine_label=str(CHIT_LABELS.get(mine, mine)),
        allowed=allowed,
        refusals=tuple(why for why in allowed.values() if why),
        may_choose=reph.finished_at is None
        and viewer.can_act_for_side(side)
        and state.status in ("current", "waiting", "done"),
    )
