"""A seeded RB CG I campaign for the sheet tests: known numbers on both sides.

German: 15 CPP at start; on 17 Oct buys I1 (7) and A5 (4) and spends 2 on recon (5 Locations);
on 18 Oct gets +16 and buys A6 (5): Start 2, Total 18, Left 13 (the 11.6162 example's numbers).
Soviet (the secrets the German must never see): +987 on 18 Oct, buys I6 for 12, FPP 787.
"""

import pytest

from campaigns.models import (
    FortificationPurchase,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    SideDay,
)
from campaigns.orbat import services as orbat
from campaigns.orbat.divider import side_groups
from campaigns.records import services as records
from tests.campaigns.builders import add, make_big_campaign


def _buy(campaign, side, rg_id, index, cost, **fields):
    return ReinforcementGroup.objects.create(
        campaign=campaign,
        side=side,
        rg_id=rg_id,
        number=orbat.next_rg_number(campaign, side, rg_id),
        index=index,
        source=ReinforcementGroup.Source.PURCHASED,
        cpp_cost=cost,
        **fields,
    )


@pytest.fixture
def seeded(campaign, people):
    german, soviet = people["german"], people["soviet"]
    add(campaign, german, "german", "cpp", 0, "rg_purchase", -7, "I1")
    add(campaign, german, "german", "cpp", 0, "rg_purchase", -4, "A5")
    add(campaign, german, "german", "cpp", 0, "recon", -2, locations=5)
    add(campaign, german, "german", "cpp", 1, "replenishment", 16)
    add(campaign, german, "german", "cpp", 1, "rg_purchase", -5, "A6")
    _buy(
        campaign,
        "german",
        "I1",
        0,
        7,
        strength="F",
        details={
            "received": {
                "units": {"4-6-7": 12},
                "sw": {"LMG": 2, "MMG": 1},
                "leaders": ["9-1", "8-0"],
            }
        },
    )
    _buy(campaign, "german", "A5", 0, 4, strength="D", option="on_map")
    _buy(campaign, "german", "A6", 1, 5)
    SideDay.objects.filter(campaign=campaign, side="german", index=1).update(elr=3, san=2)
    records.save_scenario(
        campaign,
        by=people["referee"],
        index=0,
        scenario_type="initial",
        attacker="german",
        winner="soviet",
    )
    records.add_cvp(
        campaign, by=soviet, side="german", index=0, phase="scenario", what="4-6-7", cvp=23
    )
    first_rg = side_groups(campaign, "german")[0]
    OrbatEntry.objects.create(
        campaign=campaign,
        side="german",
        box=OrbatBox.RG,
        group=first_rg,
        unit_type="4-6-7",
        kind="infantry",
        quantity=12,
    )
    OrbatEntry.objects.create(
        campaign=campaign,
        side="german",
        box=OrbatBox.CASUALTIES,
        unit_type="4-6-8",
        kind="infantry",
        quantity=3,
        statuses=["isolated"],
        status_note="<b>M7</b> & cellar",
    )
    add(campaign, german, "german", "fpp", 0, "fortification_rg", 30, "M1")
    add(campaign, german, "german", "fpp", 0, "fortification_purchase", -14)
    FortificationPurchase.objects.create(
        campaign=campaign,
        side="german",
        index=0,
        item="foxhole",
        detail="2S",
        quantity=2,
        fpp=4,
        location="M7",
    )
    FortificationPurchase.objects.create(
        campaign=campaign, side="german", index=0, item="foxhole", detail="1S", quantity=3, fpp=3
    )
    FortificationPurchase.objects.create(
        campaign=campaign,
        side="german",
        index=0,
        item="set-dc",
        detail="by 8-3-8 #2",
        fpp=7,
    )
    # The Soviet side's secrets.
    FortificationPurchase.objects.create(
        campaign=campaign, side="soviet", index=1, item="wire", fpp=15, location="Q9-secret"
    )
    add(campaign, soviet, "soviet", "cpp", 1, "replenishment", 987)
    add(campaign, soviet, "soviet", "cpp", 1, "rg_purchase", -12, "I6")
    add(campaign, soviet, "soviet", "fpp", 1, "fortification_rg", 787, "M1")
    _buy(campaign, "soviet", "I6", 1, 12, strength="F")
    OrbatEntry.objects.create(
        campaign=campaign,
        side="soviet",
        box=OrbatBox.RETAINED,
        unit_type="6-2-8",
        kind="infantry",
        quantity=658,
    )
    # The first day's Refit Phase is over: its RGs (the initial OB among them) await entry;
    # today's A6 and I6 are bought, not yet rolled.
    ReinforcementGroup.objects.filter(campaign=campaign, index=0).update(status="awaiting_entry")
    campaign.period_index = 1
    campaign.save()
    return campaign


BIG_RGS = 200
BIG_LINES = 400


@pytest.fixture
def big(people):
    """RB CG III: 30 CG days, hundreds of ledger rows, 200 German RGs, 400 divider lines."""
    return grown_campaign(people, BIG_RGS, BIG_LINES)


@pytest.fixture
def grown(people):
    """RB CG III with ten times the seeded campaign's rows: enough to see a query count grow."""
    return grown_campaign(people, 40, 80)


def grown_campaign(people, rgs, lines):
    campaign = make_big_campaign(people)
    chart = campaign.game.files["rg_charts"]["sides"]["german"]["groups"]
    groups = ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=campaign,
            side="german",
            rg_id=chart[n % len(chart)]["id"],
            number=100 + n,
            index=n % 30,
            source=ReinforcementGroup.Source.PURCHASED,
            cpp_cost=1 + n % 9,
            strength="FD"[n % 2],
            details={
                "received": {
                    "units": {"4-6-7": 12},
                    "sw": {"LMG": 2, "MMG": 1, "DC": 1},
                    "leaders": ["9-1", "8-0", "7-0"],
                },
                "note": f"mark-{n:03d} observer in a long note that has to wrap in its cell",
            },
            entered=n % 4 == 0,
            status="retained" if n % 4 == 0 else "awaiting_entry",
        )
        for n in range(rgs)
    )
    boxes = [box for box in OrbatBox if box != OrbatBox.RG]
    OrbatEntry.objects.bulk_create(
        OrbatEntry(
            campaign=campaign,
            side="german",
            box=OrbatBox.RG if n % 2 else boxes[n % len(boxes)],
            group=groups[n % rgs] if n % 2 else None,
            unit_type="4-6-7",
            kind="infantry",
            quantity=1 + n % 9,
            origin_rg=groups[n % rgs].label,
            statuses=["isolated"] if n % 3 else [],
            status_note=f"line-{n:03d}",
        )
        for n in range(lines)
    )
    return campaign
