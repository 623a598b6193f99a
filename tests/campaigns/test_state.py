"""The shared core of campaign state: the state a campaign starts with from its campaign game,
and the versioned save every editable row goes through."""

import pytest

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import (
    CampaignDay,
    FortificationPurchase,
    LedgerEntry,
    OrbatEntry,
    ReinforcementGroup,
    Role,
    SideDay,
)
from campaigns.records import services as records
from campaigns.state import StaleEdit

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
    # The initial OB's 5 Fortified Building Locations (RB CG I) sit in the fortification box and
    # on the Fortification Purchase Record, given (no FPP) and to be set up.
    assert retained == {
        ("retained", "45LL AT", 2),
        ("retained", "2-2-8", 2),
        ("fortifications", "Fortified Building Location", 5),
    }
    (buildings,) = FortificationPurchase.objects.filter(campaign=campaign)
    assert (buildings.side, buildings.item, buildings.quantity, buildings.fpp) == (
        "soviet",
        "fortified-building",
        5,
        0,
    )
    assert buildings.details == {"initial": True} and buildings.ledger_entry is None


@pytest.mark.parametrize(
    ("module", "cg", "side", "expected"),
    [
        ("red_factories", "rb-cg-2", "soviet", {"soviet": 20, "german": 5}),
        ("slaughter_at_ponyri", "timetable-disrupted", "german", {"russian": 8}),
    ],
)
def test_the_initial_obs_fortified_building_locations_are_given_to_each_side(
    people, module, cg, side, expected
):
    # RB CG II: Soviet 20, German 5 (11.52); SaP: Russian 8 (seed 004 L594).
    from campaigns.games.registry import get_module
    from campaigns.members import services as members
    from campaigns.state import initial_fortified_buildings

    campaign = members.create_campaign(
        user=people["german"],
        name="Another",
        module=get_module(module),
        cg_key=cg,
        role=Role.PLAYER,
        side=side,
    )
    given = dict(
        FortificationPurchase.objects.filter(campaign=campaign, details__initial=True).values_list(
            "side", "quantity"
        )
    )
    assert given == expected
    assert {s: initial_fortified_buildings(campaign, s) for s in expected} == expected
    fortification_box = dict(
        OrbatEntry.objects.filter(campaign=campaign, box="fortifications", kind="fortification")
        .filter(unit_type="Fortified Building Location")
        .values_list("side", "quantity")
    )
    assert fortification_box == expected


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


def test_a_stale_edit_is_refused_and_loses_nothing(campaign, people):
    day = CampaignDay.objects.get(campaign=campaign, index=1)
    records.update_day(campaign, day, by=people["german"], version=0, weather="Overcast")
    stale = CampaignDay.objects.get(pk=day.pk)
    stale.version = 0
    with pytest.raises(StaleEdit):
        records.update_day(campaign, stale, by=people["soviet"], version=0, weather="Clear")
    assert CampaignDay.objects.get(pk=day.pk).weather == "Overcast"
