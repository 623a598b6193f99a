"""refit.rules.strictness over the RF and SaP step data (refit_steps.json read directly, no
Django): which mandatory rolls a side still owes a step, and when a table may be rolled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.games import step_engine
from refit.rules.strictness import (
    alternatives,
    failed_condition,
    mandatory_rolls,
    missing_rolls,
    roll_refusal,
)

GAMES = Path(__file__).resolve().parents[3] / "campaigns" / "games"


def _step(module: str, rule: str) -> step_engine.StepDef:
    data = json.loads((GAMES / module / "refit_steps.json").read_text(encoding="utf-8"))
    return next(step for step, _raw in step_engine.main_steps(data) if step.rule == rule)


def rf(rule: str) -> step_engine.StepDef:
    return _step("red_factories", rule)


def sap(rule: str) -> step_engine.StepDef:
    return _step("slaughter_at_ponyri", rule)


def missing(step: step_engine.StepDef, facts: dict[str, Any], rolled=(), **kwargs) -> list[str]:
    return [
        reason.params["table"]
        for reason in missing_rolls(step.rule, step.mandatory_rolls, facts, set(rolled), **kwargs)
    ]


# --- which rolls are missing ---------------------------------------------------------------


def test_a_side_at_san_4_or_more_owes_the_san_roll_and_one_below_does_not():
    step = rf("11.612")
    assert missing(step, {"side": "german", "san": 4}) == ["rf.san-adjustment"]
    assert missing(step, {"side": "german", "san": 6}) == ["rf.san-adjustment"]
    assert missing(step, {"side": "german", "san": 3}) == []
    assert missing(step, {"side": "german", "san": 5}, rolled=["rf.san-adjustment"]) == []


def test_an_unknown_san_does_not_excuse_the_roll():
    assert missing(rf("11.612"), {"side": "german"}) == ["rf.san-adjustment"]


@pytest.mark.parametrize(
    "side, level, owed",
    [
        ("soviet", "A", ["rf.booby-trap-reduction"]),
        ("soviet", "B", ["rf.booby-trap-reduction"]),
        ("soviet", "C", []),
        ("german", "A", []),
    ],
)
def test_the_booby_trap_reduction_is_owed_by_the_soviet_at_a_or_b(side, level, owed):
    assert missing(rf("11.612"), {"side": side, "san": 2, "booby_trap_level": level}) == owed


def test_cpp_and_elr_are_owed_by_each_side_but_no_cpp_on_the_first_day():
    assert missing(rf("11.616"), {"side": "german", "index": 3}) == ["rf.cpp-replenishment"]
    assert missing(rf("11.616"), {"side": "german", "index": 0}) == []
    assert missing(rf("11.617"), {"side": "soviet", "index": 3}) == ["rf.elr-change"]
    assert missing(sap("11.616"), {"side": "russian", "index": 2}) == ["sap.cpp-replenishment"]


def test_weather_and_ec_are_the_soviets_and_not_once_the_calendar_has_them():
    blank = {"weather": False, "ec": False}
    step = rf("11.618")
    assert missing(step, {"side": "german", "month": 10, "calendar": blank}) == []
    assert missing(step, {"side": "soviet", "month": 10, "calendar": blank}) == [
        "rf.weather",
        "rf.ec",
    ]
    # December: the EC is always Wet (11.618), only the weather is rolled.
    assert missing(step, {"side": "soviet", "month": 12, "calendar": blank}) == ["rf.weather"]
    entered = {"weather": True, "ec": True}
    assert missing(step, {"side": "soviet", "month": 10, "calendar": entered}) == []
    # A roll made once for both sides counts whoever made it (the caller says it was rolled).
    assert missing(step, {"side": "soviet", "month": 12, "calendar": blank}, ["rf.weather"]) == []


def test_11_611_owes_the_mmc_dr_and_the_sides_leader_dr_unless_11_6114_is_chosen():
    for step, side, leader in (
        (rf("11.611"), "german", "rf.leader-battle-hardening-german"),
        (rf("11.611"), "soviet", "rf.leader-battle-hardening-soviet"),
        (sap("11.611"), "russian", "sap.leader-battle-hardening-russian"),
    ):
        mmc = step.mandatory_rolls[0]["table"]
        assert missing(step, {"side": side}) == [mmc, leader]
        assert missing(step, {"side": side}, instead=True) == [mmc]
        assert missing(step, {"side": side}, rolled=[mmc, leader]) == []
        assert alternatives(step.mandatory_rolls) == ["11.6114"]


def test_a_missing_roll_names_its_step_and_the_rule_that_replaces_it():
    step = rf("11.611")
    reasons = missing_rolls(step.rule, step.mandatory_rolls, {"side": "german"}, set())
    assert [(r.code, r.rule, r.params["instead"]) for r in reasons] == [
        ("mandatory_roll", "11.611", ""),
        ("mandatory_roll", "11.611", "11.6114"),
    ]


def test_a_dual_attack_owes_its_set_up_and_first_player_drs_an_assault_does_not():
    for step, table in (
        (rf("11.623"), "rf.dual-attack-setup-order"),
        (rf("11.625"), "rf.dual-attack-first-player"),
    ):
        assert missing(step, {"side": "german", "scenario_type": "dual_attack"}) == [table]
        assert missing(step, {"side": "soviet", "scenario_type": "assault"}) == []
        assert missing(step, {"side": "soviet"}) == []  # no scenario generated (yet)


def test_steps_without_mandatory_rolls_owe_nothing():
    for step in (rf("11.613"), rf("11.624"), sap("11.613"), sap("11.622")):
        assert mandatory_rolls(step.rule, step.mandatory_rolls, {"side": "german"}) == []


# --- when a table may be rolled ------------------------------------------------------------


def refusal(step, table, facts, **kwargs):
    reason = roll_refusal(step.roll_limits, table, facts, **kwargs)
    return None if reason is None else (reason.code, reason.rule, reason.params.get("actual"))


def test_the_booby_trap_reduction_is_the_soviets_roll_at_level_a_or_b_only():
    step, table = rf("11.612"), "rf.booby-trap-reduction"
    assert refusal(step, table, {"side": "soviet", "booby_trap_level": "A"}) is None
    assert refusal(step, table, {"side": "soviet", "booby_trap_level": "B"}) is None
    assert refusal(step, table, {"side": "soviet", "booby_trap_level": "C"}) == (
        "booby_trap_levels",
        "11.6123",
        "C",
    )
    assert refusal(step, table, {"side": "german", "booby_trap_level": "A"}) == (
        "side",
        "11.6123",
        "german",
    )
    assert refusal(
        step, table, {"side": "soviet", "booby_trap_level": "A"}, rolled_before=True
    ) == ("once", "11.6123", None)


def test_sap_booby_trap_decay_is_the_russians_at_a_or_b_only():
    step, table = sap("11.612"), "sap.booby-trap-decay"
    assert refusal(step, table, {"side": "russian", "booby_trap_level": "B"}) is None
    assert refusal(step, table, {"side": "russian", "booby_trap_level": "C"})[0] == (
        "booby_trap_levels"
    )
    assert refusal(step, table, {"side": "german", "booby_trap_level": "A"})[0] == "side"


@pytest.mark.parametrize("table", ["sap.immobilization-repair", "sap.recall-wreck-repair"])
def test_sap_11_6131_e_and_f_are_not_rolled_in_a_daytime_reph(table):
    step = sap("11.613")
    assert refusal(step, table, {"side": "german", "reph_kind": "full"}) is None
    code, rule, actual = refusal(step, table, {"side": "german", "reph_kind": "daytime"})
    assert (code, actual) == ("reph_kinds", "daytime")
    assert rule in ("11.6131e", "11.6131f")
    # Salvage (d) is rolled in a Daytime RePh too.
    assert refusal(step, "sap.salvage", {"side": "german", "reph_kind": "daytime"}) is None


def test_one_battle_hardening_dr_per_side_and_only_the_sides_own_leader_table():
    step = rf("11.611")
    assert refusal(step, "rf.mmc-battle-hardening", {"side": "german"}) is None
    assert refusal(step, "rf.mmc-battle-hardening", {"side": "german"}, rolled_before=True)[0] == (
        "once"
    )
    assert refusal(step, "rf.leader-battle-hardening-soviet", {"side": "german"})[0] == "side"


def test_a_table_without_limits_is_never_refused_here():
    assert roll_refusal(rf("11.613").roll_limits, "rf.weapon-repair", {"side": "german"}) is None


def test_conditions_read_plain_facts():
    assert failed_condition({"not_months": [12]}, {"month": 12}) == "not_months"
    assert failed_condition({"not_months": [12]}, {"month": 11}) == ""
    assert failed_condition({"reph_kinds": ["full"]}, {"reph_kind": "daytime"}) == "reph_kinds"
    assert failed_condition({"calendar_blank": "ec"}, {"calendar": {"ec": True}}) == (
        "calendar_blank"
    )
    assert failed_condition({}, {}) == ""
