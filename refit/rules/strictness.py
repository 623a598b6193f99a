"""What the Refit Phase rules require of a step's rolls, over the step data (no Django).

A step of ``refit_steps.json`` may list (docs/gamedata.md):

* ``mandatory_rolls``: ``{"table", "when", "instead"?, "lines"}`` — a roll the rules say a side
  *makes* ("各陣営は…DRを行う"): while ``when`` holds and the side has not rolled ``table`` in
  this RePh, the step cannot be marked done or skipped. ``instead`` names a rule that lets the
  side do something else in its place (RF/SaP 11.6114 instead of the leader DR);
* ``roll_limits``: ``{"table", "when", "once"?, "lines"}`` — a roll of ``table`` may be made
  only while ``when`` holds, and with ``once`` only once per side and RePh.

``when`` is a set of conditions, all of which must hold, read from plain facts about the side
and the RePh:

===================  ==========================================================================
``side``             the rolling side is this one                         (fact ``side``)
``san_at_least``     the side's current SAN is at least this              (``san``)
``booby_trap_levels`` the side's booby-trap level is one of these          (``booby_trap_level``)
``reph_kinds``       the RePh is of one of these kinds                    (``reph_kind``)
``not_first_period`` the RePh is not in the first CG day / time frame    (``index``)
``not_months``       the CG day is in none of these months                (``month``)
``calendar_blank``   the day's calendar entry (``weather``/``ec``) is empty (``calendar``)
``scenario_types``   the scenario generated for the day is of one of these types
                     (``scenario_type``; none generated yet: it does not hold)
===================  ==========================================================================

A fact the campaign does not have (an unknown SAN) does not excuse a mandatory roll: the roll
itself then says what to enter first. (A scenario not generated yet has no type: a roll of a
Dual Attack is not required before there is one.)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.games.rules import Reason
from campaigns.games.schema import ROLL_CONDITIONS as ROLL_CONDITIONS


def failed_condition(when: Mapping[str, Any], facts: Mapping[str, Any]) -> str:
    """The first condition of ``when`` the facts show does not hold ("" when all hold or
    cannot be told)."""
    for key, wanted in when.items():
        if key == "side" and facts.get("side") != wanted:
            return key
        if key == "san_at_least" and facts.get("san") is not None and facts["san"] < wanted:
            return key
        if key == "booby_trap_levels" and facts.get("booby_trap_level") not in (None, *wanted):
            return key
        if key == "reph_kinds" and facts.get("reph_kind") not in wanted:
            return key
        if key == "not_first_period" and wanted and facts.get("index") == 0:
            return key
        if key == "not_months" and facts.get("month") in wanted:
            return key
        if key == "calendar_blank" and (facts.get("calendar") or {}).get(wanted):
            return key
        if key == "scenario_types" and facts.get("scenario_type") not in wanted:
            return key
    return ""


@dataclass(frozen=True)
class MandatoryRoll:
    table: str
    rule: str  # the step's rule
    instead: str = ""  # the rule the side may follow instead of rolling ("" when none)


def mandatory_rolls(
    rule: str, entries: Sequence[Mapping[str, Any]], facts: Mapping[str, Any]
) -> list[MandatoryRoll]:
    """The rolls the rules require of the side in step ``rule`` (its ``mandatory_rolls``
    ``entries``), in this RePh."""
    return [
        MandatoryRoll(
            table=entry["table"],
            rule=rule,
            instead=(entry.get("instead") or {}).get("rule", ""),
        )
        for entry in entries
        if not failed_condition(entry.get("when") or {}, facts)
    ]


def missing_rolls(
    rule: str,
    entries: Sequence[Mapping[str, Any]],
    facts: Mapping[str, Any],
    rolled: Collection[str],
    *,
    instead: bool = False,
) -> list[Reason]:
    """Why the side may not mark step ``rule`` yet: one ``mandatory_roll`` reason per required roll
    not made (``rolled`` are the tables the side — or, for a roll made once for both sides,
    anyone — rolled in this RePh). ``instead``: the side chose the rule that replaces a roll
    that allows it (such rolls are then not missing)."""
    return [
        Reason("mandatory_roll", roll.rule, {"table": roll.table, "instead": roll.instead})
        for roll in mandatory_rolls(rule, entries, facts)
        if roll.table not in rolled and not (instead and roll.instead)
    ]


def alternatives(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The rules a side may follow instead of one of a step's mandatory rolls."""
    rules = []
    for entry in entries:
        rule = (entry.get("instead") or {}).get("rule")
        if rule and rule not in rules:
            rules.append(rule)
    return rules


def _actual(condition: str, facts: Mapping[str, Any]) -> Any:
    """The fact a failed condition was judged on."""
    fact = {
        "side": "side",
        "san_at_least": "san",
        "booby_trap_levels": "booby_trap_level",
        "reph_kinds": "reph_kind",
        "not_first_period": "index",
        "not_months": "month",
        "scenario_types": "scenario_type",
    }.get(condition)
    return facts.get(fact) if fact else None


def roll_refusal(
    limits: Sequence[Mapping[str, Any]],
    table_id: str,
    facts: Mapping[str, Any],
    *,
    rolled_before: bool = False,
) -> Reason | None:
    """Why ``table_id`` may not be rolled now under the step's ``roll_limits`` (None: it may).
    The reason's code is the condition that fails (``once`` for a second roll); its params
    carry the fact it was judged on."""
    for limit in limits:
        if limit.get("table") != table_id:
            continue
        when = limit.get("when") or {}
        failed = failed_condition(when, facts)
        if failed:
            params = {"table": table_id, "wanted": when[failed], "actual": _actual(failed, facts)}
            return Reason(failed, limit.get("rule", ""), params)
        if limit.get("once") and rolled_before:
            return Reason("once", limit.get("rule", ""), {"table": table_id})
    return None
