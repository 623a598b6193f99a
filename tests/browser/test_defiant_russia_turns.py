"""Three Defiant Russia turns in the browser (random weather: turns 5, 6 and 7), each result
checked where the next step needs it:

- turn 5, light mud (the referee records it): the Axis books its air points, spends 2 of them in
  the dice helper (the points page shows what is left), makes the one legal light-mud
  breakthrough attack (German armour stacked with Guderian) and is refused an illegal one
  (infantry in the stack, 6.6), raids the Black Sea Fleet in the Axis combat phase (11.52: a
  distance beyond 4 refused, the die spends its air point and reduces the fleet); the Soviet
  player enters the airborne unit due on turn 6;
- turn 6: the airborne unit is due and enters in Kiev's hex (10.2, 11.3);
- turn 7, snow: the airborne unit drops from there, and the roll's result lands on its roster
  line, in the hex typed with the roll.

Between turns every other step is marked and the turn advanced by the services, as in
tests/campaigns/shortgames/test_turns.py: what is tested here is what the players type.
"""

import re

from playwright.sync_api import expect

from campaigns.dice import services as dice
from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import DiceRoll, GameUnit, PointEntry, Role
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_marks, turn_steps
from campaigns.shortgames.units import UnitData
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD
from tests.campaigns.dice.test_services import Loaded
from tests.seats import join as join_seat

# Longer than the other walks' 5 s: three people's pages on a machine shared with other work.
TIMEOUT = 30_000


def make_game(django_user_model):
    hans = django_user_model.objects.create_user(username="hans", password=PASSWORD)
    ivan = django_user_model.objects.create_user(username="ivan", password=PASSWORD)
    karl = django_user_model.objects.create_user(username="karl", password=PASSWORD)
    campaign = services.create_campaign(
        user=hans,
        name="Barbarossa in the autumn",
        module=get_module("defiant_russia"),
        cg_key="full-game",
        role=Role.PLAYER,
        side="axis",
    )
    for user, role, side in ((ivan, Role.PLAYER, "soviet"), (karl, Role.REFEREE, "")):
        join_seat(services.create_invitation(campaign, by=hans, role=role, side=side), user)
    short_games.start(campaign, by=hans, options=["random_weather"])
    campaign.period_index = 4  # October, turn 5
    campaign.save(update_fields=["period_index"])
    return campaign, {"axis": hans, "soviet": ivan, "referee": karl}


def steps_of(campaign):
    game = short_games.setup_of(campaign)
    day = turn_steps.current_day(campaign)
    return turn_steps.turn_steps(
        campaign, game, turn_steps.weather_now(campaign, day, game), turn_steps.marks_of(campaign)
    )


def mark_until(campaign, people, upto=None):
    """Every step that takes place, in order, up to ``upto`` (None: all of them)."""
    campaign.refresh_from_db()
    for step in steps_of(campaign):
        if step.id == upto:
            return
        if not step.applies or step.status == "done":
            continue
        for side in step.sides_to_mark or campaign.game.side_keys:
            if side in step.marks:
                continue
            turn_marks.mark(
                campaign,
                index=campaign.period_index,
                side=side,
                step_id=step.id,
                by=people[side],
            )


def next_turn(campaign, people):
    mark_until(campaign, people)
    turn_marks.advance(campaign, index=campaign.period_index, by=people["referee"])
    campaign.refresh_from_db()


def record_weather(page, turn_url, name):
    page.goto(turn_url)
    step = page.locator("#step-weather")
    step.get_by_label("Record the weather").select_option(label=name)
    step.get_by_role("button", name="Record", exact=True).click()
    expect(page.locator("#weather")).to_have_text(name, timeout=TIMEOUT)


def count_and_roll(page, combat_url, *, units, nationality="", leaders=(), air=0, br=False):
    page.goto(combat_url)
    form = page.locator("form[method=get]")
    form.get_by_label("Units").fill(units)
    if nationality:
        form.get_by_label("Nationality").select_option(nationality)
    for leader in leaders:
        form.get_by_label(leader).check()
    form.get_by_label("Air points").fill(str(air))
    if br:
        form.get_by_label("Breakthrough combat").check()
    form.get_by_role("button", name="Count the dice").click()


def test_three_defiant_russia_turns(live_server, new_page, django_user_model):
    campaign, people = make_game(django_user_model)
    base = live_server.url
    turn_url = f"{base}/campaigns/{campaign.pk}/shortgames/"
    combat_url = f"{turn_url}combat/"
    points_url = f"{turn_url}points/"
    units_url = f"{turn_url}units/"
    axis, soviet, referee = new_page(), new_page(), new_page()
    for page, name in ((axis, "hans"), (soviet, "ivan"), (referee, "karl")):
        page.set_default_timeout(TIMEOUT)
        page.set_default_navigation_timeout(TIMEOUT)
        sign_in(page, base, name, PASSWORD)
        page.wait_for_url(base + "/", timeout=TIMEOUT)

    # --- Turn 5: light mud -----------------------------------------------------------------
    record_weather(referee, turn_url, "Light mud")

    axis.goto(points_url)
    axis.get_by_role("button", name="Receive 6 air points").click()
    axis.wait_for_url(re.compile(r"/shortgames/points/"), timeout=TIMEOUT)
    expect(axis.locator("#points-axis .air-left")).to_have_text("6")

    # A normal attack with 2 air points: the dice count them, the roll spends them.
    count_and_roll(axis, combat_url, units="6a, 3", nationality="german", air=2)
    expect(axis.locator("#dice h3")).to_contain_text("11 dice")
    axis.get_by_label("Which combat").fill("Bryansk")
    axis.get_by_role("button", name="Roll the dice").click()
    expect(axis.locator("#hits")).to_be_visible(timeout=TIMEOUT)
    expect(axis.locator("#air-spent")).to_have_text("2 air points spent.")
    axis.goto(points_url)
    expect(axis.locator("#points-axis .air-left")).to_have_text("4")

    # The light-mud breakthrough: German armour stacked with Guderian may attack (6.6.3) ...
    count_and_roll(
        axis, combat_url, units="6a, 5a", nationality="german", leaders=["Guderian"], br=True
    )
    expect(axis.locator("#dice h3")).to_contain_text("12 dice")  # 11 + Guderian's 1 (11.61)
    axis.get_by_role("button", name="Roll the dice").click()
    expect(axis.locator("#hits")).to_be_visible(timeout=TIMEOUT)
    rolled = DiceRoll.objects.filter(campaign=campaign, step="7.11").count()
    assert rolled == 11 + 12
    # ... infantry with them may not: refused, naming the rule, and nothing to roll.
    count_and_roll(
        axis, combat_url, units="6a, 4", nationality="german", leaders=["Guderian"], br=True
    )
    expect(axis.locator("#refusals")).to_contain_text("(6.6)")
    expect(axis.get_by_role("button", name="Roll the dice")).to_have_count(0)
    # ... nor air points in breakthrough combat (11.7).
    count_and_roll(
        axis,
        combat_url,
        units="6a",
        nationality="german",
        leaders=["Guderian"],
        air=1,
        br=True,
    )
    expect(axis.locator("#refusals")).to_contain_text("(11.7)")
    assert DiceRoll.objects.filter(campaign=campaign, step="7.11").count() == rolled
    assert PointEntry.objects.get(campaign=campaign, side="axis", action="used").amount == -2
    # The turn page's record keeps both attacks in the order rolled, each in its phase.
    axis.goto(turn_url)
    record = axis.locator("#turn-record tbody tr")
    expect(record).to_have_count(2)
    expect(record.nth(0)).to_contain_text("Bryansk")
    expect(record.nth(0)).to_contain_text("2 air points")
    expect(record.nth(1)).to_contain_text("Axis breakthrough combat phase")
    expect(record.nth(1)).to_contain_text("Guderian")

    # 11.52: in the Axis combat phase, an air raid on the Black Sea Fleet, the nearest Axis
    # unit's distance declared; one air point spent with each die, the hit on the fleet.
    (fleet,) = short_games.add_units(
        campaign,
        by=people["referee"],
        units=[
            UnitData(
                side="soviet",
                name="Black Sea Fleet",
                unit_type="fleet",
                nationality="soviet",
                hex="1712",
            )
        ],
    )
    mark_until(campaign, people, upto="axis_combat")
    axis.goto(turn_url)
    step = axis.locator("#step-axis_combat")
    raid = step.locator(".roll", has_text="Fleet raided")
    raid.get_by_label("Nearest Axis unit to the fleet").fill("5")
    raid.get_by_role("button", name="Roll (Axis)").click()
    expect(axis.locator(".messages")).to_contain_text("within 4. (11.52)", timeout=TIMEOUT)
    assert not DiceRoll.objects.filter(campaign=campaign, table_id="dr.fleet-air-raid").exists()
    step = axis.locator("#step-axis_combat")
    raid = step.locator(".roll", has_text="Fleet raided")
    raid.get_by_label("Nearest Axis unit to the fleet").fill("4")
    with dice.use_roller(Loaded(6)):  # 5–6: a step loss (11.52)
        raid.get_by_role("button", name="Roll (Axis)").click()
        expect(axis.locator("#step-axis_combat .rolls")).to_contain_text("→ 6", timeout=TIMEOUT)
    fleet.refresh_from_db()
    assert fleet.state == "reduced"
    axis.goto(points_url)
    expect(axis.locator("#points-axis .air-left")).to_have_text("3")

    # The Soviet player enters the airborne unit due on turn 6 (11.3) in the roster.
    soviet.goto(units_url)
    soviet.locator("details", has_text="Add Soviet units").locator("summary").click()
    soviet.locator("#quick-soviet").fill("4th Airborne Corps | airborne | soviet | 2-4 | 1-4 | T6")
    soviet.get_by_role("button", name="Add these units").first.click()
    airborne = GameUnit.objects.get(campaign=campaign, name="4th Airborne Corps")
    row = soviet.locator(f"tr.queue-coming:has-text('{airborne.name}')")
    expect(row).to_contain_text("(11.3)", timeout=TIMEOUT)
    expect(soviet.locator("tr.queue-not_entered")).to_have_count(0)

    # --- Turn 6: the airborne unit arrives ---------------------------------------------------
    next_turn(campaign, people)
    assert campaign.period_index == 5
    record_weather(referee, turn_url, "Clear")
    soviet.goto(units_url)
    due = soviet.locator(f"tr.queue-due:has-text('{airborne.name}')")
    expect(due).to_contain_text("may enter")
    due.get_by_label("Hex").fill("2507")
    due.get_by_role("button", name="Arrives").click()
    expect(soviet.locator(f"tr:has-text('{airborne.name}')").first).to_contain_text(
        "has entered", timeout=TIMEOUT
    )
    airborne.refresh_from_db()
    assert (airborne.state, airborne.hex) == ("full", "2507")

    # --- Turn 7, snow: the drop ----------------------------------------------------------------
    next_turn(campaign, people)
    assert campaign.period_index == 6
    mark_until(campaign, people, upto="soviet_movement")
    soviet.goto(turn_url)
    expect(soviet.locator("#weather")).to_have_text("Snow")
    step = soviet.locator("#step-soviet_movement")
    drop = step.locator(".roll", has_text="Airborne drop")
    drop.get_by_label("Rolled for").fill("2813")
    with dice.use_roller(Loaded(2)):  # 2–3: reduced (11.3)
        drop.get_by_role("button", name="Roll (Soviet)").click()
        expect(step.locator(".rolls")).to_contain_text("→ 2", timeout=TIMEOUT)
    airborne.refresh_from_db()
    assert (airborne.state, airborne.hex) == ("reduced", "2813")
    soviet.goto(units_url)
    expect(soviet.locator(f"tr:has-text('{airborne.name}')").last).to_contain_text("2813")
