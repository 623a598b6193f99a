"""Changes to the public records: CVP entries and scenarios, and undoing them."""

import pytest

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.records import services as records

pytestmark = pytest.mark.django_db


def test_undo_twice_is_refused(campaign, people):
    entry = records.add_cvp(
        campaign, by=people["soviet"], side="german", index=0, phase="scenario", what="4-6-7", cvp=2
    )
    event = campaign.events.get(action="cvp.added")
    history.undo(event, by=people["soviet"])
    assert not type(entry).objects.filter(pk=entry.pk).exists()
    with pytest.raises(history.UndoError, match="already undone"):
        history.undo(event, by=people["soviet"])


def test_a_scenario_with_cvp_entries_cannot_be_undone_under_them(campaign, people):
    scenario = records.save_scenario(
        campaign, by=people["referee"], index=0, scenario_type="initial"
    )
    records.add_cvp(
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
    records.add_cvp(
        campaign,
        by=people["observer"],
        side="german",
        index=0,
        phase="scenario",
        what="4-6-7",
        cvp=2,
    )
    assert not history.undoable_for(viewer_for(people["observer"], campaign.pk)).exists()
