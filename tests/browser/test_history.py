"""The German player pages back through a long history with HTMX: the filters and the page links
swap the list in place and the address bar follows; an undo on an old page comes back to it."""

from playwright.sync_api import expect

from campaigns.history import services as history
from campaigns.history.views import HISTORY_PAGE_SIZE
from campaigns.models import LedgerEntry
from campaigns.roster import services as roster
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign


def test_the_german_pages_filters_and_undoes_an_old_change(
    live_server, new_page, django_user_model
):
    campaign = make_campaign(django_user_model)
    hans = campaign.created_by
    entry = roster.add_ledger_entry(
        campaign, by=hans, side="german", ledger="cpp", index=1, kind="replenishment", amount=16
    )
    for _n in range(HISTORY_PAGE_SIZE + 5):  # the German CPP entry on the second page
        history.record(campaign, hans, "day.updated", index=2)
    base = live_server.url
    url = f"{base}/campaigns/{campaign.pk}/history/"
    page = new_page()
    sign_in(page, base, "hans", PASSWORD)
    page.wait_for_url(base + "/", timeout=TIMEOUT)

    page.goto(url)
    page.evaluate("window.notReloaded = true")
    expect(page.locator("#history-list nav.pages")).to_contain_text("Page 1 of 2")
    page.get_by_role("link", name="Older changes").click()
    page.wait_for_url(f"{url}?page=2", timeout=TIMEOUT)
    expect(page.locator("#history-list nav.pages")).to_contain_text("Page 2 of 2")
    expect(page.locator("#history")).to_contain_text("German CPP")

    page.locator("#id_filter_kind").select_option("roster")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(f"{url}?index=&side=&kind=roster", timeout=TIMEOUT)
    expect(page.locator("#history-list h3")).to_have_text("1 change")
    assert page.evaluate("window.notReloaded") is True  # swapped in place

    page.locator("#id_filter_kind").select_option("")
    page.get_by_role("button", name="Filter").click()
    page.get_by_role("link", name="Older changes").click()
    page.wait_for_url(f"{url}?index=&side=&kind=&page=2", timeout=TIMEOUT)
    assert page.evaluate("window.notReloaded") is True
    page.locator("#history tr", has_text="German CPP").get_by_role("button", name="Undo").click()
    page.wait_for_url(f"{url}?index=&side=&kind=&page=2#event-*", timeout=TIMEOUT)
    expect(page.locator(".messages")).to_contain_text("Undone:")
    expect(page.locator("#history-list nav.pages")).to_contain_text("Page 2 of 2")
    assert not LedgerEntry.objects.filter(pk=entry.pk).exists()
