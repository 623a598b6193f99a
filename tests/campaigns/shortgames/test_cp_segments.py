"""Cherkassy Pocket 5.4: each side declares the order of movement and combat as an activation
segment starts (on marking its air power step); recorded, shown on the turn page and the status
sheet, exported and imported, taken back with the mark."""

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.models import TurnMark
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_marks, turn_steps
from rosters.builders import build_sheet
from tests.campaigns.shortgames.test_turns import mark_all, steps_of

pytestmark = pytest.mark.django_db


def test_the_order_is_required_on_the_air_power_step(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    with pytest.raises(turn_steps.TurnError, match="5.4"):
        turn_marks.mark(
            cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"]
        )
    with pytest.raises(turn_steps.TurnError, match="5.4"):
        turn_marks.mark(
            cp_started,
            index=0,
            side="soviet",
            step_id="s1.air_power",
            by=people["soviet"],
            order="both",
        )
    mark = turn_marks.mark(
        cp_started,
        index=0,
        side="soviet",
        step_id="s1.air_power",
        by=people["soviet"],
        order="combat_first",
    )
    assert mark.order == "combat_first"


def test_no_order_where_the_side_has_no_operations(cp_game, people):
    cp_game.campaign_game = "scenario-2"
    cp_game.save(update_fields=["campaign_game"])
    short_games.start(cp_game, by=people["german"], options=[])
    mark_all(cp_game, people, upto="s1.air_power")
    # Scenario 2 starts after the Soviet operations of segment 1: nothing to declare.
    mark = turn_marks.mark(
        cp_game,
        index=cp_game.period_index,
        side="soviet",
        step_id="s1.air_power",
        by=people["soviet"],
        order="move_first",
    )
    assert mark.order == ""


def test_the_orders_show_on_the_turn_page_and_the_sheet(cp_started, people, client_as):
    mark_all(cp_started, people, upto="s1.air_power")
    url = reverse("shortgames:turn", args=[cp_started.pk])
    html = client_as("soviet").get(url).content.decode()
    assert 'name="order" value="combat_first"' in html
    response = client_as("soviet").post(
        reverse("shortgames:mark", args=[cp_started.pk, "soviet", "s1.air_power"]),
        {"turn": 0, "action": "done", "order": "combat_first"},
    )
    assert response.status_code == 302
    assert TurnMark.objects.get(step="s1.air_power", side="soviet").order == "combat_first"
    html = client_as("observer").get(url).content.decode()
    orders = html[html.index('id="segment-orders"') :]
    orders = orders[: orders.index("</section>")]
    assert "Segment 1: Soviet — combat first, then movement" in orders
    for language, words in (("en", "Segment 1: Soviet combat first"), ("ja", "戦闘が先")):
        sheet = build_sheet(
            viewer_for(people["observer"], cp_started.pk), "german", "status", language
        )
        facts = [fact.value for fact in sheet.facts]
        assert any(words in str(value) for value in facts), facts


def test_a_mark_without_the_order_is_refused_on_the_page(cp_started, people, client_as):
    mark_all(cp_started, people, upto="s1.air_power")
    client_as("german").post(
        reverse("shortgames:mark", args=[cp_started.pk, "german", "s1.air_power"]),
        {"turn": 0, "action": "done"},
    )
    assert not TurnMark.objects.filter(step="s1.air_power").exists()
    assert steps_of(cp_started)
