"""RB CG II's initial control, which the app cannot draw, entered by the referee on a phone
(390 px): the page says what is missing, hexes are picked on the map one after another and
added to the typed ranges, a preview shows the areas before anything is saved, then the side's
button saves it (issue 17)."""

from playwright.sync_api import expect

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Role
from refit.models import PerimeterState
from refit.walker import services as walker
from tests.browser.test_axe import BLOCKING, RUN, axe_source
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT


def test_the_referee_picks_previews_and_saves_the_initial_control_on_a_phone(
    live_server, new_page, django_user_model
):
    referee = django_user_model.objects.create_user(username="ref", password=PASSWORD)
    campaign = services.create_campaign(
        user=referee,
        name="Second",
        module=get_module("red_factories"),
        cg_key="rb-cg-2",
        role=Role.REFEREE,
        side="",
    )
    walker.open_reph(campaign)
    base = live_server.url
    page = new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, base, "ref", PASSWORD)
    page.wait_for_url(base + "/", timeout=TIMEOUT)
    page.goto(f"{base}/campaigns/{campaign.pk}/perimeters/")
    expect(page.locator("#initial-missing")).to_contain_text("1746 hexes")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    field = page.locator("#initial-hexes")
    field.fill("W1-W5")
    for name in ("U6", "U7"):
        page.locator("svg a", has=page.locator("title", has_text=name)).first.click()
        expect(page.locator("#selection")).to_contain_text(name, timeout=TIMEOUT)
    expect(field).to_have_value("W1-W5 U6 U7", timeout=TIMEOUT)

    form = page.locator("#initial-control form").last
    form.locator(".initial-preview").get_by_role("button", name="German").click()
    expect(page.locator("#initial-preview")).to_contain_text("7 hexes", timeout=TIMEOUT)
    expect(page.locator("#initial-preview")).to_be_in_viewport()  # scrolled to, on a phone
    expect(page.locator("path#h-W3")).to_have_class("hex side-0")
    expect(field).to_have_value("W1-W5 U6 U7")
    assert not PerimeterState.objects.filter(campaign=campaign).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="test-artifacts/initial-control-preview.png", full_page=False)
    # axe on the page as the referee sees it with the preview (the walk's RB CG I has no
    # initial control section).
    page.add_script_tag(content=axe_source())
    blocking = [v for v in page.evaluate(RUN) if v["impact"] in BLOCKING]
    assert not blocking, blocking

    page.locator("#initial-control form").last.locator(".initial-save").get_by_role(
        "button", name="German"
    ).click()
    expect(page.locator("#initial-preview")).to_have_count(0, timeout=TIMEOUT)
    state = PerimeterState.objects.get(campaign=campaign)
    assert {n for n, side in state.control.items() if side == "german"} == {
        "W1",
        "W2",
        "W3",
        "W4",
        "W5",
        "U6",
        "U7",
    }
