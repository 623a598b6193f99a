"""The weather, EC and wind a campaign game's SSRs fix, on the calendar from the start
(campaigns.records.conditions; campaigns.state.initialize)."""

import pytest

from campaigns.games.registry import get_module
from campaigns.members import services as members
from campaigns.models import CampaignDay, Role
from campaigns.records.conditions import calendar_fields, initial_conditions
from refit.walker import automatic
from tests.refit.builders import reph_at

RF = get_module("red_factories")
SAP = get_module("slaughter_at_ponyri")


def definition(module, key):
    return module.files["campaign_games"]["campaign_games"][key]


def keys(module, key):
    return [period.key for period in module.campaign_game(key).periods]


# --- pure -------------------------------------------------------------------------------


def test_rb_cg_i_ssr_i_1_clear_moderate_no_wind():
    # SSR I.1 [L639]: 「ECは普通、無風で開始。天候は晴天。」
    assert initial_conditions(definition(RF, "rb-cg-1"), keys(RF, "rb-cg-1")) == {
        0: {"weather": "Clear", "ec": "Moderate", "wind": "No wind"}
    }


@pytest.mark.parametrize(
    ("cg", "weather", "ec"),
    [
        ("rb-cg-1", "Clear", "Moderate"),  # I.1 [L639]
        ("rb-cg-2", "Clear", "Wet"),  # II.1 [L705]
        ("rb-cg-3", "Clear", "Moderate"),  # I.1, the initial scenario of RB CG I (11.53)
        ("rb-cg-4", "Overcast", "Wet"),  # IV.1 [L768]
        ("ro-cg-1", "Clear", "Moderate"),  # I.1 [L824]
        ("ro-cg-2", "Clear", "Wet"),  # II.1 [L873]
        ("ro-cg-3", "Clear", "Wet"),  # III.1 [L916], with Ground Snow
        ("rf-cg-1", "Clear", "Wet"),  # RB II.1 and RO II.1 agree
    ],
)
def test_every_red_factories_cg_fixes_its_first_day(cg, weather, ec):
    fixed = initial_conditions(definition(RF, cg), keys(RF, cg))
    assert set(fixed) == {0}
    assert (fixed[0]["weather"], fixed[0]["ec"], fixed[0]["wind"]) == (weather, ec, "No wind")


def test_ro_cg_iii_notes_its_ground_snow_apart_from_the_weather():
    # SSR III.1 [L916]: Ground Snow (E3.72) is in effect; it is no falling snow for the next
    # day's weather DRM (11.618), so it goes in the notes.
    fixed = initial_conditions(definition(RF, "ro-cg-3"), keys(RF, "ro-cg-3"))
    assert fixed[0]["notes"] == "Ground Snow (E3.72)"
    assert "notes" not in initial_conditions(definition(RF, "rb-cg-1"), keys(RF, "rb-cg-1"))[0]


def test_slaughter_at_ponyri_fixes_ec_and_wind_every_time_frame_and_9_july_overcast():
    # SaP2 [L42] applies to every time frame (CG1 [L407]); CG-5.1 [L754] and CG-6.1 [L778]:
    # Overcast; CG-6.1: EC Wet if it rained in 9 July AM — unknown when the campaign starts.
    fixed = initial_conditions(
        definition(SAP, "timetable-disrupted"), keys(SAP, "timetable-disrupted")
    )
    moderate = {"ec": "Moderate", "wind": "No wind"}
    assert fixed == {
        0: moderate,
        1: moderate,
        2: moderate,
        3: moderate,
        4: {"weather": "Overcast", **moderate},
        5: {"weather": "Overcast", "wind": "No wind"},
    }


def test_map_groups_that_disagree_leave_the_field_empty():
    assert calendar_fields(
        [{"ec": "wet", "wind": "none", "weather": "clear"}, {"ec": "moderate", "wind": "none"}]
    ) == {"wind": "No wind"}


def test_a_keyed_calendar_gets_the_keys_the_rolls_book():
    weather = RF.files["weather"]
    keyed = {"weather_types": weather["types"], "ec_types": weather["ec_types"]}
    fixed = initial_conditions(definition(RF, "rb-cg-1"), keys(RF, "rb-cg-1"), **keyed)
    assert fixed == {0: {"weather": "clear", "ec": "moderate", "wind": "No wind"}}


def test_a_december_first_day_gets_decembers_clear_with_its_ground_snow():
    # RO CG III SSR III.1 [L916]: Clear, Wet, Ground Snow — in December (11.618, L1433) the
    # calendar's type for a Clear day carries the Ground Snow, so no note is needed.
    weather = RF.files["weather"]
    conditions = [{"weather": "clear", "ec": "wet", "wind": "none", "ground_snow": True}]
    fields = calendar_fields(
        conditions, weather_types=weather["types"], ec_types=weather["ec_types"], month=12
    )
    assert fields == {"weather": "clear_ground_snow", "ec": "wet", "wind": "No wind"}
    november = calendar_fields(
        conditions, weather_types=weather["types"], ec_types=weather["ec_types"], month=11
    )
    assert november == {
        "weather": "clear",
        "ec": "wet",
        "wind": "No wind",
        "notes": "Ground Snow (E3.72)",
    }


def test_an_unknown_or_missing_value_is_never_written():
    assert calendar_fields([{"ec": None, "weather": "hail", "wind": "none"}]) == {"wind": "No wind"}
    assert calendar_fields([]) == {}
    assert initial_conditions({}, ["1942-10-17"]) == {}


# --- a new campaign ---------------------------------------------------------------------


def days(campaign):
    return {
        day.index: (day.weather, day.ec, day.wind, day.notes)
        for day in CampaignDay.objects.filter(campaign=campaign)
    }


@pytest.mark.django_db
def test_a_new_rb_cg_i_starts_with_its_first_days_weather_on_the_calendar(campaign):
    # Red Factories keeps its weathers and ECs by key (weather.json); the page words them.
    calendar = days(campaign)
    assert calendar[0] == ("clear", "moderate", "No wind", "")
    assert all(value == ("", "", "", "") for index, value in calendar.items() if index)


@pytest.mark.django_db
def test_the_second_days_weather_and_ec_rolls_need_no_typing(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    for table in ("rf.weather", "rf.ec"):
        plan = automatic.plan(campaign, reph, "soviet", table)
        assert plan.missing == [], table


@pytest.mark.django_db
def test_a_new_slaughter_at_ponyri_campaign_has_every_fixed_time_frame(people):
    campaign = members.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=SAP,
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )
    calendar = days(campaign)
    # Stored by key (SaP's weather.json), worded in the reader's language.
    assert calendar[0] == ("", "moderate", "No wind", "")
    assert calendar[4] == ("overcast", "moderate", "No wind", "")
    assert calendar[5] == ("overcast", "", "No wind", "")
