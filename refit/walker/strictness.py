"""The Refit Phase's rules on rolls, enforced by the walker's services (issue 15, "Strictness").

``refit.rules.strictness`` decides, over the step data, which rolls a step requires and when a
table may be rolled; this module reads the campaign facts it decides on and words the answers:

* ``missing`` — why a side may not mark its step done or skipped yet: a mandatory roll not
  made (SAN at 4+, CPP, ELR, weather, 11.611 …), and whatever the features registered in
  ``MARK_GUARDS`` say (RG strength rolls still to make, refit.purchases.receipt);
* ``roll_refusal`` — why a table may not be rolled now (the booby-trap reduction by the
  Russian/Soviet side only and only at level A or B; SaP 11.6131e/f not in a Daytime RePh;
  one battle-hardening DR per side).

Facts the walker cannot read itself (the booby-trap level, kept by refit.fortifications) come
from ``FACTS``, which the features fill when the app is ready (refit/apps.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from campaigns.compiled import CompiledQuery
from campaigns.games import map_groups, step_engine
from campaigns.games.rules import Reason
from campaigns.models import (
    Campaign,
    CampaignDay,
    DiceRoll,
    LedgerEntry,
    LedgerKind,
    RefitPhase,
    Scenario,
)
from refit.rules import strictness as rules
from refit.walker import facts as campaign_facts
from refit.walker.by_reph import day_and_start, value
from refit.walker.effects import EFFECTS, table_data


@dataclass(frozen=True)
class Requirement:
    """Something the rules require before a step is marked: ``key`` is what the history keeps
    (the table id of a roll; ``rg_rolls:`` and the labels of the RGs to roll for), ``text`` the
    sentence."""

    key: str
    text: str


# fact name → how to read it for (campaign, reph, side); registered by the features above.
FACTS: dict[str, Callable[[Campaign, RefitPhase, str], Any]] = {}

# Further things a side must do before marking a step: (campaign, reph, side, step) → them.
MarkGuard = Callable[[Campaign, RefitPhase, str, step_engine.StepDef], list[Requirement]]
MARK_GUARDS: list[MarkGuard] = []


# The facts beyond the side's own (``campaign_facts.for_side``) that a condition reads.
CONDITION_FACTS = {
    "calendar_blank": "calendar",
    "scenario_types": "scenario_type",
    "booby_trap_levels": "booby_trap_level",
}


def condition_facts(step: step_engine.StepDef, table_id: str | None = None) -> set[str]:
    """The facts of ``CONDITION_FACTS`` the conditions of ``step`` read: of its mandatory rolls
    and roll limits, or with ``table_id`` of that table's roll limits alone."""
    entries = (
        [limit for limit in step.roll_limits if limit.get("table") == table_id]
        if table_id is not None
        else [*step.mandatory_rolls, *step.roll_limits]
    )
    return {
        CONDITION_FACTS[key]
        for entry in entries
        for key in entry.get("when") or {}
        if key in CONDITION_FACTS
    }


def facts_for(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    *,
    base: dict[str, Any] | None = None,
    step: step_engine.StepDef | None = None,
) -> dict[str, Any]:
    """What the strictness rules are judged on, for ``side`` in ``reph``; ``base``: the side's
    facts (``campaign_facts.for_side``) when the caller has them already. With ``step``, only
    the further facts its conditions read (the calendar, the scenario, the booby-trap level
    are each a query)."""
    known = dict(base) if base is not None else campaign_facts.for_side(campaign, reph, side)
    wanted = set(CONDITION_FACTS.values()) if step is None else condition_facts(step)
    known.update(reph_kind=reph.kind, index=reph.index)
    if "calendar" in wanted:
        day = CampaignDay.objects.filter(campaign=campaign, index=reph.index).first()
        known["calendar"] = {
            "weather": bool(day and day.weather.strip()),
            "ec": bool(day and day.ec.strip()),
        }
    if "scenario_type" in wanted:
        scenario = Scenario.objects.filter(
            campaign=campaign, index=reph.index, sequence=reph.sequence
        ).first()
        if scenario is not None:
            known["scenario_type"] = scenario.scenario_type
    for name, read in FACTS.items():
        if step is None or name in wanted:
            known[name] = read(campaign, reph, side)
    return known


# The RePh's rolls not voided, read once for a page (``reph_rolls``), when first asked.
RephRolls = Callable[[], list[DiceRoll]]


def reph_rolls(campaign: Campaign, reph: RefitPhase) -> list[DiceRoll]:
    """The rolls of the RePh not voided, every side's, newest first (the RePh's few): what the
    step page's counted tables, a table's earlier roll and the "once" check are picked from, in
    one query however many tables the step has."""
    rolls = _reph_rolls(campaign.pk, *day_and_start(reph, DiceRoll))
    for roll in rolls:
        roll.campaign = campaign
    return rolls


# The RePh's rolls not voided, newest first (the model's order), compiled once: the RePh's day
# and start its values (``by_reph``).
_reph_rolls = CompiledQuery(
    lambda campaign_id, day, start: DiceRoll.objects.filter(
        campaign_id=campaign_id,
        index=value(day, models.PositiveSmallIntegerField()),
        rolled_at__gte=value(start, models.DateTimeField()),
        voided_at__isnull=True,
    ),
    3,
)


def rolled_tables(
    campaign: Campaign, reph: RefitPhase, side: str, rolls: RephRolls | None = None
) -> set[str]:
    """The tables rolled in this RePh (not voided) that count for ``side``: its own rolls, and
    the rolls made once for both sides (weather, EC) whoever made them. ``rolls``: the page's
    ``reph_rolls``."""
    if rolls is not None:
        rolls_read = [(r.table_id, r.side, r.result) for r in rolls()]
    else:
        rolls_read = DiceRoll.objects.filter(
            campaign=campaign,
            index=reph.index,
            rolled_at__gte=reph.started_at,
            voided_at__isnull=True,
        ).values_list("table_id", "side", "result")
    counted = [
        (table_id, result)
        for table_id, roller, result in rolls_read
        if roller == side or (table_id in EFFECTS and EFFECTS[table_id].once == "reph")
    ]
    # A table rolled once per map group (RF CG I's 11.616) counts when every group is rolled.
    cg_def = campaign_facts.cg_definition(campaign)
    rolled = set()
    for table_id in {table_id for table_id, _result in counted}:
        groups = map_groups.groups_to_roll(cg_def, table_id)
        made = [
            (result or {}).get("map_group", "") if isinstance(result, dict) else ""
            for t, result in counted
            if t == table_id
        ]
        if not map_groups.missing_groups(groups, made):
            rolled.add(table_id)
    return rolled


# The CPP Replenishment DR's result is the day's replenishment on the ledger (11.616).
CPP_TABLES = ("rf.cpp-replenishment", "sap.cpp-replenishment")


def counted_tables(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    step: step_engine.StepDef,
    rolls: RephRolls | None = None,
) -> set[str]:
    """``rolled_tables``, plus a CPP replenishment the step requires that is on the ledger
    already for every map group (booked by hand, or imported): the roll would be refused as
    "already booked", so the step must not wait for it."""
    rolled = rolled_tables(campaign, reph, side, rolls)
    wanted = [
        table
        for table in (roll.get("table") for roll in step.mandatory_rolls)
        if table in CPP_TABLES and table not in rolled
    ]
    if wanted:
        booked = list(
            LedgerEntry.objects.filter(
                campaign=campaign,
                side=side,
                ledger=LedgerEntry.CPP,
                index=reph.index,
                kind=LedgerKind.REPLENISHMENT,
            ).values_list("map_group", flat=True)
        )
        cg_def = campaign_facts.cg_definition(campaign)
        for table in wanted:
            groups = map_groups.groups_to_roll(cg_def, table)
            if booked and not map_groups.missing_groups(groups, booked):
                rolled.add(table)
    return rolled


def _table_label(campaign: Campaign, table_id: str) -> tuple[str, str]:
    """A dice table's name in the active language and its rule."""
    try:
        raw = table_data(campaign, table_id)
    except KeyError:
        return table_id, ""
    name = raw.get("name") or {}
    language = (get_language() or "en")[:2]
    return str(name.get(language) or name.get("en") or table_id), str(raw.get("rule", ""))


def _groups_to_roll(campaign: Campaign, reph: RefitPhase, side: str, table_id: str) -> str:
    """For a table rolled once per map group (RF CG I's 11.616): which groups are still to roll,
    as a sentence ("" for any other table)."""
    groups = map_groups.groups_to_roll(campaign_facts.cg_definition(campaign), table_id)
    if groups == ("",):
        return ""
    results = DiceRoll.objects.filter(
        campaign=campaign,
        index=reph.index,
        side=side,
        table_id=table_id,
        rolled_at__gte=reph.started_at,
        voided_at__isnull=True,
    ).values_list("result", flat=True)
    made = [(r or {}).get("map_group", "") for r in results if isinstance(r, dict)]
    missing = map_groups.missing_groups(groups, made)
    return " " + _("Still to roll for: %(groups)s (11.58, one DR per map group).") % {
        "groups": ", ".join(missing)
    }


def _mandatory_sentence(campaign: Campaign, reason: Reason) -> str:
    table, table_rule = _table_label(campaign, reason.params["table"])
    text = _(
        "%(rule)s cannot be marked without the roll the rules require: %(table)s (%(table_rule)s)."
    ) % {"rule": reason.rule, "table": table, "table_rule": table_rule}
    if reason.params.get("instead"):
        text += " " + _("Or mark it done with %(instead)s chosen instead.") % {
            "instead": reason.params["instead"]
        }
    return text


def missing(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    step: step_engine.StepDef,
    *,
    instead: bool = False,
    known: dict[str, Any] | None = None,
    rolls: RephRolls | None = None,
) -> list[Requirement]:
    """What ``side`` must do before marking ``step`` done or skipped (nothing: it may);
    ``known``: ``facts_for`` when the caller has them already."""
    required: list[Requirement] = []
    if step.mandatory_rolls:
        known = known if known is not None else facts_for(campaign, reph, side, step=step)
        reasons = rules.missing_rolls(
            step.rule,
            step.mandatory_rolls,
            known,
            counted_tables(campaign, reph, side, step, rolls),
            instead=instead,
        )
        required += [
            Requirement(
                reason.params["table"],
                _mandatory_sentence(campaign, reason)
                + _groups_to_roll(campaign, reph, side, reason.params["table"]),
            )
            for reason in reasons
        ]
    for guard in MARK_GUARDS:
        required += guard(campaign, reph, side, step)
    return required


def missing_tables(
    campaign: Campaign, reph: RefitPhase, side: str, step: step_engine.StepDef
) -> list[str]:
    """The dice tables the rules require ``side`` to roll in ``step`` that it has not rolled."""
    if not step.mandatory_rolls:
        return []
    reasons = rules.missing_rolls(
        step.rule,
        step.mandatory_rolls,
        facts_for(campaign, reph, side, step=step),
        counted_tables(campaign, reph, side, step),
    )
    return [reason.params["table"] for reason in reasons]


REFUSALS = {
    "side": gettext_lazy("Only the %(side)s player rolls this (%(rule)s)."),
    "booby_trap_levels": gettext_lazy(
        "Rolled only while the booby-trap level is A or B; it is %(actual)s (%(rule)s)."
    ),
    "daytime": gettext_lazy("Not rolled in a Daytime RePh (%(rule)s)."),
    "reph_kinds": gettext_lazy("Not rolled in this Refit Phase (%(rule)s)."),
    "once": gettext_lazy(
        "Already rolled in this Refit Phase; a referee may void that roll with a reason."
    ),
}


def roll_refusal(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    step: step_engine.StepDef,
    table_id: str,
    *,
    known: dict[str, Any] | None = None,
    rolls: RephRolls | None = None,
) -> str:
    """Why ``side`` may not roll ``table_id`` in ``step`` now ("" when it may); ``rolls``: the
    page's ``reph_rolls``."""
    if not any(limit.get("table") == table_id for limit in step.roll_limits):
        return ""
    known = dict(known) if known is not None else campaign_facts.for_side(campaign, reph, side)
    known.setdefault("reph_kind", reph.kind)
    known.setdefault("index", reph.index)
    wanted = condition_facts(step, table_id)
    for name, read in FACTS.items():
        if name not in known and name in wanted:
            known[name] = read(campaign, reph, side)
    once = any(limit.get("once") for limit in step.roll_limits if limit.get("table") == table_id)
    if not once:
        rolled_before = False
    elif rolls is not None:
        rolled_before = any(r.side == side and r.table_id == table_id for r in rolls())
    else:
        rolled_before = DiceRoll.objects.filter(
            campaign=campaign,
            index=reph.index,
            side=side,
            table_id=table_id,
            rolled_at__gte=reph.started_at,
            voided_at__isnull=True,
        ).exists()
    reason = rules.roll_refusal(step.roll_limits, table_id, known, rolled_before=rolled_before)
    if reason is None:
        return ""
    code = reason.code
    params = dict(reason.params)
    if code == "side":
        params["side"] = campaign.side(params["wanted"]).name.in_language(get_language())
    if code == "reph_kinds" and params.get("actual") == "daytime":
        code = "daytime"
    if code not in REFUSALS:
        return _("Not rolled now (%(rule)s).") % {"rule": reason.rule}
    return Reason(code, reason.rule, params).sentence(REFUSALS)
