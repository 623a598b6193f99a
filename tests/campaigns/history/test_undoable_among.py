"""The history page reads which of its rows may be undone from the rows it loaded
(history.undoable_among): the same answer as the query ``undoable_for(viewer, among=…)`` for
every persona, over events of every kind the conditions tell apart."""

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.models import CampaignEvent, RefitPhase

pytestmark = pytest.mark.django_db

UNDO = [{"model": "campaigns.ledgerentry", "pk": 0, "before": None, "after": None}]


def events_of_every_kind(campaign, people):
    now = timezone.now()
    finished = now - timedelta(hours=1)
    RefitPhase.objects.create(campaign=campaign, kind="reph", index=1, finished_at=finished)
    kinds = itertools.product(
        ("german", "soviet", "referee"),  # the actor
        ("public", "german", "soviet", "referee"),  # who may read it
        (
            {},
            {"undo": UNDO},
            {"undo": UNDO, "referee_only": True},
            {"undo": UNDO, "referee_only": False},
        ),
        (False, True),  # undone
        (finished - timedelta(minutes=5), finished + timedelta(minutes=5)),  # phase finished or not
    )
    for actor, visibility, data, undone, at in kinds:
        event = CampaignEvent.objects.create(
            campaign=campaign,
            actor=people[actor],
            action="ledger.added",
            visibility=visibility,
            data=data,
            undone_at=now if undone else None,
        )
        CampaignEvent.objects.filter(pk=event.pk).update(created_at=at)


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_undoable_among_the_loaded_rows_is_undoable_for(campaign, people, persona):
    events_of_every_kind(campaign, people)
    viewer = viewer_for(people[persona], campaign.pk)
    loaded = list(viewer.filter_visible(CampaignEvent.objects.filter(campaign=campaign)))
    closed = history.closed_at(campaign)
    assert closed is not None
    expected = set(
        history.undoable_for(viewer, among=[e.pk for e in loaded]).values_list("pk", flat=True)
    )
    assert history.undoable_among(viewer, loaded, closed) == expected
    if persona == "observer":
        assert expected == set()
    else:
        assert expected  # the comparison is about something


def test_closed_at_is_the_last_finished_phase(campaign):
    assert history.closed_at(campaign) is None
    now = timezone.now()
    for hours in (3, 1, 2):
        RefitPhase.objects.create(
            campaign=campaign, kind="reph", index=1, finished_at=now - timedelta(hours=hours)
        )
    assert history.closed_at(campaign) == now - timedelta(hours=1)
