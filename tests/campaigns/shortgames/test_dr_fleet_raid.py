"""Defiant Russia 11.52: an Axis air raid on a fleet, rolled on the turn page in the Axis combat
phase: the nearest Axis unit's distance declared (within 4), one air point spent with each die
in the same action (at most 3 per fleet per turn, undone from the history), a 5 or 6 reducing
the fleet (or removing it)."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, GameUnit, PointEntry, PointKind
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_points, turn_rolls
from campaigns.shortgames.turn_steps import TurnError
from campaigns.shortgames.units import UnitData
from tests.campaigns.dice.test_services import Loaded

pytestmark = pytest.mark.django_db


def fleets(campaign, people):
    return short_games.add_units(
        campaign,
        by=people["referee"],
        units=[
            UnitData(
                side="soviet",
                name="Black Sea Fleet",
                unit_type="fleet",
                nationality="soviet",
                hex="1712",
            ),
            UnitData(
                side="soviet",
                name="Baltic Fleet",
                unit_type="fleet",
                nationality="soviet",
                steps=1,
                hex="0301",
            ),
        ],
    )


def air_left(campaign):
    return turn_points.balance(campaign, "axis", campaign.period_index, PointKind.AIR)


def raid(client, campaign, fleet, distance, face):
    url = reverse("shortgames:roll", args=[campaign.pk, "axis", "axis_combat"])
    with dice.use_roller(Loaded(face)):
        return client.post(
            url,
            {
                "turn": campaign.period_index,
                "table": "dr.fleet-air-raid",
                "unit": fleet.pk,
                "distance": distance,
            },
        )


def test_a_raid_spends_its_point_with_the_die_and_books_the_hit(dr_started, people, client_as):
    black_sea, baltic = fleets(dr_started, people)
    turn_points.receive_points(
        dr_started, side="axis", index=0, kind=PointKind.AIR, by=people["german"]
    )
    assert air_left(dr_started) == 6
    german = client_as("german")
    # Too far: refused naming 11.52, no die, no point.
    raid(german, dr_started, black_sea, 5, 6)
    assert not DiceRoll.objects.filter(table_id="dr.fleet-air-raid").exists()
    assert air_left(dr_started) == 6
    # Within 4: a miss spends the point, the fleet stays full.
    raid(german, dr_started, black_sea, 4, 4)
    assert air_left(dr_started) == 5
    assert GameUnit.objects.get(pk=black_sea.pk).state == "full"
    # A 6 reduces it.
    raid(german, dr_started, black_sea, 2, 6)
    assert GameUnit.objects.get(pk=black_sea.pk).state == "reduced"
    # The third point of the turn on this fleet eliminates the reduced fleet.
    raid(german, dr_started, black_sea, 2, 5)
    assert GameUnit.objects.get(pk=black_sea.pk).state == "eliminated"
    assert air_left(dr_started) == 3
    # The Baltic Fleet (no reduced side) is its own fleet: eliminated by one hit.
    raid(german, dr_started, baltic, 3, 5)
    assert GameUnit.objects.get(pk=baltic.pk).state == "eliminated"
    assert air_left(dr_started) == 2
    spent = PointEntry.objects.filter(action=PointEntry.Action.USED)
    assert sorted(e.unit_id for e in spent) == sorted([black_sea.pk] * 3 + [baltic.pk])
    # Undone from the history like any points entry: the point comes back.
    event = CampaignEvent.objects.filter(action="points.added", data__what="used").last()
    history.undo(event, by=people["german"])
    assert air_left(dr_started) == 3


def test_at_most_three_points_per_fleet_a_turn_and_not_without_points(dr_started, people):
    black_sea, _baltic = fleets(dr_started, people)

    def roll(face=1):
        with dice.use_roller(Loaded(face)):
            return turn_rolls.roll_table(
                dr_started,
                index=0,
                side="axis",
                step_id="axis_combat",
                table_id="dr.fleet-air-raid",
                by=people["german"],
                unit=black_sea,
                distance=1,
            )

    # No air points: refused before any die.
    with pytest.raises(Exception, match="Not enough points"):
        roll()
    assert not DiceRoll.objects.exists()
    turn_points.receive_points(
        dr_started, side="axis", index=0, kind=PointKind.AIR, by=people["german"]
    )
    for _ in range(3):
        roll()
    with pytest.raises(TurnError, match="3 air points this turn"):
        roll()
    assert DiceRoll.objects.count() == 3 and air_left(dr_started) == 3
    # No fleet chosen: asked for.
    with pytest.raises(TurnError, match="Choose the fleet"):
        turn_rolls.roll_table(
            dr_started,
            index=0,
            side="axis",
            step_id="axis_combat",
            table_id="dr.fleet-air-raid",
            by=people["german"],
            distance=1,
        )


def test_the_turn_page_offers_the_fleets_and_the_distance(dr_started, people, client_as):
    fleets(dr_started, people)
    from tests.campaigns.shortgames.test_turns import mark_all

    mark_all(dr_started, people, upto="axis_combat")
    html = client_as("german").get(reverse("shortgames:turn", args=[dr_started.pk])).content
    text = html.decode()
    assert "Nearest Axis unit to the fleet" in text and "Black Sea Fleet" in text
