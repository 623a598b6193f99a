"""Cherkassy Pocket's combat helper refuses illegal attacks, naming the rule, and never rolls
them (11.1, 11.18, 11.28)."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import DiceRoll
from tests.campaigns.dice.test_services import Loaded
from tests.campaigns.shortgames.test_cp_combat import CRT, enter, units

pytestmark = pytest.mark.django_db


def roll(client, campaign, query):
    url = reverse("shortgames:combat", args=[campaign.pk])
    with dice.use_roller(Loaded(4)):
        return client.post(url, {"count": "1", **query, "turn": 0, "token": "t1"})


def test_a_german_unit_is_refused_as_a_soviet_attacker(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    german, soviet = units(cp_started, people)
    query = {"side": "soviet", "attackers": german.pk, "defenders": soviet.pk}
    response = roll(client_as("soviet"), cp_started, query)
    html = response.content.decode()
    assert response.status_code == 400
    assert "(11.1)" in html and "I/105" in html
    assert not DiceRoll.objects.exists()


def test_armor_superiority_is_refused_with_a_tank_defending(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    german, soviet = units(cp_started, people)  # the Soviet 20 TC is a tank unit
    query = {"side": "german", "attackers": german.pk, "defenders": soviet.pk}
    response = roll(client_as("german"), cp_started, {**query, "shifts": "armor_superiority"})
    assert response.status_code == 400
    assert "(11.28)" in response.content.decode()
    assert not DiceRoll.objects.exists()
    # The same attack without the shift is legal and rolled.
    assert roll(client_as("german"), cp_started, query).status_code == 200
    assert DiceRoll.objects.count() == 1
