"""campaigns.access: every capability of a Viewer and every getter, for the five personas (the
German player who created the campaign, the Soviet player, the referee, an observer and an
outsider), and for a campaign without a referee."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import RequestFactory

from campaigns import access
from campaigns.access import PUBLIC, REFEREE, viewer_for
from campaigns.models import CampaignEvent, Role

pytestmark = pytest.mark.django_db

MEMBERS = ("german", "soviet", "referee", "observer")
PERSONAS = (*MEMBERS, "outsider")

# What each persona may see: scope -> visible?
EXPECTED = {
    "german": {PUBLIC: True, REFEREE: False, "german": True, "soviet": False},
    "soviet": {PUBLIC: True, REFEREE: False, "german": False, "soviet": True},
    "referee": {PUBLIC: True, REFEREE: True, "german": True, "soviet": True},
    "observer": {PUBLIC: True, REFEREE: False, "german": False, "soviet": False},
}


@pytest.fixture
def no_referee(campaign):
    """The same campaign once its referee has left: the players make the referee's calls."""
    campaign.memberships.filter(role=Role.REFEREE).delete()
    return campaign


def request_of(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


def outcome(call):
    """What a getter or check answers: "ok", 404 or 403."""
    try:
        call()
    except Http404:
        return 404
    except PermissionDenied:
        return 403
    return "ok"


def answers(people, campaign, getter, *args, personas=PERSONAS, **kwargs):
    return {
        persona: outcome(
            lambda p=persona: getter(request_of(people[p]), campaign.pk, *args, **kwargs)
        )
        for persona in personas
    }


# --- who the user is ---------------------------------------------------------------------


@pytest.mark.parametrize("persona", list(EXPECTED))
def test_each_member_sees_exactly_their_scopes(campaign, people, persona):
    viewer = viewer_for(people[persona], campaign.pk)
    assert {scope: viewer.can_see(scope) for scope in EXPECTED[persona]} == EXPECTED[persona]
    assert set(viewer.visible_scopes()) == {s for s, seen in EXPECTED[persona].items() if seen}


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


def test_services_get_none_for_someone_who_is_not_a_member(campaign, people):
    assert access.viewer_or_none(people["outsider"], campaign.pk) is None
    assert access.viewer_or_none(AnonymousUser(), campaign.pk) is None
    assert access.viewer_or_none(people["soviet"], campaign.pk).side == "soviet"


# --- capabilities ------------------------------------------------------------------------


def capability(people, campaign, ask):
    return {persona: ask(viewer_for(people[persona], campaign.pk)) for persona in MEMBERS}


def test_a_sides_secrets_are_seen_by_its_player_and_the_referee(campaign, people):
    assert capability(
        people, campaign, lambda v: (v.can_see_side("german"), v.can_see_side("soviet"))
    ) == {
        "german": (True, False),
        "soviet": (False, True),
        "referee": (True, True),
        "observer": (False, False),
    }


def test_a_side_is_acted_for_by_its_player_and_the_referee(campaign, people):
    assert capability(
        people, campaign, lambda v: (v.can_act_for_side("german"), v.can_act_for_side("soviet"))
    ) == {
        "german": (True, False),
        "soviet": (False, True),
        "referee": (True, True),
        "observer": (False, False),
    }


def test_visible_sides_follow_the_games_order(campaign, people):
    assert viewer_for(people["referee"], campaign.pk).visible_sides() == ["german", "soviet"]
    assert viewer_for(people["soviet"], campaign.pk).visible_sides() == ["soviet"]
    assert viewer_for(people["observer"], campaign.pk).visible_sides() == []


def test_every_member_but_an_observer_records(campaign, people):
    assert capability(people, campaign, lambda v: v.can_record) == {
        "german": True,
        "soviet": True,
        "referee": True,
        "observer": False,
    }


def test_the_referee_makes_the_campaigns_calls(campaign, people):
    assert capability(people, campaign, lambda v: v.can_act_for_campaign) == {
        "german": False,
        "soviet": False,
        "referee": True,
        "observer": False,
    }
    assert viewer_for(people["german"], campaign.pk).campaign_has_referee


def test_without_a_referee_every_player_makes_the_campaigns_calls(no_referee, people):
    members = ("german", "soviet", "observer")
    viewers = {persona: viewer_for(people[persona], no_referee.pk) for persona in members}
    assert {p: v.can_act_for_campaign for p, v in viewers.items()} == {
        "german": True,
        "soviet": True,
        "observer": False,
    }
    assert not viewers["german"].campaign_has_referee


def test_only_the_referee_overrules(campaign, people):
    assert capability(people, campaign, lambda v: v.can_overrule) == {
        "german": False,
        "soviet": False,
        "referee": True,
        "observer": False,
    }


def test_without_a_referee_nobody_overrules(no_referee, people):
    for persona in ("german", "soviet", "observer"):
        assert not viewer_for(people[persona], no_referee.pk).can_overrule


def test_only_the_creator_manages_members(campaign, people):
    assert capability(people, campaign, lambda v: v.can_manage_members) == {
        "german": True,
        "soviet": False,
        "referee": False,
        "observer": False,
    }


# --- getters -----------------------------------------------------------------------------


def test_member_admits_every_member_and_hides_the_campaign_from_the_others(campaign, people):
    assert answers(people, campaign, access.member) == {
        "german": "ok",
        "soviet": "ok",
        "referee": "ok",
        "observer": "ok",
        "outsider": 404,
    }
    with pytest.raises(Http404):
        access.member(request_of(AnonymousUser()), campaign.pk)


def test_a_page_the_game_does_not_have_is_404_for_everyone_before_any_403(campaign, people):
    never = {persona: 404 for persona in PERSONAS}
    assert answers(people, campaign, access.member, feature=lambda c: False) == never
    assert answers(people, campaign, access.recorder, feature=lambda c: False) == never
    assert answers(people, campaign, access.overruler, feature=lambda c: False) == never
    assert (
        answers(
            people, campaign, access.side_actor, "german", secret=False, feature=lambda c: False
        )
        == never
    )
    assert answers(people, campaign, access.member, feature=lambda c: True)["observer"] == "ok"


def test_side_reader_shows_a_sides_secrets_to_its_player_and_the_referee_only(campaign, people):
    assert answers(people, campaign, access.side_reader, "german") == {
        "german": "ok",
        "soviet": 404,
        "referee": "ok",
        "observer": 404,
        "outsider": 404,
    }


def test_side_reader_of_a_public_page_admits_every_member(campaign, people):
    assert answers(people, campaign, access.side_reader, "german", secret=False) == {
        "german": "ok",
        "soviet": "ok",
        "referee": "ok",
        "observer": "ok",
        "outsider": 404,
    }


def test_side_actor_on_a_secret_page_is_404_for_those_who_may_not_see(campaign, people):
    assert answers(people, campaign, access.side_actor, "soviet") == {
        "german": 404,
        "soviet": "ok",
        "referee": "ok",
        "observer": 404,
        "outsider": 404,
    }


def test_side_actor_on_a_public_page_is_403_for_members_who_may_only_read(campaign, people):
    assert answers(people, campaign, access.side_actor, "german", secret=False) == {
        "german": "ok",
        "soviet": 403,
        "referee": "ok",
        "observer": 403,
        "outsider": 404,
    }


@pytest.mark.parametrize("getter", [access.side_reader, access.side_actor])
@pytest.mark.parametrize("secret", [True, False])
def test_a_side_the_game_does_not_have_is_404(campaign, people, getter, secret):
    assert answers(people, campaign, getter, "russian", secret=secret) == {
        persona: 404 for persona in PERSONAS
    }


def test_recorder_refuses_observers(campaign, people):
    assert answers(people, campaign, access.recorder) == {
        "german": "ok",
        "soviet": "ok",
        "referee": "ok",
        "observer": 403,
        "outsider": 404,
    }


def test_campaign_actor_is_the_referee(campaign, people):
    assert answers(people, campaign, access.campaign_actor) == {
        "german": 403,
        "soviet": 403,
        "referee": "ok",
        "observer": 403,
        "outsider": 404,
    }


def test_campaign_actor_without_a_referee_is_any_player(no_referee, people):
    assert answers(people, no_referee, access.campaign_actor) == {
        "german": "ok",
        "soviet": "ok",
        "referee": 404,  # gone: an outsider now
        "observer": 403,
        "outsider": 404,
    }


def test_overruler_is_the_referee_alone(campaign, people):
    assert answers(people, campaign, access.overruler) == {
        "german": 403,
        "soviet": 403,
        "referee": "ok",
        "observer": 403,
        "outsider": 404,
    }


def test_overruler_without_a_referee_is_nobody(no_referee, people):
    assert answers(people, no_referee, access.overruler, personas=("german", "soviet")) == {
        "german": 403,
        "soviet": 403,
    }


def test_manager_is_the_creator(campaign, people):
    assert answers(people, campaign, access.manager) == {
        "german": "ok",
        "soviet": 403,
        "referee": 403,
        "observer": 403,
        "outsider": 404,
    }


# --- checks on a viewer in hand ----------------------------------------------------------


def test_require_is_403_unless_allowed(campaign, people):
    access.require(True)
    with pytest.raises(PermissionDenied):
        access.require(False)


@pytest.mark.parametrize(
    ("persona", "side", "read", "act"),
    [
        ("german", "german", "ok", "ok"),
        ("german", "soviet", 404, 404),
        ("soviet", "soviet", "ok", "ok"),
        ("soviet", "german", 404, 404),
        ("referee", "german", "ok", "ok"),
        ("referee", "soviet", "ok", "ok"),
        ("observer", "german", 404, 404),
        ("observer", "soviet", 404, 404),
    ],
)
def test_a_secret_side_is_refused_as_not_found(campaign, people, persona, side, read, act):
    viewer = viewer_for(people[persona], campaign.pk)
    assert outcome(lambda: access.require_side_reader(viewer, side)) == read
    assert outcome(lambda: access.require_side_actor(viewer, side)) == act


@pytest.mark.parametrize(
    ("persona", "act"),
    [("german", "ok"), ("soviet", 403), ("referee", "ok"), ("observer", 403)],
)
def test_a_public_side_is_read_by_all_and_acted_for_by_its_player_and_referee(
    campaign, people, persona, act
):
    viewer = viewer_for(people[persona], campaign.pk)
    assert outcome(lambda: access.require_side_reader(viewer, "german", secret=False)) == "ok"
    assert outcome(lambda: access.require_side_actor(viewer, "german", secret=False)) == act


def test_the_checks_return_the_viewer_they_were_given(campaign, people):
    viewer = viewer_for(people["referee"], campaign.pk)
    assert access.require_side_reader(viewer, "soviet") is viewer
    assert access.require_side_actor(viewer, "soviet") is viewer
