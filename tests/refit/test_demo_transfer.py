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
