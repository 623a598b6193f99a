"""The Soviet player buys fortifications with his initial FPP in RB CG I: HTMX updates the FPP
left without a reload, a take-back gives the FPP back, the German never sees the page."""

from playwright.sync_api import expect

from campaigns.models import FortificationPurchase
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign


def test_the_soviet_buys_foxholes_and_takes_one_purchase_back(
    live_server, new_page, django_user_model
):
    campaign = make_campaign(django_user_model)
    base = live_server.url
    url = f"{base}/campaigns/{campaign.pk}/purchases/soviet/fortifications/"
    soviet, german = new_page(), new_page()
    for page, name in ((soviet, "ivan"), (german, "hans")):
        sign_in(page, base, name, PASSWORD)
        page.wait_for_url(base + "/", timeout=TIMEOUT)

    soviet.goto(url)
    expect(soviet.locator('[data-fpp="left"]')).to_have_text("50")
    row = soviet.locator('tr[data-item="foxhole"]')
    row.locator('input[name="quantity"]').fill("3")
    row.locator('select[name="size"]').select_option("3")
    row.get_by_role("button", name="Buy").click()
    expect(soviet.locator('[data-fpp="left"]')).to_have_text("41", timeout=TIMEOUT)
    expect(soviet.locator("#record")).to_contain_text("3S")
    assert soviet.url == url  # swapped in place, no reload
    wire = soviet.locator('tr[data-item="wire"]')
    wire.get_by_role("button", name="Buy").click()
    expect(soviet.locator('[data-fpp="left"]')).to_have_text("26", timeout=TIMEOUT)
    bought = FortificationPurchase.objects.filter(campaign=campaign).exclude(
        details__has_key="initial"  # the initial OB's 5 Fortified Building Locations
    )
    assert bought.count() == 2

    soviet.locator('tr[data-fortification="wire"]').get_by_role("button", name="Take back").click()
    expect(soviet.locator('[data-fpp="left"]')).to_have_text("41", timeout=TIMEOUT)
    assert bought.count() == 1

    response = german.goto(url)
    assert response is not None and response.status == 404
