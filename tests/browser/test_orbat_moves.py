"""A player moves several OB lines between the divider's boxes on a phone with one submit:
swapped in place with HTMX, and the same form works without JavaScript."""

from playwright.sync_api import expect

from campaigns.models import OrbatEntry
from campaigns.oid import oid
from campaigns.orbat import services as orbat
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign

PHONE = {"width": 390, "height": 844}


def test_checked_lines_move_with_one_submit_on_a_phone(live_server, browser, django_user_model):
    campaign = make_campaign(django_user_model)
    hans = campaign.created_by
    squads, leader, lmg = orbat.add_units(
        campaign, by=hans, side="german", box="retained", text="3 × 4-6-7; 9-1; 2 × LMG"
    )
    base = live_server.url
    url = f"{base}/campaigns/{campaign.pk}/orbat/german/"

    for javascript in (True, False):
        context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        sign_in(page, base, "hans", PASSWORD)
        page.wait_for_url(base + "/", timeout=TIMEOUT)
        page.goto(url)
        if javascript:
            page.evaluate("window.notReloaded = true")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        target = "casualties" if javascript else "wounded"
        lines = (squads, leader) if javascript else (leader,)
        for line in lines:
            page.locator(f"#check-{oid(line.pk)}").check()
        page.locator("#move select[name=box]").select_option(target)
        page.get_by_role("button", name="Move the checked lines").click()
        expect(page.locator(".messages")).to_contain_text("Moved to")
        if javascript:
            assert page.evaluate("window.notReloaded") is True  # swapped in place
        for line in lines:
            expect(page.locator(f"#box-{target} #entry-{oid(line.pk)}")).to_be_visible()
            assert OrbatEntry.objects.get(pk=line.pk).box == target
        assert OrbatEntry.objects.get(pk=lmg.pk).box == "retained"
        context.close()
