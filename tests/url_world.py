"""One set of real objects for walking every URL of the app with the five personas.

A Red Barricades CG I campaign in its first Refit Phase with a German RG bought, a German
fortification, a German OB line, a scenario, a German secret dice roll, an undoable German
event and a pending invitation; a Cherkassy Pocket and a Defiant Russia game with units.
Every secret object belongs to the GERMAN side, so the Soviet player must not find it.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from campaigns.dice import services as dice
from campaigns.games.registry import get_module
from campaigns.members import services as members
from campaigns.models import (
    Campaign,
    CampaignEvent,
    DiceRoll,
    FortificationPurchase,
    GameUnit,
    Invitation,
    Membership,
    OrbatBox,
    OrbatEntry,
    RefitPhase,
    ReinforcementGroup,
    Role,
    Scenario,
)
from campaigns.records import services as records
from campaigns.roster import services as roster
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from refit.fortifications import services as fortifications
from refit.perimeters import positions
from refit.perimeters.state import current_state
from refit.purchases import notes
from refit.purchases import services as purchases
from refit.rules.fortification import FortificationOrder
from refit.rules.purchase_costs import Options
from refit.walker import services as walker
from tests.campaigns.shortgames.conftest import make_game
from tests.conftest import MEMBERS, PERSONAS
from tests.seats import join as join_seat

# Written into the German secrets (RG note, FPP line, OB line, dice roll, perimeter units): a
# page that shows it to anyone but the German player and the referee leaks a secret.
GERMAN_SECRET = "Only-the-German-knows-7f3"

RG_PURCHASE_RULE = "11.619"  # a secret step, both sides' first in RB CG I's first RePh
INITIATIVE_RULE = "11.623"  # the step with RF's Initiative Matrix, where chits are chosen


@dataclass(frozen=True)
class World:
    people: dict
    rf: Campaign  # RB CG I, first RePh open
    reph: RefitPhase
    rg: ReinforcementGroup  # German, bought in this RePh
    fortification: FortificationPurchase  # German
    orbat_line: OrbatEntry  # German
    scenario: Scenario
    roll: DiceRoll  # German secret
    event: CampaignEvent  # German secret, undoable by the German player
    invitation: Invitation  # pending
    soviet_membership: Membership
    cp: Campaign  # Cherkassy Pocket, started
    cp_unit: GameUnit  # German battalion waiting for reconstitution
    cp_step: str  # a step of the German side's turn
    dr: Campaign  # Defiant Russia, started
    dr_unit: GameUnit  # Axis reinforcement due on a later turn


def make_people() -> dict:
    users = get_user_model().objects
    return {p: users.create_user(username=p, password="pw-123456789") for p in PERSONAS}


def make_rf_campaign(people: dict) -> Campaign:
    """RB CG I as tests/conftest.py's ``campaign`` fixture builds it."""
    campaign = members.create_campaign(
        user=people["german"],
        name="Into the Factory, club night",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="german",
    )
    for persona, (role, side) in MEMBERS.items():
        if persona != "german":
            invitation = members.create_invitation(
                campaign, by=people["german"], role=role, side=side
            )
            join_seat(invitation, people[persona])
    return campaign


def _german_secrets(campaign: Campaign, german) -> tuple:
    reph = walker.open_reph(campaign)
    rg = purchases.buy(campaign, "german", reph.index, "A6", Options(), german)
    event = CampaignEvent.objects.filter(
        campaign=campaign, visibility="german", actor=german, data__has_key="undo"
    ).latest("pk")
    notes.record_notes(
        campaign,
        rg,
        seen=notes.notes_seen(rg),
        hexes="",
        observer_location="",
        note=GERMAN_SECRET,
        by=german,
    )
    roster.add_ledger_entry(
        campaign,
        by=german,
        side="german",
        ledger="fpp",
        index=reph.index,
        kind="fortification_rg",
        amount=30,
        rg="M1",
        note=GERMAN_SECRET,
    )
    fortification = fortifications.buy(
        campaign, "german", reph.index, FortificationOrder("concealment"), german
    )
    line = OrbatEntry.objects.create(
        campaign=campaign,
        side="german",
        box=OrbatBox.RETAINED,
        unit_type="4-6-7",
        kind="infantry",
        quantity=3,
        status_note=GERMAN_SECRET,
    )
    roll = dice.roll(
        campaign,
        by=german,
        kind="dr",
        step=RG_PURCHASE_RULE,
        index=reph.index,
        side="german",
        visibility="german",
        note=GERMAN_SECRET,
    )
    # Where the German's units stand for the perimeter: secret until the German declares them.
    positions.add_units(
        current_state(campaign),
        "german",
        by=german,
        version=1,
        text="H41",
        kind="mmc",
        label=GERMAN_SECRET,
        level=0,
    )
    return reph, rg, event, fortification, line, roll


def build_world() -> World:
    people = make_people()
    german = people["german"]
    rf = make_rf_campaign(people)
    reph, rg, event, fortification, line, roll = _german_secrets(rf, german)
    scenario = records.save_scenario(
        rf, by=people["referee"], index=0, scenario_type="initial", attacker="german"
    )
    invitation = members.create_invitation(rf, by=german, role=Role.OBSERVER, side="")

    cp = make_game(people, "cherkassy_pocket", "scenario-1", "german")
    short_games.start(cp, by=german, options=[])
    (cp_unit,) = short_games.add_units(
        cp,
        by=german,
        units=[
            UnitData(
                side="german",
                name="I/105",
                unit_type="infantry",
                formation="72 ID",
                size="battalion",
                full="6-8-12",
                reduced="3-4-12",
                state="reconstitution",
            )
        ],
    )
    cp_step = next(
        raw["id"] for raw in cp.game.files["turn_sequence"]["steps"] if raw.get("side") == "german"
    )

    dr = make_game(people, "defiant_russia", "full-game", "axis")
    short_games.start(dr, by=german, options=[])
    (dr_unit,) = short_games.add_units(
        dr,
        by=german,
        units=[
            UnitData(
                side="axis",
                name="XXXIX Pz",
                unit_type="armor",
                nationality="german",
                full="6-6",
                reduced="3-6",
                state="awaiting",
                arrival_turn=3,
            )
        ],
    )
    return World(
        people=people,
        rf=rf,
        reph=reph,
        rg=rg,
        fortification=fortification,
        orbat_line=line,
        scenario=scenario,
        roll=roll,
        event=event,
        invitation=invitation,
        soviet_membership=Membership.objects.get(campaign=rf, user=people["soviet"]),
        cp=cp,
        cp_unit=cp_unit,
        cp_step=cp_step,
        dr=dr,
        dr_unit=dr_unit,
    )


# --- the URL patterns and their arguments --------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    name: str  # "campaigns:roster"; "" for an unnamed pattern
    route: str  # "campaigns/<int:campaign_id>/roster/<slug:side>/"
    kwargs: tuple[str, ...]


def _walk(resolver: URLResolver, namespace: str, route: str) -> Iterator[Pattern]:
    for entry in resolver.url_patterns:
        here = route + str(entry.pattern)
        kwargs = tuple(entry.pattern.regex.groupindex)
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            inner = ":".join(filter(None, (namespace, entry.namespace)))
            for pattern in _walk(entry, inner, here):
                yield Pattern(pattern.name, pattern.route, kwargs + pattern.kwargs)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name or ""
            yield Pattern(name, here, kwargs)


def url_patterns() -> list[Pattern]:
    """Every URL pattern of the project, found at run time, Django admin's own excepted: the
    admin site is Django's (tested by Django) and only staff may use it."""
    return list(_walk(get_resolver(), "", ""))


def url_for(world: World, pattern: Pattern) -> str:
    """The pattern's URL with real objects, found by the name of each URL argument; the short
    games' URLs are Cherkassy Pocket's (arrivals: Defiant Russia's), the others RB CG I's.
    A side is always the German player's side, a secret object always a German one."""
    namespace = pattern.name.partition(":")[0]
    campaign = world.cp if namespace == "shortgames" else world.rf
    unit = world.cp_unit
    if pattern.name == "shortgames:arrive":
        campaign, unit = world.dr, world.dr_unit
    values = {
        "campaign_id": campaign.pk,
        "side": "axis" if campaign == world.dr else "german",
        "rule": INITIATIVE_RULE if pattern.name == "refit:chit" else RG_PURCHASE_RULE,
        "rg_pk": world.rg.pk,
        "purchase_pk": world.fortification.pk,
        "position": 0,
        "step_id": world.cp_step,
        "unit_id": unit.pk,
        "membership_id": world.soviet_membership.pk,
        "invitation_id": world.invitation.pk,
        "event_id": world.event.pk,
        "index": 0,
        "entry_id": world.orbat_line.pk,
        "scenario_id": world.scenario.pk,
        "roll_id": world.roll.pk,
        "correction_id": world.roll.pk,  # refused before any lookup (a refereed campaign)
        "token": world.invitation.token,
        "uidb64": "MA",  # a password reset link that is not valid
        "module_key": "red_factories",
        "section": "rg-charts",
        "kind": "roster",
    }
    unknown = [kwarg for kwarg in pattern.kwargs if kwarg not in values]
    assert not unknown, f"{pattern.name}: no test object for {unknown}; add one to url_for"
    return reverse(pattern.name, kwargs={kwarg: values[kwarg] for kwarg in pattern.kwargs})
