"""The Soviet player records the end of RB CG I's initial scenario on a phone: picks a loss from
the Soviet OB (the CVP pre-filled), swapped in place with HTMX, then the counts, and the VC give
the winner; the page never scrolls sideways, and works without JavaScript."""

from playwright.sync_api import expect

from campaigns.models import CvpEntry, OrbatBox, Scenario
from campaigns.oid import oid
from campaigns.orbat import services as orbat
from campaigns.records import services as records
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign

PHONE = {"width": 390, "height": 844}


def test_the_soviet_records_the_scenarios_end_on_a_phone(live_server, browser, django_user_model):
    campaign = make_campaign(django_user_model)
    scenario = records.save_scenario(
        campaign, by=campaign.created_by, index=0, scenario_type="initial", attacker="german"
    )
    ivan = django_user_model.objects.get(username="ivan")
    (line,) = orbat.add_units(campaign, by=ivan, side="soviet", box="retained", text="6 × 4-4-7")
    base = live_server.url
    url = f"{base}/campaigns/{campaign.pk}/scenarios/{oid(scenario.pk)}/end/"

    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    sign_in(page, base, "ivan", PASSWORD)
    page.wait_for_url(base + "/", timeout=TIMEOUT)
    page.goto(url)
    page.evaluate("window.notReloaded = true")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator("#ob-lines-german")).to_have_count(0)  # the German OB is secret
    expect(page.locator(f"#id_soviet-cvp_{oid(line.pk)}")).to_have_value("2")  # a squad (A26.2)
    page.locator(f"#id_soviet-outcome_{oid(line.pk)}").select_option("eliminated")
    page.locator(f"#id_soviet-quantity_{oid(line.pk)}").fill("2")
    page.get_by_role("button", name="Record these for Soviet").click()
    expect(page.locator("#scenario-end .messages")).to_contain_text(
        "Recorded the end of the scenario for Soviet: 4 CVP."
    )
    assert page.evaluate("window.notReloaded") is True
    expect(page.locator("#end-cvp")).to_contain_text("4")
    entry = CvpEntry.objects.get(campaign=campaign)
    assert (entry.cvp, entry.orbat_entry.box) == (4, OrbatBox.CASUALTIES)

    page.get_by_label("German: Stone Locations controlled at the end", exact=True).fill("15")
    page.get_by_role("button", name="Save the scenario's end").click()
    expect(page.locator("#verdict-text")).to_contain_text("The VC give: German wins.")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert Scenario.objects.get(pk=scenario.pk).winner == "german"
    context.close()

    # Without JavaScript: the same form, a redirect back to the page.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    sign_in(page, base, "ivan", PASSWORD)
    page.wait_for_url(base + "/", timeout=TIMEOUT)
    page.goto(url)
    page.get_by_label("German: Stone Locations controlled at the end", exact=True).fill("14")
    page.get_by_role("button", name="Save the scenario's end").click()
    page.wait_for_url(url + "#verdict", timeout=TIMEOUT)
    expect(page.locator("#verdict-text")).to_contain_text("The VC give: Soviet wins.")
    assert Scenario.objects.get(pk=scenario.pk).winner == "soviet"
    context.close()
