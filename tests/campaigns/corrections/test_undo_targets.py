"""``corrections.undo_targets``: the changes a viewer may ask the other side to let undo — the
visible, undoable ones not undone, less those the viewer undoes alone (``undoable_for``) — over
events of every kind the conditions tell apart, for every persona, with and without a referee,
a phase finished or not; and read without a subquery of the user's every change (issue 18)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.access import viewer_for
from campaigns.corrections import services
from campaigns.history import services as history
from campaigns.models import CampaignEvent, Membership, RefitPhase, Role
from tests.campaigns.history.test_undoable_among import UNDO, events_of_every_kind

pytestmark = pytest.mark.django_db


def _events_without_actor(campaign):
    """Imported changes: no user on this server (their actor is NULL)."""
    for visibility in ("public", "german", "soviet"):
        for data in ({"undo": UNDO}, {"undo": UNDO, "referee_only": True}):
            CampaignEvent.objects.create(
                campaign=campaign,
                actor=None,
                action="ledger.added",
                visibility=visibility,
                data=data,
            )


def _expected(viewer):
    """The definition, by sets: visible, not undone, with undo steps, not undoable alone."""
    campaign = viewer.campaign
    candidates = {
        event.pk
        for event in CampaignEvent.objects.filter(campaign=campaign)
        if viewer.can_see(event.visibility)
        and event.undone_at is None
        and isinstance(event.data, dict)
        and "undo" in event.data
    }
    return candidates - set(history.undoable_for(viewer).values_list("pk", flat=True))


SEATS = [
    *((persona, True) for persona in ("german", "soviet", "referee", "observer")),
    *((persona, False) for persona in ("german", "soviet", "observer")),  # without a referee
]


@pytest.mark.parametrize("finished", [False, True])
@pytest.mark.parametrize(("persona", "referee"), SEATS)
def test_undo_targets_are_the_undoable_less_ones_own(campaign, people, persona, referee, finished):
    if not referee:
        Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    events_of_every_kind(campaign, people)
    _events_without_actor(campaign)
    if not finished:
        RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=False).delete()
    assert (history.closed_at(campaign) is not None) == finished
    viewer = viewer_for(people[persona], campaign.pk)
    expected = _expected(viewer)
    got = set(services.undo_targets(viewer).values_list("pk", flat=True))
    assert got == expected
    if persona == "referee":
        assert got == set()  # the referee undoes every one alone
    elif persona == "observer":
        assert got  # an observer undoes none alone: every visible undoable one
    else:
        assert got  # the other player's, the referee-only ones, the finished phase's
        own = set(history.undoable_for(viewer).values_list("pk", flat=True))
        assert own and not own & got


def test_one_change_is_read_by_its_id(campaign, people):
    """Asking for one change reads that change, not a subquery of every change the user made."""
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    events_of_every_kind(campaign, people)
    viewer = viewer_for(people["german"], campaign.pk)
    target = services.undo_targets(viewer).order_by("-id").first()
    assert target is not None
    with CaptureQueriesContext(connection) as queries:
        assert services.undo_targets(viewer).filter(pk=target.pk).first() == target
    reads = [q["sql"] for q in queries if "campaigns_campaignevent" in q["sql"]]
    assert len(reads) == 1 and reads[0].upper().count("SELECT") == 1, reads
