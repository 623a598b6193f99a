"""The RG Purchase Record's #P counted by the database, and its rows made a page at a time."""

import random
from collections import Counter

import pytest
from django.utils import translation

from campaigns.models import ReinforcementGroup
from refit.purchases.records import counted_numbers, purchased_numbers, rg_purchase_record

pytestmark = pytest.mark.django_db

PURCHASED = ReinforcementGroup.Source.PURCHASED


def whole_record_numbers(campaign, side):
    """The #P as the record counted it before the database did: every RG read in the record's
    order, the purchases of each id and map group counted in Python."""
    numbers = {}
    bought = Counter()
    for rg in ReinforcementGroup.objects.filter(campaign=campaign, side=side).order_by(
        "index", "source", "id"
    ):
        if rg.source == PURCHASED:
            bought[(rg.rg_id, rg.details.get("map_group", ""))] += 1
            numbers[rg.pk] = bought[(rg.rg_id, rg.details.get("map_group", ""))]
        else:
            numbers[rg.pk] = None
    return numbers


def random_rgs(campaign, rng, n):
    ReinforcementGroup.objects.filter(campaign=campaign).delete()
    ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=campaign,
            side=rng.choice(["german", "soviet"]),
            rg_id=rng.choice(["I1", "I2", "A5", "G3"]),
            number=i,
            index=rng.randrange(6),
            source=rng.choice(["initial", "purchased", "purchased"]),
            details=rng.choice(
                [{}, {"map_group": ""}, {"map_group": "North"}, {"map_group": "South"}]
            ),
        )
        for i in range(n)
    )


@pytest.mark.parametrize("seed", range(8))
def test_the_databases_p_is_the_whole_records_count_on_random_records(campaign, seed):
    rng = random.Random(seed)
    random_rgs(campaign, rng, rng.randrange(1, 60))
    for side in ("german", "soviet"):
        expected = whole_record_numbers(campaign, side)
        rows = rg_purchase_record(campaign, side)
        assert {row.pk: row.purchased_number for row in rows} == expected
        assert [row.pk for row in rows] == list(expected)
        counted = {rg.pk: rg.bought for rg in purchased_numbers(campaign, side)}
        assert {pk: counted[pk] for pk, n in expected.items() if n is not None} == {
            pk: n for pk, n in expected.items() if n is not None
        }
        # A page counts each of its RGs' #P by itself (counted_numbers): the same numbers.
        paged = rg_purchase_record(campaign, side).newest_first()
        assert paged[: len(expected)] == list(rows)[::-1]
        assert {rg.pk: rg.bought for rg in counted_numbers(campaign, side)} == counted


def test_a_page_of_the_record_is_the_same_rows_as_the_whole_record(campaign):
    random_rgs(campaign, random.Random(3), 40)
    whole = list(rg_purchase_record(campaign, "german"))
    newest = rg_purchase_record(campaign, "german").newest_first()
    assert len(newest) == len(whole)
    assert newest[:7] == whole[::-1][:7]
    assert newest[5:9] == whole[::-1][5:9]
    assert newest[0] == whole[-1]


def test_a_page_of_the_record_reads_only_its_rows(campaign, django_assert_num_queries):
    random_rgs(campaign, random.Random(5), 40)
    rows = rg_purchase_record(campaign, "german").newest_first()
    with django_assert_num_queries(2):  # a COUNT, then the page's rows
        assert len(rows) > 3
        assert len(rows[:3]) == 3


def test_rows_read_later_keep_the_language_the_record_was_read_in(campaign):
    ReinforcementGroup.objects.filter(campaign=campaign).update(details={"note": "x"})
    with translation.override("ja"):
        rows = rg_purchase_record(campaign, "german")
        japanese = [row.group_type for row in rows]
    assert [row.group_type for row in rows] == japanese
    assert [row.group_type for row in rg_purchase_record(campaign, "german")] != japanese


def test_the_whole_record_read_twice_is_read_once(campaign, django_assert_num_queries):
    random_rgs(campaign, random.Random(7), 20)
    rows = rg_purchase_record(campaign, "german")
    with django_assert_num_queries(1):
        first = [row.pk for row in rows]
        assert [row.pk for row in rows] == first
