"""The campaign's end page and the dice pages in a browser (issue 22): they fit a phone in
English and Japanese, and the roller's random value is sent with a form, HTMX or not."""

import re

from django.urls import reverse
from django.utils import timezone

from campaigns.dice import services as dice
from campaigns.models import RefitPhase
from tests.browser.main_pages import session_cookie
from tests.browser.test_phone_width import LANGUAGES, OFFENDERS, PHONE, measure
from tests.url_world import build_world

CLIENT_VALUE = re.compile(r"dice_client=([0-9a-f]{64})")


def _world_with_rolls():
    world = build_world()
    campaign = world.rf
    for _ in range(3):
        dice.roll(
            campaign,
            by=world.people["referee"],
            kind="DR",
            step="11.618",
            index=0,
            visibility="public",
        )
    reph = RefitPhase.objects.get(campaign=campaign, finished_at__isnull=True)
    RefitPhase.objects.filter(pk=reph.pk).update(finished_at=timezone.now())
    dice.reveal_commitments(campaign, reph=reph)
    return world


def test_the_end_and_dice_pages_fit_a_phone(live_server, browser):
    world = _world_with_rolls()
    campaign = world.rf
    urls = [
        reverse("campaigns:reveal", args=[campaign.pk]),
        reverse("campaigns:dice_log", args=[campaign.pk]),
        reverse("campaigns:dice_verify", args=[campaign.pk]),
    ]
    found, measured = [], 0
    for language in LANGUAGES.values():
        for who in ("german", "referee", "observer"):
            context = browser.new_context(viewport=PHONE, locale=language)
            context.add_cookies([session_cookie(who, live_server.url)])
            page = context.new_page()
            for url in urls:
                width = measure(page, live_server.url + url)
                assert width is not None, url
                measured += 1
                if width > PHONE["width"]:
                    found.append(f"{language} {who} {url} {width} {page.evaluate(OFFENDERS, 390)}")
            context.close()
    assert measured == 18
    assert not found, "\n".join(found)


def test_a_form_sends_the_rollers_random_value(live_server, browser):
    world = build_world()
    campaign = world.rf
    RefitPhase.objects.filter(campaign=campaign).update(finished_at=timezone.now())
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([session_cookie("referee", live_server.url)])
    page = context.new_page()
    page.goto(live_server.url + reverse("campaigns:reveal", args=[campaign.pk]))
    with page.expect_request(lambda r: r.method == "POST") as sent:
        page.get_by_role("button", name="Reveal the campaign").click()
    assert CLIENT_VALUE.search(sent.value.post_data or ""), sent.value.post_data
    context.close()
    # Without JavaScript the form still works, without a value.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    context.add_cookies([session_cookie("german", live_server.url)])
    page = context.new_page()
    page.goto(live_server.url + reverse("campaigns:reveal", args=[campaign.pk]))
    assert "The campaign is revealed" in page.content()
    context.close()
