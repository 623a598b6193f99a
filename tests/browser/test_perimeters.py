"""The German player enters control on the perimeter map by typing a hex list and by clicking a
hex; the map is redrawn in place (HTMX) and the marker form starts from the clicked hex."""

from playwright.sync_api import expect

from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign
from tests.refit.builders import reph_at

# The first side's control marks: one path, a square (``h4v4h-4z``) per marked hex.
MARKS = """(n) => {
  const path = document.querySelector("svg path.ctl-0");
  const found = path ? path.getAttribute("d").split("h4v4h-4z").length - 1 : 0;
  return n === null ? found : found === n;
}"""


def control_marks(page) -> int:
    return page.evaluate(MARKS, None)


def expect_control_marks(page, count: int) -> None:
    page.wait_for_function(MARKS, arg=count, timeout=TIMEOUT)


def test_control_typed_and_clicked_on_the_map(live_server, new_page, django_user_model):
    campaign = make_campaign(django_user_model)
    reph_at(campaign, "after_scenario", 0)
    base = live_server.url
    url = f"{base}/campaigns/{campaign.pk}/perimeters/"
    german = new_page()
    sign_in(german, base, "hans", PASSWORD)
    german.wait_for_url(base + "/", timeout=TIMEOUT)

    german.goto(url)
    expect(german.locator("svg path.hex").first).to_be_visible()
    before = control_marks(german)
    control = german.locator('form[action$="/control/"]')
    control.locator('input[name="hexes"]').fill("A41 A42-A45")
    control.get_by_role("button", name="German").click()
    expect_control_marks(german, before + 5)
    assert german.url == url  # redrawn in place

    german.locator("svg a", has=german.locator("title", has_text="B43")).first.click()
    expect(german.locator('form[action$="/control/"] input[name="hexes"]')).to_have_value(
        "B43", timeout=TIMEOUT
    )
    expect(german.locator("#selection")).to_contain_text("B43", timeout=TIMEOUT)
    # Answered in place by HTMX (static/js/perimeter-map.js), not followed as a link.
    assert german.url == url
    german.screenshot(path="test-artifacts/perimeters.png", full_page=True)
