"""A campaign's state: created from its campaign game, changed, and undone."""

import pytest

from campaigns import state
from campaigns.access import viewer_for
from campaigns.games.registry import get_module
from campaigns.history import services as history
from campaigns.members import services
from campaigns.models import (
    CampaignDay,
    LedgerEntry,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    Role,
    SideDay,
)

pytestmark = pytest.mark.django_db


def test_rb_cg_i_starts_with_its_calendar_and_both_initial_obs(campaign):
    # 11.51: Soviet CPP 8, FPP 50, I3 × 2 + I4, 45LL AT × 2, 2-2-8 × 2; German CPP 15.
    assert CampaignDay.objects.filter(campaign=campaign).count() == 13
    assert SideDay.objects.filter(campaign=campaign).count() == 26
    soviet = SideDay.objects.get(campaign=campaign, index=0, side="soviet")
    assert (soviet.elr, soviet.san, soviet.elr_san_revealed) == (3, 4, True)
    amounts = dict(
        LedgerEntry.objects.filter(campaign=campaign, kind="initial")
        .values_list("side", "amount")
        .filter(ledger="cpp")
    )
    assert amounts == {"soviet": 8, "german": 15}
    assert LedgerEntry.objects.get(campaign=campaign, side="soviet", ledger="fpp").amount == 50
    rgs = sorted(
        ReinforcementGroup.objects.filter(campaign=campaign, side="soviet").values_list(
            "rg_id", "number"
        )
    )
    assert rgs == [("I3", 1), ("I3", 2), ("I4", 1)]
    retained = set(
        OrbatEntry.objects.filter(campaign=campaign, side="soviet").values_list(
            "box", "unit_type", "quantity"
        )
    )
    assert retained == {("retained", "45LL AT", 2), ("retained", "2-2-8", 2)}


def test_the_historical_drm_is_prefilled_only_where_the_rules_give_it(campaign):
    # 11.6162: German Historical DRM −2 on 18 Oct (RB); every other value is unknown.
    german = dict(
        SideDay.objects.filter(campaign=campaign, side="german").values_list("index", "hist_drm")
    )
    assert german[1] == -2
    assert german[0] is None and german[2] is None
    assert not SideDay.objects.filter(
        campaign=campaign, side="soviet", hist_drm__isnull=False
    ).exists()


def test_slaughter_at_ponyri_starts_with_its_time_frames_and_obs(people):
    campaign = services.create_campaign(
        user=people["referee"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.REFEREE,
        side="",
    )
    assert CampaignDay.objects.filter(campaign=campaign).count() == 6
    assert LedgerEntry.objects.get(campaign=campaign, side="russian", ledger="cpp").amount == 22
    trench = OrbatEntry.objects.get(campaign=campaign, side="russian", unit_type="Trench")
    assert (trench.box, trench.quantity) == ("fortifications", 60)


def test_a_short_game_gets_its_turns_and_nothing_it_does_not_have(people):
    campaign = services.create_campaign(
        user=people["german"],
        name="DR",
        module=get_module("defiant_russia"),
        cg_key="full-game",
        role=Role.PLAYER,
        side="axis",
    )
    assert CampaignDay.objects.filter(campaign=campaign).count() == 7
    assert not LedgerEntry.objects.filter(campaign=campaign).exists()


@pytest.mark.parametrize(
    ("kind", "amount", "note", "message"),
    [
        ("replenishment", -3, "", "more than 0"),
        ("rg_purchase", 5, "", "less than 0"),
        ("adjustment", 2, " ", "reason"),
        ("adjustment", 0, "typo", "cannot be 0"),
        ("fortification_purchase", -4, "", "does not belong"),
    ],
)
def test_ledger_entries_are_checked(campaign, people, kind, amount, note, message):
    with pytest.raises(state.StateError, match=message):
        state.add_ledger_entry(
            campaign,
            by=people["referee"],
            side="german",
            ledger="cpp",
            index=1,
            kind=kind,
            amount=amount,
            note=note,
        )


def test_a_ledger_entry_outside_the_calendar_is_refused(campaign, people):
    with pytest.raises(state.StateError, match="calendar"):
        state.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=13,
            kind="replenishment",
            amount=3,
        )


def test_a_stale_edit_is_refused_and_loses_nothing(campaign, people):
    day = CampaignDay.objects.get(campaign=campaign, index=1)
    state.update_day(campaign, day, by=people["german"], version=0, weather="Overcast")
    stale = CampaignDay.objects.get(pk=day.pk)
    stale.version = 0
    with pytest.raises(state.StaleEdit):
        state.update_day(campaign, stale, by=people["soviet"], version=0, weather="Clear")
    assert CampaignDay.objects.get(pk=day.pk).weather == "Overcast"


def test_moving_part_of_a_line_splits_it_and_undo_puts_it_back(campaign, people):
    (squads,) = state.add_units(
        campaign, by=people["german"], side="german", box=OrbatBox.RETAINED, text="14 × 4-6-7"
    )
    moved = state.change_entry(
        squads,
        by=people["german"],
        version=squads.version,
        box=OrbatBox.CASUALTIES,
        move_quantity=3,
    )
    squads.refresh_from_db()
    assert (squads.quantity, moved.quantity, moved.box) == (11, 3, "casualties")
    event = history.undoable_for(viewer_for(people["german"], campaign.pk)).first()
    assert event.action == "orbat.changed"
    history.undo(event, by=people["german"])
    assert list(
        OrbatEntry.objects.filter(campaign=campaign, unit_type="4-6-7").values_list(
            "box", "quantity"
        )
    ) == [("retained", 14)]


def test_undo_is_refused_when_the_row_changed_again(campaign, people):
    (line,) = state.add_units(
        campaign, by=people["german"], side="german", box=OrbatBox.RETAINED, text="2 × LMG"
    )
    state.change_entry(line, by=people["german"], version=0, quantity=3)
    added = campaign.events.get(action="orbat.added")
    with pytest.raises(history.UndoError, match="changed again"):
        history.undo(added, by=people["referee"])
    assert OrbatEntry.objects.get(pk=line.pk).quantity == 3


def test_undoing_a_removal_brings_the_line_back(campaign, people):
    (line,) = state.add_units(
        campaign, by=people["soviet"], side="soviet", box=OrbatBox.WOUNDED, text="9-1 leader"
    )
    pk = line.pk
    state.remove_entry(line, by=people["soviet"], version=0)
    assert not OrbatEntry.objects.filter(pk=pk).exists()
    history.undo(campaign.events.get(action="orbat.removed"), by=people["soviet"])
    assert OrbatEntry.objects.get(pk=pk).unit_type == "9-1 leader"


def test_a_player_may_undo_only_their_own_changes_the_referee_any(campaign, people):
    state.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=16,
    )
    state.add_cvp(
        campaign, by=people["soviet"], side="german", index=0, phase="scenario", what="4-6-7", cvp=2
    )
    german = set(
        history.undoable_for(viewer_for(people["german"], campaign.pk)).values_list(
            "action", flat=True
        )
    )
    soviet = set(
        history.undoable_for(viewer_for(people["soviet"], campaign.pk)).values_list(
            "action", flat=True
        )
    )
    referee = set(
        history.undoable_for(viewer_for(people["referee"], campaign.pk)).values_list(
            "action", flat=True
        )
    )
    assert german == {"ledger.added"}
    assert soviet == {"cvp.added"}  # and never the German's secret ledger entry
    assert referee == {"ledger.added", "cvp.added"}


def test_undo_twice_is_refused(campaign, people):
    entry = state.add_cvp(
        campaign, by=people["soviet"], side="german", index=0, phase="scenario", what="4-6-7", cvp=2
    )
    event = campaign.events.get(action="cvp.added")
    history.undo(event, by=people["soviet"])
    assert not type(entry).objects.filter(pk=entry.pk).exists()
    with pytest.raises(history.UndoError, match="already undone"):
        history.undo(event, by=people["soviet"])


@pytest.mark.parametrize(
    ("box", "with_group", "message"),
    [("rg", False, "which RG"), ("retained", True, "which RG"), ("attic", False, "not a box")],
)
def test_boxes_are_checked(campaign, people, box, with_group, message):
    group = ReinforcementGroup.objects.filter(campaign=campaign, side="german").first()
    with pytest.raises(state.StateError, match=message):
        state.add_units(
            campaign,
            by=people["german"],
            side="german",
            box=box,
            text="LMG",
            group=group if with_group else None,
        )


def test_another_sides_rg_box_is_refused(campaign, people):
    soviet_rg = ReinforcementGroup.objects.filter(campaign=campaign, side="soviet").first()
    with pytest.raises(state.StateError, match="not one of this side"):
        state.add_units(
            campaign, by=people["german"], side="german", box="rg", text="LMG", group=soviet_rg
        )


def test_an_rg_purchase_must_name_an_rg_of_that_sides_chart(campaign, people):
    with pytest.raises(state.StateError, match="Z9 is not on this side's RG chart"):
        state.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="rg_purchase",
            amount=-5,
            rg="Z9",
        )
    state.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="rg_purchase",
        amount=-5,
        rg="I2",
    )


def test_a_new_rf_campaign_stands_before_its_initial_scenario(campaign):
    (reph,) = campaign.rephs.all()
    assert (reph.kind, reph.index, reph.finished_at) == ("before_initial", 0, None)


def test_a_short_game_has_no_refit_phase(people):
    campaign = services.create_campaign(
        user=people["german"],
        name="CP",
        module=get_module("cherkassy_pocket"),
        cg_key="scenario-1",
        role=Role.PLAYER,
        side="german",
    )
    assert not campaign.rephs.exists()


def test_there_is_no_replenishment_on_the_first_day(campaign, people):
    with pytest.raises(state.StateError, match="first CG day"):
        state.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="replenishment",
            amount=10,
        )


def test_a_side_cannot_spend_more_cpp_than_it_has_left(campaign, people):
    # RB CG I: the German starts with 15 CPP.
    state.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="rg_purchase",
        amount=-10,
        rg="I1",
    )
    with pytest.raises(state.StateError, match="costs 6 but only 5 are left"):
        state.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="rg_purchase",
            amount=-6,
            rg="I2",
        )
    state.add_ledger_entry(
        campaign, by=people["german"], side="german", ledger="cpp", index=0, kind="recon", amount=-5
    )
    with pytest.raises(state.StateError, match="only 0 are left"):
        state.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="recon",
            amount=-1,
        )


def test_a_side_cannot_spend_more_fpp_than_it_has_that_day(campaign, people):
    # RB CG I: the Soviet has 50 FPP for the initial 11.621 step; unspent FPP are lost.
    with pytest.raises(state.StateError, match="costs 51 but only 50"):
        state.add_ledger_entry(
            campaign,
            by=people["soviet"],
            side="soviet",
            ledger="fpp",
            index=0,
            kind="fortification_purchase",
            amount=-51,
        )
    with pytest.raises(state.StateError, match="only 0"):
        state.add_ledger_entry(
            campaign,
            by=people["soviet"],
            side="soviet",
            ledger="fpp",
            index=1,
            kind="fortification_purchase",
            amount=-1,
        )


def test_a_scenario_with_cvp_entries_cannot_be_undone_under_them(campaign, people):
    scenario = state.save_scenario(campaign, by=people["referee"], index=0, scenario_type="initial")
    state.add_cvp(
        campaign,
        by=people["referee"],
        side="german",
        index=0,
        scenario=scenario,
        phase="scenario",
        what="4-6-7",
        cvp=2,
    )
    with pytest.raises(history.UndoError, match="undo those first"):
        history.undo(campaign.events.get(action="scenario.added"), by=people["referee"])
    assert campaign.cvp.get().scenario == scenario


def test_an_observer_undoes_nothing_not_even_what_they_did_as_a_player(campaign, people):
    state.add_cvp(
        campaign,
        by=people["observer"],
        side="german",
        index=0,
        phase="scenario",
        what="4-6-7",
        cvp=2,
    )
    assert not history.undoable_for(viewer_for(people["observer"], campaign.pk)).exists()


def test_only_the_referee_undoes_a_ledger_adjustment(campaign, people):
    state.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=3,
        note="typo on the sheet",
    )
    german = history.undoable_for(viewer_for(people["german"], campaign.pk))
    referee = history.undoable_for(viewer_for(people["referee"], campaign.pk))
    assert not german.filter(action="ledger.added").exists()
    assert referee.filter(action="ledger.added").exists()


def test_undo_touches_only_rows_of_its_own_campaign(campaign, people):
    other = services.create_campaign(
        user=people["german"],
        name="Other",
        module=get_module("red_factories"),
        cg_key="rb-cg-2",
        role=Role.PLAYER,
        side="german",
    )
    (line,) = state.add_units(
        other, by=people["german"], side="german", box=OrbatBox.RETAINED, text="LMG"
    )
    forged = campaign.events.create(
        actor=people["german"],
        action="orbat.added",
        visibility="german",
        data={
            "undo": [
                {
                    "model": "campaigns.orbatentry",
                    "pk": line.pk,
                    "before": None,
                    "after": history.snapshot(line),
                }
            ]
        },
    )
    with pytest.raises(history.UndoError):
        history.undo(forged, by=people["referee"])
    assert OrbatEntry.objects.filter(pk=line.pk).exists()
