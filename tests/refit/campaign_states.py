"""Red Factories campaigns walked through their Refit Phases with the services, as players do:
purchases and their rolls, fortifications, perimeters with an escape, CPP and ELR rolls with the
Attack chit's DRM, initiative chits, an Idle Day. The export tests round-trip each of them."""

from collections.abc import Callable

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import CampaignDay, DiceRoll, Scenario, SideDay
from campaigns.records import services as records
from campaigns.roster import services as roster
from refit.fortifications import services as fortifications
from refit.models import PerimeterState
from refit.perimeters import changes, escapes, positions, recording
from refit.perimeters import state as perimeter
from refit.purchases import receipt
from refit.purchases import services as purchases
from refit.rules.fortification import FortificationOrder
from refit.rules.purchase import Options
from refit.walker import automatic, initiative
from refit.walker import services as walker
from tests.refit.builders import finish_phase, mark_past

SIDES = ("german", "soviet")
Before = dict[str, Callable[[object], None]]


def walk(campaign, people, *, before: Before | None = None, upto: str = "", **outcome):
    """Mark every step of the open RePh for both sides in order, each by its player; run
    ``before[rule](reph)`` first. Stop before ``upto``; otherwise finish with ``outcome``."""
    before = before or {}
    reph = walker.open_reph(campaign)
    for step in walker.steps(campaign, reph):
        if step.rule in before:
            before[step.rule](reph)
        if step.rule == upto:
            return reph
        for side in SIDES:
            if not reph.progress.filter(side=side, rule=step.rule).exists():
                mark_past(campaign, reph, side, step.rule, people)
    finish_phase(campaign, reph, by=people["referee"], **outcome)
    campaign.refresh_from_db()
    return walker.open_reph(campaign)


def buy_rgs(campaign, people):
    def act(reph):
        roster.add_ledger_entry(
            campaign,
            by=people["referee"],
            side="german",
            ledger="cpp",
            index=0,
            kind="adjustment",
            amount=20,
            note="club bonus",
        )
        purchases.buy(campaign, "german", 0, "I3", Options(), people["german"])
        purchases.buy(campaign, "german", 0, "I5", Options(), people["german"])

    return act


def _receive(campaign, people):
    def act(reph):
        rg = campaign.rgs.get(side="german", rg_id="I3", source="purchased")
        receipt.receive(campaign, rg, people["german"])

    return act


def _fortify(campaign, people):
    def act(reph):
        buy = fortifications.buy
        wire = buy(campaign, "soviet", 0, FortificationOrder("wire", 2), people["soviet"])
        fortifications.set_location(campaign, wire, wire.version, "H41, J40", people["soviet"])
        buy(campaign, "soviet", 0, FortificationOrder("foxhole", 1, size=2), people["soviet"])

    return act


def _perimeter(campaign, people):
    """Control, water, fires, markers, a pocket, units (the German's kept secret, the Soviet's
    declared), an escape roll (its DRMs carry the table's ids), the recorded result."""

    def act(reph):
        referee = viewer_for(people["referee"], campaign.pk)
        german = viewer_for(people["german"], campaign.pk)
        soviet = viewer_for(people["soviet"], campaign.pk)
        changes.set_water(campaign, by=people["referee"], version=1, text="Z10-Z12", water=True)
        the_state = perimeter.current_state(campaign)
        changes.set_control(
            german, the_state, by=people["german"], version=1, text="A1-A5", side="german"
        )
        the_state.refresh_from_db()
        changes.set_control(
            soviet, the_state, by=people["soviet"], version=2, text="Q1-Q5", side="soviet"
        )
        the_state.refresh_from_db()
        changes.set_fires(the_state, by=people["referee"], version=3, text="C3", burning=True)
        the_state.refresh_from_db()
        changes.add_marker(
            the_state,
            "german",
            by=people["german"],
            version=4,
            origin="G42",
            via="H41",
            target="J41",
            kind="main",
        )
        the_state.refresh_from_db()
        changes.add_non_ground_pocket(
            the_state, "soviet", by=people["soviet"], version=5, text="M10 M11", label="1"
        )
        the_state.refresh_from_db()
        positions.add_units(
            the_state,
            "german",
            by=people["german"],
            version=1,
            text="H41",
            kind="mmc",
            label="4-6-7",
            level=0,
        )
        positions.add_units(
            the_state,
            "soviet",
            by=people["soviet"],
            version=1,
            text="Q3",
            kind="mmc",
            label="4-4-7",
            level=0,
        )
        positions.declare_units(the_state, "soviet", by=people["soviet"], version=2)
        the_state.refresh_from_db()
        escapes.roll_escape(
            german,
            the_state,
            "german",
            by=people["german"],
            version=the_state.version,
            unit_ids=["4-6-7 H41"],
            attempt={"hs_equivalents": 2, "leader_drm": -1},
        )
        the_state.refresh_from_db()
        recording.record(referee, the_state, by=people["referee"], version=the_state.version)

    return act


def _roll(campaign, people, side, table, step):
    def act(reph):
        automatic.roll(
            campaign, reph, side=side, step=step, table_id=table, answers={}, by=people[side]
        )

    return act


def _both(*acts):
    def act(reph):
        for each in acts:
            each(reph)

    return act


def _chits(campaign, people, chits):
    def act(reph):
        for side, chit in chits.items():
            initiative.choose(campaign, reph, side=side, chit=chit, by=people[side])

    return act


def after_the_initial_scenario(campaign, people):
    """RB CG I through its first RePh (purchases, an RG rolled for, fortifications), the initial
    scenario and the RePh after it (perimeters, an escape): at the start of 18 Oct's steps."""
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    with dice.use_roller(1942):
        walk(
            campaign,
            people,
            before={
                "11.619": buy_rgs(campaign, people),
                "11.620": _receive(campaign, people),
                "11.621": _fortify(campaign, people),
            },
        )
        walk(campaign, people)  # the initial scenario (made when its play starts)
        initial = Scenario.objects.get(campaign=campaign, index=0, sequence=1)
        records.save_scenario(
            campaign,
            by=people["referee"],
            scenario=initial,
            version=initial.version,
            scenario_type="initial",
            attacker="german",
            winner="german",
            turns_played=7,
        )
        walk(campaign, people, before={"11.605": _perimeter(campaign, people)}, cg_won=False)
    for index, weather in ((0, "Overcast"), (1, "")):
        CampaignDay.objects.filter(campaign=campaign, index=index).update(weather=weather, ec="Dry")
    SideDay.objects.filter(campaign=campaign, index=1).update(hist_drm=-1, elr=3, san=4)
    return campaign


def mid_refit_phase(campaign, people):
    """18 Oct under way: CPP and ELR rolled (the German's with the Attack chit's DRM), the
    weather rolled, the German's initiative chit chosen in secret; steps up to 11.623 marked."""
    after_the_initial_scenario(campaign, people)
    with dice.use_roller(1943):
        walk(
            campaign,
            people,
            before={
                "11.616": _both(
                    _roll(campaign, people, "german", automatic.CPP_TABLE, "11.616"),
                    _roll(campaign, people, "soviet", automatic.CPP_TABLE, "11.616"),
                ),
                "11.617": _both(
                    _roll(campaign, people, "german", "rf.elr-change", "11.617"),
                    _roll(campaign, people, "soviet", "rf.elr-change", "11.617"),
                ),
                "11.618": _roll(campaign, people, "soviet", "rf.weather", "11.618"),
                "11.623": _chits(campaign, people, {"german": "idle"}),
            },
            upto="11.623",
        )
    return campaign


def after_an_idle_day(campaign, people):
    """18 Oct ended with both chits Idle: an Idle Day; 19 Oct's steps are next."""
    mid_refit_phase(campaign, people)
    walk(campaign, people, before={"11.623": _chits(campaign, people, {"soviet": "idle"})})
    return campaign


def standing(campaign, user):
    """Where the campaign stands as ``user`` sees it: the open RePh, each side's steps (a secret
    step's mark only for a side the user may see), the perimeter and its computation."""
    viewer = viewer_for(user, campaign.pk)
    # The page starts one for the open RePh.
    state = perimeter.current_state(campaign) if perimeter.has_perimeters(campaign) else None
    reph = walker.open_reph(campaign)
    marks = list(reph.progress.all()) if reph else []
    sides = {}
    for side in campaign.game.side_keys if reph else ():
        full = viewer.can_see_side(side)
        sides[side] = [
            (
                s.step.rule,
                s.status,
                (s.mark.reason, s.mark.note, s.mark.at) if s.mark else None,
            )
            for s in walker.side_states(campaign, reph, side, marks)
            if full or not s.step.secret
        ]
    where = {
        "period_index": campaign.period_index,
        "reph": (reph.kind, reph.index, reph.sequence, reph.started_at) if reph else None,
        "finished": list(
            campaign.rephs.filter(finished_at__isnull=False)
            .order_by("id")
            .values_list("kind", "index", "sequence", "outcome", "started_at", "finished_at")
        ),
        "sides": sides,
    }
    where["perimeters"] = [
        {
            "reph": (p.reph.kind, p.reph.index, p.reph.sequence) if p.reph else None,
            "index": p.index,
            "control": p.control,
            "fires": p.fires,
            "markers": p.markers,
            "non_ground": p.non_ground,
            "escapes": [
                {**{k: v for k, v in e.items() if k != "roll"}, "roll": _roll_of(e)}
                for e in p.escapes
            ],
            "recorded": p.recorded,
            "units": perimeter.visible_units(viewer, perimeter.unit_rows(p)),
            "declared": _declared(p, campaign.game.side_keys),
            "created_at": p.created_at,
        }
        for p in PerimeterState.objects.filter(campaign=campaign).order_by("id")
    ]
    terrain = perimeter.terrain_of(campaign)
    where["water"] = terrain.water if terrain else None
    if state is not None:
        computation = perimeter.compute(viewer, state, terrain, perimeter.unit_rows(state))
        where["computed"] = recording.public_snapshot(computation)
    return where


def _declared(state, sides):
    """As the page shows it: a side's units are declared or not (whether it entered any that it
    has not declared is its secret)."""
    rows = perimeter.unit_rows(state)
    return {side: bool(rows.get(side) and rows[side].declared) for side in sides}


def _roll_of(escape):
    """An escape's roll as the dice show it (its id differs from copy to copy)."""
    roll = DiceRoll.objects.filter(pk=escape.get("roll")).first()
    return (roll.faces, roll.final, roll.rolled_at) if roll else None
