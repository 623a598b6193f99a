"""Cherkassy Pocket's scenario 1 played in the browser for three turns from an empty set of
referee tables: the referee types the weather table, the CRT and the terrain chart in the grids
(a bad cell refused by name, a row added), then the players walk each turn — the Soviet rolls
the weather on the referee's table, each side declares its order as the air power step is
marked (the Soviet fixed air points credited, split between the Fronts from turn 1, 11.16) — and
the Soviet attacks with the entered CRT and sees the result land, on turn 1 with the AIR shift
paid from the 2nd Ukrainian Front's share."""

import re

from playwright.sync_api import Page, expect

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import DiceRoll, GameUnit, PointEntry, RefereeTable, Role, TurnMark
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from tests.browser.test_invite_flow import sign_in
from tests.browser.test_refit_walk import PASSWORD
from tests.seats import join as join_seat

# A long walk on a shared machine: every wait is generous.
TIMEOUT = 30_000
COLUMNS = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]


def make_game(django_user_model):
    hans = django_user_model.objects.create_user(username="hans", password=PASSWORD)
    ivan = django_user_model.objects.create_user(username="ivan", password=PASSWORD)
    rita = django_user_model.objects.create_user(username="rita", password=PASSWORD)
    campaign = services.create_campaign(
        user=hans,
        name="Forging the Ring",
        module=get_module("cherkassy_pocket"),
        cg_key="scenario-1",
        role=Role.PLAYER,
        side="german",
    )
    for user, role, side in ((ivan, Role.PLAYER, "soviet"), (rita, Role.REFEREE, "")):
        join_seat(services.create_invitation(campaign, by=hans, role=role, side=side), user)
    short_games.start(campaign, by=hans, options=[])
    short_games.add_units(
        campaign,
        by=hans,
        units=[
            UnitData(
                side="german",
                name="I/105",
                unit_type="infantry",
                formation="72 ID",
                size="battalion",
                full="6-8-12",
                reduced="3-4-12",
                hex="2121",
            ),
            UnitData(
                side="soviet",
                name="20 TC",
                unit_type="tank",
                full="9-6-16",
                reduced="5-3-16",
                hex="2222",
            ),
        ],
    )
    return campaign


def section(page: Page, slot: str):
    return page.locator(f'section[id="{slot}"]')


def cell(table, row: int, column: str):
    return table.get_by_label(f"Row {row}, column {column}", exact=True)


def enter_tables(page: Page, tables_url: str) -> None:
    page.goto(tables_url)
    weather = section(page, "cp.weather-table")
    expect(weather.locator("h3 .unknown")).to_have_text("[missing]")
    for row in range(1, 7):
        cell(weather, row, "Weather").fill("snow" if row <= 4 else "mud")
    weather.get_by_role("button", name="Save the table").click()
    expect(section(page, "cp.weather-table").locator("h3 .status")).to_have_text(
        "[entered]", timeout=TIMEOUT
    )

    crt = section(page, "cp.crt")
    for row in range(1, 7):
        for column in COLUMNS:
            value = "1/1" if (row, column) == (4, "2:1") else "0/1"
            cell(crt, row, column).fill(value)
    cell(crt, 3, "1:2").fill("X")
    crt.get_by_role("button", name="Save the table").click()
    crt = section(page, "cp.crt")
    expect(crt.locator(".errorlist")).to_contain_text(
        "Row 3, column 1:2: 'X' is not a result", timeout=TIMEOUT
    )
    assert not RefereeTable.objects.filter(slot="cp.crt").exists()
    cell(crt, 3, "1:2").fill("0/1")
    crt.get_by_role("button", name="Save the table").click()
    expect(section(page, "cp.crt").locator("h3 .status")).to_have_text("[entered]", timeout=TIMEOUT)

    tec = section(page, "cp.tec")
    tec.get_by_role("button", name="Add a row").click()  # HTMX redraws the one table
    tec = section(page, "cp.tec")
    last = tec.get_by_label("Label of row 14", exact=True)
    expect(last).to_be_visible(timeout=TIMEOUT)
    last.fill("Village")
    for row in range(1, 15):
        cell(tec, row, "Combat").fill("—")
    cell(tec, 2, "Combat").fill("L1")  # Woods
    tec.get_by_role("button", name="Save the table").click()
    expect(section(page, "cp.tec").locator("h3 .status")).to_have_text("[entered]", timeout=TIMEOUT)


def current_step(page: Page):
    return page.locator("li.step.current").first


def mark_current(page: Page, side_name: str, upto: str | None = None) -> bool:
    """Mark the current step for this page's side if it is its to mark (rolling the weather
    and declaring the segment's order first); False when it is not, or when it is ``upto``."""
    step = current_step(page)
    if step.count() == 0:
        return False
    if upto is not None and step.get_attribute("id") == upto:
        return False
    done = step.get_by_role("button", name=f"Done ({side_name})")
    if done.count() == 0:
        return False
    step_id = step.get_attribute("id")
    if step_id == "step-weather" and step.locator(".rolls").count() == 0:
        step.get_by_role("button", name="Roll (Soviet)").click()
        expect(page.locator("#step-weather .rolls")).to_be_visible(timeout=TIMEOUT)
        step = page.locator("#step-weather")
        done = step.get_by_role("button", name=f"Done ({side_name})")
    order = step.get_by_label("Combat first, then movement")
    if order.count():
        order.check()
    done.click()
    # HTMX swaps the turn in place: the side's Done button of that step is gone once marked.
    marked = page.locator(f'li[id="{step_id}"]').get_by_role("button", name=f"Done ({side_name})")
    expect(marked).to_have_count(0, timeout=TIMEOUT)
    return True


def walk_turn(pages: dict[str, Page], turn_url: str, upto: str | None = None) -> None:
    """Both players mark every step of the turn (up to the step ``upto``, its element id), in
    order, each on their own page."""
    for page in pages.values():
        page.goto(turn_url)
    for _ in range(80):
        moved = False
        for side_name, page in pages.items():
            page.goto(turn_url)
            while mark_current(page, side_name, upto):
                moved = True
        if not moved:
            return
    raise AssertionError("the turn did not finish")


def attack(page: Page, combat_url: str) -> str:
    page.goto(combat_url)
    page.locator('select[name="side"]').select_option("soviet")
    page.get_by_label("Attack strength to add").fill("32")
    page.get_by_label("Defence strength to add").fill("8")
    page.locator('select[name="terrain"]').select_option("Woods")
    page.locator('input[name="shifts"][value="terrain"]').check()
    page.get_by_role("button", name="Find the column").click()
    # 4:1, woods L1, and R1 for the prepared attack: the Soviet declared combat first (11.27).
    expect(page.locator("#column")).to_have_text("4:1", timeout=TIMEOUT)
    expect(page.locator("#prepared-attack")).to_be_visible()
    # The strengths typed by hand are said to be the players' own figure, not checked.
    expect(page.locator("#typed-by-hand")).to_contain_text("attack +32, defence +8")
    page.get_by_role("button", name="Roll the die").click()
    result = page.locator("#crt-result")
    expect(result).to_have_text("Attacker loses 0, defender loses 1 (steps)", timeout=TIMEOUT)
    return result.inner_text()


def play_the_front_split(page: Page, root: str) -> None:
    """Turn 1, activation segment 2 (11.16): the fixed 6 of the segment are split 3/3 between
    the Fronts (segment 1's have lapsed); a Soviet combat of the 2nd UF takes the AIR shift and
    spends that Front's point with its die; the 2nd UF cannot spend more than it has left
    (refused naming 11.16)."""
    page.goto(f"{root}points/")
    expect(page.locator("#air-now-soviet")).to_contain_text("6 in activation segment 2")
    expect(page.locator("#front-1uf")).to_contain_text("1st Ukrainian Front: 3 received, 3 left")
    expect(page.locator("#front-2uf")).to_contain_text("2nd Ukrainian Front: 3 received, 3 left")
    page.goto(f"{root}combat/")
    page.locator('select[name="side"]').select_option("soviet")
    page.get_by_label("Soviet Front of this combat (11.16)").select_option("2uf")
    page.get_by_label("Attack strength to add").fill("32")
    page.get_by_label("Defence strength to add").fill("8")
    page.locator('select[name="terrain"]').select_option("Woods")
    page.locator('input[name="shifts"][value="terrain"]').check()
    page.locator('input[name="shifts"][value="air"]').check()
    page.get_by_role("button", name="Find the column").click()
    # 4:1, L1 woods, R1 air, R1 prepared attack (11.27)
    expect(page.locator("#column")).to_have_text("5:1", timeout=TIMEOUT)
    expect(page.locator("#combat-front")).to_contain_text("2nd Ukrainian Front")
    page.get_by_role("button", name="Roll the die").click()
    expect(page.locator("#crt-result")).to_have_text(
        "Attacker loses 0, defender loses 1 (steps)", timeout=TIMEOUT
    )
    page.goto(f"{root}points/")
    expect(page.locator("#front-2uf")).to_contain_text("2nd Ukrainian Front: 3 received, 2 left")
    expect(page.locator("#front-1uf")).to_contain_text("1st Ukrainian Front: 3 received, 3 left")
    booking = page.locator("#points-soviet form").filter(has=page.locator('input[value="used"]'))
    booking.get_by_label("Air points used").fill("3")
    booking.get_by_label("Front (11.16)").select_option("2uf")
    booking.get_by_role("button", name="Book").click()
    expect(page.locator("body")).to_contain_text("has 2 air point(s) left", timeout=TIMEOUT)
    expect(page.locator("#front-2uf")).to_contain_text("2 left")
    page.goto(root)
    expect(page.locator("#front-points")).to_contain_text("2nd Ukrainian Front: 3 received, 2 left")


def refused_across_the_map(page: Page, combat_url: str, tank: int) -> None:
    """What the attacker declares of the map (11.14): the 20 TC (a tank) across a river, and any
    attack across a lake, are refused naming the rule; no die is offered."""
    page.goto(combat_url)
    page.locator('select[name="side"]').select_option("soviet")
    page.locator(f'input[name="attackers"][value="{tank}"]').check()
    page.get_by_label("I/105").last.check()  # the defenders' list
    page.locator(f'input[name="river"][value="{tank}"]').check()
    page.get_by_role("button", name="Find the column").click()
    expect(page.locator("#cannot-roll")).to_contain_text(
        "may not attack across a river hexside", timeout=TIMEOUT
    )
    expect(page.get_by_role("button", name="Roll the die")).to_have_count(0)
    page.locator(f'input[name="river"][value="{tank}"]').uncheck()
    page.get_by_label("An attacker attacks across a lake hexside").check()
    page.get_by_role("button", name="Find the column").click()
    expect(page.locator("#cannot-roll")).to_contain_text("lake hexside", timeout=TIMEOUT)
    expect(page.get_by_role("button", name="Roll the die")).to_have_count(0)


def test_three_cherkassy_turns_from_empty_referee_tables(live_server, new_page, django_user_model):
    campaign = make_game(django_user_model)
    base = live_server.url
    root = f"{base}/campaigns/{campaign.pk}/shortgames/"
    german, soviet, referee = new_page(), new_page(), new_page()
    for page, name in ((german, "hans"), (soviet, "ivan"), (referee, "rita")):
        page.context.set_default_timeout(TIMEOUT)
        page.context.set_default_navigation_timeout(TIMEOUT)
        sign_in(page, base, name, PASSWORD)
        page.wait_for_url(base + "/", timeout=TIMEOUT)

    # Before the tables: the combat page names the missing CRT and offers no roll.
    soviet.goto(f"{root}combat/?count=1&side=soviet&attack=12&defense=6")
    expect(soviet.locator("#cannot-roll")).to_contain_text("11.9")
    enter_tables(referee, f"{root}tables/")

    pages = {"Soviet": soviet, "German": german}
    for turn in range(3):
        # Up to the Soviet operations of activation segment 2: its air points are spendable.
        walk_turn(pages, root, upto="step-s2-soviet_operations_1")
        if turn < 2:
            # 11.16 B: 3 per segment on turn 0, 6 on turn 1, credited as the steps are marked;
            # segment 1's leftovers lapsed, only segment 2's are available now.
            soviet.goto(f"{root}points/")
            expect(soviet.locator("#points-soviet .air-left")).to_have_text(str((3, 6)[turn]))
            expect(soviet.locator("#air-now-soviet")).to_contain_text("activation segment 2")
        if turn == 0:
            attack(soviet, f"{root}combat/")
        if turn == 1:
            play_the_front_split(soviet, root)
        if turn == 2:
            tank = GameUnit.objects.get(campaign=campaign, name="20 TC").pk
            refused_across_the_map(soviet, f"{root}combat/", tank)
            attack(soviet, f"{root}combat/")
        walk_turn(pages, root)
        assert TurnMark.objects.filter(campaign=campaign, index=turn).exists()
        weather = DiceRoll.objects.get(campaign=campaign, index=turn, table_id="cp.weather-table")
        assert weather.result["weather"] == ("snow" if weather.final <= 4 else "mud")
        marks = TurnMark.objects.filter(campaign=campaign, index=turn, step__endswith="air_power")
        assert {m.order for m in marks} == {"combat_first"}
        soviet.goto(root)
        expect(soviet.locator("#segment-orders")).to_contain_text(
            "Segment 2: Soviet — combat first, then movement"
        )
        if turn < 2:
            credited = PointEntry.objects.filter(
                campaign=campaign, index=turn, side="soviet", action="received"
            )
            assert sum(e.amount for e in credited) == 2 * (3, 6)[turn]
            assert {e.segment for e in credited} == {1, 2}
            # The turn is over: no activation segment, no air point left to spend.
            soviet.goto(f"{root}points/")
            expect(soviet.locator("#points-soviet .air-left")).to_have_text("0")
        soviet.goto(root)
        expect(soviet.locator("#cp-combats")).to_contain_text("defender loses 1")
        if turn < 2:
            german.goto(root)
            german.get_by_role("button", name="Advance the turn marker").click()
            german.wait_for_url(re.compile(r"/shortgames/"), timeout=TIMEOUT)
            campaign.refresh_from_db()
            assert campaign.period_index == turn + 1

    rolls = DiceRoll.objects.filter(campaign=campaign, table_id="", step="11.9").order_by("id")
    # Each attack's strengths were typed by hand: kept as the players' own figure.
    typed = {"typed": {"attack": 32, "defense": 8}}
    assert [r.result for r in rolls] == [
        {"attacker_steps": 0, "defender_steps": 1, **typed},
        {"attacker_steps": 0, "defender_steps": 1, "front": "2uf", **typed},  # the 2nd UF's
        {"attacker_steps": 0, "defender_steps": 1, **typed},
    ]
    spent = PointEntry.objects.get(campaign=campaign, action="used")
    assert (spent.index, spent.front, spent.amount) == (1, "2uf", -1)
    german.goto(f"{base}/campaigns/{campaign.pk}/dice/")
    expect(german.locator("main")).to_contain_text("4:1")


def test_the_referee_tables_fit_a_phone_in_both_languages_and_pass_axe(
    live_server, browser, django_user_model
):
    from tests.browser.main_pages import session_cookie
    from tests.browser.test_axe import BLOCKING, RUN, axe_source
    from tests.browser.test_phone_width import LANGUAGES, OFFENDERS, PHONE

    campaign = make_game(django_user_model)
    url = f"{live_server.url}/campaigns/{campaign.pk}/shortgames/tables/"
    found, violations = [], []
    for language, locale in LANGUAGES.items():
        for who in ("rita", "ivan"):
            context = browser.new_context(viewport=PHONE, locale=locale)
            context.set_default_timeout(TIMEOUT)
            context.add_cookies([session_cookie(who, live_server.url)])
            page = context.new_page()
            page.goto(url)
            expect(page.locator('section[id="cp.crt"]')).to_be_visible()
            if who == "rita":
                expect(page.locator('input[name="cell-0-0"]').first).to_be_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                found.append((language, who, width, page.evaluate(OFFENDERS, PHONE["width"])))
            page.add_script_tag(content=axe_source())
            violations += [
                (language, who, v) for v in page.evaluate(RUN) if v["impact"] in BLOCKING
            ]
            context.close()
    assert found == []
    assert violations == []
