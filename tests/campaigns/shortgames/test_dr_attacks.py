"""Defiant Russia's combat dice helper accepts only legal attacks (2.0, 6.6, 11.7), and the air
points an attack uses are spent in the same action as its dice, with undo."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, PointEntry, PointKind
from campaigns.shortgames import turn_points
from tests.campaigns.dice.test_services import Loaded


def url(campaign):
    return reverse("shortgames:combat", args=[campaign.pk])


def on_turn(campaign, index):
    campaign.period_index = index
    campaign.save()


def air_left(campaign, side="axis"):
    return turn_points.balance(campaign, side, campaign.period_index, PointKind.AIR)


def test_a_german_unit_is_refused_as_a_soviet_attacker(dr_started, client_as):
    query = {"side": "soviet", "role": "attacker", "units": "6a", "nationality": "german"}
    response = client_as("soviet").post(url(dr_started), query)
    html = response.content.decode()
    assert response.status_code == 400
    assert "(2.0)" in html and 'id="refusals"' in html
    assert DiceRoll.objects.count() == 0


def test_air_points_are_spent_with_the_dice_and_undone(dr_started, people, client_as):
    turn_points.receive_points(
        dr_started, side="axis", index=0, kind=PointKind.AIR, by=people["german"]
    )
    assert air_left(dr_started) == 6
    query = {
        "side": "axis",
        "role": "attacker",
        "units": "6a, 3",
        "nationality": "german",
        "air_points": "2",
        "token": "air-1",
    }
    with dice.use_roller(Loaded(*([1] * 11))):
        html = client_as("german").post(url(dr_started), query).content.decode()
    assert "11 dice" in html and 'id="air-spent"' in html
    assert air_left(dr_started) == 4
    (used,) = PointEntry.objects.filter(action=PointEntry.Action.USED)
    assert used.amount == -2
    # The same form sent again rolls nothing and spends nothing.
    client_as("german").post(url(dr_started), query)
    assert air_left(dr_started) == 4
    assert DiceRoll.objects.count() == 11
    # Undone from the history like any points entry.
    event = CampaignEvent.objects.filter(action="points.added", data__what="used").get()
    history.undo(event, by=people["german"])
    assert air_left(dr_started) == 6


def test_three_air_points_is_the_limit_and_four_are_refused(dr_started, people, client_as):
    turn_points.receive_points(
        dr_started, side="axis", index=0, kind=PointKind.AIR, by=people["german"]
    )
    base = {"side": "axis", "role": "attacker", "units": "4", "nationality": "german"}
    assert (
        "7 dice"
        in client_as("observer").get(url(dr_started), {**base, "air_points": 3}).content.decode()
    )
    response = client_as("german").post(url(dr_started), {**base, "air_points": 4})
    assert response.status_code == 400
    assert "(11.7)" in response.content.decode()
    assert air_left(dr_started) == 6 and DiceRoll.objects.count() == 0


def test_air_points_the_side_does_not_have_are_refused(dr_started, client_as):
    query = {"side": "soviet", "role": "attacker", "units": "4", "air_points": 1}
    response = client_as("soviet").post(url(dr_started), query)
    assert response.status_code == 400
    assert "has 0 left" in response.content.decode()
    assert DiceRoll.objects.count() == 0 and PointEntry.objects.count() == 0


@pytest.mark.parametrize(
    ("query", "allowed"),
    [
        ({"units": "6a, 5a", "leaders": "guderian"}, True),  # the rules' only light-mud attack
        ({"units": "6a, 5a"}, False),  # no Guderian
        ({"units": "6a, 4", "leaders": "guderian"}, False),  # infantry with him
    ],
)
def test_light_mud_breakthrough_attacks(dr_started, client_as, query, allowed):
    on_turn(dr_started, 3)  # September, turn 4: light mud by the historical weather
    data = {"side": "axis", "role": "attacker", "nationality": "german", "breakthrough": "1"}
    with dice.use_roller(Loaded(*([6] * 20))):
        response = client_as("german").post(url(dr_started), {**data, **query})
    html = response.content.decode()
    if allowed:
        assert response.status_code == 200 and 'id="hits"' in html
        assert DiceRoll.objects.count() > 0
    else:
        assert response.status_code == 400 and "6.6" in html
        assert DiceRoll.objects.count() == 0


def test_no_soviet_breakthrough_combat_in_light_mud(dr_started, client_as):
    on_turn(dr_started, 3)
    query = {"side": "soviet", "role": "attacker", "units": "3a", "breakthrough": "1"}
    response = client_as("soviet").post(url(dr_started), query)
    assert response.status_code == 400
    assert DiceRoll.objects.count() == 0


def test_points_received_cannot_be_undone_below_what_was_spent(dr_started, people, client_as):
    turn_points.receive_points(
        dr_started, side="axis", index=0, kind=PointKind.AIR, by=people["german"]
    )
    query = {
        "side": "axis",
        "role": "attacker",
        "units": "3",
        "nationality": "german",
        "air_points": "3",
        "token": "air-2",
    }
    with dice.use_roller(Loaded(*([1] * 6))):
        client_as("german").post(url(dr_started), query)
    assert air_left(dr_started) == 3
    received = CampaignEvent.objects.get(action="points.added", data__what="received")
    # 6 received − 3 spent: taking the 6 back would leave −3.
    with pytest.raises(history.UndoError, match="air points at -3"):
        history.undo(received, by=people["referee"])
    assert air_left(dr_started) == 3
    used = CampaignEvent.objects.get(action="points.added", data__what="used")
    history.undo(used, by=people["german"])
    history.undo(received, by=people["referee"])
    assert air_left(dr_started) == 0


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "not checked against the roster"), ("ja", "名簿とは照合されません")],
)
def test_the_helper_says_typed_strengths_are_the_players_own(
    dr_started, client_as, language, words
):
    page = client_as("german").get(url(dr_started), HTTP_ACCEPT_LANGUAGE=language)
    assert words in page.content.decode()
