"""What an RG turns out to be (RF 11.620, SaP 11.618) — the pure lookups, on the rules' examples."""

import pytest

from campaigns.games.registry import get_module
from campaigns.games.rules import Drm
from refit.rules import receipt

RF = get_module("red_factories").files
SAP = get_module("slaughter_at_ponyri").files


def rf_group(side, rg):
    return next(g for g in RF["rg_charts"]["sides"][side]["groups"] if g["id"] == rg)


def sap_group(side, rg):
    return next(g for g in SAP["rg_charts"]["sides"][side]["groups"] if g["id"] == rg)


def table(files, table_id):
    return next(t for t in files["tables"]["dice_tables"] if t["id"] == table_id)


def chart(files, chart_id):
    return next(c for c in files["tables"]["charts"] if c["id"] == chart_id)


def lookup(files, table_id, final):
    for row in table(files, table_id)["rows"]:
        if (row["min"] is None or final >= row["min"]) and (
            row["max"] is None or final <= row["max"]
        ):
            return row["result"]
    raise AssertionError(final)


# --- RF 11.6204 example (10/18, German Historical DRM −2) ----------------------------------


def test_rf_example_strengths():
    drms = receipt.rf_strength_drms(hist_drm=-2, balance=0)
    assert drms == [Drm(-2, id="historical")]
    assert receipt.rf_strength(lookup(RF, "rf.rg-strength", 10)) == "D"  # Assault Coy
    assert receipt.rf_strength(lookup(RF, "rf.rg-strength", 9)) == "D"  # HW Pltn
    assert receipt.rf_strength(lookup(RF, "rf.rg-strength", 8)) == "F"
    assert lookup(RF, "rf.oba-german", 4)["ammo"] == "P"  # Bn Mortar OBA
    assert lookup(RF, "rf.oba-german", 5)["ammo"] == "N"


def test_rf_depleted_assault_company():
    group = rf_group("german", "I3")
    notes = RF["rg_charts"]["sides"]["german"]["notes"]
    assert receipt.rf_units(group, "german", "D", notes) == {"5-4-8": 9}
    assert receipt.rf_units(group, "german", "F", notes) == {"5-4-8": 12}
    entitlement = receipt.rf_sw_entitlement(
        chart(RF, "rf.infantry-company-sw-chart"), "german", "I3", "RB"
    )
    weapons = receipt.sw_rolls_needed(entitlement)
    assert weapons == ["MMG", "LMG", "LMG", "DC", "DC"]
    # MMG 3; LMG 6, 4; DC 2, 5 → 1 MMG, 1 LMG, 1 DC.
    assert receipt.received_by_dr(weapons, [3, 6, 4, 2, 5], 4) == {"MMG": 1, "LMG": 1, "DC": 1}


def test_rf_hw_platoon_example_11_6203():
    weapons = receipt.hw_weapons(rf_group("german", "I5"))
    assert weapons == ["HMG", "HMG", "MMG", "MMG", "81mm MTR", "81mm MTR"]
    first = [2, 5, 4, 6, 5, 5]
    assert receipt.hw_round(weapons, first) == {"HMG": 1}
    with pytest.raises(ValueError):
        receipt.hw_result(weapons, [first])
    received = receipt.hw_result(weapons, [first, [3, 2, 6, 3, 1, 5]])
    assert received == {"HMG": 2, "MMG": 1, "81mm MTR": 1}
    assert receipt.hw_crews(received) == {"1-2-7": 3, "2-2-8": 1}


def test_rf_hw_at_least_two_at_the_limit():
    weapons = receipt.hw_weapons(rf_group("soviet", "I8"))
    assert weapons == ["MOL-P", "MOL-P", "MOL-P"]
    assert receipt.hw_result(weapons, [[3, 3, 4]]) == {"MOL-P": 2}
    with pytest.raises(ValueError):
        receipt.hw_result(weapons, [[3, 4, 4]])


def test_rf_soviet_hw_platoon_lists_the_50_cal():
    assert receipt.hw_weapons(rf_group("soviet", "I7")).count(".50cal HMG") == 1


def test_rf_leader_example_11_6205():
    rifle = rf_group("soviet", "I3")
    drms = receipt.rf_leader_drms("soviet", rifle, depleted=True, cg="rb-cg-1")
    assert drms == [Drm(2, id="depleted")]
    assert lookup(RF, "rf.leaders-soviet", 5 + 2)["RB"] == ["8-1", "8-0"]
    guards_smg = rf_group("soviet", "I2")
    drms = receipt.rf_leader_drms("soviet", guards_smg, depleted=False, cg="rb-cg-1")
    # The example applies the Guards −1 only (seed L1790): RF19's assault-engineer squads do
    # not make the Guards SMG company the table's "assault engineer company" (issue 15).
    assert drms == [Drm(-1, id="guards-coy")]
    assert lookup(RF, "rf.leaders-soviet", 6 + sum(d.value for d in drms))["RB"] == ["9-1", "8-0"]


@pytest.mark.parametrize(
    ("rg_id", "depleted", "cg", "total"),
    [
        ("I1", False, "rb-cg-1", -1),  # Guards Rifle
        ("I2", False, "rb-cg-1", -1),  # Guards SMG (the example), never −3
        ("I2", True, "rb-cg-4", 2),  # −1 Guards +1 RB CG IV +2 Depleted
        ("I3", False, "ro-cg-1", 0),
        ("I4", False, "rb-cg-1", 1),  # 1st Line SMG
        ("I5", True, "rb-cg-1", 5),  # Depleted Militia
        ("I6", False, "rb-cg-1", -2),  # the assault-engineer company: the table's lowest
    ],
)
def test_rf_soviet_leader_drm_per_company(rg_id, depleted, cg, total):
    drms = receipt.rf_leader_drms("soviet", rf_group("soviet", rg_id), depleted=depleted, cg=cg)
    assert sum(d.value for d in drms) == total


def test_rf_soviet_guards_smg_at_the_tables_limit_and_one_over():
    """The lowest DR with −1 lands on the "≤ 1" row; one more pip is the "2" row. With the
    former −3 a DR of 4 already reached "≤ 1"."""
    drms = receipt.rf_leader_drms("soviet", rf_group("soviet", "I2"), depleted=False, cg="rb-cg-1")
    total = sum(d.value for d in drms)
    assert lookup(RF, "rf.leaders-soviet", 2 + total)["RB"] == ["10-3", "9-1", "8-0"]
    assert lookup(RF, "rf.leaders-soviet", 3 + total)["RB"] == ["10-2", "8-1"]
    assert lookup(RF, "rf.leaders-soviet", 4 + total)["RB"] == ["9-2", "9-1"]


def test_rf_only_the_sapper_company_takes_the_assault_engineer_drm():
    soviet = RF["rg_charts"]["sides"]["soviet"]["groups"]
    taking = {
        g["id"]
        for g in soviet
        if g.get("type") == "infantry_company"
        and Drm(-2, id="assault-engineer-coy")
        in receipt.rf_leader_drms("soviet", g, depleted=False, cg="rb-cg-1")
    }
    # I2 and I6 are both 6-2-8 assault engineers by RF19; only I6 is an engineer company.
    assert {g["id"] for g in soviet if g.get("assault_engineer")} == {"I2", "I6"}
    assert taking == {"I6"}


@pytest.mark.parametrize(("number", "drm"), [(5, 0), (6, 1), (8, 1), (9, 2)])
def test_rf_rifle_company_leader_drm(number, drm):
    assert receipt.rifle_company_drm(number) == drm


def test_rf_german_leader_drms():
    drms = receipt.rf_leader_drms(
        "german", rf_group("german", "I1"), depleted=True, cg="rb-cg-2", rifle_number=9
    )
    assert drms == [Drm(2, id="rifle-coy"), Drm(1, id="depleted"), Drm(1, id="rb-cg-2-4")]


def test_rf_afv_depleted_ot34_platoon_loses_a_t70():
    notes = RF["rg_charts"]["sides"]["soviet"]["notes"]
    group = rf_group("soviet", "A6")
    assert receipt.rf_units(group, "soviet", "F", notes) == {"T-70": 2, "OT-34": 1}
    assert receipt.rf_units(group, "soviet", "D", notes) == {"T-70": 1, "OT-34": 1}


def test_rf_gun_battery_depleted_loses_one_of_each():
    group = rf_group("german", "G3")
    assert receipt.battery_guns(group, "F") == {"75mm INF": 3, "150mm INF": 1}
    assert receipt.battery_guns(group, "D") == {"75mm INF": 2}


def test_rf_rolls_per_rg_type():
    assert receipt.rolls_for("red_factories", "german", rf_group("german", "I1")) == [
        "strength",
        "sw",
        "leaders",
    ]
    assert receipt.rolls_for("red_factories", "german", rf_group("german", "I5")) == [
        "strength",
        "weapons",
    ]
    assert receipt.rolls_for("red_factories", "german", rf_group("german", "A9")) == ["strength"]
    assert receipt.rolls_for("red_factories", "german", rf_group("german", "A6")) == [
        "strength",
        "armor_leader",
    ]
    assert receipt.rolls_for("red_factories", "german", rf_group("german", "G1")) == ["battery"]
    assert receipt.rolls_for("red_factories", "soviet", rf_group("soviet", "O5")) == ["oba"]
    assert receipt.rolls_for("red_factories", "german", rf_group("german", "M1")) == []


def test_rf_armor_leader_table():
    assert receipt.rf_armor_leader_drms("german") == [Drm(-1, id="german")]
    assert lookup(RF, "rf.armor-leader", 12)["inexperienced_crews"] is True


# --- SaP 11.6181 example: Russian I3 ×4, DR 5, 7, 10, 12 ---------------------------------


@pytest.mark.parametrize(
    ("dr", "level", "units"),
    [
        (5, "full", {"4-4-7": 9, "5-2-7": 3}),
        (7, "full", {"4-4-7": 9, "5-2-7": 3}),
        (10, "medium_depleted", {"4-4-7": 7, "5-2-7": 2}),
        (12, "heavy_depleted", {"4-4-7": 4, "4-2-6": 3, "5-2-7": 2}),
    ],
)
def test_sap_example_11_6181(dr, level, units):
    result = lookup(SAP, "sap.infantry-company-strength", dr)
    assert result["strength"] == level
    assert receipt.sap_units(sap_group("russian", "I3"), "russian", level) == units


def test_sap_reinforced_and_light_depleted():
    group = sap_group("german", "I3")
    assert receipt.sap_units(group, "german", "reinforced") == {"4-6-7": 15}
    assert receipt.sap_units(group, "german", "light_depleted") == {"4-6-7": 9, "4-4-7": 3}


def test_sap_extra_7_0_for_a_reinforced_company_but_not_the_russian_rifles():
    german = table(SAP, "sap.company-leader-german")
    russian = table(SAP, "sap.company-leader-russian")
    assert receipt.sap_extra_leader(german, sap_group("german", "I3"), "reinforced") == "7-0"
    assert receipt.sap_extra_leader(german, sap_group("german", "I3"), "full") is None
    assert receipt.sap_extra_leader(russian, sap_group("russian", "I3"), "reinforced") is None
    assert receipt.sap_extra_leader(russian, sap_group("russian", "I2"), "reinforced") == "7-0"


def test_sap_drms():
    assert receipt.sap_sw_drms("medium_depleted") == [Drm(1, id="medium-depleted")]
    assert receipt.sap_sw_drms("heavy_depleted") == [Drm(2, id="heavy-depleted")]
    assert receipt.sap_sw_drms("full") == []
    assert receipt.sap_company_leader_drms("german", sap_group("german", "I3"), "full") == [
        Drm(-1, id="reinforced-full")
    ]
    assert receipt.sap_platoon_leader_drms("russian", sap_group("russian", "I1"), "fixed") == [
        Drm(-1, id="assault")
    ]
    assert receipt.sap_armor_leader_drms("russian", sap_group("russian", "V1")) == [
        Drm(1, id="dug-in")
    ]


def test_sap_rolls_per_rg_type():
    assert receipt.rolls_for("slaughter_at_ponyri", "russian", sap_group("russian", "I3")) == [
        "company_strength",
        "sw",
        "leaders",
    ]
    assert receipt.rolls_for("slaughter_at_ponyri", "russian", sap_group("russian", "I1")) == [
        "sw",
        "platoon_leader",
    ]
    assert receipt.rolls_for("slaughter_at_ponyri", "russian", sap_group("russian", "V1")) == [
        "strength",
        "armor_leader",
    ]
    assert receipt.rolls_for("slaughter_at_ponyri", "german", sap_group("german", "O1")) == ["oba"]
    assert receipt.rolls_for("slaughter_at_ponyri", "german", sap_group("german", "I5")) == []


def test_sap_fixed_and_platoon_units():
    assert receipt.sap_units(sap_group("german", "I5"), "german", "fixed") == {
        "HMG": 2,
        "MMG": 2,
        "2-4-7": 4,
    }
    assert receipt.sap_units(sap_group("german", "I6"), "german", "depleted") == {"4-4-7 sapper": 3}
    assert receipt.sap_units(sap_group("russian", "V1"), "russian", "full") == {"T-34 M43": 4}


def test_sap_oba_chits():
    assert receipt.sap_oba_chits(lookup(SAP, "sap.oba-german", 4), 1) == (10, 3)
    assert receipt.sap_oba_chits(lookup(SAP, "sap.oba-russian", 10), 0) == (5, 3)


# --- dug-in AFV platoons (11.6194c) ---------------------------------------------------------


def test_a_dug_in_platoon_gets_one_lmg_per_afv_received():
    platoon = {"id": "A3", "type": "afv_platoon", "units": "T-34 M41"}
    assert receipt.dug_in_lmg(platoon, {"T-34 M41": 3}) == 3
    assert receipt.dug_in_lmg({"type": "afv_platoon"}, {"T-70": 2, "OT-34": 1}) == 3


def test_a_platoon_that_received_nothing_gets_nothing_and_only_afv_platoons_count():
    assert receipt.dug_in_lmg({"type": "afv_platoon"}, {}) == 0
    assert receipt.dug_in_lmg({"type": "infantry_company"}, {"4-4-7": 9}) == 0


def test_the_lmg_are_added_to_the_sw_received_and_noted_apart():
    got = {"units": {"T-34 M41": 3}, "sw": {"LMG": 1}, "strength": "F"}
    assert receipt.with_dug_in_lmg(got, 3) == {
        "units": {"T-34 M41": 3},
        "sw": {"LMG": 4},
        "strength": "F",
        "dug_in": {"lmg": 3, "bmg_removed": True},
    }
    assert receipt.with_dug_in_lmg(got, 0) == got
    assert got["sw"] == {"LMG": 1}  # the receipt given is not changed
