"""The Refit Phase flow as pure functions over the module's step data (no Django).

Which steps a RePh runs comes from the markers in ``refit_steps.json`` (RF ``* # †``; SaP ``* †``
or an explicit ``runs_in``); where the campaign goes next comes from the rules' flow:

Red Factories (11.5, 11.6):
* before the initial scenario only the ``†`` steps (11.619–11.622);
* after a scenario the steps without a marker once (11.601–11.611), then
* for each new CG day the ``*`` steps (11.612–11.623); if 11.623 generates a scenario the ``#``
  steps follow (11.624–11.625) and the scenario is played; otherwise it was an Idle Day and the
  next CG day's ``*`` steps follow — until a scenario is generated or the CG ends;
* a day with two scenarios (RO CG I, 23 Oct) gets a normal RePh between them without a new date.

Slaughter at Ponyri (11.6): the ``*`` steps before 7 July AM, the Daytime RePh (``†``) between a
day's AM and PM time frames, the full RePh between CG days.

Adding a step to the data adds it to the walker: nothing here names a step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Kinds of RePh, per module, in the order a CG meets them.
RF_KINDS = ("before_initial", "after_scenario", "new_day", "scenario_day")
SAP_KINDS = ("pre_cg", "daytime", "full")


@dataclass(frozen=True)
class Position:
    """Where a campaign stands: in a RePh of ``kind`` for period ``index``, or playing a
    scenario (``kind == "scenario"``). ``sequence`` is 2 for the second scenario of a day."""

    kind: str
    index: int
    sequence: int = 1


@dataclass(frozen=True)
class StepDef:
    rule: str
    name: Mapping[str, str]
    markers: tuple[str, ...]
    secret: bool
    both_sides_together: bool
    tables: tuple[str, ...]
    applies: str | Mapping[str, str]  # {"en", "ja"}; a plain string is English only
    sub_steps: tuple[StepDef, ...] = ()
    # The rolls the rules require of a side in this step, and when a table may be rolled
    # (refit.rules.strictness reads them).
    mandatory_rolls: tuple[Mapping[str, Any], ...] = ()
    roll_limits: tuple[Mapping[str, Any], ...] = ()
    # What both sides tell each other once both have marked the step (RF 11.625: ELR and SAN;
    # SaP 11.622: SAN).
    announces: tuple[str, ...] = ()
    # SaP (issue 16): what the step's text adds ("notes") and how a Daytime RePh runs it
    # ("daytime_exceptions"), {"en", "ja"} or None; the step page shows them.
    notes: Mapping[str, str] | None = None
    daytime_exceptions: Mapping[str, str] | None = None


def _step(raw: Mapping[str, Any], sub_steps: Sequence[StepDef] = ()) -> StepDef:
    return StepDef(
        rule=raw["rule"],
        name=raw["name"],
        markers=tuple(raw.get("markers") or ()),
        secret=bool(raw.get("secret")),
        both_sides_together=bool(raw.get("both_sides_together")),
        tables=tuple(raw.get("tables") or ()),
        applies=raw.get("applies") or "",
        sub_steps=tuple(sub_steps),
        mandatory_rolls=tuple(raw.get("mandatory_rolls") or ()),
        roll_limits=tuple(raw.get("roll_limits") or ()),
        announces=tuple(raw.get("announces") or ()),
        notes=raw.get("notes") or None,
        daytime_exceptions=raw.get("daytime_exceptions") or None,
    )


def _with_sub_steps(
    raw: Mapping[str, Any], flat: Sequence[Mapping[str, Any]]
) -> tuple[StepDef, Mapping[str, Any]]:
    """A step with its sub-steps: RF lists them flat after the step, SaP nests them."""
    subs = [*flat, *(raw.get("substeps") or ())]
    return _step(raw, [_step(s) for s in subs]), raw


def main_steps(step_data: Mapping[str, Any]) -> list[tuple[StepDef, Mapping[str, Any]]]:
    """The numbered steps in play order with their sub-steps folded in, and their raw data."""
    steps: list[tuple[StepDef, Mapping[str, Any]]] = []
    pending: list[Mapping[str, Any]] = []
    current: Mapping[str, Any] | None = None
    for raw in step_data["steps"]:
        if raw.get("level", "step") == "sub_step":
            pending.append(raw)
            continue
        if current is not None:
            steps.append(_with_sub_steps(current, pending))
        current, pending = raw, []
    if current is not None:
        steps.append(_with_sub_steps(current, pending))
    return steps


def _runs_in(raw: Mapping[str, Any], module: str) -> set[str]:
    markers = set(raw.get("markers") or ())
    if module == "slaughter_at_ponyri":
        if raw.get("runs_in"):
            return set(raw["runs_in"]) | {"full"}
        kinds = {"full"}
        if "*" in markers:
            kinds.add("pre_cg")
        if "†" in markers:
            kinds.add("daytime")
        return kinds
    # Red Factories: † alone before the initial scenario; * for each new CG day; # on a
    # scenario day; unmarked steps once after a scenario.
    kinds = set()
    if "†" in markers:
        kinds.add("before_initial")
    if "*" in markers:
        kinds.add("new_day")
    if "#" in markers:
        kinds.add("scenario_day")
    if not markers & {"*", "#"}:
        kinds.add("after_scenario")
    return kinds


def steps_for(module: str, step_data: Mapping[str, Any], kind: str) -> list[StepDef]:
    """The steps a RePh of ``kind`` runs, in order."""
    known = SAP_KINDS if module == "slaughter_at_ponyri" else RF_KINDS
    if kind not in known:
        raise ValueError(f"{module} has no RePh of kind {kind!r}")
    return [step for step, raw in main_steps(step_data) if kind in _runs_in(raw, module)]


def first_position(module: str) -> Position:
    return Position("pre_cg" if module == "slaughter_at_ponyri" else "before_initial", 0)


def next_position(
    module: str,
    position: Position,
    *,
    last_index: int,
    scenarios_on_day: Mapping[int, int] | None = None,
    scenario_generated: bool | None = None,
    cg_won: bool = False,
) -> Position | None:
    """Where the campaign goes after finishing ``position``; None when the CG is over.

    ``scenario_generated`` is 11.623's outcome (RF, after a ``new_day`` RePh); ``cg_won`` is
    11.6031's (after a scenario's RePh); ``scenarios_on_day`` maps a day to its number of
    scenarios when it is more than one (RO CG I: {0: 2}).
    """
    kind, index = position.kind, position.index
    if module == "slaughter_at_ponyri":
        if kind in SAP_KINDS:
            return Position("scenario", index)
        if kind != "scenario":
            raise ValueError(f"unknown position {position}")
        if cg_won or index >= last_index:
            return None
        # Periods alternate AM, PM: a Daytime RePh after AM, the full one after PM.
        return Position("daytime" if index % 2 == 0 else "full", index + 1)

    if kind in ("before_initial", "scenario_day"):
        return Position("scenario", index, position.sequence)
    if kind == "scenario":
        return Position("after_scenario", index, position.sequence)
    if kind == "after_scenario":
        if cg_won:
            return None
        if position.sequence < (scenarios_on_day or {}).get(index, 1):
            # RO CG I SSR I.6: a normal RePh as if it were the next day, the date unchanged.
            return Position("new_day", index, position.sequence + 1)
        return None if index >= last_index else Position("new_day", index + 1)
    if kind == "new_day":
        if scenario_generated is None:
            raise ValueError("11.623 decides: was a scenario generated?")
        if scenario_generated:
            return Position("scenario_day", index, position.sequence)
        # An Idle Day: the next CG day's * steps, until the CG ends.
        return None if index >= last_index else Position("new_day", index + 1)
    raise ValueError(f"unknown position {position}")
