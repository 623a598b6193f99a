"""``CompiledQuery`` (campaigns/compiled.py): the queryset's SQL compiled once, run with new
values — it must read what the ORM reads, each time with the values given."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.compiled import CompiledQuery
from campaigns.models import Membership, Role
from campaigns.views import _members

pytestmark = pytest.mark.django_db


def seen(members):
    return [
        (m.pk, m.campaign_id, m.user.username, m.role, m.side, m.joined_at, m.consents)
        for m in members
    ]


def test_the_members_are_the_orms_for_each_campaign(campaign, people):
    from tests.conftest import red_factories_campaign

    other = red_factories_campaign(people, "rb-cg-2", "Another")
    Membership.objects.filter(campaign=other, role=Role.OBSERVER).delete()
    for each in (campaign, other, campaign):
        expected = seen(each.memberships.select_related("user"))
        with CaptureQueriesContext(connection) as queries:
            got = seen(_members(each.pk))
        assert got == expected and len(got) >= 3
        assert len(queries) == 1  # the users came with them
    assert seen(_members(other.pk)) != seen(_members(campaign.pk))
    assert _members(10**9) == []


def test_several_values_and_what_cannot_be_compiled(campaign, people):
    by_role = CompiledQuery(
        lambda campaign_id, user_id: Membership.objects.filter(
            campaign_id=campaign_id, user_id=user_id
        ),
        2,
    )
    for persona in ("german", "referee"):
        (got,) = by_role(campaign.pk, people[persona].pk)
        assert got == Membership.objects.get(campaign=campaign, user=people[persona])
    with pytest.raises(TypeError):
        by_role(campaign.pk)
    unused = CompiledQuery(lambda campaign_id: Membership.objects.all(), 1)
    with pytest.raises(ValueError):
        unused(campaign.pk)
