"""RG purchase limits and options (RF 11.619, SaP 11.617) over the real module data (the costs:
test_purchase_costs.py)."""

import pytest

from campaigns.games.registry import get_module
from refit.rules.purchase import Bought, Situation, check, company_cap, notes_in_force, offers
from refit.rules.purchase_costs import DUG_IN, ON_MAP, RESERVE, Options

RF = get_module("red_factories").files
SAP = get_module("slaughter_at_ponyri").files


def rf_cg(key):
    return RF["campaign_games"]["campaign_games"][key]


def sap_cg():
    return SAP["campaign_games"]["campaign_games"]["timetable-disrupted"]


def rf_situation(side="german", cg="rb-cg-1", day="1942-10-18", index=1, **kw):
    defaults = dict(
        module="red_factories",
        side=side,
        cg=cg,
        index=index,
        period_key=day,
        reph_kind="new_day",
        cpp_left=100,
        hist_drm=0,
        map_groups=tuple(rf_cg(cg)["map_groups"]),
    )
    defaults.update(kw)
    return Situation(**defaults)


def sap_situation(side="russian", period="CG-2", index=1, **kw):
    defaults = dict(
        module="slaughter_at_ponyri",
        side=side,
        cg="timetable-disrupted",
        index=index,
        period_key=period,
        reph_kind="full",
        cpp_left=100,
    )
    defaults.update(kw)
    return Situation(**defaults)


def reasons_of(situation, rg, cg=None, **options):
    _price, reasons = check(
        (RF if situation.module == "red_factories" else SAP)["rg_charts"],
        cg
        if cg is not None
        else (rf_cg(situation.cg) if situation.module == "red_factories" else sap_cg()),
        situation,
        rg,
        Options(**options),
    )
    return [reason.code for reason in reasons]


# --- RF options ----------------------------------------------------------------------------


def test_rf_options_an_rg_does_not_have_are_refused():
    assert "option_not_allowed" in reasons_of(rf_situation(), "O1", placement=ON_MAP)
    assert "option_not_allowed" in reasons_of(rf_situation(), "A6", placement=DUG_IN)
    assert "option_not_allowed" in reasons_of(rf_situation(), "A6", placement=RESERVE)
    assert "option_not_allowed" not in reasons_of(
        rf_situation(side="soviet"), "A3", placement=DUG_IN
    )


def test_rf_pre_registered_hexes_at_most_two():
    assert "pre_registered_hexes" not in reasons_of(rf_situation(), "O1", pre_registered_hexes=2)
    assert "pre_registered_hexes" in reasons_of(rf_situation(), "O1", pre_registered_hexes=3)
    assert "pre_registered_hexes" in reasons_of(rf_situation(), "A6", pre_registered_hexes=1)


# --- RF limits ----------------------------------------------------------------------------


def test_rf_cpp_at_the_limit_and_one_over():
    assert "cpp" not in reasons_of(rf_situation(cpp_left=8), "A6", placement=ON_MAP)
    assert "cpp" in reasons_of(rf_situation(cpp_left=7), "A6", placement=ON_MAP)


def test_rf_day_max_at_the_limit_and_one_over():
    # German A6: Day Max RB 2.
    one = (Bought("A6", 1, "1942-10-18", "RB"),)
    two = one + (Bought("A6", 1, "1942-10-18", "RB"),)
    assert "day_max" not in reasons_of(rf_situation(bought=one), "A6")
    assert "day_max" in reasons_of(rf_situation(bought=two), "A6")


def test_rf_cg_max_counts_every_day_and_not_the_initial_ob():
    # German A2 in RB CG I: CG Max 1, Day Max 1.
    assert reasons_of(rf_situation(), "A2") == []
    earlier = (Bought("A2", 0, "1942-10-17", "RB"),)
    assert reasons_of(rf_situation(bought=earlier), "A2") == ["cg_max"]


def test_rf_cg_max_example_medium_artillery_in_rb_cg_3():
    situation = rf_situation(cg="rb-cg-3", hist_drm=0)
    six = tuple(Bought("O2", i, f"1942-10-2{i}", "RB") for i in range(6))
    seven = six + (Bought("O2", 7, "1942-10-29", "RB"),)
    assert "cg_max" not in reasons_of(rf_situation(cg="rb-cg-3", bought=six), "O2")
    assert "cg_max" in reasons_of(rf_situation(cg="rb-cg-3", bought=seven), "O2")
    assert situation.cg == "rb-cg-3"


def test_rf_not_in_this_cg_and_a_printed_zero():
    assert reasons_of(rf_situation(), "I2") == ["not_in_cg"]  # German 2nd Line: "–" in RB
    assert reasons_of(rf_situation(side="soviet"), "A6") == ["not_in_cg"]
    assert reasons_of(rf_situation(), "A3") == ["cg_max_zero"]  # printed 0 in RB CG I


@pytest.mark.parametrize(("hist_drm", "cap"), [(-1, 3), (0, 2), (1, 1)])
def test_rf_company_cap_example_11_6195(hist_drm, cap):
    assert company_cap(hist_drm, RF["rg_charts"]["purchase_limits"]) == cap


@pytest.mark.parametrize(
    ("day", "hist_drm", "cap"), [("1942-11-12", -1, 3), ("1942-11-13", 0, 2), ("1942-11-14", 1, 1)]
)
def test_rf_company_cap_at_the_limit_and_one_over(day, hist_drm, cap):
    # Different company RGs so that no Day Max is reached first.
    companies = ("I1", "I3", "I4")
    under = tuple(Bought(rg, 5, day, "RB") for rg in companies[: cap - 1])
    at = tuple(Bought(rg, 5, day, "RB") for rg in companies[:cap])
    situation = dict(cg="rb-cg-3", day=day, index=5, hist_drm=hist_drm)
    buy = "I1" if cap < 3 else "I3"
    assert "company_cap" not in reasons_of(rf_situation(bought=under, **situation), buy)
    assert "company_cap" in reasons_of(rf_situation(bought=at, **situation), buy)


def test_rf_company_cap_needs_the_historical_drm():
    assert reasons_of(rf_situation(hist_drm=None), "I1") == ["hist_drm_unknown"]
    assert reasons_of(rf_situation(hist_drm=None), "A6") == []


def test_rf_note_n_from_5_november():
    assert "not_before" in reasons_of(rf_situation(cg="rb-cg-2", day="1942-11-04"), "A3")
    assert "not_before" not in reasons_of(rf_situation(cg="rb-cg-2", day="1942-11-05"), "A3")


def soviet_group(rg_id):
    return next(g for g in RF["rg_charts"]["sides"]["soviet"]["groups"] if g["id"] == rg_id)


def test_rf_soviet_note_n_holds_in_ro_cg_1_only():
    # Seed L1602: the ⁿ is printed on the RO CG I cell of the T-34 M43 row only.
    a4 = soviet_group("A4")
    assert "n" in notes_in_force(a4, "ro-cg-1")
    for column in ("rb-cg-1", "rb-cg-2", "rb-cg-3", "rb-cg-4", "ro-cg-2", "ro-cg-3"):
        assert "n" not in notes_in_force(a4, column)


@pytest.mark.parametrize(
    ("day", "refused"),
    [("1942-10-29", True), ("1942-10-30", False), ("1942-10-31", False)],
)
def test_rf_soviet_note_n_from_30_october_in_ro_cg_1(day, refused):
    situation = rf_situation(side="soviet", cg="ro-cg-1", day=day)
    assert ("not_before" in reasons_of(situation, "A4")) is refused


def test_rf_soviet_t34_m43_can_be_bought_on_the_last_day_of_rb_cg_1():
    # RB CG I ends before 30 Oct: with note n row-wide A4 could never be bought there.
    situation = rf_situation(side="soviet", cg="rb-cg-1", day="1942-10-29", index=12)
    assert reasons_of(situation, "A4") == []
    situation = rf_situation(side="soviet", cg="rb-cg-3", day="1942-10-29")
    assert "not_before" not in reasons_of(situation, "A4")


def test_rf_no_date_note_is_applied_row_wide():
    """Every date note (n, f, y, aa, bb) is printed on one CG Max cell: none is a row note."""
    charts = RF["rg_charts"]["sides"]
    for side, chart in charts.items():
        dated = {
            letter
            for letter, note in chart["notes"].items()
            if any(
                r["kind"] in ("not_before", "only_between", "cg_max_by_date", "dated_caps")
                for r in note.get("restrictions", [])
            )
        }
        for group in chart["groups"]:
            assert not dated & set(group["notes"]), (side, group["id"])


def test_rf_note_f_militia_in_october_only():
    soviet = dict(side="soviet", cg="rb-cg-3")
    assert "only_between" not in reasons_of(rf_situation(day="1942-10-31", **soviet), "I5")
    assert "only_between" in reasons_of(rf_situation(day="1942-11-01", **soviet), "I5")


def test_rf_note_y_pioneers_3_then_7():
    three = tuple(Bought("I4", i, f"1942-10-2{i}", "RB") for i in range(3))
    assert "cg_max" in reasons_of(rf_situation(cg="rb-cg-3", day="1942-11-07", bought=three), "I4")
    assert "cg_max" not in reasons_of(
        rf_situation(cg="rb-cg-3", day="1942-11-08", bought=three), "I4"
    )


def test_rf_note_aa_rifle_companies_in_rb_cg_4():
    soviet = dict(side="soviet", cg="rb-cg-4")
    assert "dated_cap_before" in reasons_of(rf_situation(day="1942-10-25", **soviet), "I3")
    assert reasons_of(rf_situation(day="1942-10-26", **soviet), "I3") == []
    one = (Bought("I3", 1, "1942-10-26", "RB"),)
    assert "day_max" in reasons_of(rf_situation(day="1942-10-26", bought=one, **soviet), "I3")
    assert "day_max" not in reasons_of(
        rf_situation(day="1942-10-28", index=3, bought=one, **soviet), "I3"
    )


def test_rf_note_bb_two_before_28_october():
    soviet = dict(side="soviet", cg="rb-cg-4", day="1942-10-27", index=2)
    one = (Bought("I7", 0, "1942-10-25", "RB"),)
    two = one + (Bought("I7", 1, "1942-10-26", "RB"),)
    assert "dated_cap_before" not in reasons_of(rf_situation(bought=one, **soviet), "I7")
    assert "dated_cap_before" in reasons_of(rf_situation(bought=two, **soviet), "I7")


def test_rf_initial_reph_ssr_i2_bans():
    initial = dict(reph_kind="before_initial", day="1942-10-17", index=0)
    assert "ssr_ban" in reasons_of(rf_situation(**initial), "G1")
    assert "ssr_ban" in reasons_of(rf_situation(**initial), "M2")
    assert "option_banned" in reasons_of(rf_situation(**initial), "A6", placement=ON_MAP)
    assert "option_banned" in reasons_of(rf_situation(**initial), "I1", placement=RESERVE)
    assert "ssr_ban" not in reasons_of(rf_situation(), "G1")
    assert "ssr_ban" not in reasons_of(rf_situation(side="soviet", **initial), "G1")


def test_rf_observer_needs_an_oba_module():
    assert "needs_oba" in reasons_of(rf_situation(), "O5")
    assert "needs_oba" not in reasons_of(rf_situation(oba_without_observer=1), "O5")
    assert "needs_oba" in reasons_of(rf_situation(oba_without_observer=1), "O6")
    assert "needs_oba" not in reasons_of(rf_situation(oba_for_plane=1), "O6")


def test_rf_cg_1_buys_for_a_map_group_and_counts_per_group():
    situation = rf_situation(cg="rf-cg-1", day="1942-11-11")
    assert reasons_of(situation, "A6") == ["choose_map_group"]
    assert reasons_of(situation, "A6", map_group="RB") == []
    # German A6: RB CG II column 1 (RB), RO CG II column 1 (RO).
    rb = (Bought("A6", 0, "1942-11-10", "RB"),)
    assert reasons_of(rf_situation(cg="rf-cg-1", bought=rb), "A6", map_group="RB") == ["cg_max"]
    assert reasons_of(rf_situation(cg="rf-cg-1", bought=rb), "A6", map_group="RO") == []


def test_rf_offers_cover_the_chart_with_counts():
    rows = offers(
        RF["rg_charts"],
        rf_cg("rb-cg-1"),
        rf_situation(bought=(Bought("I1", 0, "1942-10-17", "RB"),)),
    )
    i1 = next(r for r in rows if r.rg_id == "I1")
    assert (i1.cg_max, i1.bought_in_cg, i1.remaining, i1.day_max, i1.bought_today) == (
        9,
        1,
        8,
        2,
        0,
    )
    assert i1.placements == ("", ON_MAP, RESERVE)
    assert len(rows) == len(RF["rg_charts"]["sides"]["german"]["groups"])


# --- SaP -----------------------------------------------------------------------------------


def test_sap_no_cost_variations_in_the_daytime_reph():
    daytime = sap_situation(reph_kind="daytime")
    assert "option_not_allowed" in reasons_of(daytime, "I3", placement=ON_MAP)
    assert "option_not_allowed" not in reasons_of(sap_situation(), "I3", placement=ON_MAP)


def test_sap_7_july_am_bans():
    am = sap_situation(side="german", period="CG-1", index=0, reph_kind="pre_cg")
    assert "period_ban" in reasons_of(am, "I3")
    assert "period_ban" in reasons_of(am, "V1")
    assert "period_ban" not in reasons_of(am, "G1")


def test_sap_time_frame_max_and_the_m1_override():
    am = sap_situation(period="CG-1", index=0, reph_kind="pre_cg")
    four = tuple(Bought("M1", 0, "CG-1") for _ in range(4))
    five = four + (Bought("M1", 0, "CG-1"),)
    assert "day_max" not in reasons_of(
        sap_situation(period="CG-1", index=0, reph_kind="pre_cg", bought=four), "M1"
    )
    assert "day_max" in reasons_of(
        sap_situation(period="CG-1", index=0, reph_kind="pre_cg", bought=five), "M1"
    )
    three = tuple(Bought("M1", 1, "CG-2") for _ in range(3))
    assert "day_max" in reasons_of(sap_situation(bought=three), "M1")
    assert am.period_key == "CG-1"


def test_sap_cg_max_at_the_limit_and_one_over():
    # Russian G5: CG max 2, time-frame max 1.
    one = (Bought("G5", 0, "CG-1"),)
    two = one + (Bought("G5", 2, "CG-3"),)
    assert "cg_max" not in reasons_of(sap_situation(bought=one), "G5")
    assert "cg_max" in reasons_of(sap_situation(bought=two), "G5")


def test_sap_airborne_from_8_july_am():
    assert "not_before_period" in reasons_of(sap_situation(period="CG-2"), "I2")
    assert "not_before_period" not in reasons_of(sap_situation(period="CG-3", index=2), "I2")


def test_sap_two_companies_per_time_frame_three_platoons_count_as_one():
    german = dict(side="german", period="CG-3", index=2)
    one_company = (Bought("I3", 2, "CG-3"),)
    two_companies = one_company + (Bought("I4", 2, "CG-3"),)
    assert "sap_company_cap" not in reasons_of(sap_situation(bought=one_company, **german), "I2")
    assert "sap_company_cap" in reasons_of(sap_situation(bought=two_companies, **german), "I2")
    # 1 company + 2 platoons: the 3rd platoon makes a 2nd company — allowed; with 2 companies not.
    platoons = one_company + (Bought("I1", 2, "CG-3"), Bought("I6", 2, "CG-3"))
    assert "sap_company_cap" not in reasons_of(sap_situation(bought=platoons, **german), "I6")
    five = two_companies + (Bought("I1", 2, "CG-3"), Bought("I6", 2, "CG-3"))
    assert "sap_company_cap" not in reasons_of(sap_situation(bought=two_companies, **german), "I1")
    assert "sap_company_cap" in reasons_of(sap_situation(bought=five, **german), "I6")


def test_sap_two_non_rocket_oba_modules_per_time_frame():
    one = (Bought("O1", 1, "CG-2"),)
    two = one + (Bought("O2", 1, "CG-2"),)
    assert "oba_module_cap" not in reasons_of(sap_situation(bought=one), "O3")
    assert "oba_module_cap" in reasons_of(sap_situation(bought=two), "O3")
    assert "oba_module_cap" not in reasons_of(sap_situation(bought=two), "O4")  # rocket


def test_sap_pre_registered_hexes_at_most_two():
    assert "pre_registered_hexes" in reasons_of(sap_situation(), "O1", pre_registered_hexes=3)


def test_sap_cg5_counts_the_oba_modules_still_possessed():
    # CG5 limits possession (所有): two modules held from earlier time frames leave no room; one
    # held and one bought for this time frame neither (issue 16).
    one = (Bought("O1", 1, "CG-2"),)
    assert "oba_module_cap" not in reasons_of(sap_situation(oba_held=1), "O3")
    assert "oba_module_cap" in reasons_of(sap_situation(oba_held=2), "O3")
    assert "oba_module_cap" in reasons_of(sap_situation(bought=one, oba_held=1), "O3")
    assert "oba_module_cap" not in reasons_of(sap_situation(oba_held=2), "O4")  # rocket
