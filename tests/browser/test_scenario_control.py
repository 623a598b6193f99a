"""The scenario end's control record in Chromium: the German player follows the end page's link,
clicks a hex on the map and ticks a hex along the front, takes one back; when the RePh after the
scenario opens, its perimeter starts with the recorded control (nothing typed but the clicks)."""

from django.urls import reverse
from playwright.sync_api import expect

from campaigns.models import Scenario
from refit.models import ScenarioControl
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_perimeters import control_marks, expect_control_marks
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign
from tests.refit.builders import reph_at


def test_the_control_record_carries_into_the_next_perimeter(
    live_server, new_page, django_user_model
):
    campaign = make_campaign(django_user_model)
    reph_at(campaign, "scenario", 0)
    scenario, _ = Scenario.objects.get_or_create(
        campaign=campaign, index=0, sequence=1, defaults={"scenario_type": "initial"}
    )
    base = live_server.url
    perimeters = f"{base}/campaigns/{campaign.pk}/perimeters/"
    german = new_page()
    sign_in(german, base, "hans", PASSWORD)
    german.wait_for_url(base + "/", timeout=TIMEOUT)

    # SSR I.4's control as the scenario is played.
    german.goto(perimeters)
    expect(german.locator("svg path.hex").first).to_be_visible()
    before = control_marks(german)

    german.goto(base + reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk]))
    expect(german.get_by_text("0 hexes changed control.")).to_be_visible()
    german.get_by_role("link", name="Record the control changes").click()
    expect(german.locator("svg path.hex").first).to_be_visible()

    # A click on the map fills the form (the small partial, not the whole map)...
    german.locator("svg a", has=german.locator("title", has_text="E20")).first.click()
    hexes = german.locator("#control-hexes")
    expect(hexes).to_have_value("E20", timeout=TIMEOUT)
    # ...and a hex along the front is ticked.
    front = german.locator(".front-hexes label", has_text="Soviet").first.locator("input")
    front_hex = front.get_attribute("value")
    front.check()
    german.get_by_role("button", name="German").click()
    rows = german.locator("#scenario-control tbody tr")
    expect(rows).to_have_count(2, timeout=TIMEOUT)
    expect(german.locator("#scenario-control")).to_contain_text("E20")
    assert german.url.endswith("/control/")  # redrawn in place

    # One is taken back.
    german.get_by_role("button", name="Take back E20").click()
    expect(rows).to_have_count(1, timeout=TIMEOUT)
    (record,) = ScenarioControl.objects.filter(scenario=scenario)
    assert [c["hex"] for c in record.changes] == [front_hex]
    assert record.changes[0]["from"] == "soviet"

    # The scenario ends; the RePh after it starts from the recorded control.
    reph_at(campaign, "after_scenario", 0)
    german.goto(perimeters)
    expect_control_marks(german, before + 1)
    german.goto(base + reverse("perimeters:scenario_control", args=[campaign.pk, scenario.pk]))
    german.set_viewport_size({"width": 390, "height": 844})
    width = german.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    german.screenshot(path="test-artifacts/scenario-control.png", full_page=True)
