"""Two players of Slaughter at Ponyri walk the pre-CG steps, play the 7 July AM time frame and
walk the Daytime RePh (the † steps) to the PM time frame; the Russian rolls and books his CPP
replenishment on the way, secret from the German."""

import re

from playwright.sync_api import expect

from campaigns.games import step_engine
from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Role, SideDay
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, finish, mark_done, rules, walk
from tests.seats import join as join_seat


def make_campaign(django_user_model):
    hans = django_user_model.objects.create_user(username="hans", password=PASSWORD)
    ivan = django_user_model.objects.create_user(username="ivan", password=PASSWORD)
    module = get_module("slaughter_at_ponyri")
    campaign = services.create_campaign(
        user=hans,
        name="Ponyri by two",
        module=module,
        cg_key=module.campaign_games[0].key,
        role=Role.PLAYER,
        side="german",
    )
    invitation = services.create_invitation(campaign, by=hans, role=Role.PLAYER, side="russian")
    join_seat(invitation, ivan)
    # The SAN each side entered for the first time frames (below 4: no SAN roll, 11.6122).
    SideDay.objects.filter(campaign=campaign, index__lte=2).update(san=3)
    return campaign


def test_two_players_walk_the_daytime_reph_between_am_and_pm(
    live_server, new_page, django_user_model
):
    campaign = make_campaign(django_user_model)
    base = live_server.url
    overview = f"{base}/campaigns/{campaign.pk}/refit/"
    german, russian = new_page(), new_page()
    for page, name in ((german, "hans"), (russian, "ivan")):
        sign_in(page, base, name, PASSWORD)
        page.wait_for_url(base + "/", timeout=TIMEOUT)

    # 1. Before 7 July AM: the * subset, then the AM time frame is played.
    german.goto(overview)
    expect(german.locator("#position")).to_contain_text("Before 7 July AM", timeout=TIMEOUT)
    pre_cg = walk(german, russian, overview, other="russian")
    data = campaign.game.files["refit_steps"]
    assert pre_cg == [s.rule for s in step_engine.steps_for(campaign.module, data, "pre_cg")]
    finish(german, overview, "Finish this Refit Phase", None, "Scenario being played")
    # "Scenario over" waits for the time frame's end (issue 15); without a referee the players
    # record it: SaP has no per-time-frame VC, so it is saved with no winner.
    russian.goto(overview)
    expect(russian.locator("#end-missing")).to_contain_text("end is not recorded")
    finish_form = russian.locator("#finish form")
    finish_form.get_by_label("No", exact=True).check()
    finish_form.get_by_role("button", name="Scenario over").click(timeout=TIMEOUT)
    expect(russian.locator(".messages")).to_contain_text("Record it first", timeout=TIMEOUT)
    expect(russian.locator("#position")).to_contain_text("being played")
    russian.locator("#finish-refused").get_by_role("link", name="Scenario end").click(
        timeout=TIMEOUT
    )
    russian.wait_for_url(re.compile(r"/scenarios/.+/end/$"), timeout=TIMEOUT)
    russian.get_by_role("button", name="Save the scenario's end").click()
    expect(russian.locator("#scenario-end .messages")).to_contain_text(
        "Recorded the end", timeout=TIMEOUT
    )
    finish(russian, overview, "Scenario over", "No", "Daytime RePh")

    # 2. The Daytime RePh: only the † steps. The Russian rolls his CPP replenishment at 11.616.
    german.goto(overview)
    daytime = rules(german, "german")
    assert daytime == [s.rule for s in step_engine.steps_for(campaign.module, data, "daytime")]
    assert "11.616" in daytime and "11.605" not in daytime
    for rule in daytime:
        for page, side in ((german, "german"), (russian, "russian")):
            if (side, rule) == ("russian", "11.616"):
                page.goto(f"{overview}russian/11.616/")
                table = page.locator("article[data-table='sap.cpp-replenishment']")
                table.get_by_role("button", name="Roll and book the CPP").click()
                expect(page.locator("#rolls tbody tr")).to_have_count(1, timeout=TIMEOUT)
                expect(page.locator("#step-dice .messages")).to_contain_text("CPP booked")
                form = page.locator("#step-status form.mark-done")
                form.get_by_role("button", name="Done").click()
                # Done on the step page opens the Russian's next step (or the overview).
                page.wait_for_url(lambda url: "/russian/11.616/" not in url, timeout=TIMEOUT)
                page.goto(f"{overview}russian/11.616/")
                expect(page.locator("#step-status")).to_have_attribute("data-status", "done")
                continue
            mark_done(page, overview, side, rule)
    # The German never sees the Russian's roll (only his own, which the rules require of him
    # too: the walk made it); the Russian finds his in his dice log.
    tables = campaign.game.files["tables"]["dice_tables"]
    name = next(t for t in tables if t["id"] == "sap.cpp-replenishment")["name"]["en"]
    russian.goto(f"{base}/campaigns/{campaign.pk}/dice/")
    expect(russian.locator("main tbody tr", has_text=name)).to_have_count(1)
    expect(russian.locator("main tbody tr", has_text=name)).to_contain_text("Russian")
    german.goto(f"{base}/campaigns/{campaign.pk}/dice/")
    expect(german.locator("main tbody tr", has_text=name)).to_have_count(1)
    expect(german.locator("main tbody tr", has_text=name)).not_to_contain_text("Russian")

    # 3. Finished: the PM time frame is played next.
    finish(russian, overview, "Finish this Refit Phase", None, "Scenario being played")
    expect(russian.locator("#position")).to_contain_text("PM", timeout=TIMEOUT)
