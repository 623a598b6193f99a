"""The RG life cycle's rules (campaigns.orbat.lifecycle), at the rules' examples and limits."""

from campaigns.models import RgStatus
from campaigns.orbat import lifecycle as lc
from campaigns.orbat.lifecycle import Phase, Rg

RF, SAP = lc.RF, lc.SAP


def test_the_statuses_are_the_models_choices():
    assert set(lc.STATUSES) == set(RgStatus.values)


def test_rolls_made_move_bought_to_rolled_and_nothing_else():
    assert lc.after_rolls(Rg(lc.BOUGHT, 2)) == lc.ROLLED
    for status in set(lc.STATUSES) - {lc.BOUGHT}:
        assert lc.after_rolls(Rg(status, 2)) is None


def test_a_rolled_rg_awaits_entry_when_its_refit_phase_finishes():
    rg = Rg(lc.ROLLED, 2)
    assert lc.on_finish(rg, Phase("new_day", 2), Phase("scenario_day", 2)) == lc.AWAITING_ENTRY


def test_an_rg_still_to_roll_stays_bought_when_its_refit_phase_finishes():
    rg = Rg(lc.BOUGHT, 2, "infantry_company", to_roll=True)
    assert lc.on_finish(rg, Phase("new_day", 2), Phase("scenario_day", 2)) is None


def test_an_rg_with_nothing_to_roll_awaits_entry_when_its_refit_phase_finishes():
    rg = Rg(lc.BOUGHT, 2, "fortification", to_roll=False)
    assert lc.on_finish(rg, Phase("new_day", 2), Phase("scenario_day", 2)) == lc.AWAITING_ENTRY


def test_sap_a_refit_phase_into_its_scenario_puts_the_rolled_rg_in_play_at_once():
    rg = Rg(lc.ROLLED, 1, "infantry_company")
    assert lc.on_finish(rg, Phase("daytime", 1), Phase("scenario", 1)) == lc.ON_MAP


def test_a_scenario_starting_takes_in_every_rg_waiting_or_retained():
    start = (Phase("scenario_day", 3), Phase("scenario", 3))
    assert lc.on_finish(Rg(lc.AWAITING_ENTRY, 3), *start) == lc.ON_MAP
    assert lc.on_finish(Rg(lc.RETAINED, 1), *start) == lc.ON_MAP
    assert lc.on_finish(Rg(lc.AWAITING_ENTRY, 1), *start) == lc.ON_MAP  # bought on an Idle Day


def test_an_rg_not_yet_rolled_does_not_go_into_the_scenario():
    rg = Rg(lc.BOUGHT, 3, "infantry_company")
    assert lc.on_finish(rg, Phase("scenario_day", 3), Phase("scenario", 3)) is None


def test_after_the_scenario_the_rgs_in_it_are_retained_cg10():
    rg = Rg(lc.ON_MAP, 3, "infantry_company", entered=True)
    assert lc.on_finish(rg, Phase("scenario", 3), Phase("after_scenario", 3)) == lc.RETAINED


def test_an_oba_rg_is_retained_after_its_scenario_cg10():
    rg = Rg(lc.ON_MAP, 3, "oba", entered=True)
    assert lc.on_finish(rg, Phase("scenario", 3), Phase("after_scenario", 3)) == lc.RETAINED


def test_a_stuka_is_expended_after_the_scenario_of_its_day_11602j():
    rg = Rg(lc.ON_MAP, 3, "air", entered=True, to_roll=False)
    assert lc.on_finish(rg, Phase("scenario", 3), Phase("after_scenario", 3)) == lc.EXPENDED


def test_a_stuka_bought_for_an_idle_day_is_lost_note_b():
    rg = Rg(lc.BOUGHT, 3, "air", to_roll=False)
    # 11.623: no scenario; the next CG day's RePh opens.
    assert lc.on_finish(rg, Phase("new_day", 3), Phase("new_day", 4)) == lc.EXPENDED


def test_a_stuka_waits_while_its_day_still_has_its_scenario():
    rg = Rg(lc.BOUGHT, 3, "air", to_roll=False)
    assert lc.on_finish(rg, Phase("new_day", 3), Phase("scenario_day", 3)) == lc.AWAITING_ENTRY


def test_the_last_phase_of_the_cg_ends_a_waiting_stuka_but_keeps_the_others():
    assert lc.on_finish(Rg(lc.AWAITING_ENTRY, 9, "air"), Phase("new_day", 9), None) == lc.EXPENDED
    assert lc.on_finish(Rg(lc.AWAITING_ENTRY, 9), Phase("new_day", 9), None) is None


def test_an_rg_that_ended_never_moves_again():
    for status in lc.ENDED:
        rg = Rg(status, 1, "air", entered=True)
        assert lc.on_finish(rg, Phase("scenario_day", 2), Phase("scenario", 2)) is None
        assert lc.on_finish(rg, Phase("scenario", 2), Phase("after_scenario", 2)) is None


def test_rf_withdraws_only_an_afv_platoon_that_has_been_on_the_map_11_6142():
    entered = Rg(lc.RETAINED, 1, "afv_platoon", entered=True)
    assert lc.manual_targets(entered, RF) == [lc.WITHDRAWN, lc.ELIMINATED]
    assert lc.why_not(entered, RF, lc.WITHDRAWN) is None
    infantry = Rg(lc.RETAINED, 1, "infantry_company", entered=True)
    assert lc.why_not(infantry, RF, lc.WITHDRAWN) == "not_afv"


def test_sap_any_rg_in_play_may_be_withdrawn_recalled():
    rg = Rg(lc.ON_MAP, 1, "infantry_company", entered=True)
    assert lc.why_not(rg, SAP, lc.WITHDRAWN) is None


def test_only_an_oba_rg_is_expended_by_hand():
    assert lc.why_not(Rg(lc.RETAINED, 1, "oba", entered=True), RF, lc.EXPENDED) is None
    assert lc.why_not(Rg(lc.RETAINED, 1, "gun", entered=True), RF, lc.EXPENDED) == "not_oba"


def test_nothing_is_set_by_hand_before_the_rg_has_been_in_a_scenario():
    for status in (lc.BOUGHT, lc.ROLLED, lc.AWAITING_ENTRY, *lc.ENDED):
        rg = Rg(status, 1, "afv_platoon", entered=True)
        assert lc.manual_targets(rg, RF) == []
        assert lc.why_not(rg, RF, lc.ELIMINATED) == "not_in_play"


def test_the_automatic_statuses_are_never_set_by_hand():
    rg = Rg(lc.ON_MAP, 1, entered=True)
    for status in (lc.BOUGHT, lc.ROLLED, lc.AWAITING_ENTRY, lc.ON_MAP, lc.RETAINED):
        assert lc.why_not(rg, RF, status) == "automatic"
    assert lc.why_not(rg, RF, "lost") == "unknown"


RB_WALK = [
    Phase("before_initial", 0),
    Phase("scenario", 0),
    Phase("after_scenario", 0),
    Phase("new_day", 1),
    Phase("scenario_day", 1),
    Phase("scenario", 1),
    Phase("after_scenario", 1),
    Phase("new_day", 2),  # an Idle Day
    Phase("new_day", 3),
]


def test_legacy_an_initial_ob_rg_after_two_scenarios_is_retained():
    status = lc.legacy_status(
        rolled=True, entered=False, index=0, rg_type="infantry_company", walk=RB_WALK, finished=8
    )
    assert status == lc.RETAINED


def test_legacy_an_rg_of_the_open_refit_phase_is_bought_or_rolled():
    kwargs = {"entered": False, "index": 3, "rg_type": "infantry_company", "walk": RB_WALK}
    assert lc.legacy_status(rolled=False, finished=8, **kwargs) == lc.BOUGHT
    assert lc.legacy_status(rolled=True, finished=8, **kwargs) == lc.ROLLED


def test_legacy_an_rg_of_an_idle_day_awaits_entry_and_its_stuka_is_lost():
    kwargs = {"entered": False, "index": 2, "walk": RB_WALK, "finished": 8}
    assert lc.legacy_status(rolled=True, rg_type="infantry_company", **kwargs) == lc.AWAITING_ENTRY
    assert lc.legacy_status(rolled=False, rg_type="air", **kwargs) == lc.EXPENDED


def test_legacy_a_scenario_being_played_has_its_rgs_in_it():
    status = lc.legacy_status(
        rolled=True, entered=False, index=1, rg_type="afv_platoon", walk=RB_WALK, finished=5
    )
    assert status == lc.ON_MAP


def test_legacy_a_stuka_of_a_past_scenario_is_expended():
    status = lc.legacy_status(
        rolled=False, entered=False, index=1, rg_type="air", walk=RB_WALK, finished=6
    )
    assert status == lc.EXPENDED


def test_legacy_an_rg_flagged_as_entered_is_at_least_retained():
    status = lc.legacy_status(
        rolled=True, entered=True, index=3, rg_type="gun", walk=RB_WALK, finished=8
    )
    assert status == lc.RETAINED


def test_counts_name_every_status():
    tally = lc.counts([lc.RETAINED, lc.RETAINED, lc.AWAITING_ENTRY])
    assert tally[lc.RETAINED] == 2 and tally[lc.AWAITING_ENTRY] == 1 and tally[lc.BOUGHT] == 0
    assert set(tally) == set(lc.STATUSES)
