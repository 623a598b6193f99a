"""Two players walk their campaign through Refit Phases, a scenario and an Idle Day.

The German and the Soviet player of an RB CG I campaign without a referee, each in their own
browser: both mark the steps before the initial scenario (the German rolls his RG strength on
11.620), a player finishes the RePh, then the scenario; both walk the steps after the scenario,
then the new CG day's steps; at 11.623 both choose Idle in secret (an Idle Day), so the next
day's steps follow; that day the German chooses Attack, the chits are revealed together, a German
Assault is generated and the scenario-day steps appear.
"""

import re

from playwright.sync_api import Page, expect

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CampaignDay, Role, SideDay
from refit.purchases import receipt
from refit.walker import services as walker
from refit.walker import strictness
from tests.browser.test_invite_flow import sign_in
from tests.seats import join as join_seat

PASSWORD = "a-long-password-123"
TIMEOUT = 5_000


def make_campaign(django_user_model):
    hans = django_user_model.objects.create_user(username="hans", password=PASSWORD)
    ivan = django_user_model.objects.create_user(username="ivan", password=PASSWORD)
    campaign = services.create_campaign(
        user=hans,
        name="Barrikady by two",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="german",
    )
    invitation = services.create_invitation(campaign, by=hans, role=Role.PLAYER, side="soviet")
    join_seat(invitation, ivan)
    # The rules do not give the Historical DRMs: the players entered them (the German's first
    # day −1), with the days' ELR and SAN and the initial scenario's weather (SSR I.1).
    SideDay.objects.filter(campaign=campaign, index__lte=2).update(hist_drm=0, elr=3, san=3)
    SideDay.objects.filter(campaign=campaign, index=0, side="german").update(hist_drm=-1)
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="Clear", ec="Moderate")
    return campaign


def choose_chit(page: Page, overview: str, side: str, chit: str) -> None:
    """Choose the side's initiative chit in secret on the 11.623 step page."""
    page.goto(overview.rstrip("/") + f"/{side}/11.623/")
    form = page.locator("#initiative form")
    form.get_by_label(chit, exact=True).check()
    form.locator("button:not([name=then])").click()
    # The German chooses first and waits; the Soviet's choice reveals both at once.
    if side == "german":
        expect(page.locator("#step-status")).to_contain_text(
            "Chit chosen in secret", timeout=TIMEOUT
        )
    else:
        expect(page.locator("#initiative .revealed")).to_contain_text("→", timeout=TIMEOUT)


def rules(page: Page, side: str) -> list[str]:
    return page.locator(f"#side-{side} tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.rule)"
    )


def roll_required(page: Page, overview: str, side: str, rule: str) -> None:
    """Make, in the side's browser, the rolls the rules require before the step is marked
    (issue 15): the RG rolls of the strength step on the purchase page, each mandatory roll on
    the step page. Which ones the app itself says (the same question the mark asks)."""
    campaign_id = int(overview.rstrip("/").split("/")[-2])
    from campaigns.models import Campaign

    campaign = Campaign.objects.get(pk=campaign_id)
    reph = walker.open_reph(campaign)
    step = next(s for s in walker.steps(campaign, reph) if s.rule == rule)
    if rule == receipt.STRENGTH_STEP.get(campaign.module):
        labels = [rg.label for rg in receipt.pending(campaign, reph, side)]
        if labels:
            page.goto(overview.replace("/refit/", f"/purchases/{side}/"))
        for label in labels:
            page.get_by_role("button", name=f"Roll for {label}", exact=True).click()
            expect(page.get_by_role("button", name=f"Roll for {label}", exact=True)).to_have_count(
                0, timeout=TIMEOUT
            )
    tables = strictness.missing_tables(campaign, reph, side, step)
    for table in tables:
        page.goto(overview.rstrip("/") + f"/{side}/{rule}/")
        made = len(walker_rolls(campaign, reph, side, rule))
        article = page.locator(f"article[data-table='{table}']")
        summary = article.locator("details.roll:not([open]) > summary")
        if summary.count():
            summary.click()
        article.locator("details.roll form button[type=submit]:not([name=then])").last.click()
        # The roll is in before anything else is asked of the step.
        expect(page.locator("#rolls tbody tr")).to_have_count(made + 1, timeout=TIMEOUT)


def walker_rolls(campaign, reph, side, rule) -> list:
    from campaigns.models import DiceRoll

    return list(
        DiceRoll.objects.filter(
            campaign=campaign,
            index=reph.index,
            side=side,
            step=rule,
            rolled_at__gte=reph.started_at,
        )
    )


def mark_done(page: Page, overview: str, side: str, rule: str) -> None:
    """Press Done on the side's current step in the overview (htmx swaps the list in place).

    The page is reloaded only when it does not show the step as current yet (another page, or
    this side was waiting for the other side, which marked in its own browser). The rolls the
    rules require are made first (``roll_required``)."""
    roll_required(page, overview, side, rule)
    row = page.locator(f"#side-{side} tr[data-rule='{rule}']")
    if (
        page.url.split("#")[0] != overview
        or row.count() == 0
        or row.get_attribute("data-status") != "current"
    ):
        page.goto(overview)
    expect(row).to_have_attribute("data-status", "current", timeout=TIMEOUT)
    row.get_by_role("button", name="Done").click()
    expect(page.locator(f"#side-{side} tr[data-rule='{rule}']")).to_have_attribute(
        "data-status", "done", timeout=TIMEOUT
    )


def walk(
    german: Page,
    soviet: Page,
    overview: str,
    chits: dict[str, str] | None = None,
    other: str = "soviet",
) -> list[str]:
    """Both players mark every step of the open RePh done, step by step, in turn; at 11.623
    each first chooses its chit (``chits``: {side: label}). ``other`` is the second side's key."""
    german.goto(overview)
    steps = rules(german, "german")
    assert steps == rules(german, other)
    for rule in steps:
        for page, side in ((german, "german"), (soviet, other)):
            if rule == "11.623" and chits:
                choose_chit(page, overview, side, chits[side])
            mark_done(page, overview, side, rule)
    return steps


def finish(page: Page, overview: str, button: str, answer: str | None, expected: str) -> None:
    page.goto(overview)
    finish_form = page.locator("#finish form")
    if answer:
        finish_form.get_by_label(answer, exact=True).check()
    finish_form.get_by_role("button", name=button).click()
    expect(page.locator("#position")).to_contain_text(expected, timeout=TIMEOUT)


def test_two_players_walk_the_refit_phases_to_a_scenario_day(
    live_server, new_page, django_user_model
):
    campaign = make_campaign(django_user_model)
    base = live_server.url
    overview = f"{base}/campaigns/{campaign.pk}/refit/"

    german = new_page()
    sign_in(german, base, "hans", PASSWORD)
    german.wait_for_url(base + "/", timeout=TIMEOUT)
    soviet = new_page()
    sign_in(soviet, base, "ivan", PASSWORD)
    soviet.wait_for_url(base + "/", timeout=TIMEOUT)

    # 1. Before the initial scenario: the four † steps, secret to each side.
    german.goto(overview)
    expect(german.locator("#position")).to_contain_text(
        "Before the initial scenario · 17 Oct 1942", timeout=TIMEOUT
    )
    assert rules(german, "german") == ["11.619", "11.620", "11.621", "11.622"]
    expect(german.locator("#side-soviet tr[data-rule='11.619'] .status")).to_have_text("secret")

    # 2. The German buys his RGs, then rolls an RG's strength on 11.620's RG Strength Table.
    mark_done(german, overview, "german", "11.619")
    german.locator("#side-german tr[data-rule='11.620'] a", has_text="11.620").click()
    german.wait_for_url(re.compile(r"/refit/german/11\.620/$"), timeout=TIMEOUT)
    strength = german.locator("article[data-table='rf.rg-strength']")
    expect(strength.locator(".drm-plan")).to_contain_text("−1 Historical DRM (11.6161)")
    strength.locator("details.roll > summary").click()
    strength.get_by_label("Rolled for (optional)").fill("Infantry company XYZZY")
    strength.get_by_role("button", name="Roll DR").click()
    rolls = german.locator("#rolls tbody tr")
    expect(rolls).to_have_count(1, timeout=TIMEOUT)
    expect(rolls.first).to_contain_text("Infantry company XYZZY")
    expect(rolls.first).to_contain_text("−1 Historical DRM (11.6161)")
    expect(german.locator("#step-dice .messages")).to_contain_text("RG Strength Table: DR")
    # Then he rolls for each of his RGs on the purchase page (11.620 is not marked before) and
    # marks 11.620 done on the step page, which opens his next step, 11.621, in the same action.
    roll_required(german, overview, "german", "11.620")
    german.goto(overview.rstrip("/") + "/german/11.620/")
    german.locator("#step-status form.mark-done").get_by_label("What happened (optional)").fill(
        "One company rolled"
    )
    german.locator("#step-status form.mark-done").get_by_role("button", name="Done").click()
    german.wait_for_url(re.compile(r"/refit/german/11\.621/$"), timeout=TIMEOUT)
    expect(german.locator(".messages")).to_contain_text("11.620")
    expect(german.locator("#step-status")).to_have_attribute("data-status", "current")
    german.goto(overview.rstrip("/") + "/german/11.620/")
    expect(german.locator("#step-status")).to_have_attribute("data-status", "done")
    expect(german.locator("#step-status")).to_contain_text("One company rolled")
    for rule in ("11.621", "11.622"):
        mark_done(german, overview, "german", rule)

    # The Soviet player walks his own four steps; the German's roll never reaches him.
    for rule in ("11.619", "11.620", "11.621", "11.622"):
        mark_done(soviet, overview, "soviet", rule)
    expect(soviet.locator("main")).not_to_contain_text("XYZZY")
    expect(soviet.locator("main")).not_to_contain_text("One company rolled")

    # 3. No referee in this campaign: a player finishes the RePh; the scenario is played.
    finish(soviet, overview, "Finish this Refit Phase", None, "Scenario being played")
    # The initial scenario exists now; its end (the Stone Locations held) decides the winner,
    # which 11.611's battle hardening needs.
    german.goto(overview)
    german.get_by_role("link", name="Record the scenario's end").click()
    german.wait_for_url(re.compile(r"/scenarios/.+/end/$"), timeout=TIMEOUT)
    german.get_by_label("German: Stone Locations controlled at the end", exact=True).fill("15")
    german.get_by_role("button", name="Save the scenario's end").click()
    expect(german.locator("#verdict-text")).to_contain_text("German wins", timeout=TIMEOUT)
    finish(german, overview, "Scenario over", None, "After the scenario · 17 Oct 1942")

    # 4. After the scenario: the unmarked steps, once; nobody has won the CG.
    after = walk(german, soviet, overview)
    assert after[0] == "11.601" and after[-1] == "11.611"
    finish(german, overview, "Finish this Refit Phase", "No", "New CG day · 18 Oct 1942")

    # 5. The new CG day's * steps; both choose Idle at 11.623: an Idle Day, decided by the chits.
    new_day = walk(german, soviet, overview, chits={"german": "Idle", "soviet": "Idle"})
    assert new_day[0] == "11.612" and new_day[-1] == "11.623"
    finish(soviet, overview, "Finish this Refit Phase", None, "New CG day · 19 Oct 1942")

    # 6. The next CG day's steps; the German attacks: a German Assault is generated.
    german.goto(overview)
    assert rules(german, "german") == new_day
    walk(german, soviet, overview, chits={"german": "Attack", "soviet": "Idle"})
    soviet.goto(overview.rstrip("/") + "/soviet/11.623/")
    expect(soviet.locator("#initiative")).to_contain_text("German Assault")
    finish(german, overview, "Finish this Refit Phase", None, "Scenario day · 19 Oct 1942")
    expect(german.locator("#side-german tr[data-rule='11.624']")).to_have_attribute(
        "data-status", "current", timeout=TIMEOUT
    )
    assert rules(german, "german") == ["11.624", "11.625"]
    soviet.goto(overview)
    expect(soviet.locator("#position")).to_contain_text("Scenario day · 19 Oct 1942")
