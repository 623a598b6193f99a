"""Walk both sides through the Refit Phase's steps (campaigns.games.step_engine says which and in
what order).

Each side marks its steps done or skipped, in order, at the same time as the other side. A step
that needs both sides (``both_sides_together``: initiative chits, perimeters) lets neither side
past it until both have marked it. A secret step's marks are seen by that side and the referee.
When every side has marked every step, ``finish`` closes the RePh and opens what comes next;
a new CG day (time frame) starts with the ELR and SAN the previous one ended with
(``refit.walker.carry``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC, viewer_or_none
from campaigns.compiled import CompiledQuery
from campaigns.dice import services as dice
from campaigns.games import step_engine
from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, RefitPhase, SideDay, StepProgress
from campaigns.records import services as records
from campaigns.records.end import EndMissing, end_missing_for
from refit.queries import per_side
from refit.reserve import services as reserve
from refit.walker import arrivals, carry, initiative, lifecycle, stavka, strictness
from refit.walker.by_reph import value


class WalkerError(ValueError):
    """A step cannot be marked (yet); the message is for the user."""


class EndNotRecorded(WalkerError):
    """The scenario phase cannot be finished: its end is not recorded (issue 15). ``missing``
    says what and where to record it."""

    def __init__(self, missing: EndMissing) -> None:
        super().__init__(missing.text)
        self.missing = missing


@dataclass(frozen=True)
class StepState:
    step: step_engine.StepDef
    status: str  # done, skipped, current, waiting (on the other side), todo
    mark: StepProgress | None


# The type of the scenario whose play starts after a RePh of this kind, where the app knows it
# (RF's scenario days take theirs from 11.623's chits).
PLAYED_TYPES = {
    ("red_factories", "before_initial"): "initial",
    ("slaughter_at_ponyri", "pre_cg"): "time_frame",
    ("slaughter_at_ponyri", "daytime"): "time_frame",
    ("slaughter_at_ponyri", "full"): "time_frame",
}


def has_refit(campaign: Campaign) -> bool:
    return "refit_steps" in campaign.game.files


# ``campaign.rephs.filter(finished_at__isnull=True).first()`` compiled once (campaigns.compiled):
# the campaign's open RePh, first by start (the model orders by campaign, then start and id).
_open_reph_of = CompiledQuery(
    lambda campaign_id: RefitPhase.objects.filter(
        campaign_id=campaign_id, finished_at__isnull=True
    ).order_by("started_at", "id")[:1],
    1,
)


def open_reph(campaign: Campaign) -> RefitPhase | None:
    """The RePh (or scenario) the campaign is in; the first one is opened on demand."""
    if not has_refit(campaign):
        return None
    found = _open_reph_of(campaign.pk)
    reph = found[0] if found else None
    if reph is not None:
        reph.campaign = campaign
    if reph is None and not campaign.rephs.exists():
        first = step_engine.first_position(campaign.module)
        reph = RefitPhase.objects.create(campaign=campaign, kind=first.kind, index=first.index)
        dice.commit(campaign, reph=reph)
    return reph


# ``RefitPhase.objects.select_for_update(of=("self",)).get(pk=…)`` compiled once (compiled at
# its first run, inside the caller's transaction, as select_for_update requires).
_locked_reph = CompiledQuery(
    lambda reph_id: RefitPhase.objects.select_for_update(of=("self",)).filter(pk=reph_id), 1
)


def locked(reph: RefitPhase) -> RefitPhase:
    """The RePh read again and locked for the caller's transaction (a mark's, an undo's)."""
    found = _locked_reph(reph.pk)
    if not found:
        raise RefitPhase.DoesNotExist
    return found[0]


# A RePh's marks with who made them, in the model's order (by RePh, then time and id):
# ``reph.progress.select_related("by")`` compiled once.
marks_of = CompiledQuery(
    lambda reph_id: (
        StepProgress.objects.filter(reph_id=reph_id).select_related("by").order_by("at", "id")
    ),
    1,
)


def marked_rules(reph: RefitPhase, side: str) -> set[str]:
    """The rules ``side`` has marked in ``reph`` (one query, compiled once per side)."""
    query = per_side(
        "marked_rules",
        side,
        lambda reph_id: (
            StepProgress.objects.filter(reph_id=reph_id, side=side)
            .order_by()
            .values_list("rule", flat=True)
        ),
        1,
    )
    return set(query(reph.pk))


def posted_reph(campaign: Campaign, posted: object) -> RefitPhase | None:
    """The open RePh when a form posted its id; None when the form was shown for an earlier one
    (or the campaign game is over), so a page left open changes nothing."""
    reph = open_reph(campaign)
    if reph is None or str(posted) != str(reph.pk):
        return None
    return reph


# The steps of each kind of RePh, worked out once per module's step data (0.2–0.3 ms each time,
# asked two to four times a request): the game's data is read once per process
# (campaigns.games.registry) and never changed, and each entry keeps the very data it was made
# from, so other data (a test's module) is worked out anew. Nothing of a campaign is kept.
_STEPS: dict[tuple[str, str], tuple[object, tuple[step_engine.StepDef, ...]]] = {}
_MAIN_STEPS: dict[str, tuple[object, dict[str, step_engine.StepDef]]] = {}


def steps_of_kind(campaign: Campaign, kind: str) -> tuple[step_engine.StepDef, ...]:
    """The steps a RePh of ``kind`` runs in ``campaign``'s module, in order."""
    files = campaign.game.files["refit_steps"]
    key = (campaign.module, kind)
    kept = _STEPS.get(key)
    if kept is None or kept[0] is not files:
        kept = _STEPS[key] = (files, tuple(step_engine.steps_for(campaign.module, files, kind)))
    return kept[1]


def step_def(campaign: Campaign, rule: str) -> step_engine.StepDef | None:
    """The numbered step ``rule`` of the module's Refit Phase (None when it has no such step),
    from the module's steps worked out once (as ``steps_of_kind``)."""
    files = campaign.game.files["refit_steps"]
    kept = _MAIN_STEPS.get(campaign.module)
    if kept is None or kept[0] is not files:
        by_rule: dict[str, step_engine.StepDef] = {}
        for step, _raw in step_engine.main_steps(files):
            by_rule.setdefault(step.rule, step)
        kept = _MAIN_STEPS[campaign.module] = (files, by_rule)
    return kept[1].get(rule)


def steps(campaign: Campaign, reph: RefitPhase) -> list[step_engine.StepDef]:
    if reph.kind == "scenario":
        return []
    return list(steps_of_kind(campaign, reph.kind))


def side_states(
    campaign: Campaign, reph: RefitPhase, side: str, marks: list[StepProgress]
) -> list[StepState]:
    """Every step of the RePh with this side's status, from all marks of the RePh."""
    by_step: dict[str, dict[str, StepProgress]] = {}
    for mark in marks:
        by_step.setdefault(mark.rule, {})[mark.side] = mark
    sides = campaign.game.side_keys
    states = []
    blocked = False
    for step in steps(campaign, reph):
        mark = by_step.get(step.rule, {}).get(side)
        if mark is not None:
            states.append(StepState(step, mark.status, mark))
            if step.both_sides_together and len(by_step.get(step.rule, {})) < len(sides):
                blocked = True  # our part is done; the other side has not marked it yet
            continue
        if blocked:
            states.append(StepState(step, "waiting", None))
        elif not any(s.status in ("current", "waiting") for s in states):
            states.append(StepState(step, "current", None))
        else:
            states.append(StepState(step, "todo", None))
    return states


def _scope(step: step_engine.StepDef, side: str) -> str:
    return side if step.secret else PUBLIC


@transaction.atomic
def mark(
    campaign: Campaign,
    reph: RefitPhase,
    *,
    side: str,
    rule: str,
    by: AbstractBaseUser,
    skipped: bool = False,
    reason: str = "",
    note: str = "",
    instead: bool = False,
    overrule: str = "",
) -> StepProgress:
    """Mark ``side``'s current step done (or skipped, with ``reason``).

    A step whose rules require a roll the side has not made (``strictness.missing``) is
    refused, done or skipped alike; ``instead`` says the side chose the rule that replaces such
    a roll (11.6114). The referee may mark it all the same with a written reason
    (``overrule``), which the history keeps with what was missing."""
    reph = locked(reph)
    if reph.finished_at is not None:
        raise WalkerError(_("This Refit Phase is over."))
    if side not in campaign.game.side_keys:
        raise WalkerError(_("That is not a side of this game."))
    states = side_states(campaign, reph, side, marks_of(reph.pk))
    state = next((s for s in states if s.step.rule == rule), None)
    if state is None:
        raise WalkerError(_("%(rule)s is not a step of this Refit Phase.") % {"rule": rule})
    if state.status != "current":
        raise WalkerError(
            _("%(rule)s is not your current step.") % {"rule": rule}
            if state.status != "waiting"
            else _("Waiting for the other side to finish %(rule)s.") % {"rule": rule}
        )
    if skipped and not reason.strip():
        raise WalkerError(_("Say why the step is skipped."))
    if not skipped and initiative.is_initiative_step(campaign, state.step.tables):
        chosen = SideDay.objects.filter(campaign=campaign, index=reph.index, side=side).first()
        if not initiative.chit_of(chosen, reph.sequence):
            raise WalkerError(_("Choose your initiative chit first."))
    instead_rule = ""
    if instead and not skipped:
        instead_rule = ", ".join(strictness.rules.alternatives(state.step.mandatory_rolls))
    missing = strictness.missing(campaign, reph, side, state.step, instead=bool(instead_rule))
    if missing and overrule.strip():
        viewer = viewer_or_none(by, campaign.pk)
        if viewer is None or not viewer.can_overrule:
            raise WalkerError(
                _("Only the referee may mark a step without what the rules require first.")
            )
    elif missing:
        raise WalkerError(
            " ".join(required.text for required in missing)
            + " "
            + _("The referee may mark the step all the same, with a written reason.")
        )
    overruled = overrule.strip() if missing else ""
    progress = StepProgress.objects.create(
        reph=reph,
        side=side,
        rule=rule,
        by=by,
        status=StepProgress.Status.SKIPPED if skipped else StepProgress.Status.DONE,
        reason=reason.strip(),
        note=note.strip(),
    )
    history.record_change(
        campaign,
        by,
        "refit.step_marked",
        visibility=_scope(state.step, side),
        changes=[(progress, None, history.snapshot(progress))],
        rule=rule,
        side=side,
        status=progress.status,
        reason=progress.reason,
        index=reph.index,
        **(
            {"overruled": overruled, "missing": [required.key for required in missing]}
            if overruled
            else {}
        ),
        **({"instead": instead_rule} if instead_rule else {}),
    )
    if state.step.announces:
        _announce(campaign, reph, state.step, by)
    return progress


def _announce(
    campaign: Campaign, reph: RefitPhase, step: step_engine.StepDef, by: AbstractBaseUser
) -> None:
    """RF 11.625 "両陣営は現在のELRとSANを伝え合う" (SaP 11.622: SAN): the sides tell each other,
    so the figures become public when the last side marks the step, not before — one side's
    mark tells the other nothing while the other's figures stay hidden."""
    marked = set(reph.progress.filter(rule=step.rule).values_list("side", flat=True))
    if not set(campaign.game.side_keys) <= marked:
        return
    days = list(
        SideDay.objects.select_for_update(of=("self",)).filter(
            campaign=campaign, index=reph.index, elr_san_revealed=False
        )
    )
    if not days:
        return
    changes = []
    for day in days:
        before = history.snapshot(day)
        SideDay.objects.filter(pk=day.pk).update(elr_san_revealed=True, version=day.version + 1)
        day.refresh_from_db()
        changes.append((day, before, history.snapshot(day)))
    history.record_change(
        campaign,
        by,
        "refit.announced",
        visibility=PUBLIC,
        changes=changes,
        index=reph.index,
        rule=step.rule,
        what=list(step.announces),
        figures={day.side: {k: getattr(day, k) for k in step.announces} for day in days},
    )


@transaction.atomic
def unmark(
    campaign: Campaign, reph: RefitPhase, *, side: str, rule: str, by: AbstractBaseUser
) -> None:
    """Take back a side's mark on a step while it has not marked a later one."""
    reph = RefitPhase.objects.select_for_update(of=("self",)).get(pk=reph.pk)
    if reph.finished_at is not None:
        raise WalkerError(_("This Refit Phase is over."))
    marks = list(reph.progress.filter(side=side))
    order = [step.rule for step in steps(campaign, reph)]
    target = next((m for m in marks if m.rule == rule), None)
    if target is None:
        raise WalkerError(_("%(rule)s is not marked.") % {"rule": rule})
    if any(order.index(m.rule) > order.index(rule) for m in marks if m.rule in order):
        raise WalkerError(_("A later step is already started; take that back first."))
    step = next(s for s in steps(campaign, reph) if s.rule == rule)
    before = history.snapshot(target)
    target.delete()
    history.record_change(
        campaign,
        by,
        "refit.step_unmarked",
        visibility=_scope(step, side),
        changes=[(target, before, None)],
        rule=rule,
        side=side,
        index=reph.index,
    )


# The RePh's events not undone (``step_reph`` = the RePh's id), compiled once.
_reph_events = CompiledQuery(
    lambda campaign_id, reph_id: CampaignEvent.objects.filter(
        campaign_id=campaign_id,
        step_reph=value(reph_id, models.BigIntegerField()),
        undone_at__isnull=True,
    ).order_by(),
    2,
)


def reph_events(campaign: Campaign, reph: RefitPhase) -> list[CampaignEvent]:
    """The RePh's changes not undone, every side's (by the ``step_reph`` index: the RePh's few,
    however long the campaign): what the step page's effects and booked lines are picked from,
    for those who may see them."""
    events = _reph_events(campaign.pk, reph.pk)
    for event in events:
        event.campaign = campaign
    return events


def effects(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    rule: str,
    events: list[CampaignEvent] | None = None,
) -> list[CampaignEvent]:
    """The changes made for the side's step in this RePh that can still be undone, newest first
    (the RePh's events by an index, then their step); ``events``: ``reph_events`` when the
    caller has read them."""
    if events is None:
        events = reph_events(campaign, reph)
    return sorted(
        (
            event
            for event in events
            if (event.data.get("refit_step") or {}).get("rule") == rule
            and (event.data.get("refit_step") or {}).get("side") == side
            and event.data.get("undo")
        ),
        key=lambda event: event.pk,
        reverse=True,
    )


@transaction.atomic
def undo_effects(
    campaign: Campaign, reph: RefitPhase, *, side: str, rule: str, by: AbstractBaseUser
) -> int:
    """Undo what the side's step changed (bookings, chit, entries) while no later step of the
    side is started. The rolls stay in the log: their results can be booked again, not rolled
    again."""
    reph = RefitPhase.objects.select_for_update(of=("self",)).get(pk=reph.pk)
    if reph.finished_at is not None:
        raise WalkerError(_("This Refit Phase is over."))
    order = [step.rule for step in steps(campaign, reph)]
    if rule not in order:
        raise WalkerError(_("%(rule)s is not a step of this Refit Phase.") % {"rule": rule})
    later = [m for m in reph.progress.filter(side=side) if m.rule in order]
    if any(order.index(m.rule) > order.index(rule) for m in later):
        raise WalkerError(_("A later step is already started; take that back first."))
    undone = 0
    for event in effects(campaign, reph, side, rule):
        try:
            history.undo(event, by=by)
        except history.UndoError as error:
            raise WalkerError(str(error)) from None
        undone += 1
    if not undone:
        raise WalkerError(_("This step changed nothing that can be undone."))
    return undone


def complete(campaign: Campaign, reph: RefitPhase) -> bool:
    """Has every side marked every step?"""
    marked = {(m.side, m.rule) for m in reph.progress.all()}
    return all(
        (side, step.rule) in marked
        for step in steps(campaign, reph)
        for side in campaign.game.side_keys
    )


@transaction.atomic
def finish(
    campaign: Campaign,
    reph: RefitPhase,
    *,
    by: AbstractBaseUser,
    scenario_generated: bool | None = None,
    cg_won: bool = False,
    cg_winner: str = "",
) -> RefitPhase | None:
    """Close the RePh (or the scenario) and open what comes next; None when the CG is over.
    ``cg_winner``: the side that met its CG victory conditions (with ``cg_won``)."""
    if cg_winner and (not cg_won or cg_winner not in campaign.game.side_keys):
        raise WalkerError(_("That is not a side of this game."))
    reph = RefitPhase.objects.select_for_update(of=("self",)).get(pk=reph.pk)
    if reph.finished_at is not None:
        raise WalkerError(_("This Refit Phase is over."))
    if not complete(campaign, reph):
        raise WalkerError(_("Both sides must finish every step first."))
    if reph.kind == "scenario":
        # The RePh after it reads the end (11.611's "won" DRM, 11.616's CVP): it is recorded
        # before the scenario phase closes, not discovered missing by a roll (issue 15).
        missing = end_missing_for(campaign, reph.index, reph.sequence)
        if missing is not None:
            raise EndNotRecorded(missing)
    chits = initiative.revealed(campaign, reph.index, reph.sequence)
    if reph.kind == "new_day" and chits:
        scenario_generated = bool(chits.cell.get("scenario"))  # 11.6232 has decided
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    on_day = (definitions.get(campaign.campaign_game) or {}).get("scenarios_on_day") or {}
    keys = [period.key for period in campaign.cg.periods]
    scenarios_on_day = {keys.index(key): n for key, n in on_day.items() if key in keys}
    position = step_engine.Position(reph.kind, reph.index, reph.sequence)
    try:
        following = step_engine.next_position(
            campaign.module,
            position,
            last_index=len(keys) - 1,
            scenarios_on_day=scenarios_on_day,
            scenario_generated=scenario_generated,
            cg_won=cg_won,
        )
    except ValueError as error:
        raise WalkerError(str(error)) from None
    reph.finished_at = timezone.now()
    reph.outcome = {"scenario_generated": scenario_generated, "cg_won": cg_won}
    if cg_winner:
        reph.outcome["cg_winner"] = cg_winner
    reph.save(update_fields=["finished_at", "outcome"])
    # Its rolls are over: their seeds are shown (verifiable dice).
    dice.reveal_commitments(campaign, reph=reph)
    history.record(
        campaign,
        by,
        "refit.finished",
        kind=reph.kind,
        index=reph.index,
        next=following.kind if following else "cg_over",
    )
    lifecycle.after_finish(campaign, reph, following, by=by)
    if following is None:
        return None
    if following.index != campaign.period_index:
        campaign.period_index = following.index
        campaign.save(update_fields=["period_index"])
    opened = RefitPhase.objects.create(
        campaign=campaign,
        kind=following.kind,
        index=following.index,
        sequence=following.sequence,
    )
    dice.commit(campaign, reph=opened)
    if following.kind == "scenario":
        # The day's scenario exists once its play starts, so its end can be recorded (RF's
        # initial scenario and every SaP time frame; RF's later ones come from 11.623's chits).
        scenario_type = PLAYED_TYPES.get((campaign.module, reph.kind))
        if scenario_type is not None:
            records.start_scenario(
                campaign,
                by=by,
                index=following.index,
                sequence=following.sequence,
                scenario_type=scenario_type,
            )
    if following.index > reph.index:
        # A new CG day (time frame) begins: it starts with the ELR and SAN the last one ended
        # with (11.6121, 11.6122).
        carry.carry_into(campaign, following.index, by=by)
        # SaP: the Stavka armor of the time frame that ended leaves the CG (CG7.22, 11.602h);
        # the new time frame's reinforcements join the OB, to be rolled in this RePh (11.618).
        stavka.remove_ended(campaign, following.index, by=by)
        # 11.6132: the German Armor Reserve's malfunctioned weapons are repaired (CG7.21).
        reserve.auto_repair(campaign, following.index, by=by)
        # CG-5.2: the 9 July AM German AFVs still awaiting entry were left off-map: they join
        # the German Armor Reserve.
        reserve.join_left_off_map(campaign, following.index, by=by)
        # SaP CG-6.1: the EC after rain in the previous time frame, once it is recorded.
        records.book_ec_after_rain(campaign, following.index, by=by)
        arrivals.arrive(campaign, following.index, by=by)
    return opened
