"""Create demo users and campaigns (idempotent): `python manage.py demo`."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns import services, state
from campaigns.games.registry import get_module
from campaigns.models import (
    Campaign,
    CampaignDay,
    CvpPhase,
    LedgerKind,
    OrbatBox,
    ReinforcementGroup,
    Role,
    ScenarioType,
    SideDay,
)
from refit import walker

DEMO_PASSWORD = "demo-campaign"
DEMO_USERS = {
    "german": "German player in both demo campaigns; created them",
    "soviet": "Soviet (RF) / Russian (SaP) player",
    "referee": "referee of the Red Factories demo",
    "observer": "observer of the Red Factories demo",
}
DEMO_CAMPAIGNS = [
    {
        "name": "Demo — Into the Factory",
        "module": "red_factories",
        "cg": "rb-cg-1",
        "members": [
            ("german", Role.PLAYER, "german"),
            ("soviet", Role.PLAYER, "soviet"),
            ("referee", Role.REFEREE, ""),
            ("observer", Role.OBSERVER, ""),
        ],
    },
    {
        "name": "Demo — A Timetable Disrupted",
        "module": "slaughter_at_ponyri",
        "cg": "timetable-disrupted",
        "members": [("german", Role.PLAYER, "german"), ("soviet", Role.PLAYER, "russian")],
    },
]


def _rf_history(campaign: Campaign, users: dict) -> None:
    """RB CG I after the initial scenario (17 Oct) and a second day (18 Oct)."""
    german, soviet, referee = users["german"], users["soviet"], users["referee"]
    for index, weather, ec in ((0, "Clear", "Moist"), (1, "Overcast", "Moist")):
        day = CampaignDay.objects.get(campaign=campaign, index=index)
        state.update_day(campaign, day, by=referee, version=day.version, weather=weather, ec=ec)
    for side, user, units in (
        ("german", german, "12 × 4-6-7; 9-1 leader; 8-0 leader; 3 × LMG; 2 × MMG"),
        ("soviet", soviet, "10 × 4-4-7; 2 × 5-2-7; 9-1 leader; 2 × LMG"),
    ):
        state.add_units(campaign, by=user, side=side, box=OrbatBox.RETAINED, text=units)
    state.save_scenario(
        campaign,
        by=referee,
        index=0,
        scenario_type=ScenarioType.INITIAL,
        attacker="german",
        sets_up_first="soviet",
        moves_first="german",
        turns_played=7,
        winner="german",
        locations={"german": {"gained": 17, "lost": 0}},
        notes="Initial scenario: the German holds 17 Stone Locations.",
    )
    scenario = campaign.scenarios.get(index=0)
    for side, what, cvp, phase in (
        ("german", "2 × 4-6-7", 4, CvpPhase.SCENARIO),
        ("german", "Pz III L (wreck)", 6, CvpPhase.SCENARIO),
        ("soviet", "5 × 4-4-7", 10, CvpPhase.SCENARIO),
        ("soviet", "45LL AT", 2, CvpPhase.REPH_BEFORE_VC),
    ):
        state.add_cvp(
            campaign,
            by=referee,
            side=side,
            index=0,
            scenario=scenario,
            phase=phase,
            what=what,
            cvp=cvp,
            manual="wreck" in what,
        )
    state.add_ledger_entry(
        campaign,
        by=german,
        side="german",
        ledger="cpp",
        index=0,
        kind=LedgerKind.RG_PURCHASE,
        amount=-5,
        rg="I2",
    )
    state.add_ledger_entry(
        campaign,
        by=german,
        side="german",
        ledger="cpp",
        index=1,
        kind=LedgerKind.REPLENISHMENT,
        amount=16,
    )
    state.add_ledger_entry(
        campaign,
        by=soviet,
        side="soviet",
        ledger="cpp",
        index=1,
        kind=LedgerKind.REPLENISHMENT,
        amount=9,
    )
    state.add_ledger_entry(
        campaign,
        by=soviet,
        side="soviet",
        ledger="fpp",
        index=0,
        kind=LedgerKind.FORTIFICATION_PURCHASE,
        amount=-44,
    )
    ReinforcementGroup.objects.create(
        campaign=campaign,
        side="german",
        rg_id="I2",
        number=state.next_rg_number(campaign, "german", "I2"),
        index=0,
        source=ReinforcementGroup.Source.PURCHASED,
        cpp_cost=5,
    )
    for side in ("german", "soviet"):
        side_day = SideDay.objects.get(campaign=campaign, index=1, side=side)
        state.update_side_day(
            campaign,
            side_day,
            by=referee,
            version=side_day.version,
            elr=3 if side == "soviet" else 4,
            san=4 if side == "soviet" else 3,
        )
    # Walk the Refit Phase as the players did: the initial steps, the scenario, the steps after
    # it — the campaign now stands at the start of 18 Oct's new-day steps.
    _walk(campaign, users, finishes=({}, {}, {"cg_won": False}))


def _walk(campaign: Campaign, users: dict, finishes: tuple[dict, ...]) -> None:
    referee = users["referee"] if campaign.memberships.filter(role=Role.REFEREE).exists() else None
    for outcome in finishes:
        reph = walker.open_reph(campaign)
        for step in walker.steps(campaign, reph):
            for side in campaign.game.side_keys:
                player = users["german"] if side == "german" else users["soviet"]
                walker.mark(campaign, reph, side=side, rule=step.rule, by=player)
        walker.finish(campaign, reph, by=referee or users["german"], **outcome)
    campaign.refresh_from_db()


def _sap_history(campaign: Campaign, users: dict) -> None:
    """A Timetable Disrupted after the 7 July AM time frame."""
    german, soviet = users["german"], users["soviet"]
    state.save_scenario(
        campaign,
        by=german,
        index=0,
        scenario_type=ScenarioType.TIME_FRAME,
        sets_up_first="russian",
        moves_first="german",
        turns_played=6,
        notes="7 July AM: the German reaches the railway embankment.",
    )
    state.add_cvp(
        campaign,
        by=soviet,
        side="german",
        index=0,
        phase=CvpPhase.SCENARIO,
        what="3 × 4-6-7",
        cvp=6,
    )
    state.add_ledger_entry(
        campaign,
        by=soviet,
        side="russian",
        ledger="cpp",
        index=1,
        kind=LedgerKind.REPLENISHMENT,
        amount=12,
    )
    # Before 7 July AM, the time frame itself: the Daytime RePh before 7 July PM is next.
    _walk(campaign, users, finishes=({}, {"cg_won": False}))


HISTORY = {"red_factories": _rf_history, "slaughter_at_ponyri": _sap_history}


class Command(BaseCommand):
    help = "Create demo users and campaigns; running it again changes nothing."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="URL to print")

    @transaction.atomic
    def handle(self, *args, url: str, **options) -> None:
        User = get_user_model()
        users = {}
        for username in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        for spec in DEMO_CAMPAIGNS:
            if Campaign.objects.filter(name=spec["name"]).exists():
                continue
            creator, role, side = spec["members"][0]
            campaign = services.create_campaign(
                user=users[creator],
                name=spec["name"],
                module=get_module(spec["module"]),
                cg_key=spec["cg"],
                role=role,
                side=side,
            )
            for username, member_role, member_side in spec["members"][1:]:
                invitation = services.create_invitation(
                    campaign, by=users[creator], role=member_role, side=member_side
                )
                services.accept_invitation(invitation, user=users[username])
                services.revoke_invitation(invitation, by=users[creator])
            HISTORY[spec["module"]](campaign, users)
        self.stdout.write(self.style.SUCCESS(f"Open {url}"))
        self.stdout.write(f"Demo logins (password for each: {DEMO_PASSWORD}):")
        for username, what in DEMO_USERS.items():
            self.stdout.write(f"  {username:<9} {what}")
