"""Rolls with the DRMs the campaign state gives, their results booked where they belong."""

import pytest

from campaigns.dice import services as dice
from campaigns.games.registry import get_module
from campaigns.members import services as members
from campaigns.models import CampaignDay, DiceRoll, LedgerEntry, Role, SideDay
from campaigns.records import services as records
from campaigns.roster import services as roster
from campaigns.roster.ledger import Movement, cpp_days
from campaigns.roster.rows import roster_rows
from refit.walker import automatic
from refit.walker import services as walker
from tests.campaigns.dice.test_services import Loaded
from tests.refit.builders import mark_past, reph_at
from tests.seats import join as join_seat

pytestmark = pytest.mark.django_db


def german_cpp(campaign):
    rows = LedgerEntry.objects.filter(campaign=campaign, side="german", ledger="cpp")
    return cpp_days(13, [Movement(r.index, r.kind, r.amount, r.rg) for r in rows])


def walk_to(campaign, reph, people, rule):
    """Both sides past every step before ``rule``: a side rolls on its current step only."""
    marked = {(mark.side, mark.rule) for mark in reph.progress.all()}
    for step in walker.steps(campaign, reph):
        if step.rule == rule:
            return
        for side in ("german", "soviet"):
            if (side, step.rule) not in marked:
                mark_past(campaign, reph, side, step.rule, people)


def roll(campaign, reph, side, table, people, answers=None, step="11.616"):
    walk_to(campaign, reph, people, step)
    return automatic.roll(
        campaign,
        reph,
        side=side,
        step=step,
        table_id=table,
        answers=answers or {},
        by=people[side],
    )


def drms(dice_roll):
    return sorted((m["value"], m["reason"]) for m in dice_roll.modifiers)


def test_the_rules_example_on_18_oct(campaign, people):
    # 11.6162: German Original DR 10 on 18 Oct, Historical DRM −2, 44 CVP lost on 17 Oct → −2.
    # The rule also gives +1 for the Attack chit deemed used on the first day (11.5), which the
    # example leaves out: final 7 → +15 CPP (the example, without it: 6 → +16).
    for what, cvp in (("11 × 4-6-7", 22), ("Pz III L (wreck)", 22)):
        records.add_cvp(
            campaign,
            by=people["referee"],
            side="german",
            index=0,
            phase="scenario",
            what=what,
            cvp=cvp,
        )
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="rg_purchase",
        amount=-13,
        rg="I1",
    )
    reph = reph_at(campaign, "new_day", 1)
    with dice.use_roller(Loaded(4, 6)):
        rolled = roll(campaign, reph, "german", automatic.CPP_TABLE, people)
    assert drms(rolled.roll) == [
        (-2, "44 CVP suffered"),
        (-2, "Historical DRM (11.6161)"),
        (1, "Attack chit on the previous CG day"),
    ]
    assert (rolled.roll.original, rolled.roll.final, rolled.roll.result) == (10, 7, {"cpp": 15})
    assert (rolled.roll.visibility, rolled.roll.side) == ("german", "german")
    assert "15 CPP" in rolled.booked
    day = german_cpp(campaign)[1]
    assert (day.start, day.repl, day.total) == (2, 15, 17)


def test_an_unknown_historical_drm_stops_the_roll_before_anything_is_rolled(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    with pytest.raises(automatic.AutomaticRollError, match="Historical DRM"):
        roll(campaign, reph, "soviet", automatic.CPP_TABLE, people)
    assert not DiceRoll.objects.exists()
    SideDay.objects.filter(campaign=campaign, index=1, side="soviet").update(hist_drm=0)
    plan = automatic.plan(campaign, reph, "soviet", automatic.CPP_TABLE)
    assert plan.shown() == [] and not plan.missing and not plan.refused


def test_it_is_rolled_once_and_a_second_try_is_refused(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    with dice.use_roller(3):
        roll(campaign, reph, "german", automatic.CPP_TABLE, people)
    with pytest.raises(automatic.AutomaticRollError, match="Already rolled"):
        roll(campaign, reph, "german", automatic.CPP_TABLE, people)
    assert DiceRoll.objects.count() == 1


def test_a_void_roll_may_be_rolled_again(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    with dice.use_roller(3):
        first = roll(campaign, reph, "german", automatic.CPP_TABLE, people)
    dice.void(first.roll, by=people["referee"], reason="rolled for the wrong day")
    # The booking is still there: it must be undone too before a new roll books again.
    with pytest.raises(automatic.AutomaticRollError, match="already booked"):
        roll(campaign, reph, "german", automatic.CPP_TABLE, people)
    walker.undo_effects(campaign, reph, side="german", rule="11.616", by=people["german"])
    with dice.use_roller(4):
        roll(campaign, reph, "german", automatic.CPP_TABLE, people)
    assert LedgerEntry.objects.filter(kind="replenishment", side="german").count() == 1


def test_there_is_none_on_the_first_day(campaign, people):
    reph = walker.open_reph(campaign)
    plan = automatic.plan(campaign, reph, "german", automatic.CPP_TABLE)
    assert "first CG day" in plan.refused


def test_a_losing_side_gets_the_balance_drm_and_its_own_chit(campaign, people):
    for index in range(3):
        records.save_scenario(
            campaign, by=people["referee"], index=index, scenario_type="assault", winner="soviet"
        )
    SideDay.objects.filter(campaign=campaign, index=3, side="german").update(hist_drm=0)
    SideDay.objects.filter(campaign=campaign, index=2, side="german").update(
        initiative_chit="attack"
    )
    reph = reph_at(campaign, "new_day", 3)
    plan = automatic.plan(campaign, reph, "german", automatic.CPP_TABLE)
    assert sorted(plan.shown()) == [
        (-1, "CG Scenario Balance (11.32)"),
        (1, "Attack chit on the previous CG day"),
    ]


def test_undoing_the_steps_effects_keeps_the_roll_and_books_it_again(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    with dice.use_roller(Loaded(2, 3)):
        rolled = roll(campaign, reph, "german", automatic.CPP_TABLE, people)
    assert walker.undo_effects(campaign, reph, side="german", rule="11.616", by=people["german"])
    assert not LedgerEntry.objects.filter(kind="replenishment").exists()
    plan = automatic.plan(campaign, reph, "german", automatic.CPP_TABLE)
    assert plan.refused and plan.unbooked == rolled.roll  # no new roll: the same one, rebooked
    again = automatic.book_again(
        campaign,
        reph,
        side="german",
        step="11.616",
        table_id=automatic.CPP_TABLE,
        by=people["german"],
    )
    assert again.roll == rolled.roll
    entry = LedgerEntry.objects.get(kind="replenishment")
    assert entry.amount == rolled.roll.result["cpp"]
    with pytest.raises(automatic.AutomaticRollError, match="no unbooked roll"):
        automatic.book_again(
            campaign,
            reph,
            side="german",
            step="11.616",
            table_id=automatic.CPP_TABLE,
            by=people["german"],
        )


# --- ELR (11.617) ----------------------------------------------------------------------


def test_the_elr_roll_changes_the_roster_within_its_limits(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    SideDay.objects.filter(campaign=campaign, index=1, side="german").update(elr=4, hist_drm=0)
    # German: Attack chit deemed on day 1 (+1); DR 1+1 = 2 +1 = 3 → no change.
    with dice.use_roller(Loaded(1, 1)):
        rolled = roll(campaign, reph, "german", "rf.elr-change", people, step="11.617")
    assert rolled.roll.final == 3
    assert SideDay.objects.get(campaign=campaign, index=1, side="german").elr == 4


def test_elr_rises_to_at_most_four_and_drops_to_at_least_zero(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=1).update(elr=4, hist_drm=-5)
    reph = reph_at(campaign, "new_day", 1)
    with dice.use_roller(Loaded(1, 1)):  # 2 −5 +1 (chit) = −2 → ELR +1, held at 4
        roll(campaign, reph, "german", "rf.elr-change", people, step="11.617")
    assert SideDay.objects.get(campaign=campaign, index=1, side="german").elr == 4
    SideDay.objects.filter(campaign=campaign, index=1, side="soviet").update(elr=0, hist_drm=5)
    with dice.use_roller(Loaded(6, 6)):  # 12 +5 = 17 → ELR −1, held at 0
        roll(campaign, reph, "soviet", "rf.elr-change", people, step="11.617")
    assert SideDay.objects.get(campaign=campaign, index=1, side="soviet").elr == 0


def test_idle_days_and_scenarios_count_for_the_elr(campaign, people):
    reph_at(campaign, "scenario", 0)
    reph_at(campaign, "after_scenario", 0)
    reph_at(campaign, "new_day", 1)
    reph = reph_at(campaign, "new_day", 2, outcome={"scenario_generated": False})
    SideDay.objects.filter(campaign=campaign, index=2).update(elr=3, hist_drm=0)
    plan = automatic.plan(campaign, reph, "soviet", "rf.elr-change")
    # Day 1 was an Idle Day: −2, and no scenario since it.
    assert plan.shown() == [(-2, "Idle Days since the last scenario × 1")]


def test_the_elr_needs_the_days_elr_on_the_roster(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    SideDay.objects.filter(campaign=campaign, index=1).update(elr=None, hist_drm=0)
    plan = automatic.plan(campaign, reph, "soviet", "rf.elr-change")
    assert "ELR" in plan.refused


# --- SAN (11.6122) ---------------------------------------------------------------------


def test_only_a_side_with_san_4_or_more_rolls_and_san_drops_on_5_or_more(campaign, people):
    reph = reph_at(campaign, "new_day", 1)
    SideDay.objects.filter(campaign=campaign, index=1, side="german").update(san=3)
    plan = automatic.plan(campaign, reph, "german", "rf.san-adjustment")
    assert "SAN is 4 or more" in plan.refused
    SideDay.objects.filter(campaign=campaign, index=1, side="soviet").update(san=6)
    with dice.use_roller(Loaded(3)):  # 3 + (6 − 4) = 5 → SAN −1
        rolled = roll(campaign, reph, "soviet", "rf.san-adjustment", people, step="11.612")
    assert [(m["value"], m["reason"]) for m in rolled.roll.modifiers] == [(2, "Current SAN − 4")]
    assert SideDay.objects.get(campaign=campaign, index=1, side="soviet").san == 5


# --- weather and EC (11.618) -----------------------------------------------------------


def test_the_soviet_rolls_the_weather_with_the_previous_days_drms(campaign, people):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="Overcast", ec="Dry")
    reph = reph_at(campaign, "new_day", 1)
    plan = automatic.plan(campaign, reph, "german", "rf.weather")
    assert "Soviet player rolls" in plan.refused
    with dice.use_roller(Loaded(4, 4)):  # 8 −1 (Overcast yesterday) = 7 → Clear
        roll(campaign, reph, "soviet", "rf.weather", people, step="11.618")
    with dice.use_roller(Loaded(5)):  # 5 −3 (Overcast) +1 (Dry) = 3 → Moist
        roll(campaign, reph, "soviet", "rf.ec", people, step="11.618")
    day = CampaignDay.objects.get(campaign=campaign, index=1)
    # Weather and EC are stored as keys ("Overcast", "Dry" above are older, typed words: each
    # read as its key).
    assert (day.weather, day.ec) == ("clear", "moist")
    plan = automatic.plan(campaign, reph, "soviet", "rf.weather")
    assert plan.refused  # once per day


@pytest.fixture
def december(people):
    """RO CG III (15–30 Dec 1942) with the Soviet player: December weather (11.618)."""
    campaign = members.create_campaign(
        user=people["german"],
        name="Winter on the Volga",
        module=get_module("red_factories"),
        cg_key="ro-cg-3",
        role=Role.PLAYER,
        side="german",
    )
    invitation = members.create_invitation(
        campaign, by=people["german"], role=Role.PLAYER, side="soviet"
    )
    join_seat(invitation, people["soviet"])
    # The referee walks past the steps whose rolls these tests do not make (issue 15).
    referee = members.create_invitation(campaign, by=people["german"], role=Role.REFEREE, side="")
    join_seat(referee, people["referee"])
    return campaign


WEATHER = "rf.weather"


def weather_drms(campaign, reph):
    return sorted((d.id, d.value) for d in automatic.plan(campaign, reph, "soviet", WEATHER).drms)


def test_december_weather_is_booked_as_data_and_only_falling_snow_gives_its_drm(december, people):
    # Day 1 (15 Dec) was Clear; in December Ground Snow is always in effect (L1433), which is
    # no Falling Snow: only the December −1 (an earlier version read any "snow" as −1 more).
    CampaignDay.objects.filter(campaign=december, index=0).update(weather="clear_ground_snow")
    reph = reph_at(december, "new_day", 1)
    assert weather_drms(december, reph) == [("december", -1)]
    with dice.use_roller(Loaded(2, 2)):  # 4 − 1 = 3 → Overcast: Falling Snow only possible
        roll(december, reph, "soviet", WEATHER, people, step="11.618")
    day = CampaignDay.objects.get(campaign=december, index=1)
    assert (day.weather, day.ec) == ("overcast_falling_snow_possible", "wet")

    # After Overcast with Falling Snow possible: −1 December −1 Overcast, no snow −1 (L1437).
    reph = reph_at(december, "new_day", 2)
    assert weather_drms(december, reph) == [("december", -1), ("prev-overcast", -1)]
    with dice.use_roller(Loaded(2, 2)):  # 4 − 2 = 2 → Mist: Overcast with Falling Snow (L1435)
        roll(december, reph, "soviet", WEATHER, people, step="11.618")
    assert CampaignDay.objects.get(campaign=december, index=2).weather == "overcast_falling_snow"

    # After a day with Falling Snow: all three (L1441–L1443), −3.
    reph = reph_at(december, "new_day", 3)
    assert weather_drms(december, reph) == [
        ("december", -1),
        ("prev-overcast", -1),
        ("prev-snow", -1),
    ]


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Clear; Ground Snow", [("december", -1)]),
        (
            "Overcast (Falling Snow possible); Ground Snow",
            [("december", -1), ("prev-overcast", -1)],
        ),
        (
            "Overcast, Falling Snow; Ground Snow",
            [("december", -1), ("prev-overcast", -1), ("prev-snow", -1)],
        ),
    ],
)
def test_weather_an_earlier_version_booked_in_words_is_read_as_its_key(
    december, people, written, expected
):
    CampaignDay.objects.filter(campaign=december, index=0).update(weather=written)
    assert weather_drms(december, reph_at(december, "new_day", 1)) == expected


def test_words_that_name_no_weather_wait_for_the_calendar(december, people):
    # "snow" is no weather of the table: never read from a word inside the text.
    CampaignDay.objects.filter(campaign=december, index=0).update(weather="some snow")
    plan = automatic.plan(december, reph_at(december, "new_day", 1), "soviet", WEATHER)
    assert any("weather" in text for text in plan.missing)


def test_the_previous_days_weather_must_be_known(campaign, people):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="", ec="")
    reph = reph_at(campaign, "new_day", 1)
    plan = automatic.plan(campaign, reph, "soviet", "rf.weather")
    assert any("weather" in text for text in plan.missing)


# --- recon (11.622) --------------------------------------------------------------------


def test_recon_is_paid_in_cpp_and_two_cpp_give_plus_three(campaign, people):
    reph = walker.open_reph(campaign)  # before the initial scenario: 13 German CPP
    with dice.use_roller(Loaded(2)):
        rolled = roll(
            campaign,
            reph,
            "german",
            "rf.recon",
            people,
            step="11.622",
            answers={"two-cpp": True},
        )
    assert rolled.roll.final == 5 and rolled.roll.result == {"locations": 5}
    entry = LedgerEntry.objects.get(kind="recon", side="german")
    assert entry.amount == -2
    # The payment keeps the Locations the dr gave: the CG Roster's Recon column (11.622).
    assert entry.locations == 5
    day = roster_rows(campaign, "german")[reph.index].cpp
    assert (day.recon, day.recon_cpp, day.left) == (5, 2, day.total - day.spent - 2)
