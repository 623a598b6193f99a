"""RF CG I (11.58) in the pure rules: the DRMs of a roll made once for the side that reads the
Historical DRM (11.617's ELR change), and the infantry-company cap per map group (11.6195)."""

from campaigns.games.registry import get_module
from refit.rules import drms
from refit.rules.purchase import Bought
from tests.refit.rules.test_purchase import reasons_of, rf_situation

TABLES = {t["id"]: t for t in get_module("red_factories").files["tables"]["dice_tables"]}
ELR = TABLES["rf.elr-change"]["modifiers"]
BASE = {"module": "red_factories", "side": "german", "campaign_game": "rf-cg-1"}


def test_the_elr_roll_asks_which_map_groups_value_when_they_differ():
    resolution = drms.resolve(ELR, {**BASE, "hist_drm_by_group": {"RB": -1, "RO": 1}})
    question = next(q for q in resolution.questions if q.id == "historical")
    assert (question.kind, question.choices) == ("choice", (-1, 1))
    assert "RB −1, RO +1" in question.when["en"]
    assert not any(m.fact == "hist_drm" for m in resolution.missing)
    assert [d.value for d in drms.answered([question], {"historical": "1"})] == [1]


def test_the_elr_roll_takes_the_value_both_map_groups_share():
    resolution = drms.resolve(ELR, {**BASE, "hist_drm_by_group": {"RB": -2, "RO": -2}})
    assert [(d.id, d.value) for d in resolution.drms if d.id == "historical"] == [
        ("historical", -2)
    ]


def test_without_the_values_the_elr_roll_waits():
    resolution = drms.resolve(ELR, BASE)
    assert "hist_drm" in [m.fact for m in resolution.missing]


def test_a_map_groups_roll_names_its_group():
    table = TABLES["rf.cpp-replenishment"]["modifiers"]
    resolution = drms.resolve(table, {**BASE, "hist_drm": -1, "map_group": "RB"})
    historical = next(d for d in resolution.drms if d.id == "historical")
    assert (historical.value, historical.detail) == (-1, "RB")


def bought(group, count):
    companies = ("I3", "I4", "I2")  # the cap counts every company; I1 is the one bought
    return tuple(Bought(rg, 1, "1942-11-12", group) for rg in companies[:count])


def situation(bought_, **kw):
    return rf_situation(
        cg="rf-cg-1", day="1942-11-12", index=1, hist_drm=None, bought=bought_, **kw
    )


def test_the_company_cap_counts_the_map_groups_companies_against_its_value():
    # RB Historical DRM +1 → cap 1; RO −1 → cap 3.
    drms_ = {"RB": 1, "RO": -1}
    one_rb = situation(bought("RB", 1), hist_drms=drms_)
    assert "company_cap" in reasons_of(one_rb, "I1", map_group="RB")
    assert "company_cap" not in reasons_of(one_rb, "I1", map_group="RO")
    two_ro = situation(bought("RO", 2), hist_drms=drms_)
    assert "company_cap" not in reasons_of(two_ro, "I1", map_group="RO")  # 2 of 3
    three_ro = situation(bought("RO", 3), hist_drms=drms_)
    assert "company_cap" in reasons_of(three_ro, "I1", map_group="RO")  # one over


def test_the_cap_waits_for_its_own_map_groups_value():
    only_rb = situation((), hist_drms={"RB": 0})
    assert "hist_drm_unknown" not in reasons_of(only_rb, "I1", map_group="RB")
    assert "hist_drm_unknown" in reasons_of(only_rb, "I1", map_group="RO")
