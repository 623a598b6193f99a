"""What an RG costs with its options (RF 11.6194, SaP 11.6174) over the real module data."""

import pytest

from campaigns.games.registry import get_module
from refit.rules.purchase_costs import DUG_IN, ON_MAP, RESERVE, Options, onboard_code, price

RF = get_module("red_factories").files
SAP = get_module("slaughter_at_ponyri").files


def cost_of(module_files, side, rg, **options):
    group = next(g for g in module_files["rg_charts"]["sides"][side]["groups"] if g["id"] == rg)
    module = "red_factories" if module_files is RF else "slaughter_at_ponyri"
    return price(module, module_files["rg_charts"], side, group, Options(**options)).cost


# --- RF: the 11.6194 examples --------------------------------------------------------------


def test_rf_on_map_a6_costs_8_for_the_german():
    assert cost_of(RF, "german", "A6") == 5
    assert cost_of(RF, "german", "A6", placement=ON_MAP) == 8


def test_rf_soviet_on_map_surcharge_is_2():
    assert cost_of(RF, "soviet", "A3", placement=ON_MAP) == 7


@pytest.mark.parametrize(
    ("side", "rg"), [("soviet", "I5"), ("soviet", "I7"), ("soviet", "I8"), ("german", "I5")]
)
def test_rf_rgs_free_on_map(side, rg):
    base = cost_of(RF, side, rg)
    assert cost_of(RF, side, rg, placement=ON_MAP) == base


def test_rf_dug_in_a3_costs_3():
    assert cost_of(RF, "soviet", "A3", placement=DUG_IN) == 3
    assert cost_of(RF, "soviet", "A4", placement=DUG_IN) == 3  # 6 → 3, no rounding


def test_rf_reserve_i2_costs_6():
    assert cost_of(RF, "soviet", "I2", placement=RESERVE) == 6


def test_rf_pre_registered_hexes_and_the_stuka():
    assert cost_of(RF, "german", "O2", pre_registered_hexes=2) == 6
    assert cost_of(RF, "german", "S1", stuka_two_cpp=True) == 2


def test_onboard_codes():
    assert [onboard_code("red_factories", p) for p in ("", ON_MAP, RESERVE, DUG_IN)] == [
        "",
        "O",
        "R",
        "D",
    ]
    assert [onboard_code("slaughter_at_ponyri", p) for p in ("", ON_MAP, RESERVE)] == [
        "R",
        "O",
        "C",
    ]


# --- SaP -----------------------------------------------------------------------------------


def test_sap_on_map_costs():
    assert cost_of(SAP, "russian", "I3", placement=ON_MAP) == 6
    assert cost_of(SAP, "german", "I3", placement=ON_MAP) == 9
    assert cost_of(SAP, "russian", "I4", placement=ON_MAP) == 3  # the Russian MG platoon: free
    assert cost_of(SAP, "russian", "V1", placement=ON_MAP) == 3  # note a
    assert cost_of(SAP, "german", "I3", placement=RESERVE) == 6


def test_sap_pre_registered_hexes_cost():
    assert cost_of(SAP, "german", "O1", pre_registered_hexes=2) == 3
