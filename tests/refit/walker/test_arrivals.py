"""A SaP time frame's reinforcements join the OB when its RePh opens, the Stavka armor leaves at
the end of its time frame (refit.walker.arrivals, refit.walker.stavka; issue 16)."""

import pytest

from campaigns.history import services as history
from campaigns.models import CampaignEvent, CvpEntry, OrbatBox, OrbatEntry, ReinforcementGroup
from refit.walker import arrivals, stavka
from refit.walker import services as walker
from tests.refit.builders import finish_phase
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db
SIDES = ("german", "russian")


def players(people):
    return {**people, "russian": people["soviet"]}


def walk_to(campaign, people, index):
    """Walk the CG until the RePh of time frame ``index`` is open; that RePh."""
    reph = walker.open_reph(campaign)
    while reph.index < index or reph.kind == "scenario":
        if reph.kind != "scenario":
            walk_all(campaign, reph, players(people), sides=SIDES)
        reph = finish_phase(campaign, reph, by=people["referee"])
    return reph


def rgs(campaign, side, index):
    return sorted(
        (rg.rg_id, rg.number, rg.source, rg.status)
        for rg in ReinforcementGroup.objects.filter(campaign=campaign, side=side, index=index)
    )


def arriving(campaign, side):
    return sorted(
        (line.unit_type, line.quantity, tuple(line.statuses))
        for line in OrbatEntry.objects.filter(campaign=campaign, side=side, box=OrbatBox.ARRIVING)
    )


def test_nothing_arrives_before_the_first_time_frame_is_over(sap_campaign, people):
    assert not ReinforcementGroup.objects.filter(campaign=sap_campaign, index__gt=0).exists()
    assert not OrbatEntry.objects.filter(campaign=sap_campaign, box=OrbatBox.ARRIVING).exists()


def test_cg2_german_rgs_arrive_numbered_after_the_initial_ob_and_to_be_rolled(sap_campaign, people):
    daytime = walk_to(sap_campaign, people, 1)
    assert (daytime.kind, daytime.index) == ("daytime", 1)
    # The initial German OB already has I1 × 6 and I3 × 6 (L606–616): these go on from there.
    assert rgs(sap_campaign, "german", 1) == [
        ("I1", 7, "time_frame", "bought"),
        ("I1", 8, "time_frame", "bought"),
        ("I3", 7, "time_frame", "bought"),
        ("I3", 8, "time_frame", "bought"),
        ("I3", 9, "time_frame", "bought"),
        ("I6", 4, "time_frame", "bought"),
    ]
    rg = ReinforcementGroup.objects.get(campaign=sap_campaign, side="german", rg_id="I6", index=1)
    assert rg.details["arrival"] == {"period": "CG-2", "group": "g2", "turn": 1}
    assert rgs(sap_campaign, "russian", 1) == []
    (event,) = CampaignEvent.objects.filter(campaign=sap_campaign, action=arrivals.ACTION)
    assert (event.visibility, event.data["index"]) == ("german", 1)
    assert "1 × RG I6" in history.describe(event)


def test_an_arrival_is_made_once(sap_campaign, people):
    walk_to(sap_campaign, people, 1)
    assert arrivals.arrive(sap_campaign, 1, by=people["referee"]) == []
    assert len(rgs(sap_campaign, "german", 1)) == 6


def test_cg3_stavka_arrives_and_cg4_removes_it_before_its_own_arrives(sap_campaign, people):
    full = walk_to(sap_campaign, people, 2)
    assert (full.kind, full.index) == ("full", 2)
    assert [r[:2] for r in rgs(sap_campaign, "russian", 2)] == [
        ("I2", 1),
        ("I2", 2),
        ("I2", 3),
        ("I2", 4),
        ("I2", 5),
        ("I2", 6),
    ]
    assert arriving(sap_campaign, "russian") == [
        ("KV-1 M42", 11, ("stavka",)),
        ("KV-1 M42 (with AAMG)", 4, ("stavka",)),
        ("T-34 M43", 30, ("stavka",)),
    ]
    assert arriving(sap_campaign, "german") == []
    # One T-34 was captured, one KV wreck lies in a terrain Blaze: both stay (CG7.22).
    t34 = OrbatEntry.objects.get(campaign=sap_campaign, unit_type="T-34 M43")
    OrbatEntry.objects.create(
        campaign=sap_campaign,
        side="russian",
        box=OrbatBox.CASUALTIES,
        unit_type="KV-1 M42",
        kind="vehicle_or_gun",
        quantity=1,
        statuses=["stavka", "blaze_wreck"],
    )
    captured = OrbatEntry.objects.create(
        campaign=sap_campaign,
        side="russian",
        box=OrbatBox.RETAINED,
        unit_type="T-34 M43",
        kind="vehicle_or_gun",
        quantity=1,
        statuses=["stavka", "captured"],
    )
    loss = CvpEntry.objects.create(
        campaign=sap_campaign,
        side="russian",
        index=2,
        phase="scenario",
        what="T-34 M43",
        cvp=2,
        orbat_entry=t34,
    )
    daytime = walk_to(sap_campaign, people, 3)
    assert (daytime.kind, daytime.index) == ("daytime", 3)
    left = sorted(
        (line.unit_type, line.quantity, tuple(line.statuses))
        for line in OrbatEntry.objects.filter(campaign=sap_campaign, side="russian")
        if "stavka" in line.statuses
    )
    assert left == [
        ("KV-1 M42", 1, ("stavka", "blaze_wreck")),
        ("SU-152", 2, ("stavka",)),
        ("T-34 M43", 1, ("stavka", "captured")),
        ("T-34 M43", 5, ("stavka",)),
        ("T-70", 15, ("stavka",)),
        ("Valentine VIII(b)", 10, ("stavka",)),
    ]
    assert captured.pk in {line.pk for line in OrbatEntry.objects.filter(campaign=sap_campaign)}
    loss.refresh_from_db()
    assert loss.orbat_entry is None
    removal = CampaignEvent.objects.get(campaign=sap_campaign, action=stavka.ACTION)
    assert removal.visibility == "russian"
    assert "30 × T-34 M43" in history.describe(removal)
    # The referee takes the removal back (a finished phase: with a reason): all returns.
    history.undo(removal, by=people["referee"], reason="misread CG7.22")
    assert OrbatEntry.objects.filter(
        campaign=sap_campaign, unit_type="T-34 M43", quantity=30
    ).exists()
    loss.refresh_from_db()
    assert loss.orbat_entry_id == t34.pk


def test_cg5_dug_in_t34s_with_their_lmg_and_the_german_afvs(sap_campaign, people):
    walk_to(sap_campaign, people, 4)
    assert arriving(sap_campaign, "russian") == [
        ("LMG", 6, ()),
        ("T-34 M41 (dug-in)", 6, ("dug_in",)),
    ]
    assert arriving(sap_campaign, "german") == [
        ("PzKpfw III L", 3, ()),
        ("PzKpfw IV F1", 3, ()),
        ("PzKpfw IV F2", 3, ()),
    ]
    assert [r[0] for r in rgs(sap_campaign, "german", 4)] == ["I1", "I1", "I1", "I4", "I4"]


def test_undoing_an_arrival_takes_it_all_back(sap_campaign, people):
    walk_to(sap_campaign, people, 1)
    event = CampaignEvent.objects.get(campaign=sap_campaign, action=arrivals.ACTION)
    history.undo(event, by=people["referee"], reason="test")
    assert rgs(sap_campaign, "german", 1) == []
    assert not arrivals.arrived(sap_campaign, 1, "german")


def test_red_factories_has_no_time_frame_arrivals(campaign, people):
    assert arrivals.arrivals_for(campaign, 1, "german") == []


def test_the_time_frames_rgs_are_rolled_in_its_11_618_and_the_step_waits_for_them(
    sap_campaign, people
):
    from campaigns.dice import services as dice
    from refit.purchases import receipt
    from refit.walker import strictness
    from tests.campaigns.dice.test_services import Loaded
    from tests.refit.builders import mark_past

    daytime = walk_to(sap_campaign, people, 1)
    for step in walker.steps(sap_campaign, daytime):
        if step.rule == "11.618":
            break
        for side in SIDES:
            mark_past(sap_campaign, daytime, side, step.rule, players(people))
    waiting = receipt.pending(sap_campaign, daytime, "german")
    assert [rg.label for rg in waiting] == ["I1#7", "I1#8", "I3#7", "I3#8", "I3#9", "I6#4"]
    step = next(s for s in walker.steps(sap_campaign, daytime) if s.rule == "11.618")
    assert strictness.missing(sap_campaign, daytime, "german", step)
    rg = waiting[-1]
    with dice.use_roller(Loaded(*([4] * 30))):
        got = receipt.receive(sap_campaign, rg, people["german"])
    rg.refresh_from_db()
    assert rg.status == "rolled"
    assert got["strength"]
    assert OrbatEntry.objects.filter(campaign=sap_campaign, group=rg).exists()


def test_a_bought_sap_dug_in_t34_rg_is_dug_in_with_an_lmg_per_afv(sap_campaign, people):
    # CG7.23 [L481]: the purchasable 「埋設 T-34 M41RG(V1)」 — never mobile, BMG unusable, and
    # one LMG per T-34 received (issue 16).
    from campaigns.dice import services as dice
    from refit.purchases import receipt
    from refit.purchases import services as purchases
    from refit.rules.purchase_costs import Options
    from tests.campaigns.dice.test_services import Loaded
    from tests.refit.builders import mark_past

    daytime = walk_to(sap_campaign, people, 1)
    for step in walker.steps(sap_campaign, daytime):
        if step.rule == "11.617":
            break
        for side in SIDES:
            mark_past(sap_campaign, daytime, side, step.rule, players(people))
    rg = purchases.buy(sap_campaign, "russian", 1, "V1", Options(), people["soviet"])
    walker.mark(sap_campaign, daytime, side="russian", rule="11.617", by=people["soviet"])
    with dice.use_roller(Loaded(*([3] * 20))):
        got = receipt.receive(sap_campaign, rg, people["soviet"])
    afvs = got["units"]["T-34 M43"]
    assert afvs in (3, 4)
    assert got["sw"]["LMG"] == afvs
    lines = {e.unit_type: (e.quantity, e.statuses) for e in OrbatEntry.objects.filter(group=rg)}
    assert lines["T-34 M43"] == (afvs, ["dug_in"])
    assert lines["LMG"][0] == afvs


@pytest.mark.parametrize(
    ("statuses", "held"),
    [
        (("retained", "retained"), 2),
        (("retained", "expended"), 1),
        (("eliminated", "withdrawn"), 0),
    ],
)
def test_cg5_oba_modules_possessed_from_earlier_time_frames(sap_campaign, people, statuses, held):
    # O1 and O2 are non-rocket OBA modules; O4 (rocket) never counts.
    from refit.purchases.reading import read_side

    daytime = walk_to(sap_campaign, people, 1)
    for n, (rg_id, status) in enumerate(zip(("O1", "O2"), statuses, strict=True)):
        ReinforcementGroup.objects.create(
            campaign=sap_campaign,
            side="german",
            rg_id=rg_id,
            number=90 + n,
            index=0,
            source="purchased",
            status=status,
        )
    ReinforcementGroup.objects.create(
        campaign=sap_campaign,
        side="german",
        rg_id="O4",
        number=99,
        index=0,
        source="purchased",
        status="retained",
    )
    facts = read_side(sap_campaign, "german", 1).facts(daytime)
    assert facts.oba_held == held
