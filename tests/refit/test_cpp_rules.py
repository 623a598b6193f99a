import pytest

from refit.rules.cpp import Drm, UnknownValue, cpp_replenishment_drms


def test_the_rules_example_as_printed():
    # 11.6162: Historical DRM −2, 44 CVP → −2 (the example does not add the deemed Attack chit).
    assert cpp_replenishment_drms(
        hist_drm=-2, cvp_suffered=44, attack_chit_previous_day=False, balance_drm=0
    ) == [Drm("historical", -2), Drm("cvp", -2)]


@pytest.mark.parametrize(("cvp", "drm"), [(0, None), (19, None), (20, -1), (39, -1), (40, -2)])
def test_one_per_full_twenty_cvp(cvp, drm):
    drms = cpp_replenishment_drms(
        hist_drm=0, cvp_suffered=cvp, attack_chit_previous_day=False, balance_drm=0
    )
    assert drms == ([] if drm is None else [Drm("cvp", drm)])


def test_the_attack_chit_and_the_balance_drm():
    assert cpp_replenishment_drms(
        hist_drm=1, cvp_suffered=0, attack_chit_previous_day=True, balance_drm=-2
    ) == [Drm("historical", 1), Drm("attack-chit", 1), Drm("balance", -2)]


def test_an_unknown_historical_drm_stops_the_roll():
    with pytest.raises(UnknownValue):
        cpp_replenishment_drms(
            hist_drm=None, cvp_suffered=0, attack_chit_previous_day=False, balance_drm=0
        )
