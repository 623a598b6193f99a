"""A new CG day (RF) or time frame (SaP) starts with the ELR and SAN the previous one ended with
(refit.walker.carry, called when services.finish opens the new day's RePh)."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import CampaignEvent, SideDay
from campaigns.roster import services as roster
from refit.walker import automatic
from refit.walker import services as walker
from tests.campaigns.dice.test_services import Loaded
from tests.refit.builders import finish_phase
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def ratings(campaign, index):
    return {
        row.side: (row.elr, row.san)
        for row in SideDay.objects.filter(campaign=campaign, index=index)
    }


def to_first_new_day(campaign, people):
    """RB CG I from its creation to the new-day steps of 18 Oct (CG day 1)."""
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    walk_all(campaign, after, people)
    return after


def carried_events(campaign):
    return CampaignEvent.objects.filter(campaign=campaign, action="side_day.carried")


def test_the_new_day_starts_with_the_first_days_elr_and_san(campaign, people):
    # RB CG I's initial OB: Soviet ELR 3 / SAN 4, German ELR 4 / SAN 3 (L620, L628).
    assert ratings(campaign, 1) == {"german": (None, None), "soviet": (None, None)}
    after = to_first_new_day(campaign, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    assert (new_day.kind, new_day.index) == ("new_day", 1)
    assert ratings(campaign, 1) == {"german": (4, 3), "soviet": (3, 4)}
    # Nothing is carried before the new day begins, nor into the day after.
    assert ratings(campaign, 2) == {"german": (None, None), "soviet": (None, None)}


def test_the_san_and_elr_rolls_are_no_longer_blocked(campaign, people):
    after = to_first_new_day(campaign, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    SideDay.objects.filter(campaign=campaign, index=1).update(hist_drm=0)
    san = automatic.plan(campaign, new_day, "soviet", "rf.san-adjustment")
    elr = automatic.plan(campaign, new_day, "soviet", "rf.elr-change")
    assert (san.refused, san.missing) == ("", [])
    assert (elr.refused, elr.missing) == ("", [])
    with dice.use_roller(Loaded(3)):  # 3 + (4 − 4) = 3 → no change
        automatic.roll(
            campaign,
            new_day,
            side="soviet",
            step="11.612",
            table_id="rf.san-adjustment",
            answers={},
            by=people["soviet"],
        )
    assert ratings(campaign, 1)["soviet"] == (3, 4)


def test_the_day_after_starts_with_what_the_previous_day_changed(campaign, people):
    after = to_first_new_day(campaign, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    # 18 Oct's changes: the Soviet SAN dropped to 3 (11.6122), the German ELR to 3 (11.617).
    for side, fields in (("soviet", {"san": 3}), ("german", {"elr": 3})):
        row = SideDay.objects.get(campaign=campaign, index=1, side=side)
        roster.update_side_day(campaign, row, by=people["referee"], version=row.version, **fields)
    walk_all(campaign, new_day, people)
    idle = finish_phase(campaign, new_day, by=people["referee"], scenario_generated=False)
    assert (idle.kind, idle.index) == ("new_day", 2)
    assert ratings(campaign, 2) == {"german": (3, 3), "soviet": (3, 3)}


def test_a_value_a_player_already_entered_is_not_overwritten(campaign, people):
    row = SideDay.objects.get(campaign=campaign, index=1, side="soviet")
    roster.update_side_day(campaign, row, by=people["soviet"], version=row.version, san=5)
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["referee"])
    assert ratings(campaign, 1)["soviet"] == (3, 5)
    (event,) = carried_events(campaign).filter(data__side="soviet")
    assert (event.data["elr"], "san" in event.data) == (3, False)


def test_nothing_is_recorded_when_both_values_are_already_there(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=1).update(elr=2, san=2)
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["referee"])
    assert ratings(campaign, 1) == {"german": (2, 2), "soviet": (2, 2)}
    assert not carried_events(campaign).exists()


def test_a_san_of_0_is_raised_to_2_on_the_new_day(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=0, side="german").update(san=0)
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["referee"])
    assert ratings(campaign, 1)["german"] == (4, 2)
    (event,) = carried_events(campaign).filter(data__side="german")
    assert history.describe(event) == (
        "German ELR 4 and SAN 2 carried into 18 Oct 1942. SAN 0 rises to 2 (11.6122)."
    )


def test_a_san_of_1_is_carried_as_it_is(campaign, people):
    SideDay.objects.filter(campaign=campaign, index=0, side="german").update(san=1)
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["referee"])
    assert ratings(campaign, 1)["german"] == (4, 1)
    (event,) = carried_events(campaign).filter(data__side="german")
    assert "san_was" not in event.data


def test_each_sides_carry_is_its_own_secret(campaign, people, client_as):
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["referee"])
    events = {event.data["side"]: event for event in carried_events(campaign)}
    assert {side: event.visibility for side, event in events.items()} == {
        "german": "german",
        "soviet": "soviet",
    }
    german = viewer_for(people["german"], campaign.pk)
    visible = german.filter_visible(carried_events(campaign))
    assert [event.data["side"] for event in visible] == ["german"]
    page = reverse("campaigns:history", args=[campaign.pk])
    html = client_as("german").get(page).content.decode()
    assert "German ELR 4 and SAN 3 carried into 18 Oct 1942." in html
    assert "Soviet ELR" not in html and "Soviet SAN" not in html
    html = client_as("observer").get(page).content.decode()
    assert "carried into" not in html
    html = client_as("referee").get(page).content.decode()
    assert "Soviet ELR 3 and SAN 4 carried into 18 Oct 1942." in html


def test_the_carry_can_be_undone_from_the_history(campaign, people):
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["referee"])
    event = carried_events(campaign).get(data__side="soviet")
    referee = viewer_for(people["referee"], campaign.pk)
    assert history.undoable_for(referee, among=[event.pk]).exists()
    history.undo(event, by=people["referee"])
    assert ratings(campaign, 1) == {"german": (4, 3), "soviet": (None, None)}
    # The player may write the day's values on the roster again.
    row = SideDay.objects.get(campaign=campaign, index=1, side="soviet")
    roster.update_side_day(campaign, row, by=people["soviet"], version=row.version, elr=2, san=3)
    assert ratings(campaign, 1)["soviet"] == (2, 3)


def test_an_opponent_cannot_undo_a_sides_carry(campaign, people):
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["german"])
    event = carried_events(campaign).get(data__side="soviet")
    german = viewer_for(people["german"], campaign.pk)
    assert not history.undoable_for(german, among=[event.pk]).exists()


def test_a_slaughter_at_ponyri_time_frame_starts_with_the_previous_ones(sap_campaign, people):
    campaign = sap_campaign
    # A Timetable Disrupted: Russian ELR 3 / SAN 4, German ELR 4 / SAN 3 (L586, L604).
    assert ratings(campaign, 0) == {"german": (4, 3), "russian": (3, 4)}
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, {**people, "russian": people["soviet"]}, sides=("german", "russian"))
    SideDay.objects.filter(campaign=campaign, index=0, side="russian").update(san=0)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    daytime = finish_phase(campaign, scenario, by=people["referee"])
    assert (daytime.kind, daytime.index) == ("daytime", 1)
    assert ratings(campaign, 1) == {"german": (4, 3), "russian": (3, 2)}  # SaP 11.6122


def test_a_san_typed_as_0_on_the_new_day_is_left_and_the_step_says_what_to_write(campaign, people):
    after = to_first_new_day(campaign, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    row = SideDay.objects.get(campaign=campaign, index=1, side="german")
    roster.update_side_day(campaign, row, by=people["german"], version=row.version, san=0)
    plan = automatic.plan(campaign, new_day, "german", "rf.san-adjustment")
    assert plan.refused == (
        "A SAN of 0 rises to 2 without a roll (11.6122): write 2 on the roster."
    )
    assert ratings(campaign, 1)["german"] == (4, 0)


def test_the_carry_reads_in_japanese(campaign, people):
    after = to_first_new_day(campaign, people)
    finish_phase(campaign, after, by=people["referee"])
    event = carried_events(campaign).get(data__side="soviet")
    with translation.override("ja"):
        assert history.describe(event) == "ソ連軍のELR 3とSAN 4を1942年10月18日に引き継ぎました。"
