"""Issue 16: what every SaP time frame brings, played in three browsers (the German, the Russian
and the referee) from the pre-CG Refit Phase to 9 July PM.

One walk of about a minute. What the issue is about goes through the pages: the CG9 armor-leader
rolls (one button per side), the German Armor Reserve shrinking and growing, the time frame's
RGs rolled with "Roll for all N RGs", the arrivals pages, the Russian's designations (CG-3.1,
CG-4.1, CG-4.2's south-edge minimum) and the one action that puts the arrivals in the Retained
box, the Stavka armor leaving at the end of its time frame (CG7.22), the dug-in T-34 M41s with
their LMG (CG7.23), CG-5.2's joiners, and the fixed weather of CG-5.1/CG-6.1 on the calendar
(booked, never asked). As every time frame opens, both sides' OB (its RGs, and the lines of the
OB page's time-frame reinforcements box) is checked against the rules' list (BROUGHT). Marking
the other steps of each RePh is not what is tested here: the services do it between the pages,
as in tests/refit/walker.
"""

import re

from playwright.sync_api import Page, expect

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import (
    CampaignDay,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    Role,
    SideDay,
)
from campaigns.orbat import services as orbat
from campaigns.records import services as records
from refit.models import ArmorReserveVehicle
from refit.reserve.leaders import leaders_arriving
from refit.walker import initiative
from refit.walker import services as walker
from tests.browser.test_invite_flow import sign_in
from tests.refit.builders import finish_phase, mark_past
from tests.seats import join as join_seat

PASSWORD = "a-long-password-123"
TIMEOUT = 20_000
SIDES = ("german", "russian")


def make_campaign(django_user_model):
    hans = django_user_model.objects.create_user(username="hans", password=PASSWORD)
    ivan = django_user_model.objects.create_user(username="ivan", password=PASSWORD)
    rita = django_user_model.objects.create_user(username="rita", password=PASSWORD)
    module = get_module("slaughter_at_ponyri")
    campaign = services.create_campaign(
        user=hans,
        name="Ponyri by three",
        module=module,
        cg_key=module.campaign_games[0].key,
        role=Role.PLAYER,
        side="german",
    )
    for user, role, side in ((ivan, Role.PLAYER, "russian"), (rita, Role.REFEREE, "")):
        join_seat(services.create_invitation(campaign, by=hans, role=role, side=side), user)
    # The SAN each side entered (below 4: no SAN roll, 11.6122).
    SideDay.objects.filter(campaign=campaign).update(san=3)
    people = {"german": hans, "russian": ivan, "soviet": ivan, "referee": rita}
    return campaign, people


def person(new_page, base: str, username: str) -> Page:
    page = new_page()
    page.set_default_timeout(TIMEOUT)
    sign_in(page, base, username, PASSWORD)
    page.wait_for_url(base + "/", timeout=TIMEOUT)
    return page


def mark_steps(campaign, people, *, until: str | None = None):
    """Mark both sides' open steps of the open RePh through the services, up to (not including)
    step ``until``; the RePh."""
    reph = walker.open_reph(campaign)
    for step in walker.steps(campaign, reph):
        if step.rule == until:
            break
        for side in SIDES:
            marks = list(reph.progress.all())
            state = next(
                s
                for s in walker.side_states(campaign, reph, side, marks)
                if s.step.rule == step.rule
            )
            if state.status != "current":
                continue
            if initiative.is_initiative_step(campaign, step.tables):
                walker.mark(
                    campaign, reph, side=side, rule=step.rule, by=people[side], skipped=True,
                    reason="not in SaP",
                )  # fmt: skip
                continue
            mark_past(campaign, reph, side, step.rule, people)
    return reph


def advance(campaign, people, index: int):
    """Walk on (steps marked, phases finished) until the RePh of time frame ``index`` is open."""
    reph = walker.open_reph(campaign)
    while reph.index < index or reph.kind == "scenario":
        if reph.kind != "scenario":
            mark_steps(campaign, people)
        reph = finish_phase(campaign, reph, by=people["referee"], winner="")
    return reph


def listed(page: Page, selector: str) -> list[str]:
    return page.locator(selector).all_inner_texts()


def reserve_total(page: Page, url: str) -> int:
    page.goto(url)
    return int(page.locator("[data-reserve-total]").get_attribute("data-reserve-total"))


def roll_all_rgs(page: Page, overview: str, side: str, n: int) -> None:
    """The time frame's RGs rolled in 11.618 with the step page's one button."""
    page.goto(f"{overview}{side}/11.618/")
    button = page.get_by_role("button", name=f"Roll for all {n} RGs")
    button.click()
    expect(page.get_by_role("button", name=re.compile(r"Roll for all \d+ RGs"))).to_have_count(0)


def arriving(campaign, side):
    return sorted(
        (line.unit_type, line.quantity)
        for line in OrbatEntry.objects.filter(campaign=campaign, side=side, box=OrbatBox.ARRIVING)
    )


# What each time frame brings each side's OB, as the rules list it (seed 004 L646–778; SaP
# CG-2 … CG-6): its RGs ("RG I1") and its unit lines, the armor leaders (rolled) aside.
BROUGHT = {
    0: {"german": {}, "russian": {}},
    1: {"german": {"RG I1": 2, "RG I3": 3, "RG I6": 1}, "russian": {}},
    2: {
        "german": {},
        "russian": {"RG I2": 6, "T-34 M43": 30, "KV-1 M42": 11, "KV-1 M42 (with AAMG)": 4},
    },
    3: {
        "german": {},
        "russian": {"T-70": 15, "T-34 M43": 5, "Valentine VIII(b)": 10, "SU-152": 2},
    },
    4: {
        "german": {"RG I1": 3, "RG I4": 2, "PzKpfw III L": 3, "PzKpfw IV F1": 3, "PzKpfw IV F2": 3},
        "russian": {"T-34 M41 (dug-in)": 6, "LMG": 6},
    },
    5: {"german": {}, "russian": {"RG I2": 2}},
}


def brought(campaign, side: str, index: int) -> dict[str, int]:
    """What the side's OB holds of time frame ``index``'s reinforcements: its RGs and its unit
    lines (wherever they went: a designation splits a line, "CG-3.1"), leaders aside."""
    period = campaign.cg.periods[index].key
    found: dict[str, int] = {}
    for rg in ReinforcementGroup.objects.filter(
        campaign=campaign, side=side, index=index, source=ReinforcementGroup.Source.TIME_FRAME
    ):
        found[f"RG {rg.rg_id}"] = found.get(f"RG {rg.rg_id}", 0) + 1
    for line in OrbatEntry.objects.filter(campaign=campaign, side=side).exclude(kind="leader"):
        if line.status_note == period or line.status_note.startswith(period + "."):
            found[line.unit_type] = found.get(line.unit_type, 0) + line.quantity
    return found


def check_ob(campaign, index: int, pages: dict[str, Page], home: str) -> None:
    """Both sides' OB as time frame ``index`` opens against the rules' list; the units are on
    the side's OB page, in the time-frame reinforcements' box."""
    for side in SIDES:
        assert brought(campaign, side, index) == BROUGHT[index][side], (index, side)
        units = {k: n for k, n in BROUGHT[index][side].items() if not k.startswith("RG ")}
        if not units:
            continue
        pages[side].goto(f"{home}/orbat/{side}/")
        shown: dict[str, int] = {}
        for line in pages[side].locator("#box-arriving li.orbat-line").all():
            unit = line.locator("strong.unit").inner_text()
            if not unit.endswith("armor leader"):
                shown[unit] = shown.get(unit, 0) + int(line.locator(".qty strong").inner_text())
        assert shown == units, (index, side)


def test_pre_cg_to_9_july_pm(live_server, new_page, django_user_model):
    campaign, people = make_campaign(django_user_model)
    base = live_server.url
    home = f"{base}/campaigns/{campaign.pk}"
    overview = f"{home}/refit/"
    reserve_url = f"{home}/armor-reserve/"
    german = person(new_page, base, "hans")
    russian = person(new_page, base, "ivan")
    referee = person(new_page, base, "rita")
    check_ob(campaign, 0, {"german": german, "russian": russian}, home)
    # The fixed weathers on the calendar from the start (booked, never asked): SSR SaP2's EC
    # Moderate; Overcast on 9 July (CG-5.1, CG-6.1); no SSR sets 7 and 8 July's weather.
    referee.goto(f"{home}/calendar/")
    for index in range(5):
        expect(referee.locator(f"#day-{index} td.ec")).to_have_text("Moderate")
    for index in range(4):
        expect(referee.locator(f"#day-{index} td.weather")).to_have_text("unknown")
    for index in (4, 5):
        expect(referee.locator(f"#day-{index} td.weather")).to_contain_text("Overcast")

    # 1. Before the CG (CG9): one button per side rolls every platoon's armor leader.
    # The pre-CG Refit Phase's overview offers them (the data's outside step) to each side.
    for page, side, platoons in ((german, "german", 19), (russian, "russian", 27)):
        page.goto(overview)
        expect(page.locator(f"#before-cg-{side}")).to_contain_text(
            f"not yet rolled ({platoons} AFV platoons)"
        )
        page.get_by_role("link", name="Roll them on the reinforcements page").click()
        page.get_by_role("button", name="Roll every armor leader").click()
        expect(page.locator("#armor-leaders tbody tr")).to_have_count(platoons)
    referee.goto(overview)
    expect(referee.locator("#before-cg-german")).to_contain_text("rolled for the 19 AFV platoons")
    expect(referee.locator("#before-cg-russian")).to_contain_text("rolled for the 27 AFV platoons")
    # The arrivals and the reserve are each side's secret.
    assert german.goto(f"{overview}arrivals/russian/").status == 404
    assert russian.goto(reserve_url).status == 404

    # 2. 7 July AM (CG-1): two StuG III G and a PzJg Tiger enter play from the reserve; they
    # land in the Retained box, where 11.621 finds them.
    assert reserve_total(referee, reserve_url) == 48
    german.goto(reserve_url)
    for vehicle_type in ("StuG III G", "StuG III G", "PzJg Tiger"):
        german.locator("#in-reserve li", has_text=vehicle_type).locator(
            "input:not(:checked)"
        ).first.check()
    german.get_by_role("button", name="Checked AFVs enter play in CG-1: 7 July 1943 AM").click()
    expect(german.locator("[data-reserve-total]")).to_have_attribute("data-reserve-total", "45")
    assert reserve_total(referee, reserve_url) == 45
    retained = OrbatEntry.objects.filter(
        campaign=campaign, side="german", box=OrbatBox.RETAINED, origin_rg__startswith="CG7.21"
    )
    assert sorted(retained.filter(kind="vehicle_or_gun").values_list("unit_type", flat=True)) == [
        "PzJg Tiger",
        "StuG III G",
        "StuG III G",
    ]

    # 3. 7 July PM (CG-2): the German's I1 ×2, I3 ×3, I6 ×1 arrive with their entry; the
    # Russian gets nothing. They are rolled in 11.618 with one button.
    advance(campaign, people, 1)
    check_ob(campaign, 1, {"german": german, "russian": russian}, home)
    german.goto(f"{overview}arrivals/german/")
    assert [text.split(" · ")[0] for text in listed(german, "#arrival-rgs li")] == [
        "I1#7",
        "I1#8",
        "I3#7",
        "I3#8",
        "I3#9",
        "I6#4",
    ]
    expect(german.locator("#arrival-rgs li").first).to_contain_text("not yet rolled")
    expect(german.locator("#arrivals")).to_contain_text("regardless of the presence of Russian")
    russian.goto(f"{overview}arrivals/russian/")
    expect(russian.locator("main")).to_contain_text("brings this side no reinforcements")
    mark_steps(campaign, people, until="11.618")
    roll_all_rgs(german, overview, "german", 6)
    german.goto(f"{overview}arrivals/german/")
    assert not any("not yet rolled" in text for text in listed(german, "#arrival-rgs li"))

    # One StuG comes back off-map immobilized (the reserve grows), a Marder enters (it shrinks).
    german.goto(reserve_url)
    german.locator("#in-play li", has_text="StuG III G").locator("input").first.check()
    german.get_by_label("Repair state").select_option("immobilized")
    german.get_by_role("button", name="Checked AFVs, retained off-map, go back").click()
    expect(german.locator("[data-reserve-total]")).to_have_attribute("data-reserve-total", "46")
    german.locator("#in-reserve li", has_text="Marder III(t) H").locator("input").first.check()
    german.get_by_role("button", name="Checked AFVs enter play in CG-2: 7 July 1943 PM").click()
    expect(german.locator("[data-reserve-total]")).to_have_attribute("data-reserve-total", "45")

    # 4. 8 July AM (CG-3): the Stavka armor arrives; the Russian designates 10 T-34 M43 for
    # turn 2 (CG-3.1) and puts everything into the Retained box with one button.
    advance(campaign, people, 2)
    check_ob(campaign, 2, {"german": german, "russian": russian}, home)
    assert arriving(campaign, "german") == []
    russian.goto(f"{overview}arrivals/russian/")
    expect(russian.locator("#arrivals")).to_contain_text("30 × T-34 M43")
    expect(russian.locator("#arrivals")).to_contain_text("11 × KV-1 M42")
    expect(russian.locator("#placement")).to_contain_text("Record the designations first")
    russian.get_by_label("T-34 M43 (of 30) — on turn 2").fill("10")
    russian.get_by_role("button", name="Record the designations").click()
    expect(russian.locator(".messages")).to_contain_text("Designations recorded.")
    russian.get_by_role("button", name="Put them into the Retained box").click()
    expect(russian.locator(".messages")).to_contain_text("units are in the Retained box.")
    assert arriving(campaign, "russian") == []
    russian.goto(f"{home}/orbat/russian/")
    retained = russian.locator("#box-retained")
    expect(retained).to_contain_text("enters on turn 2 (designated)")
    expect(retained).to_contain_text("CG-3.1")
    lines = OrbatEntry.objects.filter(campaign=campaign, side="russian", unit_type="T-34 M43")
    assert sorted(lines.values_list("quantity", "status_note")) == [(10, "CG-3.1"), (20, "CG-3")]
    # The referee sees what the Russian designated; the German never does.
    referee.goto(f"{overview}arrivals/russian/")
    expect(referee.locator("#placement")).to_contain_text("They are in the Retained box.")
    assert german.goto(f"{overview}arrivals/russian/").status == 404
    assert reserve_total(german, reserve_url) == 45

    on_to_9_july_pm(campaign, people, home, german, russian, referee)


def on_to_9_july_pm(campaign, people, home: str, german: Page, russian: Page, referee: Page):
    """From 8 July AM's RePh (the Stavka placed) to 9 July PM's, in the three browsers."""
    overview = f"{home}/refit/"
    reserve_url = f"{home}/armor-reserve/"
    reserve_before = reserve_total(german, reserve_url)

    # 1. 8 July PM (CG-4): 8 July AM's Stavka armor has left the CG (CG7.22); 8 July PM's
    # arrives. CG-4.2: at least 10 of them via the south edge.
    advance(campaign, people, 3)
    check_ob(campaign, 3, {"german": german, "russian": russian}, home)
    stavka = [
        (line.unit_type, line.quantity)
        for line in OrbatEntry.objects.filter(campaign=campaign, side="russian")
        if "stavka" in line.statuses and line.kind == "vehicle_or_gun"
    ]
    assert sorted(stavka) == [
        ("SU-152", 2),
        ("T-34 M43", 5),
        ("T-70", 15),
        ("Valentine VIII(b)", 10),
    ]
    russian.goto(f"{home}/history/")
    expect(russian.locator("main")).to_contain_text("Stavka armor removed from the CG at the end")
    russian.goto(f"{overview}arrivals/russian/")
    russian.get_by_label("T-70 (of 15) — on turn 2").fill("5")
    russian.get_by_label("AFVs entering via the south edge").fill("9")
    russian.get_by_role("button", name="Record the designations").click()
    expect(russian.locator(".messages")).to_contain_text("At least 10 of these AFVs")
    russian.get_by_label("AFVs entering via the south edge").fill("12")
    russian.get_by_role("button", name="Record the designations").click()
    expect(russian.locator(".messages")).to_contain_text("Designations recorded.")
    russian.get_by_role("button", name="Put them into the Retained box").click()
    expect(russian.locator(".messages")).to_contain_text("units are in the Retained box.")
    t70 = OrbatEntry.objects.filter(campaign=campaign, side="russian", unit_type="T-70")
    assert sorted(t70.values_list("quantity", "status_note")) == [(5, "CG-4.1"), (10, "CG-4")]

    # 2. 9 July AM (CG-5): Overcast, booked by CG-5.1 (never asked). The six dug-in T-34 M41s
    # and their six LMGs go to the Retained box, to set up inside the perimeter (11.621); the
    # German's I1 ×3 and I4 ×2 are rolled; his AFVs wait in the arriving box (CG-5.2).
    advance(campaign, people, 4)
    check_ob(campaign, 4, {"german": german, "russian": russian}, home)
    assert not OrbatEntry.objects.filter(campaign=campaign, unit_type="T-70").exists()
    referee.goto(f"{home}/calendar/")
    for index in (4, 5):
        expect(referee.locator(f"#day-{index} td.weather")).to_contain_text("Overcast")
        expect(referee.locator(f"#day-{index} td.weather abbr.by-ssr")).to_have_count(1)
    russian.goto(f"{overview}arrivals/russian/")
    expect(russian.locator("#arrivals")).to_contain_text("6 × T-34 M41 (dug-in)")
    russian.get_by_role("button", name="Put them into the Retained box").click()
    # 6 T-34s, 6 LMGs and the CG9 armor leaders of their two platoons (those rolled a leader).
    n = 12 + len(leaders_arriving(campaign, "russian", "CG-5"))
    expect(russian.locator(".messages")).to_contain_text(f"{n} units are in the Retained box.")
    russian.goto(f"{home}/orbat/russian/")
    retained = russian.locator("#box-retained")
    expect(retained).to_contain_text("T-34 M41 (dug-in)")
    expect(retained).to_contain_text("LMG")
    dug_in = OrbatEntry.objects.get(campaign=campaign, unit_type="T-34 M41 (dug-in)")
    assert (dug_in.box, dug_in.quantity, dug_in.statuses) == ("retained", 6, ["dug_in"])
    german.goto(f"{overview}arrivals/german/")
    expect(german.locator("#placement")).to_contain_text("join the German Armor Reserve")
    mark_steps(campaign, people, until="11.618")
    roll_all_rgs(german, overview, "german", 5)
    # The PzKpfw III L platoon enters play with its CG9 leader; the IV F1s and F2s never do.
    entered = [OrbatEntry.objects.get(campaign=campaign, side="german", unit_type="PzKpfw III L")]
    plan = SideDay.objects.get(campaign=campaign, index=0, side="german").arrival_plan
    rating = next(
        (r["leader"] for r in plan.get("armor_leaders", []) if r["type"] == "PzKpfw III L"), None
    )
    if rating:
        entered += list(
            OrbatEntry.objects.filter(
                campaign=campaign, side="german", box="arriving", unit_type=f"{rating} armor leader"
            )[:1]
        )
    orbat.move_entries(
        campaign,
        by=people["german"],
        side="german",
        lines={line.pk: line.version for line in entered},
        box=OrbatBox.RETAINED,
    )
    # Rain fell in 9 July AM: the referee records it (CG-6.1 reads it).
    day = CampaignDay.objects.get(campaign=campaign, index=4)
    records.update_day(campaign, day, by=people["referee"], version=day.version, rain=True)

    # 3. 9 July PM (CG-6): the six AFVs left off-map joined the reserve by themselves
    # (CG-5.2); EC Wet after the rain (CG-6.1, booked); the Russian's I2 ×2 arrive (turn 3+).
    advance(campaign, people, 5)
    check_ob(campaign, 5, {"german": german, "russian": russian}, home)
    assert reserve_total(german, reserve_url) == reserve_before + 6
    joined = ArmorReserveVehicle.objects.filter(campaign=campaign, origin="cg5")
    assert (
        sorted(joined.values_list("vehicle_type", flat=True))
        == ["PzKpfw IV F1"] * 3 + ["PzKpfw IV F2"] * 3
    )
    expect(german.locator("#in-reserve")).to_contain_text("PzKpfw IV F2")
    assert arriving(campaign, "german") == []
    referee.goto(f"{home}/calendar/")
    expect(referee.locator("#day-5")).to_contain_text("Wet")
    russian.goto(f"{overview}arrivals/russian/")
    expect(russian.locator("#arrivals")).to_contain_text("2 × RG I2")
    expect(russian.locator("#arrivals")).to_contain_text("turn 3 or later")
    # The dug-in T-34s are still dug in, and stay so (CG7.23).
    dug_in.refresh_from_db()
    assert dug_in.statuses == ["dug_in"]
