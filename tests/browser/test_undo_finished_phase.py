"""A purchase of a finished Refit Phase, in three browsers: the German who bought it can no longer
undo it, the Soviet never sees it, the referee undoes it with a reason, which the history keeps,
and the German's CPP come back."""

from playwright.sync_api import expect

from campaigns.members import services
from campaigns.models import CampaignEvent, ReinforcementGroup, Role
from campaigns.oid import oid
from refit.purchases import reading
from refit.purchases import services as purchases
from refit.rules.purchase_costs import Options
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD, TIMEOUT, make_campaign
from tests.refit.builders import reph_at
from tests.seats import join as join_seat


def test_only_the_referee_undoes_a_finished_phases_purchase_and_says_why(
    live_server, new_page, django_user_model
):
    campaign = make_campaign(django_user_model)
    hans = campaign.created_by
    rita = django_user_model.objects.create_user(username="rita", password=PASSWORD)
    invitation = services.create_invitation(campaign, by=hans, role=Role.REFEREE, side="")
    join_seat(invitation, rita)
    before = reading.side_cpp(campaign, "german", 0).left
    purchases.buy(campaign, "german", 0, "A6", Options(), hans)
    reph_at(campaign, "scenario", 0)  # the Refit Phase is over: the scenario is being played
    bought = CampaignEvent.objects.get(campaign=campaign, action="rg.purchased")
    base = live_server.url
    url = f"{base}/campaigns/{campaign.pk}/history/"
    row = f"#event-{oid(bought.pk)}"

    german = new_page()
    sign_in(german, base, "hans", PASSWORD)
    german.wait_for_url(base + "/", timeout=TIMEOUT)
    german.goto(url)
    expect(german.locator(row)).to_contain_text("bought A6#1 for 5 CPP")
    expect(german.locator(row).get_by_role("button", name="Undo")).to_have_count(0)

    soviet = new_page()
    sign_in(soviet, base, "ivan", PASSWORD)
    soviet.wait_for_url(base + "/", timeout=TIMEOUT)
    soviet.goto(url)
    expect(soviet.locator(row)).to_have_count(0)

    referee = new_page()
    sign_in(referee, base, "rita", PASSWORD)
    referee.wait_for_url(base + "/", timeout=TIMEOUT)
    referee.goto(url)
    reason = referee.get_by_label("Of a finished phase: why undo it?")
    expect(reason).to_be_visible()
    referee.locator(row).get_by_role("button", name="Undo").click()
    # The browser asks for the reason first (the server would refuse without one too).
    assert ReinforcementGroup.objects.filter(campaign=campaign, rg_id="A6").exists()
    reason.fill("bought for the wrong map group, both players agree")
    referee.locator(row).get_by_role("button", name="Undo").click()
    expect(referee.locator(".messages")).to_contain_text("Undone:", timeout=TIMEOUT)
    expect(referee.locator("#history")).to_contain_text(
        "Undid a change of a finished phase: bought for the wrong map group, both players agree"
    )
    assert not ReinforcementGroup.objects.filter(campaign=campaign, rg_id="A6").exists()
    assert reading.side_cpp(campaign, "german", 0).left == before

    german.reload()
    expect(german.locator("#history")).to_contain_text("Undid a change of a finished phase")
