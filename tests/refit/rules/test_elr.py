"""refit.rules.elr: RF 11.617's "−2 per Elite infantry company" and "−1 per 1st Line infantry
company / AFV platoon [EXC: SPW platoon]" bought on the previous CG day, counted from the RG
chart (seed L1417–1418)."""

from __future__ import annotations

import pytest

from campaigns.games.registry import get_module
from refit.rules.elr import BoughtForElr, bought_for_elr, elr_class

CHARTS = get_module("red_factories").files["rg_charts"]["sides"]
GERMAN = CHARTS["german"]["groups"]
SOVIET = CHARTS["soviet"]["groups"]


@pytest.mark.parametrize(
    ("groups", "rg_id", "expected"),
    [
        (GERMAN, "I3", "elite"),  # Assault Coy 5-4-8
        (GERMAN, "I4", "elite"),  # Pioneer Coy 8-3-8 (RF19)
        (GERMAN, "I1", "first_line"),  # Rifle Coy 4-6-7
        (GERMAN, "I2", ""),  # 2nd Line Rifle Coy 4-4-7
        (GERMAN, "A6", "first_line"),  # Pz IV F1 Pltn
        (GERMAN, "A8", "first_line"),  # PSW Pltn: an AFV platoon
        (GERMAN, "A9", ""),  # SPW Pltn: the rule's exception
        (GERMAN, "I5", ""),  # Heavy Weapons Pltn: an infantry platoon, not a company
        (GERMAN, "M2", ""),  # Sniper
        (SOVIET, "I1", "elite"),  # Guards Rifle Coy 4-5-8
        (SOVIET, "I3", "first_line"),  # Rifle Coy 4-4-7
        (SOVIET, "I5", ""),  # Militia Coy: conscript
        (SOVIET, "A3", "first_line"),  # T-34 M41 Pltn
    ],
)
def test_each_rg_counts_for_the_drm_its_kind_names(groups, rg_id, expected):
    (group,) = [g for g in groups if g["id"] == rg_id]
    assert elr_class(group) == expected


def test_the_rules_words_each_rg_bought_counts_once():
    # German bought two Assault Coys, a Rifle Coy, a Pz IV platoon and an SPW platoon.
    counts = bought_for_elr(GERMAN, ["I3", "I3", "I1", "A6", "A9"])
    assert counts == BoughtForElr(elite_companies=2, first_line=2)


def test_nothing_bought_counts_nothing():
    assert bought_for_elr(GERMAN, []) == BoughtForElr(0, 0)


def test_one_of_each_at_the_limit_and_one_over():
    assert bought_for_elr(SOVIET, ["I1"]) == BoughtForElr(1, 0)
    assert bought_for_elr(SOVIET, ["I1", "I1"]) == BoughtForElr(2, 0)
    assert bought_for_elr(SOVIET, ["I3"]) == BoughtForElr(0, 1)
    assert bought_for_elr(SOVIET, ["I3", "A3"]) == BoughtForElr(0, 2)


def test_an_id_the_chart_does_not_have_counts_for_neither():
    assert bought_for_elr(GERMAN, ["Z9"]) == BoughtForElr(0, 0)


def test_the_chart_data_alone_decides():
    rows = [
        {"id": "X", "type": "afv_platoon"},
        {"id": "Y", "type": "afv_platoon", "elr_first_line_exempt": {"rule": "11.617"}},
        {"id": "Z", "type": "infantry_company"},  # no squad class: counts for neither
    ]
    assert bought_for_elr(rows, ["X", "Y", "Z"]) == BoughtForElr(0, 1)
