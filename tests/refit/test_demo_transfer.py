"""Every demo campaign (``python manage.py demo``) round-trips through its export file, for the
referee and for each side: export → import → export gives the same file apart from what the
format says changes, and the copy stands where the original stands."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaigns.models import Campaign, Membership, Role
from tests.campaigns.transfer.test_services import comparable
from tests.refit.campaign_states import standing
from tests.refit.walker.test_transfer import round_trip

pytestmark = pytest.mark.django_db

MODULES = ("red_factories", "slaughter_at_ponyri", "defiant_russia", "cherkassy_pocket")


def exporters(campaign):
    """The referee (the SaP demo has none: the demo referee joins to export it all) and one
    player of each side."""
    if not campaign.memberships.filter(role=Role.REFEREE).exists():
        referee = get_user_model().objects.get(username="referee")
        Membership.objects.create(campaign=campaign, user=referee, role=Role.REFEREE)
    members = campaign.memberships.select_related("user").order_by("id")
    yield "full", members.filter(role=Role.REFEREE).first().user
    for side in campaign.game.side_keys:
        yield side, members.filter(role=Role.PLAYER, side=side).first().user


@pytest.mark.parametrize("module", MODULES)
def test_every_demo_campaign_round_trips_for_the_referee_and_each_side(module):
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    campaign = Campaign.objects.get(module=module)
    importer = get_user_model().objects.create_user(username="importer", password="pw-12345678")
    trips = 0
    for scope, user in exporters(campaign):
        before = standing(campaign, user)
        first, imported, second = round_trip(campaign, user, importer)
        assert first["scope"] == (scope if scope == "full" else f"side:{scope}")
        assert comparable(second) == comparable(first), scope
        assert standing(imported, importer) == before, scope
        trips += 1
    assert trips == 3


def step_tags(campaign):
    """Each event's Refit Phase step as its JSON says and as its indexed columns say."""
    return [
        (
            (event.data.get("refit_step") or {}).get("reph"),
            (event.data.get("refit_step") or {}).get("roll"),
            event.step_reph,
            event.step_roll,
        )
        for event in campaign.events.order_by("pk")
    ]


def test_the_step_columns_follow_the_events_json_when_recorded_and_when_imported():
    """The RePh and roll a change was made for are in indexed columns (a step page finds a
    step's changes without reading every event's JSON): filled when recorded, and with the new
    ids when imported."""
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    campaign = Campaign.objects.get(module="red_factories")
    recorded = step_tags(campaign)
    assert sum(1 for reph, roll, *_ in recorded if reph) >= 5
    assert sum(1 for reph, roll, *_ in recorded if roll) >= 1
    assert all((reph, roll) == (col_reph, col_roll) for reph, roll, col_reph, col_roll in recorded)
    importer = get_user_model().objects.create_user(username="importer", password="pw-12345678")
    referee = campaign.memberships.get(role=Role.REFEREE).user
    _first, imported, _second = round_trip(campaign, referee, importer)
    copied = step_tags(imported)
    assert sum(1 for reph, *_ in copied if reph) == sum(1 for reph, *_ in recorded if reph)
    assert all((reph, roll) == (col_reph, col_roll) for reph, roll, col_reph, col_roll in copied)
    assert {reph for reph, *_ in copied if reph} <= set(imported.rephs.values_list("pk", flat=True))
