"""``campaigns.history.reads``: a list's count and pages by SQL compiled once must read what the
ORM reads — the same rows in the same order with the same values, each campaign its own, each
set of scopes its own — and count as the ORM counts, capped or not (the history's and the dice
log's lists; issue 18). Run on SQLite and PostgreSQL (scripts/test-postgres.sh)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaigns.access import viewer_for
from campaigns.dice import checks
from campaigns.dice import views as dice_views
from campaigns.history import views as history_views
from campaigns.history.reads import ListQuery, ListRows
from campaigns.models import CampaignEvent, DiceCommitment, DiceRoll
from tests.conftest import red_factories_campaign

pytestmark = pytest.mark.django_db

PERSONAS = ["german", "soviet", "referee", "observer"]


def fill(campaign, people, count):
    """Events of every scope, some without a user (imported), the same times for some (the
    order's second key), one undone."""
    start = timezone.now() - timedelta(days=1)
    actors = [people["german"], people["soviet"], None, people["referee"]]
    for n in range(count):
        event = CampaignEvent.objects.create(
            campaign=campaign,
            actor=actors[n % 4],
            action="ledger.added",
            visibility=("public", "german", "soviet", "referee")[n % 4],
            data={"side": "german", "index": n % 3, "n": n, "original": {"actor": "imported"}},
            undone_at=start if n == 5 else None,
        )
        CampaignEvent.objects.filter(pk=event.pk).update(
            created_at=start + timedelta(minutes=n // 2)
        )


def seen(events):
    return [
        (e.pk, e.campaign_id, e.actor_id, e.actor_username, e.created_at, e.action, e.visibility)
        + (e.data, e.undone_at)
        for e in events
    ]


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_historys_pages_are_the_orms(campaign, people, persona):
    other = red_factories_campaign(people, "rb-cg-2", "Another")
    fill(campaign, people, 23)
    fill(other, people, 9)
    for each in (campaign, other, campaign):
        viewer = viewer_for(people[persona], each.pk)
        orm = history_views._named(
            viewer.filter_visible(CampaignEvent.objects.filter(campaign=each))
        )
        rows = history_views._UNFILTERED.rows(each.pk, tuple(viewer.visible_scopes()))
        assert rows.count() == orm.count() == len(rows) > 0
        for most in (1, 3, orm.count(), orm.count() + 1):
            assert rows.count_to(most) == min(orm.count(), most)
        for start, stop in ((0, 5), (5, 10), (0, 100), (3, 4)):
            assert seen(rows[start:stop]) == seen(orm[start:stop])
        with CaptureQueriesContext(connection) as queries:
            assert rows[4:4] == []
        assert len(queries) == 0  # an empty page, as the ORM's: no query
        with pytest.raises(TypeError):
            rows[2]


def test_a_filtered_list_is_compiled_for_its_request(campaign, people):
    fill(campaign, people, 20)
    viewer = viewer_for(people["german"], campaign.pk)
    filtered = viewer.filter_visible(CampaignEvent.objects.filter(campaign=campaign, data__index=1))
    rows = ListRows.of(history_views._named(filtered), filtered)
    orm = history_views._named(filtered)
    assert rows.count() == orm.count() > 0
    assert seen(rows[0:50]) == seen(orm)


def test_a_filter_nothing_matches_reads_nothing(campaign, people):
    fill(campaign, people, 3)
    nothing = CampaignEvent.objects.filter(campaign=campaign, pk__in=[])
    rows = ListRows.of(history_views._named(nothing), nothing)
    with CaptureQueriesContext(connection) as queries:
        assert rows.count() == 0 and list(rows[0:50]) == []
    assert len(queries) == 0


def test_the_campaigns_id_must_be_one_parameter(campaign):
    wrong = ListQuery(
        lambda campaign_id, key: (CampaignEvent.objects.all(), CampaignEvent.objects.all())
    )
    with pytest.raises(ValueError):
        wrong.rows(campaign.pk, ())


def rolls(campaign, people, count):
    commitments = [
        DiceCommitment.objects.create(
            campaign=campaign,
            index=0,
            visibility=scope,
            seed=f"{scope}-seed-{n}",
            seed_hash=f"{scope}-hash-{n}",
            revealed_at=None if n == 2 else timezone.now(),
        )
        for n in range(3)
        for scope in ("public", "german", "soviet", "referee")
    ]
    for n in range(count):
        scope = ("public", "german", "soviet", "referee")[n % 4]
        DiceRoll.objects.create(
            campaign=campaign,
            index=n % 2,
            side=("german", "soviet")[n % 2],
            step="11.616",
            kind="DR",
            faces=[n % 6 + 1, 3],
            original=n % 6 + 4,
            final=n % 6 + 4,
            visibility=scope,
            rolled_by=(people["german"], None, people["referee"])[n % 3],
            voided_by=people["referee"] if n % 5 == 0 else None,
            voided_at=timezone.now() if n % 5 == 0 else None,
            commitment=commitments[(n % 12)],
            counter=n,
        )


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_dice_logs_pages_and_commitments_are_the_orms(campaign, people, persona):
    other = red_factories_campaign(people, "rb-cg-2", "Another")
    rolls(campaign, people, 30)
    rolls(other, people, 7)
    for each in (campaign, other):
        viewer = viewer_for(people[persona], each.pk)
        visible = viewer.filter_visible(DiceRoll.objects.filter(campaign=each))
        orm = visible.select_related("rolled_by", "voided_by").order_by("-rolled_at", "-id")
        rows = dice_views._UNFILTERED.rows(each.pk, tuple(viewer.visible_scopes()))
        assert rows.count() == orm.count() > 0
        page = rows[0:50]
        assert [r.pk for r in page] == [r.pk for r in orm]
        assert [(r.rolled_by_name, r.voided_by_name) for r in page] == [
            (
                r.rolled_by.username if r.rolled_by else None,
                r.voided_by.username if r.voided_by else None,
            )
            for r in orm
        ]
        # The page's commitments: the open ones and those of its rolls, for pages naming none,
        # one, three (compiled) and more (the ORM).
        for shown in (page[:0], page[:1], page[:3], page[:12], page):
            used = {roll.commitment_id for roll in shown}
            expected = [
                commitment
                for commitment in checks.visible_commitments(viewer).order_by("-created_at", "-id")
                if commitment.revealed_at is None or commitment.pk in used
            ]
            assert checks.log_commitments(viewer, shown) == expected
            assert {c.pk for c in expected} >= used and expected
