"""The seat every page reads first (``access._seat``) is the ORM's query, compiled once: it must
read exactly what the ORM reads, for every member, a pending seat and a revealed campaign."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import access
from campaigns.models import Campaign, Membership, Role


def seat_fields(membership):
    return (
        {f.attname: getattr(membership, f.attname) for f in Membership._meta.concrete_fields},
        {
            f.attname: getattr(membership.campaign, f.attname)
            for f in Campaign._meta.concrete_fields
        },
        membership.campaign_has_referee,
    )


def check_same(campaign, user):
    expected = access._seat_queryset(campaign.pk, user.pk).first()
    got = access._seat(user.pk, campaign.pk)
    assert (got is None) == (expected is None)
    if expected is not None:
        assert seat_fields(got) == seat_fields(expected)
        assert not got._state.adding and got.campaign._state.db == "default"
        assert type(got.campaign_has_referee) is bool
    return got


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer", "outsider"])
def test_the_seat_reads_what_the_orm_reads(campaign, people, persona):
    got = check_same(campaign, people[persona])
    assert (got is None) == (persona == "outsider")


@pytest.mark.django_db
def test_a_revealed_campaign_without_referee_and_a_pending_seat(campaign, people):
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    Campaign.objects.filter(pk=campaign.pk).update(
        revealed_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), reveal_consents={"german": 1}
    )
    Membership.objects.filter(campaign=campaign, user=people["observer"]).update(
        requested_role=Role.PLAYER,
        requested_side="soviet",
        requested_at=datetime(2026, 1, 2, tzinfo=UTC),
        consents={"soviet": [people["soviet"].pk]},
    )
    for persona in ("german", "observer"):
        got = check_same(campaign, people[persona])
        assert got.campaign.revealed_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
        assert got.campaign_has_referee is False


@pytest.mark.django_db
def test_the_seat_is_one_query_of_this_campaign_and_user(campaign, people):
    with CaptureQueriesContext(connection) as queries:
        viewer = access.viewer_or_none(people["soviet"], campaign.pk)
        assert viewer.side == "soviet" and viewer.campaign.pk == campaign.pk
        assert viewer.campaign_has_referee
        assert viewer.campaign.game.side_keys  # the campaign came with the seat
    assert len(queries) == 1
    assert access.viewer_or_none(people["soviet"], campaign.pk + 1000) is None
