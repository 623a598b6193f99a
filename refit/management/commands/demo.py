"""Create demo users and campaigns (idempotent): `python manage.py demo`."""

import contextlib

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.dice import services as dice
from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import (
    Campaign,
    CampaignDay,
    CvpPhase,
    LedgerKind,
    OrbatBox,
    PointEntry,
    PointKind,
    ReinforcementGroup,
    Role,
    ScenarioType,
    SideDay,
)
from campaigns.orbat import services as orbat
from campaigns.records import services as records
from campaigns.roster import services as roster
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_marks, turn_points, turn_rolls, turn_steps
from campaigns.shortgames.units import parse_quick_entry
from refit.purchases import receipt
from refit.walker import automatic, strictness
from refit.walker import services as walker

DEMO_PASSWORD = "demo-campaign"
DEMO_USERS = {
    "german": "German player in every demo (the Axis in Defiant Russia); created them",
    "soviet": "Soviet (RF, DR, CP) / Russian (SaP) player",
    "referee": "referee of the Red Factories, Defiant Russia and Cherkassy Pocket demos",
    "observer": "observer of the Red Factories and Defiant Russia demos",
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
    {
        "name": "Demo — Defiant Russia",
        "module": "defiant_russia",
        "cg": "full-game",
        "members": [
            ("german", Role.PLAYER, "axis"),
            ("soviet", Role.PLAYER, "soviet"),
            ("referee", Role.REFEREE, ""),
            ("observer", Role.OBSERVER, ""),
        ],
    },
    {
        "name": "Demo — Forging the Ring",
        "module": "cherkassy_pocket",
        "cg": "scenario-1",
        "members": [
            ("german", Role.PLAYER, "german"),
            ("soviet", Role.PLAYER, "soviet"),
            ("referee", Role.REFEREE, ""),
        ],
    },
]


def _rf_history(campaign: Campaign, users: dict) -> None:
    """RB CG I after the initial scenario (17 Oct) and a second day (18 Oct)."""
    german, soviet, referee = users["german"], users["soviet"], users["referee"]
    # 17 Oct's weather, EC and wind come from SSR I.1; 18 Oct's were rolled at the table.
    day = CampaignDay.objects.get(campaign=campaign, index=1)
    records.update_day(
        campaign, day, by=referee, version=day.version, weather="overcast", ec="moist"
    )
    for side, user, units in (
        ("german", german, "12 × 4-6-7; 9-1 leader; 8-0 leader; 3 × LMG; 2 × MMG"),
        ("soviet", soviet, "10 × 4-4-7; 2 × 5-2-7; 9-1 leader; 2 × LMG"),
    ):
        orbat.add_units(campaign, by=user, side=side, box=OrbatBox.RETAINED, text=units)
    records.save_scenario(
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
        records.add_cvp(
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
    roster.add_ledger_entry(
        campaign,
        by=german,
        side="german",
        ledger="cpp",
        index=0,
        kind=LedgerKind.RG_PURCHASE,
        amount=-5,
        rg="I2",
    )
    roster.add_ledger_entry(
        campaign,
        by=german,
        side="german",
        ledger="cpp",
        index=1,
        kind=LedgerKind.REPLENISHMENT,
        amount=16,
    )
    roster.add_ledger_entry(
        campaign,
        by=soviet,
        side="soviet",
        ledger="cpp",
        index=1,
        kind=LedgerKind.REPLENISHMENT,
        amount=9,
    )
    roster.add_ledger_entry(
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
        number=orbat.next_rg_number(campaign, "german", "I2"),
        index=0,
        source=ReinforcementGroup.Source.PURCHASED,
        cpp_cost=5,
    )
    # The initial OB's RGs are rolled for in 11.620 with 17 Oct's Historical DRM, which our
    # rules do not print: the demo's referee enters one (0) where the chart is unknown.
    for side in ("german", "soviet"):
        side_day = SideDay.objects.get(campaign=campaign, index=0, side=side)
        if side_day.hist_drm is None:
            roster.update_side_day(
                campaign, side_day, by=referee, version=side_day.version, hist_drm=0
            )
    # Walk the Refit Phase as the players did: the initial steps (the RG rolls made), the
    # scenario, the steps after it (battle hardening rolled) — the campaign now stands at the
    # start of 18 Oct's new-day steps, whose ELR and SAN were carried from 17 Oct.
    _walk(campaign, users, finishes=({}, {}, {"cg_won": False}))


def _walk(campaign: Campaign, users: dict, finishes: tuple[dict, ...]) -> None:
    referee = users["referee"] if campaign.memberships.filter(role=Role.REFEREE).exists() else None
    for outcome in finishes:
        reph = walker.open_reph(campaign)
        for step in walker.steps(campaign, reph):
            for side in campaign.game.side_keys:
                player = users["german"] if side == "german" else users["soviet"]
                _roll_what_the_rules_require(campaign, reph, side, step, player)
                walker.mark(campaign, reph, side=side, rule=step.rule, by=player)
        walker.finish(campaign, reph, by=referee or users["german"], **outcome)
    campaign.refresh_from_db()


def _roll_what_the_rules_require(campaign, reph, side, step, player) -> None:
    """A step is marked only after its mandatory rolls and the RG rolls it holds (issue 15):
    the demo rolls them as the players would."""
    for rg in (
        receipt.pending(campaign, reph, side)
        if step.rule == receipt.STRENGTH_STEP.get(campaign.module)
        else []
    ):
        receipt.receive(campaign, rg, player)
    for table_id in strictness.missing_tables(campaign, reph, side, step):
        automatic.roll(
            campaign, reph, side=side, step=step.rule, table_id=table_id, answers={}, by=player
        )


def _sap_history(campaign: Campaign, users: dict) -> None:
    """A Timetable Disrupted after the 7 July AM time frame."""
    german, soviet = users["german"], users["soviet"]
    scenario = records.save_scenario(
        campaign,
        by=german,
        index=0,
        scenario_type=ScenarioType.TIME_FRAME,
        sets_up_first="russian",
        moves_first="german",
        turns_played=6,
        notes="7 July AM: the German reaches the railway embankment.",
    )
    records.add_cvp(
        campaign,
        by=soviet,
        side="german",
        index=0,
        phase=CvpPhase.SCENARIO,
        what="3 × 4-6-7",
        cvp=6,
    )
    roster.add_ledger_entry(
        campaign,
        by=soviet,
        side="russian",
        ledger="cpp",
        index=1,
        kind=LedgerKind.REPLENISHMENT,
        amount=12,
    )
    # The time frame's end, recorded before "Scenario over" (issue 15): SaP has no
    # per-time-frame VC, so the players record it without a winner.
    records.save_end(
        scenario,
        by=soviet,
        version=scenario.version,
        locations={},
        end={"heroes": {"german": 0, "russian": 0}, "winner_by": "players"},
        winner="",
    )
    # Before 7 July AM, the time frame itself: the Daytime RePh before 7 July PM is next.
    _walk(campaign, users, finishes=({}, {"cg_won": False}))


# The demo's dice seeds follow from this (dice.use_seeds): every run builds the same games.
DEMO_DICE_SEED = 1941
SHORT_PLAYERS = {"axis": "german", "german": "german", "soviet": "soviet"}

DR_UNITS = {
    "axis": """
        Guderian | leader | german
        2nd Panzer Group | armor | german | 6-6 | 3-6 | W
        3rd Panzer Group | armor | german | 6-6 | 3-6 | B
        9th Army | infantry | german | 4-3 | 2-3 | W
        Finnish Army | infantry | finnish | 3-3 | 1-3 | F
        Romanian 3rd Army | infantry | romanian | 2-3 | 1-3 | R
    """,
    "soviet": """
        Stalin | leader | soviet | | | M
        16th Army | infantry_army | soviet | 3-3 | 1-3 | K
        23rd Tank Corps | tank_corps | soviet | 2-5 | 1-5 | O
        5th Army | infantry_army | soviet | 3-3 | 1-3 | K
        18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4
        Zhukov | leader | soviet | | | T4
    """,
}
CP_UNITS = {
    "german": """
        I/SS Wiking | tank | SS Wiking | 6-8-12 | 3-4-12 | 3913
        II/SS Wiking | motorized_infantry | SS Wiking | 4-6-8 | 2-3-8 | 3912
        KG Haack | infantry | 72 ID | 3-4-4 | 1-2-4 | 3507
        III/Pz Rgt 24 | tank | 24 Pz | 7-6-12 | 3-3-12 | T9 W
    """,
    "soviet": """
        18 TC / 110 Tank Bde | tank | 18 TC | 5-4-12 | 2-2-12 | 4616
        5 GTC / 20 Gds Tank Bde | tank | 5 GTC | 6-4-12 | 3-2-12 | 2624
        27 Army / 180 RD | infantry | 27 A | 4-5-4 | 2-2-4 | 3006
        2 TA / 3 TC | tank | 2 TA | 6-4-12 | 3-2-12 | T3 N
    """,
}


def _walk_short_turn(campaign: Campaign, users: dict, *, upto: str | None = None) -> None:
    """Mark every step of the turn that takes place, each by its side's player, in order; stop
    before ``upto``."""
    game = short_games.setup_of(campaign)
    day = turn_steps.current_day(campaign)
    steps = turn_steps.turn_steps(
        campaign, game, turn_steps.weather_now(campaign, day, game), turn_steps.marks_of(campaign)
    )
    for step in steps:
        if step.id == upto:
            return
        if not step.applies:
            continue
        for side in step.sides_to_mark or campaign.game.side_keys:
            turn_marks.mark(
                campaign,
                index=campaign.period_index,
                side=side,
                step_id=step.id,
                by=users[SHORT_PLAYERS[side]],
                order="move_first",  # Cherkassy 5.4: read on the air power steps only
            )


def _add_short_units(campaign: Campaign, users: dict, units: dict[str, str]) -> None:
    for side, text in units.items():
        short_games.add_units(
            campaign,
            by=users[SHORT_PLAYERS[side]],
            units=parse_quick_entry(campaign.module, side, text),
            source="quick",
        )


def _receive_points(campaign: Campaign, users: dict, kinds: tuple[str, ...]) -> None:
    """Book each side's allotment of the turn, where the rules give one."""
    for side in campaign.game.side_keys:
        for kind in kinds:
            # The rules give none some turns (no Axis replacements on turn 1, …).
            with contextlib.suppress(turn_steps.TurnError):
                turn_points.receive_points(
                    campaign,
                    side=side,
                    index=campaign.period_index,
                    kind=kind,
                    by=users[SHORT_PLAYERS[side]],
                )


def _dr_history(campaign: Campaign, users: dict) -> None:
    """Defiant Russia with random weather, two turns played, turn 3 (August) under way: its
    weather rolled, the points of the turn booked, a Soviet army restored."""
    german, soviet = users["german"], users["soviet"]
    short_games.start(campaign, by=german, options=["random_weather"])
    _add_short_units(campaign, users, DR_UNITS)
    # Who holds each place comes from the set-up (6.4), written as the game starts.
    for _turn in (1, 2):
        index = campaign.period_index
        _receive_points(campaign, users, (PointKind.REPLACEMENT, PointKind.AIR))
        _walk_short_turn(campaign, users)
        turn_marks.advance(campaign, index=index, by=german)
        campaign.refresh_from_db()
    index = campaign.period_index
    turn_rolls.roll_table(
        campaign,
        index=index,
        side="soviet",
        step_id="weather",
        table_id="dr.weather-august",
        by=soviet,
        note="August",
    )
    _receive_points(campaign, users, (PointKind.REPLACEMENT, PointKind.AIR))
    army = campaign.units.get(name="5th Army")
    short_games.change_unit(campaign, army, by=soviet, version=army.version, state="reduced")
    army.refresh_from_db()
    turn_points.replace_unit(
        campaign,
        army,
        action=PointEntry.Action.RESTORE,
        index=index,
        version=army.version,
        by=soviet,
    )
    _walk_short_turn(campaign, users, upto="axis_movement")


def _cp_history(campaign: Campaign, users: dict) -> None:
    """Forging the Ring on turn 0, the units on the map, the first steps walked."""
    short_games.start(campaign, by=users["german"], options=[])
    _add_short_units(campaign, users, CP_UNITS)
    _walk_short_turn(campaign, users, upto="s1.air_power")


HISTORY = {
    "red_factories": _rf_history,
    "slaughter_at_ponyri": _sap_history,
    "defiant_russia": _dr_history,
    "cherkassy_pocket": _cp_history,
}


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
            # Committed, verifiable dice whose seeds follow from the demo's seed and the
            # campaign's name (dice.use_seeds): every run builds the same games, and every
            # roll checks on /dice/verify/.
            with dice.use_seeds(f"campaign-desk-demo:{DEMO_DICE_SEED}:{spec['name']}"):
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
                    membership, _created = services.accept_invitation(
                        invitation, user=users[username]
                    )
                    # The players already seated agree to the seat (campaigns.members.consent).
                    for side in sorted(services.consent_missing(membership)):
                        player = campaign.memberships.filter(role="player", side=side).first()
                        services.agree(membership, by=player.user)
                    services.revoke_invitation(invitation, by=users[creator])
                HISTORY[spec["module"]](campaign, users)
        self.stdout.write(self.style.SUCCESS(f"Open {url}"))
        self.stdout.write(f"Demo logins (password for each: {DEMO_PASSWORD}):")
        for username, what in DEMO_USERS.items():
            self.stdout.write(f"  {username:<9} {what}")
