"""Two players on two devices: what one marks, the other sees without reloading (issue 19).

The German and the Soviet player of an RB CG I campaign, each in their own browser, in the
Refit Phase after the initial scenario, whose first steps both sides finish together. The
German waits on 11.602 while the Soviet has not finished 11.601; the Soviet marks it on his
overview, and the German's page shows 11.602 as his current step within the poll's 5 s, with
no reload. The German's overview follows the Soviet's marks too, and the Soviet's half-typed
note stays in his form while his page fetches itself again after the German's mark.
"""

from playwright.sync_api import expect

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Role
from refit.walker import services as walker
from tests.browser.test_invite_flow import sign_in
from tests.refit.builders import finish_phase
from tests.refit.walker.test_services import walk_all
from tests.seats import join as join_seat

PASSWORD = "a-long-password-123"
LIVE = 12_000  # one poll (5 s) and the fetch that follows, on a busy machine
SLOW = 20_000  # a page load while other test runs share the machine


def make_campaign(django_user_model):
    people = {
        side: django_user_model.objects.create_user(username=name, password=PASSWORD)
        for side, name in (("german", "hans"), ("soviet", "ivan"), ("referee", "rita"))
    }
    campaign = services.create_campaign(
        user=people["german"],
        name="Barrikady, two tables",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="german",
    )
    for side, role in (("soviet", Role.PLAYER), ("referee", Role.REFEREE)):
        invitation = services.create_invitation(
            campaign, by=people["german"], role=role, side=side if role == Role.PLAYER else ""
        )
        join_seat(invitation, people[side])
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    return campaign, after, people


def test_the_waiting_side_sees_the_other_finish_without_reloading(
    live_server, new_page, django_user_model
):
    campaign, after, people = make_campaign(django_user_model)
    walker.mark(campaign, after, side="german", rule="11.601", by=people["german"])
    base = live_server.url
    overview = f"{base}/campaigns/{campaign.pk}/refit/"

    german = new_page()
    german.set_default_timeout(SLOW)
    sign_in(german, base, "hans", PASSWORD)
    german.goto(f"{overview}german/11.602/")
    expect(german.locator("#step-status")).to_have_attribute("data-status", "waiting")
    expect(german.locator("#step-status form.mark-done")).to_have_count(0)

    soviet = new_page()
    soviet.set_default_timeout(SLOW)
    sign_in(soviet, base, "ivan", PASSWORD)
    soviet.goto(overview)
    row = soviet.locator("#side-soviet tr[data-rule='11.601']")
    row.get_by_role("button", name="Done").click()
    expect(row).to_have_attribute("data-status", "done")

    # No reload on the German's page: it polls, and fetches its blocks again.
    url_before = german.url
    expect(german.locator("#step-status")).to_have_attribute("data-status", "current", timeout=LIVE)
    expect(german.locator("#step-status form.mark-done")).to_have_count(1)
    assert german.url == url_before

    # The German's overview follows the Soviet's marks.
    german.goto(overview)
    soviet_row = german.locator("#side-soviet tr[data-rule='11.602']")
    expect(soviet_row).to_have_attribute("data-status", "current")
    soviet.goto(f"{overview}soviet/11.602/")
    soviet.locator("#step-status form.mark-done").get_by_role("button", name="Done").click()
    expect(soviet_row).to_have_attribute("data-status", "done", timeout=LIVE)

    # The German marks 11.602; the Soviet types a note on 11.603, now his current step. The
    # German's mark of 11.603 moves the Soviet's token, his page fetches itself again, and the
    # note is still there as typed.
    german.locator("#side-german tr[data-rule='11.602']").get_by_role("button", name="Done").click()
    expect(german.locator("#side-german tr[data-rule='11.603']")).to_have_attribute(
        "data-status", "current"
    )
    soviet.goto(f"{overview}soviet/11.603/")
    note = soviet.locator("#id_mark_soviet_note")
    note.fill("Half a sentence about the VC")
    with soviet.expect_response(lambda r: "/refit/soviet/11.603/" in r.url, timeout=LIVE):
        german.locator("#side-german tr[data-rule='11.603']").get_by_role(
            "button", name="Done"
        ).click()
    expect(soviet.locator("#step-status")).to_have_attribute("data-status", "current")
    expect(note).to_have_value("Half a sentence about the VC")


def test_a_scenario_recorded_on_one_device_shows_on_the_others_list(
    live_server, new_page, django_user_model
):
    """The scenarios page follows the poll too (issue 19): the referee records the day's
    scenario; the Soviet's open list shows it without a reload."""
    from campaigns.records import services as records

    campaign, after, people = make_campaign(django_user_model)
    base = live_server.url
    soviet = new_page()
    soviet.set_default_timeout(SLOW)
    sign_in(soviet, base, "ivan", PASSWORD)
    soviet.goto(f"{base}/campaigns/{campaign.pk}/scenarios/")
    rows = soviet.locator("#scenario-list tbody tr")
    before = rows.count()
    url_before = soviet.url
    records.save_scenario(
        campaign,
        by=people["referee"],
        index=next(
            i
            for i in range(len(campaign.cg.periods))
            if not campaign.scenarios.filter(index=i).exists()
        ),
        scenario_type="assault",
        attacker="german",
    )
    expect(rows).to_have_count(before + 1, timeout=LIVE)
    assert soviet.url == url_before
