"""The benchmark's campaigns: the demo, and the demo's campaign grown to "big" and "huge".

``demo`` is the demo command's RB CG I (built through the services). ``big`` and ``huge`` start
as a new RB CG III campaign made by the services with its Refit Phase opened by the walker; the
volume a long campaign piles up is then bulk-inserted in the shapes the services write: the demo's
history events and rolls copied over (their Refit Phase step tags included), ledger movements
per day, RGs, OB lines and fortification lines. ``huge`` is ten times ``big``. The open Refit
Phase holds the demo's own rolls (29, as a played RePh has tens); the other copied rolls are
spread over the campaign's other days, dated before the RePh began. Likewise the fortifications
of the other days have their set-up Locations written (11.6244); only the open day's are still
to be set up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from itertools import cycle, islice

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import F

from campaigns.games.registry import get_module
from campaigns.members import services as members
from campaigns.models import (
    Campaign,
    CampaignEvent,
    DiceCommitment,
    DiceRoll,
    FortificationPurchase,
    LedgerEntry,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    Role,
    Scenario,
)
from refit.walker import services as walker

DEMO = "Demo — Into the Factory"
BIG = {
    "ledger": 1000,
    "events": 5900,
    "rolls": 3000,
    "rgs": 208,
    "lines": 400,
    "fortifications": 600,
}
SCALE = {"big": 1, "huge": 10}


@dataclass
class World:
    campaign: Campaign
    player: object
    side: str = "german"

    def describe(self) -> str:
        c = self.campaign
        return (
            f"{len(c.cg.periods)} CG days, {c.rgs.count()} RGs, {c.ledger.count()} ledger "
            f"entries, {c.events.count()} events, {c.rolls.count()} rolls, "
            f"{c.orbat.count()} OB lines, {c.fortification_purchases.count()} fortification lines"
        )

    def pages(self) -> list[tuple[str, str]]:
        c, side = self.campaign, self.side
        base = f"/campaigns/{c.pk}"
        reph = walker.open_reph(c)
        rule = walker.steps(c, reph)[0].rule
        step = f"{base}/refit/{side}/{rule}/"
        return [
            ("overview", f"{base}/"),
            ("calendar", f"{base}/calendar/"),
            ("scenarios", f"{base}/scenarios/"),
            ("CVP", f"{base}/cvp/"),
            ("RePh overview", f"{base}/refit/"),
            ("RePh step page", step),
            # The live page fetching itself again: its status and dice blocks (HTMX).
            ("RePh step page (HTMX partial)", (step, None, {"HX-Request": "true"})),
            # A mark refused or made, answered with the step's HTMX block (the same POST each
            # time: after the first, "already marked" — the answer is built all the same).
            (
                "RePh step mark (HTMX answer)",
                (step + "mark/", {"reph": reph.pk, "action": "done"}, {"HX-Request": "true"}),
            ),
            ("roster", f"{base}/roster/{side}/"),
            ("ledger", f"{base}/ledger/{side}/"),
            ("order of battle", f"{base}/orbat/{side}/"),
            ("purchases", f"{base}/purchases/{side}/"),
            ("fortifications", f"{base}/purchases/{side}/fortifications/"),
            ("RG Purchase Record", f"{base}/purchases/{side}/record/"),
            ("dice log", f"{base}/dice/"),
            ("history", f"{base}/history/"),
            ("perimeters", f"{base}/perimeters/"),
            # The after-action report (rosters.report): the whole campaign day by day, charts
            # drawn on the server; its PDF draws the same data.
            ("after-action report", f"{base}/report/?lang=en"),
            ("after-action report PDF", f"{base}/report/report.pdf?lang=en"),
            ("export", f"{base}/export/"),
        ]


def build(size: str) -> World:
    """The campaign of ``size``; one already in the database (``bench/pages.py --db``) is reused."""
    if not Campaign.objects.filter(name=DEMO).exists():
        call_command("demo", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    demo = Campaign.objects.get(name=DEMO)
    german = get_user_model().objects.get(username="german")
    if size == "demo":
        return World(demo, german)
    kept = Campaign.objects.filter(name=f"Bench {size}").first()
    return World(kept or grown(demo, german, SCALE[size], size), german)


def grown(demo: Campaign, player, scale: int, name: str) -> Campaign:
    campaign = members.create_campaign(
        user=player,
        name=f"Bench {name}",
        module=get_module("red_factories"),
        cg_key="rb-cg-3",
        role=Role.PLAYER,
        side="german",
    )
    days = len(campaign.cg.periods)
    n = {key: value * scale for key, value in BIG.items()}
    ledger = LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign,
            side=("german", "soviet")[i % 2],
            ledger=("cpp", "fpp")[(i // 2) % 2],
            index=i * days // n["ledger"],
            kind=("replenishment", "rg_purchase")[(i // 4) % 2],
            amount=(20, -5)[(i // 4) % 2],
            rg="" if (i // 4) % 2 == 0 else "I1",
        )
        for i in range(n["ledger"])
    )
    del ledger
    Scenario.objects.bulk_create(
        Scenario(campaign=campaign, index=index, scenario_type="assault", attacker="german")
        for index in range(0, days, 2)
    )
    chart = campaign.game.files["rg_charts"]["sides"]["german"]["groups"]
    groups = ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=campaign,
            side="german",
            rg_id=chart[i % len(chart)]["id"],
            number=100 + i,
            index=i * days // n["rgs"],
            source="purchased",
            cpp_cost=1 + i % 9,
            strength="FD"[i % 2],
            details={
                "received": {"units": {"4-6-7": 12}, "sw": {"LMG": 2}, "leaders": ["9-1"]},
                "note": f"RG {i}: observer and a note long enough to wrap in its cell",
            },
        )
        for i in range(n["rgs"])
    )
    fixed = [box for box in OrbatBox if box != OrbatBox.RG]
    OrbatEntry.objects.bulk_create(
        OrbatEntry(
            campaign=campaign,
            side="german",
            box=OrbatBox.RG if i % 2 else fixed[i % len(fixed)],
            group=groups[i % len(groups)] if i % 2 else None,
            unit_type="4-6-7",
            kind="infantry",
            quantity=1 + i % 9,
            status_note=f"line {i}",
        )
        for i in range(n["lines"])
    )
    # The lines of the open Refit Phase's day are still to be set up (the Total # boxes count
    # them); every other day's were set up at its scenario, where 11.6244 has their Locations
    # written in (and the pencilled totals erased), as in the rolls below the other days count
    # as played. With no Location anywhere, "still to be set up" grew with the campaign, which
    # a played campaign's does not.
    reph = walker.open_reph(campaign)

    def fortification(i: int) -> FortificationPurchase:
        index = i * days // n["fortifications"]
        return FortificationPurchase(
            campaign=campaign,
            side=("german", "soviet")[i % 2],
            index=index,
            item="ap-minefield" if i % 3 else "hip",
            detail="6 FP" if i % 3 else "",
            details={"order": {"factors": 6}} if i % 3 else {"order": {"unit": "squad"}},
            fpp=18 if i % 3 else 3,
            location="" if index == reph.index else f"RB {chr(ord('A') + i % 26)}{1 + i % 40}",
        )

    FortificationPurchase.objects.bulk_create(map(fortification, range(n["fortifications"])))
    roll_fields = [
        f.attname for f in DiceRoll._meta.concrete_fields if f.attname not in ("id", "campaign_id")
    ]
    rolls = list(DiceRoll.objects.filter(campaign=demo).order_by("pk").values(*roll_fields))
    # The demo's commitments copied too, so that a copied roll is checked against a commitment
    # of its own campaign, as every roll of a played campaign is (the dice log verifies it).
    commitment_fields = [
        f.attname
        for f in DiceCommitment._meta.concrete_fields
        if f.attname not in ("id", "campaign_id", "reph_id")
    ]
    theirs = DiceCommitment.objects.filter(campaign=demo).order_by("pk")
    ours = DiceCommitment.objects.bulk_create(
        DiceCommitment(campaign=campaign, **row) for row in theirs.values(*commitment_fields)
    )
    copied = dict(zip(theirs.values_list("pk", flat=True), (c.pk for c in ours), strict=True))
    for row in rolls:
        row["commitment_id"] = copied.get(row["commitment_id"])
    # The open Refit Phase gets one RePh's rolls, the demo's own (tens, as a played RePh has),
    # dated inside it; the others are spread over the campaign's other days like the other rows
    # and dated before the RePh began, as a played campaign's earlier rolls are (in the order
    # of their days; the RePh's own are the dice log's newest). All in the open RePh (as
    # before) made "the RePh's rolls" grow with the campaign: 30,000 of them at huge.
    other_days = [index for index in range(days) if index != reph.index]
    spread = n["rolls"] - len(rolls)

    def dated(i: int, row: dict) -> DiceRoll:
        index = (
            reph.index
            if i < len(rolls)
            else other_days[(i - len(rolls)) * len(other_days) // spread]
        )
        return DiceRoll(campaign=campaign, **{**row, "index": index})

    DiceRoll.objects.bulk_create(
        (dated(i, row) for i, row in enumerate(islice(cycle(rolls), n["rolls"]))),
        batch_size=500,
    )
    DiceRoll.objects.filter(campaign=campaign).exclude(index=reph.index).update(
        rolled_at=F("rolled_at") - timedelta(days=365)
    )
    event_fields = [
        f.attname
        for f in CampaignEvent._meta.concrete_fields
        if f.attname not in ("id", "campaign_id")
    ]
    events = list(CampaignEvent.objects.filter(campaign=demo).order_by("pk").values(*event_fields))
    CampaignEvent.objects.bulk_create(
        (CampaignEvent(campaign=campaign, **row) for row in islice(cycle(events), n["events"])),
        batch_size=500,
    )
    walker.open_reph(campaign)
    return campaign
