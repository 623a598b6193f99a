"""Builders shared by the campaign page tests: table cells, ledger entries, a big campaign."""

import re

from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import (
    CvpEntry,
    LedgerEntry,
    Membership,
    Role,
    Scenario,
)
from campaigns.roster import services as roster


def url(campaign, side="german"):
    return reverse("campaigns:roster", args=[campaign.pk, side])


def row_html(html: str, index: int) -> str:
    match = re.search(rf'<tr id="day-{index}"[^>]*>(.*?)</tr>', html, re.DOTALL)
    assert match, f"no row for day {index}"
    return match.group(1)


def cell(html: str, index: int, name: str) -> str:
    """The text of the cell with class ``name`` in day ``index``'s row, tags removed."""
    match = re.search(
        rf'<t[dh] class="[^"]*\b{name}\b[^"]*">(.*?)</t[dh]>', row_html(html, index), re.DOTALL
    )
    assert match, f"no {name} cell on day {index}"
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def add(campaign, user, side, ledger, index, kind, amount, rg="", note="", locations=None):
    return roster.add_ledger_entry(
        campaign,
        by=user,
        side=side,
        ledger=ledger,
        index=index,
        kind=kind,
        amount=amount,
        rg=rg,
        note=note,
        locations=locations,
    )


def make_big_campaign(people, entries_per_day=10):
    """RB CG III (30 CG days) with hundreds of ledger, CVP and scenario rows, all four members."""
    campaign = services.create_campaign(
        user=people["german"],
        name="The Barrikady, long haul",
        module=get_module("red_factories"),
        cg_key="rb-cg-3",
        role=Role.PLAYER,
        side="german",
    )
    Membership.objects.bulk_create(
        [
            Membership(campaign=campaign, user=people["soviet"], role=Role.PLAYER, side="soviet"),
            Membership(campaign=campaign, user=people["referee"], role=Role.REFEREE),
            Membership(campaign=campaign, user=people["observer"], role=Role.OBSERVER),
        ]
    )
    days = len(campaign.cg.periods)
    assert days == 30
    ledger = []
    cvp = []
    for index in range(days):
        for side in ("german", "soviet"):
            ledger.append(
                LedgerEntry(
                    campaign=campaign,
                    side=side,
                    ledger="cpp",
                    index=index,
                    kind="replenishment",
                    amount=15,
                    created_by=people[side],
                )
            )
            for n in range(entries_per_day):
                ledger.append(
                    LedgerEntry(
                        campaign=campaign,
                        side=side,
                        ledger="cpp" if n % 2 else "fpp",
                        index=index,
                        kind="rg_purchase" if n % 2 else "fortification_purchase",
                        amount=-1,
                        rg="I1" if n % 2 else "",
                        created_by=people[side],
                    )
                )
                cvp.append(
                    CvpEntry(
                        campaign=campaign,
                        side=side,
                        index=index,
                        phase="scenario",
                        what="4-6-7",
                        cvp=2,
                    )
                )
    LedgerEntry.objects.bulk_create(ledger)
    CvpEntry.objects.bulk_create(cvp)
    Scenario.objects.bulk_create(
        Scenario(
            campaign=campaign,
            index=index,
            scenario_type="assault",
            attacker="german",
            winner="soviet",
        )
        for index in range(0, days, 2)
    )
    campaign.period_index = days - 1
    campaign.save()
    assert LedgerEntry.objects.filter(campaign=campaign).count() > 600
    return campaign


# --- who may see it ------------------------------------------------------------------------


# Who opens a side's secret page: its players and the referee; everyone else gets 404.
SIDE_PAGE_ACCESS = [
    ("german", "german", 200),
    ("german", "soviet", 404),
    ("soviet", "soviet", 200),
    ("soviet", "german", 404),
    ("referee", "german", 200),
    ("referee", "soviet", 200),
    ("observer", "german", 404),
    ("observer", "soviet", 404),
    ("outsider", "german", 404),
    ("outsider", "soviet", 404),
]
