"""Rolling a step's dice table with the DRMs the campaign gives, and booking the result.

A roll is made for a side on its current step, on one of that step's dice tables
(``check_roll``), and the service decides who sees it (``is_secret_roll``): whatever page asked
for it, a secret step's or a secret table's roll is seen by the side and the referee only.
``plan`` says, before anything is rolled, which DRMs the campaign state gives (with their
reasons), what the player must answer, what is still missing, and whether the table was
already rolled. ``roll`` makes the roll through the one dice service and books its effect
(refit.walker.effects) in the same transaction: if the booking is refused, nothing was rolled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.functional import lazy
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.access import PUBLIC
from campaigns.dice import services as dice
from campaigns.games import map_groups, step_engine
from campaigns.games.dice_tables import DiceTable
from campaigns.games.rules import Drm
from campaigns.history import services as history
from campaigns.models import Campaign, CampaignEvent, DiceRoll, RefitPhase
from campaigns.said import in_every_language, is_said
from refit.rules import drms
from refit.walker import facts, strictness
from refit.walker import services as walker
from refit.walker.effects import EFFECTS, Booking, Effect, EffectError, table_data

CPP_TABLE = "rf.cpp-replenishment"


class AutomaticRollError(ValueError):
    """The roll cannot be made (yet); the message says why, for the user."""


# What the app tells the player for a DRM it worked out (the data's wording is for the table page).
REASONS = {
    "historical": gettext_lazy("Historical DRM (11.6161)"),
    "balance": gettext_lazy("CG Scenario Balance (11.32)"),
    "attack-chit": gettext_lazy("Attack chit on the previous CG day"),
    "won": gettext_lazy("Own side won the scenario just completed"),
    "losing-record": gettext_lazy("Win:loss 1:2 or worse"),
    "cvp": gettext_lazy("%(detail)s suffered"),
    "cvp-suffered": gettext_lazy("%(detail)s suffered"),
    "san-over-4": gettext_lazy("Current SAN − 4"),
    "idle-days": gettext_lazy("Idle Days since the last scenario %(detail)s"),
    "scenarios": gettext_lazy("CG scenarios completed %(detail)s"),
    "elite-coy": gettext_lazy("Elite infantry companies bought the previous CG day %(detail)s"),
    "first-line": gettext_lazy(
        "1st Line infantry companies and AFV platoons bought the previous CG day %(detail)s"
    ),
    "december": gettext_lazy("December"),
    "november": gettext_lazy("November"),
    "prev-overcast": gettext_lazy("Previous CG day Overcast"),
    "prev-snow": gettext_lazy("Previous CG day Falling Snow"),
    "prev-mist": gettext_lazy("Previous CG day Mist"),
    "prev-dry": gettext_lazy("Previous CG day Dry"),
    "german": gettext_lazy("German"),
    "soviet": gettext_lazy("Soviet"),
    "russian": gettext_lazy("Russian"),
}

MISSING = {
    "hist_drm": gettext_lazy(
        "The Historical DRM for this day is unknown: the referee enters it on the Historical DRM "
        "chart first (11.6161)."
    ),
    "san": gettext_lazy("This day's SAN is not on the roster yet."),
    "elr": gettext_lazy("This day's ELR is not on the roster yet."),
    "won_completed": gettext_lazy("Record the winner of the scenario just completed first."),
    "previous_weather": gettext_lazy("Record the previous CG day's weather on the calendar first."),
    "previous_ec": gettext_lazy("Record the previous CG day's EC on the calendar first."),
    "month": gettext_lazy("This CG day has no date."),
}


def reason(drm: Drm) -> str:
    """A DRM the campaign works out, its reason as shown and logged with the roll: the app's
    wording when it has one, else the rules' words. (A DRM the player answered keeps the
    rules' words: the player read them in the question.)"""
    if drm.id in REASONS:
        text = str(REASONS[drm.id])
        if drm.id == "historical" and drm.detail:  # RF CG I: the map group's value (11.58)
            return f"{text} {drm.detail}"
        return text % {"detail": drm.detail} if "%(detail)s" in text else text
    return drm.text(get_language())


reason_lazy = lazy(reason, str)


@dataclass(frozen=True)
class Plan:
    table: DiceTable
    kind: str  # "dr" or "DR"
    resolution: drms.Resolution
    effect: Effect | None
    refused: str = ""  # why it cannot be rolled now (already rolled, SAN < 4, …)
    unbooked: DiceRoll | None = None  # a roll made whose booking was undone: book it again
    roller: str = ""  # the side that rolls it, when only one does
    map_group: str = ""  # RF CG I: the map group this roll is for (11.616, one DR per group)

    @property
    def drms(self) -> tuple[Drm, ...]:
        return self.resolution.drms

    def shown(self) -> list[tuple[int, str]]:
        """The DRMs the campaign gives, each with its reason, in the active language."""
        return [(drm.value, reason(drm)) for drm in self.drms]

    @property
    def missing(self) -> list[str]:
        return [str(MISSING.get(m.fact, m.fact)) for m in self.resolution.missing]

    @property
    def needs_hist_drm(self) -> bool:
        """The roll waits for the day's Historical DRM (the page links to the chart)."""
        return any(m.fact == "hist_drm" for m in self.resolution.missing)


def dice_kind(table: DiceTable) -> str | None:
    """The dice service's roll for a table ("2dr" is two dice added: a DR); None if it has none."""
    if table.roll in ("DR", "2dr"):
        return "DR"
    if table.roll == "dr":
        return "dr"
    return None


def table_ids(step: step_engine.StepDef) -> list[str]:
    """The step's tables and charts, then its sub-steps' ones, each once."""
    ids = list(step.tables)
    for sub in step.sub_steps:
        ids += [table_id for table_id in sub.tables if table_id not in ids]
    return ids


def rollable_tables(campaign: Campaign, step: step_engine.StepDef) -> dict[str, DiceTable]:
    """The step's dice tables the dice service rolls, by id (charts are looked up, not rolled)."""
    rollable = {}
    for table_id in table_ids(step):
        try:
            table = campaign.game.dice_table(table_id)
        except KeyError:
            continue
        if dice_kind(table) is not None:
            rollable[table_id] = table
    return rollable


def table_side(campaign: Campaign, table_id: str) -> str:
    """The side a dice table belongs to (its ``side`` in the game data: RF's German and Soviet
    OBA and Leader tables, SaP's German and Russian ones); "" when either side rolls it."""
    tables = campaign.game.files.get("tables", {}).get("dice_tables", [])
    raw = next((t for t in tables if t["id"] == table_id), {})
    return str(raw.get("side") or "")


def tables_of_side(campaign: Campaign, step: step_engine.StepDef, side: str) -> list[str]:
    """The step's tables and charts a side is offered: not the other side's own tables."""
    return [t for t in table_ids(step) if table_side(campaign, t) in ("", side)]


def is_secret_roll(campaign: Campaign, step: step_engine.StepDef, table_id: str) -> bool:
    """A secret table's rolls are secret, even in a public step (e.g. RF 11.6122's SAN
    adjustment dr inside the public 11.612). Otherwise a roll is as secret as the part of the
    step that rolls it: the sub-steps that list the table when some do (RF 11.6233's Dual
    Attack set-up dr is public inside the secret 11.623: both sides must know who sets up
    first), else the step itself."""
    try:
        secret_table = bool(table_data(campaign, table_id).get("secret"))
    except KeyError:  # a chart, or no table at all: nothing of its own to hide
        secret_table = False
    if secret_table:
        return True
    rolled_in = [sub for sub in step.sub_steps if table_id in sub.tables]
    if rolled_in:
        return any(sub.secret for sub in rolled_in)
    return step.secret


def check_roll(
    campaign: Campaign, reph: RefitPhase, *, side: str, step: str, table_id: str
) -> step_engine.StepDef:
    """The step of a roll ``side`` may make now; AutomaticRollError (for the user) unless
    ``step`` is the side's current step of ``reph``, ``table_id`` one of its dice tables, and
    the rules let this side roll it now (the step's ``roll_limits``: who rolls it, at which
    booby-trap level, in which RePh, how often — ``strictness.roll_refusal``)."""
    if side not in campaign.game.side_keys:
        raise AutomaticRollError(_("That is not a side of this game."))
    states = walker.side_states(campaign, reph, side, list(reph.progress.all()))
    state = next((s for s in states if s.step.rule == step), None)
    if state is None:
        raise AutomaticRollError(_("%(rule)s is not a step of this Refit Phase.") % {"rule": step})
    if state.status != "current":
        at = next((s for s in states if s.status in ("current", "waiting")), None)
        raise AutomaticRollError(
            _("Roll for %(rule)s while it is the side's current step (now: %(at)s).")
            % {"rule": step, "at": at.step.rule if at else _("every step is marked")}
        )
    if table_id not in rollable_tables(campaign, state.step):
        raise AutomaticRollError(_("Choose one of this step's dice tables."))
    refusal = strictness.roll_refusal(campaign, reph, side, state.step, table_id)
    if refusal:
        raise AutomaticRollError(refusal)
    if table_side(campaign, table_id) not in ("", side):
        raise AutomaticRollError(_("That table is the other side's: roll your side's own."))
    return state.step


def map_groups_of(campaign: Campaign, table_id: str) -> tuple[str, ...]:
    """The map groups a side rolls ``table_id`` for, once each (RF CG I's 11.616: RB and RO);
    ("",) for a table rolled once."""
    return map_groups.groups_to_roll(facts.cg_definition(campaign), table_id)


def roll_groups(campaign: Campaign) -> tuple[str, ...]:
    """The map groups a roll made once for the side is for: the campaign game's one map group
    (an RB or RO CG); none (every printed one is kept) when it is played on both (RF CG I)."""
    groups = map_groups.map_groups(facts.cg_definition(campaign))
    return groups if len(groups) == 1 else ()


def _group_refusal(groups: tuple[str, ...], map_group: str) -> str:
    """Why a roll for ``map_group`` is not one of ``groups`` (the groups the table is rolled
    for; ("",) when it is rolled once)."""
    if groups == ("",):
        return _("This campaign game rolls it once, not per map group (%(group)s).") % {
            "group": map_group
        }
    if not map_group:
        return _("Roll this once for each map group (%(groups)s, 11.58): choose the map group.") % {
            "groups": ", ".join(groups)
        }
    return _("%(group)s is not a map group of this campaign game.") % {"group": map_group}


def _earlier(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    table_id: str,
    effect: Effect,
    map_group: str = "",
    reph_rolls: strictness.RephRolls | None = None,
) -> DiceRoll | None:
    """The newest roll of the table in this RePh that a new one would repeat (not voided); from
    the page's ``reph_rolls`` when given."""
    if reph_rolls is not None:
        if effect.once == "line":
            return None
        return next(
            (
                roll
                for roll in reph_rolls()
                if roll.table_id == table_id
                and (effect.once != "side" or roll.side == side)
                and (
                    not map_group
                    or (isinstance(roll.result, dict) and roll.result.get("map_group") == map_group)
                )
            ),
            None,
        )
    rolls = DiceRoll.objects.filter(
        campaign=campaign,
        table_id=table_id,
        index=reph.index,
        rolled_at__gte=reph.started_at,
        voided_at__isnull=True,
    )
    if effect.once == "line":  # once per OB line: checked when booking (refit.walker.ob_results)
        return None
    if effect.once == "side":
        rolls = rolls.filter(side=side)
    if map_group:  # once per map group (RF CG I): the roll keeps its group in its result
        rolls = rolls.filter(result__map_group=map_group)
    return rolls.first()


def plan(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    table_id: str,
    *,
    known: Mapping[str, Any] | None = None,
    step: step_engine.StepDef | None = None,
    map_group: str = "",
    strict: Mapping[str, Any] | None = None,
    reph_rolls: strictness.RephRolls | None = None,
) -> Plan:
    """What rolling ``table_id`` would take now; with ``step``, a roll the step's rules do not
    allow this side now is refused here too (the page then offers no button). ``map_group``:
    for a table rolled once per map group (RF CG I's 11.616), the group this roll is for.
    ``strict``: what the step's roll limits are judged on (``strictness.facts_for``), when the
    caller has it already; ``reph_rolls``: the page's ``strictness.reph_rolls``."""
    table = campaign.game.dice_table(table_id)
    raw = table_data(campaign, table_id)
    groups = map_groups_of(campaign, table_id)
    if known is None or map_group:
        state = facts.for_side(campaign, reph, side, map_group=map_group)
    else:
        state = dict(known)
    resolution = drms.resolve(raw.get("modifiers") or [], state, table=table_id)
    effect = EFFECTS.get(table_id)
    refused = ""
    unbooked = None
    if step is not None:
        refused = strictness.roll_refusal(
            campaign,
            reph,
            side,
            step,
            table_id,
            known={**strict, **state} if strict is not None else state,
            rolls=reph_rolls,
        )
    if not refused and map_group not in groups:
        refused = _group_refusal(groups, map_group)
    if effect is not None and not refused:
        if effect.roller and side != effect.roller:
            refused = _("The %(side)s player rolls this.") % {
                "side": campaign.side(effect.roller).name.in_language(get_language())
            }
        elif (
            earlier := _earlier(campaign, reph, side, table_id, effect, map_group, reph_rolls)
        ) is not None:
            refused = (
                _(
                    "Already rolled for %(group)s in this Refit Phase; a referee may void that "
                    "roll with a reason."
                )
                % {"group": map_group}
                if map_group
                else _(
                    "Already rolled in this Refit Phase; a referee may void that roll with a "
                    "reason."
                )
            )
            if not is_booked(earlier):
                unbooked = earlier
        elif effect.check is not None:
            try:
                effect.check(campaign, reph, side, state)
            except EffectError as error:
                refused = str(error)
    return Plan(
        table=table,
        kind=dice_kind(table) or table.roll,
        resolution=resolution,
        effect=effect,
        refused=refused,
        unbooked=unbooked,
        roller=effect.roller if effect else "",
        map_group=map_group,
    )


def is_booked(dice_roll: DiceRoll) -> bool:
    """Whether the roll's result is on the sheets (its booking was not undone)."""
    return CampaignEvent.objects.filter(
        campaign_id=dice_roll.campaign_id,
        step_roll=dice_roll.pk,
        undone_at__isnull=True,
    ).exists()


@dataclass(frozen=True)
class Rolled:
    roll: DiceRoll
    booked: str  # what the result changed, as a sentence ("" when the player applies it)


@transaction.atomic
def roll(
    campaign: Campaign,
    reph: RefitPhase,
    *,
    side: str,
    step: str,
    table_id: str,
    answers: Mapping[str, Any],
    extra: Sequence[Drm] = (),
    note: str = "",
    by: AbstractBaseUser,
    line: int | None = None,
    map_group: str = "",
) -> Rolled:
    """Roll ``table_id`` for ``side`` on its current step ``step`` with the campaign's DRMs, the
    answered ones and ``extra`` (a DRM the player adds with its reason), and book the result.
    The roll is secret to the side when its step or its table is (``is_secret_roll``). A table
    rolled per map group (RF CG I) is rolled for ``map_group``, kept in the roll's result."""
    reph = RefitPhase.objects.select_for_update(of=("self",)).get(pk=reph.pk)
    if reph.finished_at is not None:
        raise AutomaticRollError(_("This Refit Phase is over."))
    step_def = check_roll(campaign, reph, side=side, step=step, table_id=table_id)
    secret = is_secret_roll(campaign, step_def, table_id)
    the_plan = plan(campaign, reph, side, table_id, map_group=map_group)
    if the_plan.refused:
        raise AutomaticRollError(the_plan.refused)
    if the_plan.missing:
        raise AutomaticRollError(" ".join(the_plan.missing))
    try:
        chosen = drms.answered(the_plan.resolution.questions, answers)
    except drms.AnswerError:
        raise AutomaticRollError(_("Check the answers to the DRM questions.")) from None
    # Lazy: the dice service logs the reason in every language (each side reads its own).
    modifiers = [replace(d, reason=reason_lazy(d)) for d in the_plan.drms] + chosen + list(extra)
    with history.refit_step(reph, step, side):
        try:
            dice_roll = dice.roll(
                campaign,
                by=by,
                kind=the_plan.kind,
                step=step,
                index=reph.index,
                side=side,
                visibility=side if secret else PUBLIC,
                modifiers=modifiers,
                table=the_plan.table,
                note=note,
                map_groups=(map_group,) if map_group else roll_groups(campaign),
            )
        except dice.DiceError as error:
            raise AutomaticRollError(str(error)) from None
        if map_group:
            result = dice_roll.result if isinstance(dice_roll.result, dict) else {}
            dice_roll.result = {**result, "map_group": map_group}
            dice_roll.save(update_fields=["result"])
        booked = ""
        if the_plan.effect is not None:
            booked = _book(
                the_plan.effect, campaign, reph, side, step, dice_roll, by, answers, line=line
            )
    if booked:
        _note_booked(dice_roll, booked)
    return Rolled(dice_roll, booked)


def _note_booked(dice_roll: DiceRoll, booked: str) -> None:
    """Add what the roll booked to its note: in the roller's language (``note``) and, when the
    app worded it (``campaigns.said``), in every language (``note_words``)."""
    typed = dice_roll.note
    length = DiceRoll._meta.get_field("note").max_length

    def with_typed(words: str) -> str:
        return (f"{typed} — {words}" if typed else words)[:length]

    dice_roll.note = with_typed(str(booked))
    if is_said(booked):
        dice_roll.note_words = {
            code: with_typed(words) for code, words in in_every_language(booked).items()
        }
    dice_roll.save(update_fields=["note", "note_words"])


def _book(
    effect: Effect,
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    step: str,
    dice_roll: DiceRoll,
    by: AbstractBaseUser,
    answers: Mapping[str, Any],
    *,
    line: int | None = None,
) -> str:
    with history.refit_step(reph, step, side, roll=dice_roll.pk):
        try:
            return effect.book(Booking(campaign, reph, side, dice_roll, by, answers, line))
        except ValueError as error:  # EffectError, StateError: the roll goes back too
            raise AutomaticRollError(str(error)) from None


@transaction.atomic
def book_again(
    campaign: Campaign,
    reph: RefitPhase,
    *,
    side: str,
    step: str,
    table_id: str,
    by: AbstractBaseUser,
    map_group: str = "",
) -> Rolled:
    """Book the result of a roll already made whose booking was undone (no new roll); for a
    table rolled per map group, the roll of ``map_group``."""
    reph = RefitPhase.objects.select_for_update(of=("self",)).get(pk=reph.pk)
    if reph.finished_at is not None:
        raise AutomaticRollError(_("This Refit Phase is over."))
    check_roll(campaign, reph, side=side, step=step, table_id=table_id)
    effect = EFFECTS.get(table_id)
    earlier = _earlier(campaign, reph, side, table_id, effect, map_group) if effect else None
    if effect is None or earlier is None or is_booked(earlier):
        raise AutomaticRollError(_("There is no unbooked roll of this table to book."))
    answers = {m["id"]: m["value"] for m in earlier.modifiers if m.get("id")}
    return Rolled(earlier, _book(effect, campaign, reph, side, step, earlier, by, answers))
