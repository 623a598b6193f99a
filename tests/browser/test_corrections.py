"""The corrections page (campaigns.corrections) in a browser: in a campaign without a referee,
with its forms and open requests, it fits a phone in English and Japanese; and a request asked
by one player reaches the other through the page's live poll."""

from django.urls import reverse
from django.utils import timezone

from campaigns import access
from campaigns.corrections import services
from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, Membership, RefitPhase, Role
from campaigns.roster import services as roster
from tests.browser.main_pages import session_cookie
from tests.browser.test_phone_width import LANGUAGES, OFFENDERS, PHONE, measure
from tests.url_world import build_world


def _bare_world():
    world = build_world()
    campaign = world.rf
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    german = world.people["german"]
    roll = dice.roll(
        campaign, by=german, kind="DR", step="11.618", index=0, side="german", visibility="german"
    )
    roster.add_ledger_entry(
        campaign, by=german, side="german", ledger="cpp", index=1, kind="replenishment", amount=5
    )
    RefitPhase.objects.filter(campaign=campaign).update(finished_at=timezone.now())
    seat = access.viewer_for(german, campaign.pk)
    services.ask_void(seat, roll, "Clicked the wrong step: this was meant for 11.619")
    services.ask_adjustment(seat, ledger="cpp", index=1, amount=-2, reason="Counted twice")
    added = CampaignEvent.objects.filter(campaign=campaign, action="ledger.added").last()
    services.ask_undo(seat, added.pk, "A typo in the replenishment")
    return world


def test_the_corrections_page_fits_a_phone(live_server, browser):
    world = _bare_world()
    url = reverse("campaigns:corrections", args=[world.rf.pk])
    found, measured = [], 0
    for language in LANGUAGES.values():
        for who in ("german", "soviet", "observer"):
            context = browser.new_context(viewport=PHONE, locale=language)
            context.add_cookies([session_cookie(who, live_server.url)])
            page = context.new_page()
            width = measure(page, live_server.url + url)
            assert width is not None
            measured += 1
            if width > PHONE["width"]:
                found.append(f"{language} {who} {width} {page.evaluate(OFFENDERS, 390)}")
            context.close()
    assert measured == 6
    assert not found, "\n".join(found)


def test_the_other_side_sees_a_request_without_reloading(live_server, browser):
    """The Soviet player has the page open; the German asks; within the live poll's 5 s (and the
    fetch that follows) the request is on the Soviet's page, with its Agree button, no reload."""
    from playwright.sync_api import expect

    world = build_world()
    campaign = world.rf
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    german = world.people["german"]
    roll = dice.roll(
        campaign, by=german, kind="DR", step="11.618", index=0, side="german", visibility="german"
    )
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([session_cookie("soviet", live_server.url)])
    page = context.new_page()
    page.goto(live_server.url + reverse("campaigns:corrections", args=[campaign.pk]))
    expect(page.locator("#open-corrections")).not_to_contain_text("A die rolled off the table")
    services.ask_void(access.viewer_for(german, campaign.pk), roll, "A die rolled off the table")
    expect(page.locator("#open-corrections")).to_contain_text(
        "A die rolled off the table", timeout=12_000
    )
    # Agree: the open requests swap in place (HTMX), the roll is void.
    page.locator('#open-corrections button[value="agree"]').click()
    expect(page.locator("#open-corrections")).to_contain_text("the correction is made")
    roll.refresh_from_db()
    assert roll.voided_at is not None
    context.close()


def test_the_corrections_page_has_no_serious_axe_violation(live_server, browser):
    from tests.browser.test_axe import BLOCKING, RUN, axe_source

    world = _bare_world()
    url = live_server.url + reverse("campaigns:corrections", args=[world.rf.pk])
    source = axe_source()
    found = []
    for who in ("german", "soviet"):
        context = browser.new_context(viewport=PHONE, locale="en-US")
        context.add_cookies([session_cookie(who, live_server.url)])
        page = context.new_page()
        assert measure(page, url) is not None
        page.add_script_tag(content=source)
        found += [f"{who} {v}" for v in page.evaluate(RUN) if v["impact"] in BLOCKING]
        context.close()
    assert not found, "\n".join(found)
