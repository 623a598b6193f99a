"""One Defiant Russia turn in the browser: the Soviet rolls August's weather and marks the
weather step (HTMX swaps the turn in place), the Axis marks his supply step and books his
replacement points, and the Sheets page links the status sheet."""

import re

from playwright.sync_api import expect

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import DiceRoll, PointEntry, Role, TurnMark
from campaigns.shortgames import services as short_games
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT
from tests.seats import join as join_seat


def make_game(django_user_model):
    hans = django_user_model.objects.create_user(username="hans", password=PASSWORD)
    ivan = django_user_model.objects.create_user(username="ivan", password=PASSWORD)
    campaign = services.create_campaign(
        user=hans,
        name="Barbarossa by two",
        module=get_module("defiant_russia"),
        cg_key="full-game",
        role=Role.PLAYER,
        side="axis",
    )
    invitation = services.create_invitation(campaign, by=hans, role=Role.PLAYER, side="soviet")
    join_seat(invitation, ivan)
    short_games.start(campaign, by=hans, options=["random_weather"])
    # Turn 3 (August): the first turn whose weather is rolled with random weather (8.2).
    campaign.period_index = 2
    campaign.save(update_fields=["period_index"])
    return campaign


def test_a_defiant_russia_turn_walked_in_the_browser(live_server, new_page, django_user_model):
    campaign = make_game(django_user_model)
    base = live_server.url
    turn_url = f"{base}/campaigns/{campaign.pk}/shortgames/"
    soviet, axis = new_page(), new_page()
    for page, name in ((soviet, "ivan"), (axis, "hans")):
        sign_in(page, base, name, PASSWORD)
        page.wait_for_url(base + "/", timeout=TIMEOUT)

    soviet.goto(turn_url)
    expect(soviet.locator("#weather")).to_have_text("not known yet")
    weather_step = soviet.locator("#step-weather")
    weather_step.get_by_role("button", name="Roll (Soviet)").click()
    expect(soviet.locator("#weather")).not_to_have_text("not known yet", timeout=TIMEOUT)
    assert soviet.url == turn_url  # swapped in place
    roll = DiceRoll.objects.get(campaign=campaign, table_id="dr.weather-august")
    expect(soviet.locator("#step-weather .rolls")).to_contain_text(f"→ {roll.final}")

    soviet.locator("#step-weather").get_by_role("button", name="Done (Soviet)").click()
    expect(soviet.locator("#step-weather .status").first).to_have_text("[done]", timeout=TIMEOUT)
    assert TurnMark.objects.filter(campaign=campaign, step="weather", side="soviet").exists()

    axis.goto(turn_url)
    expect(axis.locator("#step-axis_supply .status").first).to_have_text("[now]")
    axis.locator("#step-axis_supply").get_by_role("button", name="Done (Axis)").click()
    expect(axis.locator("#step-axis_supply .status").first).to_have_text("[done]", timeout=TIMEOUT)

    axis.goto(f"{base}/campaigns/{campaign.pk}/shortgames/points/")
    axis.get_by_role("button", name="Receive 2 replacement points").click()
    axis.wait_for_url(re.compile(r"/shortgames/points/"), timeout=TIMEOUT)
    expect(axis.locator("#points-axis .replacement-left")).to_have_text("2")
    assert PointEntry.objects.get(campaign=campaign, side="axis").amount == 2

    axis.goto(f"{base}/campaigns/{campaign.pk}/sheets/")
    link = axis.locator('a[href*="/sheets/"][href*="status"]').first
    expect(link).to_be_visible()
