"""refit.rules.initiative against RF's chart rf.initiative-matrix (tables.json read directly,
no Django): the 11.6231 Attack limits with the rule's RB CG I example, and the 11.6232 matrix."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from refit.rules.initiative import attack_allowed, matrix_cell

RF = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "red_factories"


def _load(name: str) -> dict[str, Any]:
    return json.loads((RF / name).read_text(encoding="utf-8"))


MATRIX = next(c for c in _load("tables.json")["charts"] if c["id"] == "rf.initiative-matrix")
LIMITS = MATRIX["attack_limits"]
CAMPAIGN_GAMES = _load("campaign_games.json")["campaign_games"]
CG_DAYS = {key: cg["cg_days"]["count"] for key, cg in CAMPAIGN_GAMES.items()}


def soviet(day_number: int, attacks: int, campaign_game: str = "rb-cg-1") -> tuple[bool, str]:
    return attack_allowed(
        LIMITS, side="soviet", campaign_game=campaign_game, day_number=day_number, attacks=attacks
    )


def german(day_number: int, attacks: int, campaign_game: str) -> tuple[bool, str]:
    return attack_allowed(
        LIMITS, side="german", campaign_game=campaign_game, day_number=day_number, attacks=attacks
    )


ALLOWED = (True, "")
PER_DAYS = (False, "per_days")
PER_CG = (False, "per_cg")


# --- 11.6231 example (RB CG I, 13 CG days 10/17–10/29) -----------------------------------


def test_example_attack_on_day_2_next_allowed_on_day_5():
    assert soviet(2, 0) == ALLOWED  # 10/18
    assert soviet(3, 1) == PER_DAYS
    assert soviet(4, 1) == PER_DAYS  # one below the threshold
    assert soviet(5, 1) == ALLOWED  # 10/21


def test_example_first_attack_on_day_6_next_allowed_on_day_7():
    assert soviet(6, 0) == ALLOWED  # 10/22
    assert soviet(7, 1) == ALLOWED  # 10/23
    assert soviet(8, 2) == PER_DAYS
    assert soviet(9, 2) == ALLOWED


def test_example_none_chosen_before_the_last_four_days_allows_each_of_them():
    assert CG_DAYS["rb-cg-1"] == 13
    for attacks, day in enumerate(range(10, 14)):
        assert soviet(day, attacks) == ALLOWED, day
    assert soviet(13, 4) == PER_CG


@pytest.mark.parametrize(
    ("day", "attacks", "expected"),
    [
        (1, 0, ALLOWED),
        (1, 1, PER_DAYS),
        (4, 0, ALLOWED),
        (4, 1, PER_DAYS),
        (5, 1, ALLOWED),
        (8, 1, ALLOWED),
        (8, 2, PER_DAYS),
        (9, 2, ALLOWED),
        (12, 3, PER_DAYS),
        (13, 3, ALLOWED),
    ],
)
def test_one_attack_per_four_cg_days_rounded_up_cumulatively(day, attacks, expected):
    assert soviet(day, attacks) == expected


# --- the per-CG maximum -----------------------------------------------------------------

LIMITED_CGS = [cg for cg, most in LIMITS["soviet"]["max_per_cg"].items() if most is not None]


def test_every_cg_has_a_soviet_maximum_or_is_lifted():
    assert set(LIMITS["soviet"]["max_per_cg"]) == set(CAMPAIGN_GAMES)
    assert [cg for cg in CAMPAIGN_GAMES if cg not in LIMITED_CGS] == ["ro-cg-3"]


@pytest.mark.parametrize("cg", LIMITED_CGS)
def test_the_printed_maximum_is_one_per_four_cg_days_rounded_up(cg):
    # 11.6231 derives the maxima from the rule; RF CG I's is inferred the same way.
    assert LIMITS["soviet"]["max_per_cg"][cg] == math.ceil(CG_DAYS[cg] / 4)


@pytest.mark.parametrize("cg", LIMITED_CGS)
def test_the_cg_maximum_on_the_last_cg_day(cg):
    most = LIMITS["soviet"]["max_per_cg"][cg]
    last_day = CG_DAYS[cg]
    assert soviet(last_day, most - 1, cg) == ALLOWED
    assert soviet(last_day, most, cg) == PER_CG


@pytest.mark.parametrize("cg", LIMITED_CGS)
def test_the_cg_maximum_holds_even_past_the_last_cg_day(cg):
    most = LIMITS["soviet"]["max_per_cg"][cg]
    assert soviet(CG_DAYS[cg] + 8, most, cg) == PER_CG


def test_the_maximum_is_named_before_the_per_days_limit():
    assert soviet(2, 4, "rb-cg-1") == PER_CG
    assert soviet(2, 3, "rb-cg-1") == PER_DAYS


@pytest.mark.parametrize(("day", "attacks"), [(1, 0), (1, 1), (2, 5), (16, 16), (16, 100)])
def test_no_soviet_limit_in_ro_cg_3(day, attacks):
    assert soviet(day, attacks, "ro-cg-3") == ALLOWED


def test_a_cg_the_chart_does_not_list_keeps_the_per_days_limit():
    assert soviet(1, 0, "unknown-cg") == ALLOWED
    assert soviet(1, 1, "unknown-cg") == PER_DAYS
    assert soviet(40, 9, "unknown-cg") == ALLOWED


# --- the German --------------------------------------------------------------------------


@pytest.mark.parametrize("cg", [cg for cg in CAMPAIGN_GAMES if cg != "ro-cg-3"])
def test_the_german_is_not_limited_outside_ro_cg_3(cg):
    assert german(1, 0, cg) == ALLOWED
    assert german(1, 1, cg) == ALLOWED  # no per-days limit
    assert german(CG_DAYS[cg], 50, cg) == ALLOWED


def test_the_german_may_attack_at_most_four_times_in_ro_cg_3():
    assert LIMITS["german"]["max_per_cg"] == {"ro-cg-3": 4}
    assert german(1, 1, "ro-cg-3") == ALLOWED  # no per-days limit for the German
    assert german(4, 3, "ro-cg-3") == ALLOWED
    assert german(4, 4, "ro-cg-3") == PER_CG
    assert german(CG_DAYS["ro-cg-3"], 4, "ro-cg-3") == PER_CG


def test_a_side_without_limits_may_always_attack():
    assert (
        attack_allowed(LIMITS, side="referee", campaign_game="rb-cg-1", day_number=1, attacks=9)
        == ALLOWED
    )
    assert (
        attack_allowed({}, side="soviet", campaign_game="rb-cg-1", day_number=1, attacks=9)
        == ALLOWED
    )


# --- 11.6232 Initiative Matrix -----------------------------------------------------------


@pytest.mark.parametrize(
    ("german_chit", "soviet_chit", "result", "scenario", "name"),
    [
        ("attack", "attack", "dual_attack", True, "Dual Attack"),
        ("attack", "idle", "german_assault", True, "German Assault"),
        ("idle", "attack", "soviet_assault", True, "Soviet Assault"),
        ("idle", "idle", "idle_day", False, "Idle Day"),
    ],
)
def test_matrix_cell_for_each_pair_of_chits(german_chit, soviet_chit, result, scenario, name):
    cell = matrix_cell(MATRIX, {"german": german_chit, "soviet": soviet_chit})
    assert (cell["result"], cell["scenario"], cell["name"]["en"]) == (result, scenario, name)
    assert matrix_cell(MATRIX, {"soviet": soviet_chit, "german": german_chit}) is cell
    assert cell["result"] in MATRIX["scenario_types"]


@pytest.mark.parametrize(
    "chits",
    [
        {"german": "retreat", "soviet": "idle"},
        {"german": "attack", "soviet": ""},
        {"german": "attack"},
        {"soviet": "idle"},
        {},
        {"german": "attack", "soviet": "idle", "referee": "idle"},
    ],
)
def test_matrix_cell_refuses_chits_that_do_not_name_both_sides(chits):
    with pytest.raises(ValueError, match="no Initiative Matrix cell"):
        matrix_cell(MATRIX, chits)
