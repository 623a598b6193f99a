"""refit.rules.drms against the real RF and SaP dice tables (tables.json read directly, no
Django): which modifiers the campaign works out, which the player is asked, which wait for a
fact, and how answers become DRMs. Every "per" DRM is tested at its threshold and one below."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.games.registry import LocalizedText
from campaigns.games.rules import Drm
from refit.rules import drms
from refit.rules.drms import AnswerError, Missing, Question, answered, resolve

GAMES = Path(__file__).resolve().parents[3] / "campaigns" / "games"


def _dice_tables(module: str) -> dict[str, dict[str, Any]]:
    data = json.loads((GAMES / module / "tables.json").read_text(encoding="utf-8"))
    return {table["id"]: table for table in data["dice_tables"]}


RF = _dice_tables("red_factories")
SAP = _dice_tables("slaughter_at_ponyri")
SIDES = {"red_factories": ("german", "soviet"), "slaughter_at_ponyri": ("german", "russian")}
TABLES_WITH_MODIFIERS = [
    (module, table_id)
    for module, tables in (("red_factories", RF), ("slaughter_at_ponyri", SAP))
    for table_id, table in tables.items()
    if table.get("modifiers")
]

# Every fact drms knows, each known; the values make every computed modifier non-zero.
ALL_FACTS: dict[str, Any] = {
    "campaign_game": "rb-cg-2",
    "hist_drm": 1,
    "balance_drm": -2,
    "attack_chit_previous_day": True,
    "won_completed": True,
    "losing_record": True,
    "cvp_completed": 60,
    "cvp_scenario": 60,
    "san": 6,
    "idle_days": 1,
    "scenarios_since": 2,
    "elite_companies_previous_day": 1,
    "first_line_previous_day": 1,
    "month": 12,
    "previous_weather": ["overcast", "falling_snow", "mist"],
    "previous_ec": ["dry"],
}


def modifiers(table_id: str) -> list[dict[str, Any]]:
    return (RF if table_id.startswith("rf.") else SAP)[table_id]["modifiers"]


def run(table_id: str, **facts: Any) -> drms.Resolution:
    return resolve(modifiers(table_id), facts, table=table_id)


def values(resolution: drms.Resolution) -> dict[str, int]:
    return {drm.id: drm.value for drm in resolution.drms}


def question(resolution: drms.Resolution, question_id: str) -> Question:
    (found,) = [q for q in resolution.questions if q.id == question_id]
    return found


def asked(resolution: drms.Resolution) -> list[str]:
    return [q.id for q in resolution.questions]


def row_for(table_id: str, final: int) -> dict[str, Any]:
    for row in RF[table_id]["rows"]:
        if (row["min"] is None or final >= row["min"]) and (
            row["max"] is None or final <= row["max"]
        ):
            return row["result"]
    raise AssertionError(f"no row of {table_id} for {final}")


# --- every table ------------------------------------------------------------------------


@pytest.mark.parametrize(("module", "table_id"), TABLES_WITH_MODIFIERS)
def test_with_no_facts_every_modifier_is_sorted_exactly_once(module, table_id):
    for side in SIDES[module]:
        resolution = run(table_id, side=side, campaign_game="rb-cg-1")
        sorted_ids = (
            [d.id for d in resolution.drms]
            + asked(resolution)
            + [m.id for m in resolution.missing]
            + list(resolution.hidden)
        )
        assert sorted(sorted_ids) == sorted(m["id"] for m in modifiers(table_id)), side


@pytest.mark.parametrize(("module", "table_id"), TABLES_WITH_MODIFIERS)
def test_with_every_fact_known_nothing_is_missing_and_questions_are_well_formed(module, table_id):
    for side in SIDES[module]:
        resolution = run(table_id, side=side, **ALL_FACTS)
        assert resolution.ready and resolution.missing == ()
        for asked_question in resolution.questions:
            assert asked_question.kind in ("flag", "count", "choice", "number")
            assert asked_question.when["en"]
            if asked_question.kind == "flag":
                assert asked_question.value != 0
            elif asked_question.kind == "count":
                assert asked_question.per != 0
            elif asked_question.kind == "choice":
                assert asked_question.choices
                assert (asked_question.default or 0) in asked_question.choices
        # Unanswered questions are valid answers: nothing ticked, counts 0, choices default.
        answered(resolution.questions, {})


def test_every_resolver_is_used_by_some_modifier():
    used = {m["id"] for tables in (RF, SAP) for t in tables.values() for m in t["modifiers"]}
    assert set(drms.RESOLVERS) <= used


def test_a_modifier_computed_as_zero_is_left_out():
    resolution = run(
        "rf.cpp-replenishment",
        side="german",
        hist_drm=0,
        balance_drm=0,
        attack_chit_previous_day=False,
        cvp_completed=0,
    )
    assert resolution.drms == () and resolution.questions == () and resolution.ready


# --- RF CPP Replenishment (11.616) ------------------------------------------------------

RB_18_OCT_GERMAN = dict(
    side="german",
    campaign_game="rb-cg-1",
    hist_drm=-2,
    balance_drm=0,
    cvp_completed=44,
    attack_chit_previous_day=True,  # 11.5: the German is deemed Attack on the first CG day
)


def test_cpp_replenishment_worked_example_with_the_deemed_attack_chit():
    resolution = run("rf.cpp-replenishment", **RB_18_OCT_GERMAN)
    assert resolution.ready and resolution.questions == ()
    assert values(resolution) == {"historical": -2, "attack-chit": 1, "cvp": -2}
    (cvp,) = [d for d in resolution.drms if d.id == "cvp"]
    (data,) = [m for m in modifiers("rf.cpp-replenishment") if m["id"] == "cvp"]
    assert cvp.detail == "44 CVP" and cvp.reason == LocalizedText(**data["when"])
    # Q9: the rule text wins over the example: 10 − 2 − 2 + 1 = 7 → 15 CPP.
    assert row_for("rf.cpp-replenishment", 10 + sum(values(resolution).values())) == {"cpp": 15}


def test_cpp_replenishment_worked_example_as_printed():
    example = RF["rf.cpp-replenishment"]["worked_example"]
    resolution = run(
        "rf.cpp-replenishment", **{**RB_18_OCT_GERMAN, "attack_chit_previous_day": False}
    )
    assert values(resolution) == example["modifiers"] == {"historical": -2, "cvp": -2}
    final = example["original"] + sum(values(resolution).values())
    assert final == example["final"] == 6
    assert row_for("rf.cpp-replenishment", final) == {"cpp": example["cpp"]} == {"cpp": 16}


@pytest.mark.parametrize(
    ("cvp", "drm"), [(0, None), (19, None), (20, -1), (39, -1), (40, -2), (59, -2), (60, -3)]
)
def test_cpp_replenishment_minus_one_per_full_twenty_cvp(cvp, drm):
    facts = {**RB_18_OCT_GERMAN, "hist_drm": 0, "attack_chit_previous_day": False}
    resolution = run("rf.cpp-replenishment", **{**facts, "cvp_completed": cvp})
    assert values(resolution) == ({} if drm is None else {"cvp": drm})


@pytest.mark.parametrize(("balance", "drm"), [(0, None), (-1, -1), (-2, -2)])
def test_cpp_replenishment_takes_the_balance_tier_as_it_is(balance, drm):
    resolution = run("rf.cpp-replenishment", **{**RB_18_OCT_GERMAN, "balance_drm": balance})
    assert values(resolution).get("balance") == drm


@pytest.mark.parametrize(
    ("fact", "modifier"),
    [
        ("hist_drm", "historical"),
        ("balance_drm", "balance"),
        ("cvp_completed", "cvp"),
        ("attack_chit_previous_day", "attack-chit"),
    ],
)
def test_cpp_replenishment_waits_for_each_unknown_fact(fact, modifier):
    facts = {k: v for k, v in RB_18_OCT_GERMAN.items() if k != fact}
    resolution = run("rf.cpp-replenishment", **facts)
    assert resolution.missing == (Missing(modifier, fact),)
    assert not resolution.ready
    assert modifier not in values(resolution) and modifier not in asked(resolution)


def test_a_fact_given_as_none_counts_as_unknown():
    resolution = run("rf.cpp-replenishment", **{**RB_18_OCT_GERMAN, "hist_drm": None})
    assert resolution.missing == (Missing("historical", "hist_drm"),)


# --- RF ELR change (11.617) -------------------------------------------------------------

ELR_QUIET = dict(
    side="soviet",
    balance_drm=0,
    idle_days=0,
    scenarios_since=0,
    elite_companies_previous_day=0,
    first_line_previous_day=0,
    attack_chit_previous_day=False,
    hist_drm=0,
)


def test_elr_change_with_nothing_to_apply():
    resolution = run("rf.elr-change", **ELR_QUIET)
    assert resolution.drms == () and resolution.questions == () and resolution.ready


@pytest.mark.parametrize(("balance", "drm"), [(0, None), (-1, -1), (-2, -1)])
def test_elr_change_balance_is_a_flat_minus_one_whenever_a_tier_applies(balance, drm):
    resolution = run("rf.elr-change", **{**ELR_QUIET, "balance_drm": balance})
    assert values(resolution).get("balance") == drm


@pytest.mark.parametrize(("idle", "drm"), [(0, None), (1, -2), (3, -6)])
def test_elr_change_minus_two_per_idle_day(idle, drm):
    resolution = run("rf.elr-change", **{**ELR_QUIET, "idle_days": idle})
    assert values(resolution).get("idle-days") == drm
    if drm:
        assert resolution.drms[0].detail == f"× {idle}"


@pytest.mark.parametrize(("scenarios", "drm"), [(0, None), (1, 2), (4, 8)])
def test_elr_change_plus_two_per_scenario_since_start_or_idle_day(scenarios, drm):
    resolution = run("rf.elr-change", **{**ELR_QUIET, "scenarios_since": scenarios})
    assert values(resolution).get("scenarios") == drm


def test_elr_change_all_known_drms_together():
    facts = {
        **ELR_QUIET,
        "balance_drm": -1,
        "idle_days": 1,
        "scenarios_since": 2,
        "elite_companies_previous_day": 1,
        "first_line_previous_day": 3,
        "attack_chit_previous_day": True,
        "hist_drm": -2,
    }
    resolution = run("rf.elr-change", **facts)
    assert values(resolution) == {
        "balance": -1,
        "idle-days": -2,
        "elite-coy": -2,
        "first-line": -3,
        "attack-chit": 1,
        "scenarios": 4,
        "historical": -2,
    }
    assert [d.id for d in resolution.drms] == [m["id"] for m in modifiers("rf.elr-change")]


def test_elr_change_asks_for_the_companies_bought_when_the_campaign_does_not_know():
    facts = {
        k: v
        for k, v in ELR_QUIET.items()
        if k not in ("elite_companies_previous_day", "first_line_previous_day")
    }
    resolution = run("rf.elr-change", **facts)
    assert resolution.ready  # asked, not waited for
    elite = question(resolution, "elite-coy")
    assert (elite.kind, elite.per, elite.value) == ("count", -2, 0)
    assert question(resolution, "first-line").kind == "count"
    assert question(resolution, "first-line").per == -1
    chosen = answered(resolution.questions, {"elite-coy": 2, "first-line": 1})
    assert [(d.id, d.value) for d in chosen] == [("elite-coy", -4), ("first-line", -1)]


def test_elr_change_waits_for_idle_days_and_the_historical_drm():
    facts = {k: v for k, v in ELR_QUIET.items() if k not in ("idle_days", "hist_drm")}
    resolution = run("rf.elr-change", **facts)
    assert set(resolution.missing) == {
        Missing("idle-days", "idle_days"),
        Missing("historical", "hist_drm"),
    }


# --- RF weather and EC (11.6121) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("month", "weather", "expected"),
    [
        (12, [], {"december": -1}),
        (11, [], {}),
        (1, [], {}),
        (11, ["overcast"], {"prev-overcast": -1}),
        (11, ["falling_snow"], {"prev-snow": -1}),
        (12, ["overcast", "falling_snow"], {"december": -1, "prev-overcast": -1, "prev-snow": -1}),
        (12, ["mist", "clear"], {"december": -1}),
    ],
)
def test_weather(month, weather, expected):
    resolution = run("rf.weather", side="german", month=month, previous_weather=weather)
    assert values(resolution) == expected and resolution.ready


def test_weather_waits_for_the_month_and_the_previous_days_weather():
    resolution = run("rf.weather", side="german")
    assert set(resolution.missing) == {
        Missing("december", "month"),
        Missing("prev-overcast", "previous_weather"),
        Missing("prev-snow", "previous_weather"),
    }


@pytest.mark.parametrize(
    ("month", "weather", "ec", "expected"),
    [
        (11, [], [], {"november": -1}),
        (12, [], [], {}),
        (10, ["overcast"], ["moist"], {"prev-overcast": -3}),
        (10, ["mist"], ["wet"], {"prev-mist": -1}),
        (10, ["clear"], ["dry"], {"prev-dry": 1}),
        (
            11,
            ["overcast", "mist"],
            ["dry"],
            {"prev-overcast": -3, "prev-mist": -1, "november": -1, "prev-dry": 1},
        ),
    ],
)
def test_ec(month, weather, ec, expected):
    resolution = run("rf.ec", side="soviet", month=month, previous_weather=weather, previous_ec=ec)
    assert values(resolution) == expected and resolution.ready


def test_ec_dry_comes_from_the_previous_days_ec_not_its_weather():
    resolution = run("rf.ec", side="soviet", month=10, previous_weather=["dry"])
    assert resolution.missing == (Missing("prev-dry", "previous_ec"),)
    assert values(resolution) == {}


# --- SAN adjustment (11.6122) -------------------------------------------------------------


@pytest.mark.parametrize("table_id", ["rf.san-adjustment", "sap.san-adjustment"])
@pytest.mark.parametrize(("san", "drm"), [(4, None), (5, 1), (6, 2), (9, 5)])
def test_san_adjustment_is_san_minus_four(table_id, san, drm):
    # L1295: SAN 6 → +2 drm.
    resolution = run(table_id, side="german", san=san)
    assert values(resolution) == ({} if drm is None else {"san-over-4": drm})


@pytest.mark.parametrize("table_id", ["rf.san-adjustment", "sap.san-adjustment"])
def test_san_adjustment_waits_for_the_san(table_id):
    assert run(table_id, side="german").missing == (Missing("san-over-4", "san"),)


# --- Battle hardening (11.6113, 11.6114) -------------------------------------------------


@pytest.mark.parametrize(
    ("cvp", "drm"), [(0, None), (19, None), (20, -1), (39, -1), (40, -2), (59, -2), (60, -3)]
)
def test_rf_mmc_battle_hardening_minus_one_per_twenty_cvp(cvp, drm):
    resolution = run(
        "rf.mmc-battle-hardening", side="german", won_completed=False, cvp_scenario=cvp
    )
    assert values(resolution) == ({} if drm is None else {"cvp": drm})


def test_rf_mmc_battle_hardening_counts_only_the_losses_up_to_victory_determination():
    # 11.6031: of a day's 46 CVP, 2 were lost in the RePh after victory determination; the
    # CPP DRM (11.616) counts all 46 (-2), the MMC Battle Hardening DRM only the 44 (-2 too,
    # FRD), and at 40 against 41 the threshold shows the difference.
    day = {"side": "german", "won_completed": False, "cvp_completed": 46, "cvp_scenario": 44}
    assert values(run("rf.mmc-battle-hardening", **day)) == {"cvp": -2}
    (cvp,) = [drm for drm in run("rf.mmc-battle-hardening", **day).drms if drm.id == "cvp"]
    assert cvp.detail == "44 CVP"
    resolution = run("rf.mmc-battle-hardening", **{**day, "cvp_completed": 41, "cvp_scenario": 39})
    assert values(resolution) == {"cvp": -1}
    replenishment = run("rf.cpp-replenishment", **{**RB_18_OCT_GERMAN, "cvp_completed": 41})
    assert values(replenishment)["cvp"] == -2


def test_rf_mmc_battle_hardening_waits_for_the_scenarios_cvp_not_the_days():
    resolution = run("rf.mmc-battle-hardening", side="german", won_completed=True, cvp_completed=9)
    assert resolution.missing == (Missing("cvp", "cvp_scenario"),)


def test_rf_mmc_battle_hardening_won_and_soviet():
    soviet = run("rf.mmc-battle-hardening", side="soviet", won_completed=True, cvp_scenario=40)
    assert values(soviet) == {"won": -3, "soviet": -1, "cvp": -2}
    german = run("rf.mmc-battle-hardening", side="german", won_completed=True, cvp_scenario=0)
    assert values(german) == {"won": -3}
    assert german.hidden == ("soviet",)
    lost = run("rf.mmc-battle-hardening", side="soviet", won_completed=False, cvp_scenario=0)
    assert values(lost) == {"soviet": -1}


def test_rf_mmc_battle_hardening_waits_for_the_scenario_result():
    resolution = run("rf.mmc-battle-hardening", side="german", cvp_scenario=0)
    assert resolution.missing == (Missing("won", "won_completed"),)


@pytest.mark.parametrize(
    ("table_id", "side"),
    [
        ("rf.leader-battle-hardening-german", "german"),
        ("rf.leader-battle-hardening-soviet", "soviet"),
    ],
)
def test_rf_leader_battle_hardening_won_is_read_from_the_recorded_scenario(table_id, side):
    """The winner is recorded: −2 is a DRM from the campaign, like the MMC table's −3; not a
    question (11.6113; docs/rules-decisions.md)."""
    resolution = run(table_id, side=side, won_completed=True)
    assert resolution.questions == ()
    assert [(d.id, d.value) for d in resolution.drms] == [("won", -2)]


@pytest.mark.parametrize(
    "table_id", ["rf.leader-battle-hardening-german", "rf.leader-battle-hardening-soviet"]
)
def test_rf_leader_battle_hardening_unknown_winner_is_asked(table_id):
    resolution = run(table_id, side="german")
    assert resolution.missing == () and resolution.drms == ()
    won = question(resolution, "won")
    assert (won.kind, won.choices, won.default) == ("choice", (0, -1, -2), None)
    assert answered(resolution.questions, {}) == []
    assert [(d.id, d.value) for d in answered(resolution.questions, {"won": -2})] == [("won", -2)]
    assert [(d.id, d.value) for d in answered(resolution.questions, {"won": -1})] == [("won", -1)]
    with pytest.raises(AnswerError) as error:
        answered(resolution.questions, {"won": -3})
    assert error.value.question == "won"


@pytest.mark.parametrize(
    "table_id", ["rf.leader-battle-hardening-german", "rf.leader-battle-hardening-soviet"]
)
def test_rf_leader_battle_hardening_not_won_gives_nothing(table_id):
    resolution = run(table_id, side="german", won_completed=False)
    assert resolution.drms == () and resolution.questions == () and resolution.ready


@pytest.mark.parametrize(
    ("cvp", "drm"), [(0, None), (29, None), (30, -1), (59, -1), (60, -2), (89, -2), (90, -3)]
)
def test_sap_mmc_battle_hardening_minus_one_per_thirty_cvp(cvp, drm):
    for side in ("german", "russian"):
        resolution = run("sap.mmc-battle-hardening", side=side, cvp_scenario=cvp)
        assert values(resolution) == ({} if drm is None else {"cvp": drm})


@pytest.mark.parametrize(("cvp", "drm"), [(19, None), (20, -1), (39, -1), (40, -2)])
def test_sap_cpp_replenishment_minus_one_per_twenty_cvp(cvp, drm):
    resolution = run("sap.cpp-replenishment", side="russian", cvp_completed=cvp)
    assert values(resolution) == ({} if drm is None else {"cvp-suffered": drm})
    if drm:
        assert resolution.drms[0].detail == f"{cvp} CVP"


# --- other RF tables computed from the campaign ------------------------------------------


@pytest.mark.parametrize(("losing", "expected"), [(True, {"losing-record": -1}), (False, {})])
def test_afv_withdrawal_losing_record(losing, expected):
    assert values(run("rf.afv-withdrawal", side="german", losing_record=losing)) == expected
    assert run("rf.afv-withdrawal", side="german").missing == (
        Missing("losing-record", "losing_record"),
    )


@pytest.mark.parametrize(
    "table_id", ["rf.rg-strength", "rf.oba-german", "rf.oba-soviet", "rf.gun-battery"]
)
def test_strength_tables_take_the_historical_and_balance_drms(table_id):
    resolution = run(table_id, side="soviet", hist_drm=1, balance_drm=-2)
    assert values(resolution) == {"historical": 1, "balance": -2}


@pytest.mark.parametrize(
    "table_id", ["rf.rg-strength", "rf.oba-german", "rf.oba-soviet", "rf.gun-battery"]
)
def test_an_unknown_historical_drm_is_missing(table_id):
    resolution = run(table_id, side="german", balance_drm=0)
    assert resolution.missing == (Missing("historical", "hist_drm"),)
    assert not resolution.ready


# --- campaign games, sides, RGs ----------------------------------------------------------


@pytest.mark.parametrize(
    ("cg", "expected"), [("rb-cg-2", {"rb-cg-2-4": 1}), ("rb-cg-4", {"rb-cg-2-4": 1})]
)
def test_german_leaders_rb_cg_2_and_4_add_one(cg, expected):
    resolution = run("rf.leaders-german", side="german", campaign_game=cg)
    assert values(resolution) == expected
    assert "rb-cg-2-4" not in asked(resolution)


@pytest.mark.parametrize("cg", ["rb-cg-1", "rb-cg-3", "ro-cg-1", "ro-cg-3", "rf-cg-1"])
def test_german_leaders_other_cgs_hide_the_rb_cg_2_4_drm(cg):
    resolution = run("rf.leaders-german", side="german", campaign_game=cg)
    assert "rb-cg-2-4" in resolution.hidden
    assert values(resolution) == {}


def test_german_leaders_without_a_campaign_game_hide_it():
    assert "rb-cg-2-4" in run("rf.leaders-german", side="german").hidden


def test_german_leaders_questions_of_the_rg():
    resolution = run("rf.leaders-german", side="german", campaign_game="rb-cg-1")
    assert asked(resolution) == [
        "assault-coy",
        "pioneer-coy",
        "rifle-coy",
        "second-line-coy",
        "depleted",
    ]
    rifle = question(resolution, "rifle-coy")
    assert (rifle.kind, rifle.choices, rifle.default) == ("choice", (0, 1, 2), None)
    assert answered([rifle], {}) == []  # 1st–5th Rifle Coy
    assert [d.value for d in answered([rifle], {"rifle-coy": 2})] == [2]
    with pytest.raises(AnswerError):
        answered([rifle], {"rifle-coy": 3})


@pytest.mark.parametrize(("cg", "drm"), [("rb-cg-4", 1), ("rb-cg-2", None)])
def test_soviet_leaders_rb_cg_4(cg, drm):
    resolution = run("rf.leaders-soviet", side="soviet", campaign_game=cg)
    assert values(resolution).get("rb-cg-4") == drm
    assert ("rb-cg-4" in resolution.hidden) is (drm is None)


@pytest.mark.parametrize(("cg", "shown"), [("ro-cg-3", True), ("ro-cg-2", False)])
def test_rg_strength_ro_cg_3_second_line_is_asked_only_in_ro_cg_3(cg, shown):
    resolution = run("rf.rg-strength", side="german", campaign_game=cg, hist_drm=0, balance_drm=0)
    assert ("ro-cg-3-second-line" in asked(resolution)) is shown
    assert ("ro-cg-3-second-line" in resolution.hidden) is not shown
    if shown:
        assert question(resolution, "ro-cg-3-second-line").kind == "flag"
        assert question(resolution, "ro-cg-3-second-line").value == 1


@pytest.mark.parametrize(
    ("side", "expected", "hidden"),
    [("german", {"german": -1}, ("soviet",)), ("soviet", {"soviet": 1}, ("german",))],
)
def test_armor_leader_side_named_drms(side, expected, hidden):
    resolution = run("rf.armor-leader", side=side)
    assert values(resolution) == expected and resolution.hidden == hidden


def test_a_soviet_modifier_applies_to_a_side_called_russian():
    assert values(run("rf.armor-leader", side="russian")) == {"soviet": 1}


def test_a_side_named_modifier_is_hidden_when_the_side_is_unknown():
    resolution = run("rf.armor-leader")
    assert resolution.drms == () and resolution.hidden == ("german", "soviet")


def test_recon_soviet_plus_one_is_worked_out_the_rest_asked():
    soviet = run("rf.recon", side="soviet")
    assert values(soviet) == {"soviet": 1}
    assert asked(soviet) == ["two-cpp", "stealthy", "lax"]
    german = run("rf.recon", side="german")
    assert values(german) == {} and german.hidden == ("soviet",)


def test_rf_escape_soviet_infantry_drm_is_a_question_for_the_soviet_only():
    soviet = run("rf.escape", side="soviet")
    assert soviet.drms == ()
    assert question(soviet, "soviet").kind == "flag"
    assert question(soviet, "soviet").value == -1
    german = run("rf.escape", side="german")
    assert "soviet" not in asked(german) and german.hidden == ("soviet",)


def test_rf_escape_question_kinds():
    resolution = run("rf.escape", side="german")
    kinds = {q.id: (q.kind, q.value, q.per) for q in resolution.questions}
    assert kinds == {
        "leader": ("number", 0, 0),
        "lone-smc": ("flag", -1, 0),
        "within-2-hexes": ("flag", -1, 0),
        "adjacent": ("flag", -1, 0),
        "extra-hs": ("count", 0, 1),
        "over-ipc": ("count", 0, 1),
        "encircled": ("flag", 2, 0),
        "captured-afv": ("flag", 2, 0),
    }
    assert question(resolution, "leader").bounds == (-9, 9)


def test_sap_escape_russian_infantry_drm_is_limited_by_its_side_key():
    russian = run("sap.escape", side="russian")
    assert question(russian, "russian").kind == "flag"
    assert question(russian, "russian").value == -1
    assert question(russian, "extra-hs").per == 1 and question(russian, "portage").per == 1
    assert question(russian, "leader").kind == "number"
    german = run("sap.escape", side="german")
    assert "russian" in german.hidden and "russian" not in asked(german)


@pytest.mark.parametrize(
    ("side", "shown", "hidden"),
    [("german", "german-count", "russian-count"), ("russian", "russian-count", "german-count")],
)
def test_sap_salvage_counts_are_asked_of_their_own_side_only(side, shown, hidden):
    resolution = run("sap.salvage", side=side)
    assert asked(resolution) == ["far", "near", shown]
    assert resolution.hidden == (hidden,)
    assert question(resolution, shown).value == 2


def test_sap_recon_russian_plus_one():
    assert values(run("sap.recon", side="russian")) == {"russian": 1}
    german = run("sap.recon", side="german")
    # The Stealthy drm (SaP16) is the Russian's only: not asked of the German.
    assert values(german) == {} and german.hidden == ("russian", "stealthy")
    assert "stealthy" in asked(run("sap.recon", side="russian"))


def test_sap_weapon_repair_russian_mg_and_the_repair_number():
    russian = run("sap.weapon-repair", side="russian")
    assert asked(russian) == [
        "vehicular",
        "russian-mg-art",
        "repair-number",
        "isolated",
        "non-qualified",
    ]
    assert question(russian, "repair-number").kind == "number"
    german = run("sap.weapon-repair", side="german")
    assert german.hidden == ("russian-mg-art",)


@pytest.mark.parametrize("table_id", ["sap.armor-leader", "sap.recall-wreck-repair"])
def test_sap_german_minus_one_is_worked_out(table_id):
    assert values(run(table_id, side="german")) == {"german": -1}
    russian = run(table_id, side="russian")
    assert values(russian) == {} and russian.hidden == ("german",)


@pytest.mark.parametrize(
    ("side", "rg_id", "shown"),
    [
        ("german", None, ["german-strong", "german-weak"]),
        ("german", "I2", ["german-strong"]),
        ("german", "I4", ["german-weak"]),
        ("german", "I3", []),
        ("russian", None, ["russian-guards-airborne"]),
        ("russian", "I2", ["russian-guards-airborne"]),
        ("russian", "I1", []),
    ],
)
def test_sap_company_strength_rg_limited_drms(side, rg_id, shown):
    facts = {"side": side} if rg_id is None else {"side": side, "rg_id": rg_id}
    resolution = run("sap.infantry-company-strength", **facts)
    assert asked(resolution) == shown
    everything = [m["id"] for m in modifiers("sap.infantry-company-strength")]
    assert sorted(resolution.hidden) == sorted(set(everything) - set(shown))


@pytest.mark.parametrize(
    ("side", "rg_id", "shown"),
    [
        ("german", "I1", ["pioneer", "depleted"]),
        ("german", "I6", ["depleted"]),
        ("german", None, ["pioneer", "depleted"]),
        ("russian", "I1", ["depleted"]),
    ],
)
def test_sap_german_platoon_leader_pioneer(side, rg_id, shown):
    facts = {"side": side} if rg_id is None else {"side": side, "rg_id": rg_id}
    assert asked(run("sap.platoon-leader-german", **facts)) == shown


def test_rg_limited_drm_is_hidden_when_the_side_is_unknown():
    resolution = run("sap.company-leader-russian", rg_id="I2")
    assert resolution.hidden == ("guards-airborne",)


# --- answers -----------------------------------------------------------------------------

WHEN = {"en": "test", "ja": "テスト"}
FLAG = Question("flag", WHEN, "flag", value=-1)
COUNT = Question("count", WHEN, "count", per=-2)
CHOICE = Question("choice", WHEN, "choice", choices=(0, 1, 2))
NO_ZERO = Question("no-zero", WHEN, "choice", choices=(-1, -2))
NUMBER = Question("number", WHEN, "number")


@pytest.mark.parametrize(
    ("answer", "drm"), [(True, -1), ("on", -1), (False, None), (None, None), ("", None)]
)
def test_a_flag_applies_when_ticked(answer, drm):
    chosen = answered([FLAG], {"flag": answer})
    assert chosen == ([] if drm is None else [Drm(drm, LocalizedText(**WHEN), id="flag")])


@pytest.mark.parametrize(("count", "drm"), [(None, None), (0, None), (1, -2), (99, -198)])
def test_a_count_multiplies_its_per(count, drm):
    chosen = answered([COUNT], {"count": count})
    assert [d.value for d in chosen] == ([] if drm is None else [drm])


@pytest.mark.parametrize("count", [-1, 100])
def test_a_count_out_of_range_is_refused(count):
    with pytest.raises(AnswerError) as error:
        answered([COUNT], {"count": count})
    assert error.value.question == "count"


@pytest.mark.parametrize(("choice", "drm"), [(None, None), ("", None), (0, None), (2, 2), ("1", 1)])
def test_a_choice_is_one_of_those_offered(choice, drm):
    chosen = answered([CHOICE], {"choice": choice})
    assert [d.value for d in chosen] == ([] if drm is None else [drm])


@pytest.mark.parametrize("choice", [3, -1])
def test_a_choice_not_offered_is_refused(choice):
    with pytest.raises(AnswerError) as error:
        answered([CHOICE], {"choice": choice})
    assert error.value.question == "choice"


def test_an_unanswered_choice_without_a_default_must_offer_zero():
    with pytest.raises(AnswerError):
        answered([NO_ZERO], {})
    assert [d.value for d in answered([NO_ZERO], {"no-zero": -2})] == [-2]


@pytest.mark.parametrize(("number", "drm"), [(None, None), (0, None), (-9, -9), (9, 9), ("-3", -3)])
def test_a_number_within_its_bounds(number, drm):
    chosen = answered([NUMBER], {"number": number})
    assert [d.value for d in chosen] == ([] if drm is None else [drm])


@pytest.mark.parametrize("number", [-10, 10])
def test_a_number_beyond_its_bounds_is_refused(number):
    with pytest.raises(AnswerError) as error:
        answered([NUMBER], {"number": number})
    assert error.value.question == "number"


def test_a_number_with_narrower_bounds():
    narrow = Question("narrow", WHEN, "number", bounds=(-6, -2))
    assert [d.value for d in answered([narrow], {"narrow": -2})] == [-2]
    with pytest.raises(AnswerError):
        answered([narrow], {"narrow": -1})
    with pytest.raises(AnswerError):
        answered([narrow], {"narrow": -7})


@pytest.mark.parametrize("question_", [COUNT, CHOICE, NUMBER])
@pytest.mark.parametrize("answer", ["two", "1.5", object()])
def test_an_answer_that_is_not_a_whole_number_is_an_answer_error(question_, answer):
    with pytest.raises(AnswerError) as error:
        answered([question_], {question_.id: answer})
    assert error.value.question == question_.id


def test_answers_keep_the_questions_order_and_ignore_unknown_ids():
    chosen = answered(
        [FLAG, COUNT, CHOICE, NUMBER],
        {"number": 3, "choice": 1, "count": 2, "flag": True, "stranger": 5},
    )
    assert [(d.id, d.value) for d in chosen] == [
        ("flag", -1),
        ("count", -4),
        ("choice", 1),
        ("number", 3),
    ]
    assert all(d.reason == LocalizedText(**WHEN) for d in chosen)


def test_the_first_bad_answer_names_its_question():
    with pytest.raises(AnswerError) as error:
        answered([FLAG, COUNT, NUMBER], {"flag": True, "count": 100, "number": 50})
    assert error.value.question == "count"
