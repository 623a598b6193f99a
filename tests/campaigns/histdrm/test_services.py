"""Saving the Historical DRM chart: one transaction, versioned, one event per side, undoable."""

import pytest

from campaigns.access import viewer_for
from campaigns.histdrm import services
from campaigns.histdrm.services import Edit, StaleChart, save_chart
from campaigns.history import services as history
from campaigns.models import CampaignEvent, SideDay
from campaigns.state import StateError

pytestmark = pytest.mark.django_db


def value(campaign, index, side):
    return SideDay.objects.get(campaign=campaign, index=index, side=side).hist_drm


def test_it_writes_every_cell_and_bumps_their_versions(campaign, people):
    count = save_chart(
        campaign,
        by=people["referee"],
        edits=[Edit(2, "german", 0, 1), Edit(2, "soviet", 0, -1), Edit(1, "german", 0, None)],
    )
    assert count == 3
    assert (value(campaign, 2, "german"), value(campaign, 2, "soviet")) == (1, -1)
    assert value(campaign, 1, "german") is None
    assert SideDay.objects.get(campaign=campaign, index=2, side="german").version == 1


def test_each_sides_cells_are_one_event_secret_to_that_side(campaign, people):
    save_chart(
        campaign,
        by=people["referee"],
        edits=[Edit(3, "german", 0, 2), Edit(2, "german", 0, 1), Edit(2, "soviet", 0, 0)],
    )
    events = CampaignEvent.objects.filter(action=services.ACTION).order_by("pk")
    assert [
        (e.visibility, e.data["side"], e.data["indexes"], e.data["values"]) for e in events
    ] == [
        ("german", "german", [2, 3], ["+1", "+2"]),
        ("soviet", "soviet", [2], ["0"]),
    ]
    assert history.describe(events[1]) == "Historical DRM chart, Soviet: 19 Oct 1942 0."


def test_a_long_save_names_six_days_and_counts_the_rest(campaign, people):
    save_chart(
        campaign, by=people["referee"], edits=[Edit(i, "german", 0, 0) for i in range(2, 10)]
    )
    event = CampaignEvent.objects.get(action=services.ACTION)
    assert history.describe(event).endswith("24 Oct 1942 0. And 2 more days.")


def test_nothing_to_save_writes_nothing(campaign, people):
    assert save_chart(campaign, by=people["referee"], edits=[]) == 0
    assert not CampaignEvent.objects.filter(action=services.ACTION).exists()


def test_a_stale_row_refuses_the_whole_save(campaign, people):
    save_chart(campaign, by=people["german"], edits=[Edit(4, "german", 0, 2)])
    with pytest.raises(StaleChart) as refused:
        save_chart(
            campaign,
            by=people["referee"],
            edits=[Edit(3, "german", 0, 1), Edit(4, "german", 0, -1)],
        )
    assert refused.value.saved == {(4, "german"): 2}
    assert value(campaign, 3, "german") is None  # the fresh cell was not written either
    assert value(campaign, 4, "german") == 2
    assert CampaignEvent.objects.filter(action=services.ACTION).count() == 1


@pytest.mark.parametrize(
    "edit",
    [
        Edit(13, "german", 0, 1),  # RB CG I has 13 days: 0–12
        Edit(-1, "german", 0, 1),
        Edit(2, "russian", 0, 1),
        Edit(2, "german", 0, 10),
        Edit(2, "german", 0, -10),
    ],
)
def test_a_day_side_or_value_the_chart_cannot_hold_is_refused(campaign, people, edit):
    with pytest.raises(StateError):
        save_chart(campaign, by=people["referee"], edits=[edit])
    assert not CampaignEvent.objects.filter(action=services.ACTION).exists()


def test_the_limits_themselves_are_accepted(campaign, people):
    save_chart(
        campaign, by=people["referee"], edits=[Edit(2, "german", 0, 9), Edit(3, "german", 0, -9)]
    )
    assert (value(campaign, 2, "german"), value(campaign, 3, "german")) == (9, -9)


def test_undo_puts_back_every_cell_of_the_event(campaign, people):
    save_chart(
        campaign,
        by=people["referee"],
        edits=[Edit(1, "german", 0, 0), Edit(2, "german", 0, 1)],
    )
    event = CampaignEvent.objects.get(action=services.ACTION)
    history.undo(event, by=people["referee"])
    assert (value(campaign, 1, "german"), value(campaign, 2, "german")) == (-2, None)


def test_undo_waits_for_a_later_change_of_the_same_cell(campaign, people):
    save_chart(campaign, by=people["referee"], edits=[Edit(2, "german", 0, 1)])
    first = CampaignEvent.objects.get(action=services.ACTION)
    save_chart(campaign, by=people["referee"], edits=[Edit(2, "german", 1, 2)])
    with pytest.raises(history.UndoError):
        history.undo(first, by=people["referee"])
    assert value(campaign, 2, "german") == 2


def test_the_player_who_saved_may_undo_it_and_the_opponent_cannot_even_see_it(campaign, people):
    save_chart(campaign, by=people["german"], edits=[Edit(2, "german", 0, 1)])
    viewer = viewer_for(people["german"], campaign.pk)
    assert history.undoable_for(viewer).filter(action=services.ACTION).count() == 1
    soviet = viewer_for(people["soviet"], campaign.pk)
    assert not history.undoable_for(soviet).filter(action=services.ACTION).exists()
