import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from campaigns.access import PUBLIC, REFEREE, viewer_for
from campaigns.models import CampaignEvent

pytestmark = pytest.mark.django_db

# What each persona may see: scope -> visible?
EXPECTED = {
    "german": {PUBLIC: True, REFEREE: False, "german": True, "soviet": False},
    "soviet": {PUBLIC: True, REFEREE: False, "german": False, "soviet": True},
    "referee": {PUBLIC: True, REFEREE: True, "german": True, "soviet": True},
    "observer": {PUBLIC: True, REFEREE: False, "german": False, "soviet": False},
}


@pytest.mark.parametrize("persona", list(EXPECTED))
def test_each_member_sees_exactly_their_scopes(campaign, people, persona):
    viewer = viewer_for(people[persona], campaign.pk)
    assert {scope: viewer.can_see(scope) for scope in EXPECTED[persona]} == EXPECTED[persona]


@pytest.mark.parametrize("persona", list(EXPECTED))
def test_filtering_a_queryset_keeps_only_visible_rows(campaign, people, persona):
    for scope in (PUBLIC, REFEREE, "german", "soviet"):
        CampaignEvent.objects.create(campaign=campaign, action="test", visibility=scope)
    viewer = viewer_for(people[persona], campaign.pk)
    seen = set(
        viewer.filter_visible(CampaignEvent.objects.filter(action="test")).values_list(
            "visibility", flat=True
        )
    )
    assert seen == {scope for scope, visible in EXPECTED[persona].items() if visible}


def test_an_outsider_gets_404_not_403(campaign, people):
    with pytest.raises(Http404):
        viewer_for(people["outsider"], campaign.pk)


def test_an_anonymous_visitor_gets_404(campaign):
    with pytest.raises(Http404):
        viewer_for(AnonymousUser(), campaign.pk)


def test_a_campaign_that_does_not_exist_looks_the_same_as_one_you_are_not_in(people):
    with pytest.raises(Http404):
        viewer_for(people["german"], 999_999)


@pytest.mark.parametrize(
    ("persona", "side", "allowed"),
    [
        ("german", "german", True),
        ("german", "soviet", False),
        ("soviet", "soviet", True),
        ("soviet", "german", False),
        ("referee", "german", True),
        ("referee", "soviet", True),
        ("observer", "german", False),
        ("observer", "soviet", False),
    ],
)
def test_require_side_refuses_other_sides_secrets_as_not_found(
    campaign, people, persona, side, allowed
):
    viewer = viewer_for(people[persona], campaign.pk)
    if allowed:
        viewer.require_side(side)
    else:
        with pytest.raises(Http404):
            viewer.require_side(side)


def test_require_side_refuses_a_side_the_game_does_not_have(campaign, people):
    with pytest.raises(Http404):
        viewer_for(people["referee"], campaign.pk).require_side("russian")


def test_only_the_creator_manages_members(campaign, people):
    managers = {p for p in EXPECTED if viewer_for(people[p], campaign.pk).can_manage_members}
    assert managers == {"german"}


def test_visible_sides_follow_the_games_order(campaign, people):
    assert viewer_for(people["referee"], campaign.pk).visible_sides() == ["german", "soviet"]
    assert viewer_for(people["soviet"], campaign.pk).visible_sides() == ["soviet"]
    assert viewer_for(people["observer"], campaign.pk).visible_sides() == []
