"""The referee enters the whole Historical DRM chart on a phone: typed cells and a pasted chart
are saved by one button, swapped in place with HTMX, and the same page works without JavaScript;
the grid scrolls inside its own box, never the page."""

from playwright.sync_api import expect

from campaigns.members import services
from campaigns.models import Role, SideDay
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign
from tests.seats import join as join_seat

PHONE = {"width": 390, "height": 844}


def value(campaign, index, side):
    return SideDay.objects.get(campaign=campaign, index=index, side=side).hist_drm


def test_the_referee_types_and_pastes_the_chart_on_a_phone(live_server, browser, django_user_model):
    campaign = make_campaign(django_user_model)
    rita = django_user_model.objects.create_user(username="rita", password=PASSWORD)
    invitation = services.create_invitation(
        campaign, by=campaign.created_by, role=Role.REFEREE, side=""
    )
    join_seat(invitation, rita)
    base = live_server.url
    url = f"{base}/campaigns/{campaign.pk}/historical-drm/"

    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    sign_in(page, base, "rita", PASSWORD)
    page.wait_for_url(base + "/", timeout=TIMEOUT)
    page.goto(url)
    page.evaluate("window.notReloaded = true")
    # The page itself never scrolls sideways; the grid has its own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator("#day-1 td.german")).to_contain_text("rules: −2")

    page.get_by_label("20 Oct 1942, Soviet").fill("+1")
    page.get_by_label("Paste the chart").fill("Date\tGerman\tSoviet\n10/21\t-1\t0\n10/22\t?\t+2\n")
    page.get_by_role("button", name="Save the chart").click()
    expect(page.locator("#histdrm-chart .messages")).to_contain_text(
        "Saved the Historical DRM chart: 4 values changed."
    )
    assert page.evaluate("window.notReloaded") is True  # swapped in place
    expect(page.get_by_label("21 Oct 1942, German")).to_have_value("−1")
    assert (value(campaign, 3, "soviet"), value(campaign, 4, "german")) == (1, -1)
    assert (value(campaign, 5, "soviet"), value(campaign, 5, "german")) == (2, None)

    page.get_by_label("Paste the chart").fill("10/23 x 0")
    page.get_by_role("button", name="Save the chart").click()
    expect(page.locator("#histdrm-chart .error-summary")).to_contain_text(
        "Line 1, German cell (10/23): “x” is not a DRM"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()

    # Without JavaScript: the same form, a redirect back to the page.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    sign_in(page, base, "rita", PASSWORD)
    page.wait_for_url(base + "/", timeout=TIMEOUT)
    page.goto(url)
    page.get_by_label("24 Oct 1942, German").fill("0")
    page.get_by_role("button", name="Save the chart").click()
    page.wait_for_url(url, timeout=TIMEOUT)
    expect(page.locator(".messages")).to_contain_text("1 value changed")
    assert value(campaign, 7, "german") == 0
    context.close()
