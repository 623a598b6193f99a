"""Every page of a revealed campaign, for each member (issue 22): a page a member read before
still answers, the other side's secret pages now answer too, nothing on a GET tries to write
(a revealed campaign refuses writes), and an outsider still gets 404. Every POST of the walk is
refused or changes nothing of the campaign's data but notes."""

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from campaigns.models import Campaign, CampaignEvent, RefitPhase
from tests.test_url_personas import CLIENTS, EXPECTED, PATTERNS
from tests.url_world import GERMAN_SECRET, build_world, url_for

pytestmark = pytest.mark.django_db

# The notes (an RG's "Other" column) and who is a member are a revealed campaign's only changes.
STILL_WRITES = {"purchases:rg_notes", "campaigns:leave"}


@pytest.fixture(scope="module")
def revealed_world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        world = build_world()
        RefitPhase.objects.filter(campaign=world.rf).update(finished_at=timezone.now())
        Campaign.objects.filter(pk=world.rf.pk).update(revealed_at=timezone.now())
        world.rf.refresh_from_db()
        yield world
        transaction.set_rollback(True)


def _rf_patterns():
    return [p for p in PATTERNS if p.name and "campaign_id" in p.route]


def _client(world, who):
    client = Client()
    client.force_login(world.people[who])
    return client


def _get_pages(world):
    referee = CLIENTS.index("referee")
    for pattern in _rf_patterns():
        if pattern.name in NOT_THE_SAME:
            continue
        if EXPECTED.get((pattern.name, "GET"), ("",) * len(CLIENTS))[referee] != "200":
            continue
        url = url_for(world, pattern)
        if f"/{world.rf.pk}/" in url:  # not a short game's page
            yield pattern.name, url


# Leaving is each member's own (the creator manages the members and may not leave); a side
# day's form is an edit page (403: nobody edits a revealed campaign).
NOT_THE_SAME = {"campaigns:leave"}
EDIT_PAGES = {"campaigns:side_day"}


def test_the_referee_reads_the_revealed_campaign(revealed_world):
    """The CG is over: its pages read the record, the open phase's pages included."""
    client = _client(revealed_world, "referee")
    answers = {name: client.get(url).status_code for name, url in _get_pages(revealed_world)}
    assert {name for name, status in answers.items() if status == 403} == EDIT_PAGES
    gone = {name for name, status in answers.items() if status == 404}
    # No phase is open once the CG is over: the step pages and the perimeter page read the
    # finished ones (each step's record, each Refit Phase's perimeter), read-only.
    assert not gone, gone
    assert len([s for s in answers.values() if s == 200]) > 20


@pytest.mark.parametrize("who", ["german", "soviet", "observer"])
def test_every_member_reads_what_the_referee_reads(revealed_world, who):
    referee = _client(revealed_world, "referee")
    client = _client(revealed_world, who)
    problems = []
    for _name, url in _get_pages(revealed_world):
        mine, theirs = client.get(url), referee.get(url)
        if mine.status_code != theirs.status_code:
            problems.append(f"{url} {mine.status_code}, the referee {theirs.status_code}")
    assert not problems, problems


def test_the_other_sides_secrets_are_on_the_soviets_pages(revealed_world):
    from django.urls import reverse

    client = _client(revealed_world, "soviet")
    ledger = client.get(reverse("campaigns:ledger", args=[revealed_world.rf.pk, "german"]))
    assert GERMAN_SECRET in ledger.content.decode()


@pytest.mark.parametrize("who", ["german", "referee"])
def test_no_post_of_the_walk_changes_a_revealed_campaign(revealed_world, who):
    client = _client(revealed_world, who)
    data = CampaignEvent.objects.filter(campaign=revealed_world.rf).exclude(
        action__regex=r"^(member|invitation)\."
    )
    before = data.count()
    for pattern in _rf_patterns():
        if pattern.name in STILL_WRITES:
            continue
        url = url_for(revealed_world, pattern)
        if f"/{revealed_world.rf.pk}/" not in url:
            continue
        response = client.post(url, {})
        assert response.status_code != 500, url
    assert data.count() == before


def test_an_outsider_still_gets_nothing(revealed_world):
    client = _client(revealed_world, "outsider")
    for pattern in _rf_patterns():
        url = url_for(revealed_world, pattern)
        if f"/{revealed_world.rf.pk}/" in url:
            assert client.get(url).status_code in (404, 405), url
