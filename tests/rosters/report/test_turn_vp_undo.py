"""A turn's recorded VP always agree with the record (issue 22): an undo that would change what a
past turn's VP were computed from — a unit, a place's control, changed before that turn ended —
is refused, naming the turn marker's advance to take back first; once it is taken back (its VP
with it) the change may be. The sequence test plays random changes, advances and undos, then
plays the changes that stand again on a fresh game: the VP recorded at each turn's end must be
the fresh game's, turn by turn."""

import random

import pytest
from django.urls import reverse

from campaigns.games.rules import Reason
from campaigns.history import services as history
from campaigns.models import CampaignEvent, TurnVictoryPoints
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules import turn_vp
from tests.campaigns.shortgames.conftest import make_game
from tests.rosters.report.test_short_turns import _advance, _dr_city, _set, _units

pytestmark = pytest.mark.django_db

UNIT = "campaigns.gameunit"


# --- the pure rule ----------------------------------------------------------------------------


def test_a_change_of_what_the_vp_read_is_refused_once_a_turn_ended_since():
    # The worked example: a unit changed on turn 1, turns 1 and 2 ended since with their VP.
    assert turn_vp.undo_keeps_turn_vp({UNIT}, [2, 1]) == Reason(
        "turn_vp_recorded", "", {"first": 1, "last": 2}
    )


def test_at_the_limit_no_turn_ended_since_and_the_undo_goes_ahead():
    assert turn_vp.undo_keeps_turn_vp({UNIT, "campaigns.controlpoint"}, []) is None
    # One over: one turn ended since.
    assert turn_vp.undo_keeps_turn_vp({"campaigns.controlpoint"}, [3]).params == {
        "first": 3,
        "last": 3,
    }


def test_a_change_the_vp_do_not_read_is_never_refused():
    assert turn_vp.undo_keeps_turn_vp({"campaigns.turnmark", "campaigns.pointentry"}, [0]) is None


# --- the undo ---------------------------------------------------------------------------------


def _flip(campaign, people, key):
    point = campaign.control.filter(key=key).first()
    now = point.controller if point else ""
    return short_games.set_control(
        campaign,
        by=people["referee"],
        key=key,
        controller="soviet" if now == "axis" else "axis",
        cut_off=False,
        version=point.version if point else None,
    )


def _last(campaign, action):
    return CampaignEvent.objects.filter(campaign=campaign, action=action).order_by("-id").first()


@pytest.fixture
def city_then_turn_end(dr_game, people):
    short_games.start(dr_game, by=people["german"], options=[])
    _flip(dr_game, people, _dr_city(dr_game))
    _advance(dr_game, people)
    return dr_game


def test_a_change_before_a_recorded_turn_end_is_taken_back_after_the_advance(
    city_then_turn_end, people
):
    campaign = city_then_turn_end
    stored = list(TurnVictoryPoints.objects.filter(campaign=campaign).values_list("side", "vp"))
    change = _last(campaign, "control.changed")
    with pytest.raises(history.UndoError, match="Take back the turn marker's advance"):
        history.undo(change, by=people["referee"])
    # The turn's VP stand as recorded, the change too.
    assert list(TurnVictoryPoints.objects.filter(campaign=campaign).values_list("side", "vp")) == (
        stored
    )
    change.refresh_from_db()
    assert change.undone_at is None
    # Take back the advance (its VP go with it), then the change.
    history.undo(_last(campaign, "turn.advanced"), by=people["referee"])
    history.undo(change, by=people["referee"])
    assert not TurnVictoryPoints.objects.filter(campaign=campaign).exists()


def test_a_change_made_after_the_turn_ended_is_taken_back_freely(city_then_turn_end, people):
    campaign = city_then_turn_end
    _flip(campaign, people, _dr_city(campaign))  # on turn 2: no turn ended since
    history.undo(_last(campaign, "control.changed"), by=people["german"])
    assert _last(campaign, "control.changed").undone_at is not None


def test_the_history_page_says_what_to_take_back_first(city_then_turn_end, people, client_as):
    campaign = city_then_turn_end
    change = _last(campaign, "control.changed")
    url = reverse("campaigns:undo", args=[campaign.pk, change.pk])
    response = client_as("referee").post(url, {"reason": "typo"}, follow=True)
    assert "Take back the turn marker" in response.content.decode()
    change.refresh_from_db()
    assert change.undone_at is None


# --- the sequence: the recorded VP equal a replay of the record -------------------------------


def _play(campaign, people, op, units):
    kind = op[0]
    if kind == "control":
        _flip(campaign, people, op[1])
    elif kind == "unit":
        unit = next(u for u in units if u.name == op[1])
        unit.refresh_from_db()
        if unit.state != op[2]:
            _set(campaign, unit, people, op[2])
    elif kind == "advance":
        _advance(campaign, people)


def _setup(campaign, people):
    short_games.start(campaign, by=people["german"], options=[])
    return [
        *_units(campaign, people, "axis", 2, "infantry", "german"),
        *_units(campaign, people, "soviet", 2, "infantry", "soviet"),
    ]


def _recorded(campaign):
    rows = TurnVictoryPoints.objects.filter(campaign=campaign).values_list("index", "side", "vp")
    return sorted(rows)


@pytest.mark.parametrize("seed", range(6))
def test_the_recorded_vp_always_equal_a_replay_of_the_record(people, seed):
    rng = random.Random(seed)
    campaign = make_game(people, "defiant_russia", "full-game", "axis")
    units = _setup(campaign, people)
    cities = [c["id"] for c in short_games.game_data(campaign)["victory"]["cities"][:2]]
    played = []  # (op, its event's pk)
    refused = 0
    for _n in range(14):
        choice = rng.random()
        if choice < 0.3:
            op = ("control", rng.choice(cities))
        elif choice < 0.55:
            unit = rng.choice(units)
            op = ("unit", unit.name, rng.choice(["full", "reduced", "eliminated"]))
        elif choice < 0.75 and campaign.period_index < 3:
            op = ("advance",)
        else:
            standing = [pk for _op, pk in played if pk is not None]
            standing = list(
                CampaignEvent.objects.filter(pk__in=standing, undone_at__isnull=True).values_list(
                    "pk", flat=True
                )
            )
            if standing:
                try:
                    history.undo(
                        CampaignEvent.objects.get(pk=rng.choice(standing)), by=people["referee"]
                    )
                except history.UndoError:
                    refused += 1
                campaign.refresh_from_db()
            continue
        before = CampaignEvent.objects.filter(campaign=campaign).order_by("-id").first().pk
        _play(campaign, people, op, units)
        campaign.refresh_from_db()
        last = CampaignEvent.objects.filter(campaign=campaign).order_by("-id").first().pk
        played.append((op, last if last != before else None))
    standing = set(
        CampaignEvent.objects.filter(
            pk__in=[pk for _op, pk in played if pk], undone_at__isnull=True
        ).values_list("pk", flat=True)
    )
    # The record replayed on a fresh game: the changes and advances that stand, in order.
    fresh = make_game(people, "defiant_russia", "full-game", "axis")
    fresh_units = _setup(fresh, people)
    by_name = {u.name: u for u in fresh_units}
    for op, pk in played:
        if pk in standing:
            _play(fresh, people, op, list(by_name.values()))
            fresh.refresh_from_db()
    assert campaign.period_index == fresh.period_index
    assert _recorded(campaign) == _recorded(fresh), (seed, played, refused)


def test_the_history_page_shows_the_refusal_instead_of_the_undo_button(
    city_then_turn_end, people, client_as
):
    """The Undo button is shown only where the undo would go ahead: a change before a recorded
    turn end shows why not; the advance that ended the turn keeps its button."""
    campaign = city_then_turn_end
    change = _last(campaign, "control.changed")
    advance = _last(campaign, "turn.advanced")
    html = client_as("referee").get(reverse("campaigns:history", args=[campaign.pk])).content
    text = html.decode()
    assert reverse("campaigns:undo", args=[campaign.pk, change.pk]) not in text
    assert "Take back the turn marker" in text
    assert reverse("campaigns:undo", args=[campaign.pk, advance.pk]) in text
    # Once the advance is taken back, the change's button is back.
    history.undo(advance, by=people["referee"])
    text = client_as("referee").get(reverse("campaigns:history", args=[campaign.pk])).content
    assert reverse("campaigns:undo", args=[campaign.pk, change.pk]) in text.decode()


def test_the_refusals_cost_no_query_per_row(city_then_turn_end, people, client_as):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    campaign = city_then_turn_end
    client = client_as("referee")
    url = reverse("campaigns:history", args=[campaign.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for _n in range(4):
        _flip(campaign, people, _dr_city(campaign))
    _advance(campaign, people)
    for _n in range(4):
        _flip(campaign, people, _dr_city(campaign))
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)
