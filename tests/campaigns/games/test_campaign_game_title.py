"""A campaign game is named in the reader's language: its code where the code is a word."""

import pytest
from django.urls import reverse

from campaigns.games.data_words import rule_words
from campaigns.games.registry import get_module
from tests.campaigns.shortgames.conftest import make_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("module", "key", "en", "ja"),
    [
        (
            "cherkassy_pocket",
            "scenario-1",
            "Scenario 1 Forging the Ring",
            "シナリオ1 Forging the Ring",
        ),
        ("red_factories", "rb-cg-1", "RB CG I Into the Factory", "RB CG I 工場への突入"),
        (
            "slaughter_at_ponyri",
            "timetable-disrupted",
            "SaP CG A Timetable Disrupted",
            "SaP CG 妨害された予定表",
        ),
    ],
)
def test_the_title_is_the_code_and_the_name_in_the_readers_language(module, key, en, ja):
    cg = get_module(module).campaign_game(key)
    assert cg.title.in_language("en") == en
    assert cg.title.in_language("ja") == ja


@pytest.mark.parametrize(
    ("language", "shown", "hidden"),
    [
        ("ja", "シナリオ1 Forging the Ring", "Scenario 1"),
        ("en", "Scenario 1 Forging the Ring", "シナリオ"),
    ],
)
def test_the_campaign_pages_name_the_scenario_in_the_readers_language(
    client, people, language, shown, hidden
):
    campaign = make_game(people, "cherkassy_pocket", "scenario-1", "german")
    user = people["german"]
    user.language = language
    user.save(update_fields=["language"])
    client.force_login(user)
    for url in (reverse("campaigns:list"), reverse("campaigns:detail", args=[campaign.pk])):
        page = client.get(url).content.decode()
        assert shown in page, url
        assert hidden not in page, url


@pytest.mark.parametrize(
    ("rule", "language", "words"),
    [
        ("Scenario 2", "ja", "シナリオ2"),
        ("Scenario 2", "en", "Scenario 2"),
        ("11.16", "ja", "11.16"),
        ("CG7.22", "ja", "CG7.22"),
    ],
)
def test_a_rule_reference_reads_in_the_readers_language(rule, language, words):
    assert rule_words(rule, language) == words


def test_the_cherkassy_turn_page_names_its_scenario_rules_in_japanese(client, people):
    campaign = make_game(people, "cherkassy_pocket", "scenario-1", "german")
    user = people["german"]
    user.language = "ja"
    user.save(update_fields=["language"])
    client.force_login(user)
    page = client.get(reverse("shortgames:turn", args=[campaign.pk])).content.decode()
    assert "(シナリオ2)" in page  # the scenario 2 set-up the rules lack
    assert "Scenario 2" not in page
