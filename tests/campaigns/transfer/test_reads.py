"""``Reader`` (campaigns/transfer/reads.py): an export's queryset compiled once per shape, run
with new values — it must read what the ORM reads, each time with the values given."""

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from campaigns.models import CampaignEvent, DiceRoll, LedgerEntry, Membership
from campaigns.transfer.reads import Reader
from tests.campaigns.transfer.test_services import big_campaign

pytestmark = pytest.mark.django_db

LEDGER = Reader(
    LedgerEntry,
    lambda campaign, sides, last: (
        LedgerEntry.objects.filter(campaign=campaign, side__in=sides, pk__lte=last)
        .order_by("side", "index", "id")
        .values_list("id", "side", "amount", "created_at", "note_words")
    ),
)


def orm(campaign, sides, last):
    return list(
        LedgerEntry.objects.filter(campaign=campaign, side__in=sides, pk__lte=last)
        .order_by("side", "index", "id")
        .values_list("id", "side", "amount", "created_at", "note_words")
    )


def test_the_rows_are_the_orms_for_each_campaign_side_list_and_limit(people, campaign):
    big = big_campaign(people, rows=60)
    top = LedgerEntry.objects.filter(campaign=big).order_by("-pk").first().pk
    cases = [
        (big.pk, ["german"], top),
        (big.pk, ["soviet"], top),
        (big.pk, ["german", "soviet"], top),
        (big.pk, ["german", "soviet"], top - 10),
        (campaign.pk, ["german", "soviet"], top),
        (big.pk, [], top),
        (big.pk, ["german"], 0),
    ]
    for values in cases * 2:  # the second time from the compiled SQL
        expected = orm(*values)
        assert list(LEDGER(*values, chunk=7)) == expected  # read a few rows at a time
        assert list(LEDGER(*values)) == expected  # all at once
    assert len(orm(big.pk, ["german", "soviet"], top)) > 30
    assert orm(big.pk, ["german"], top) != orm(big.pk, ["soviet"], top)


def test_one_query_run_when_read_and_none_for_an_empty_list(people, campaign):
    rows = LEDGER(campaign.pk, ["german"], 10**9)
    with CaptureQueriesContext(connection) as queries:
        list(LEDGER(campaign.pk, [], 10**9))
    assert len(queries) == 0  # nothing can match: not even asked
    with CaptureQueriesContext(connection) as queries:
        list(rows)
    assert len(queries) == 1


def test_a_value_used_twice_and_what_cannot_be_compiled(people, campaign):
    nameless = Reader(
        CampaignEvent,
        lambda campaign, scopes: CampaignEvent.objects.filter(
            campaign=campaign,
            visibility__in=scopes,
            target_id__in=DiceRoll.objects.filter(
                Q(rolled_by__isnull=True), campaign=campaign, visibility__in=scopes
            ).values("pk"),
        ).values_list("id"),
    )
    assert list(nameless(campaign.pk, ["public"])) == list(
        CampaignEvent.objects.filter(
            campaign=campaign,
            visibility__in=["public"],
            target_id__in=DiceRoll.objects.filter(
                rolled_by__isnull=True, campaign=campaign, visibility__in=["public"]
            ).values("pk"),
        ).values_list("id")
    )
    unused = Reader(Membership, lambda campaign: Membership.objects.values_list("id"))
    with pytest.raises(ValueError):
        list(unused(campaign.pk))
    with pytest.raises(TypeError):
        list(LEDGER(campaign.pk, ["german"], None))
