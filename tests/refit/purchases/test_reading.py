"""The purchase page reads its side in SQL sums and counts (issue 18): the CPP of the day, every
offer of the chart with its refusals, the observer and OBA counts come out of ``read_side`` the
same as the same rule functions fed every ledger row and every RG of the side, on random
records — RF CG I (two map groups) and SaP (OBA modules still held)."""

from types import SimpleNamespace

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import LedgerEntry, ReinforcementGroup, SideDay
from campaigns.orbat.lifecycle import ENDED, STATUSES
from refit.purchases import reading
from refit.rules import purchase as rules
from refit.walker import services as walker
from tests.conftest import red_factories_campaign

pytestmark = pytest.mark.django_db

DAYS = 4  # the first CG days / time frames, where the random records fall

rg = st.fixed_dictionaries(
    {
        "index": st.integers(0, DAYS - 1),
        "source": st.sampled_from(["purchased", "purchased", "initial", "time_frame"]),
        "status": st.sampled_from(STATUSES),
        "details": st.fixed_dictionaries(
            {}, optional={"map_group": st.sampled_from(["RB", "RB", "RO", ""])}
        ),
    }
)
movement = st.tuples(
    st.integers(0, DAYS - 1),
    st.sampled_from(["initial", "replenishment", "adjustment", "rg_purchase", "recon"]),
    st.integers(-9, 12),
)


def every_row_read(campaign, side, index, reph):
    """The whole-record path: every CPP row and every RG of the side as a model, into the rules
    (one ``Bought`` per RG bought)."""
    rows = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger=LedgerEntry.CPP)
    cpp = reading.cpp_state(
        [(r.index, r.kind, r.amount, r.rg) for r in rows], len(campaign.cg.periods), index
    )
    rgs = list(ReinforcementGroup.objects.filter(campaign=campaign, side=side))
    periods = campaign.cg.periods
    charts = campaign.game.files["rg_charts"]
    chart = {g["id"]: g for g in charts["sides"][side]["groups"]}
    counts = {}
    for group in rgs:
        counts[group.rg_id] = counts.get(group.rg_id, 0) + 1
    if campaign.module == "red_factories":
        observers = sum(counts.get(i, 0) for i in ("O1", "O2", "O3", "O4")) - counts.get("O5", 0)
        planes = sum(counts.get(i, 0) for i in ("O2", "O3")) - counts.get("O6", 0)
        held = 0
    else:
        targets = [
            i for i, g in chart.items() if g.get("oba") and not g["oba"].get("includes_observer")
        ]
        observers = sum(counts.get(i, 0) for i in targets) - counts.get("O5", 0)
        planes = 0
        held = sum(
            1
            for group in rgs
            if group.index < reph.index
            and group.status not in ENDED
            and (chart.get(group.rg_id) or {}).get("oba")
            and not chart[group.rg_id]["oba"].get("rocket")
        )
    day = SideDay.objects.filter(campaign=campaign, index=index, side=side).first()
    facts = rules.Situation(
        module=campaign.module,
        side=side,
        cg=campaign.campaign_game,
        index=reph.index,
        period_key=periods[reph.index].key,
        reph_kind=reph.kind,
        cpp_left=cpp.left,
        hist_drm=day.hist_drm if day else None,
        hist_drms=day.hist_drms if day else {},
        bought=tuple(
            rules.Bought(g.rg_id, g.index, periods[g.index].key, g.details.get("map_group", ""))
            for g in rgs
            if g.source == "purchased"
        ),
        map_groups=reading.map_groups(campaign),
        oba_without_observer=max(observers, 0),
        oba_for_plane=max(planes, 0),
        oba_held=held,
    )
    return {
        "cpp": cpp,
        "offers": rules.offers(charts, reading.cg_definition(campaign), facts),
        "counts": (facts.oba_without_observer, facts.oba_for_plane, facts.oba_held),
        "today": [g.pk for g in rgs if g.index == index],
    }


def summed_read(campaign, side, index, reph):
    side_reading = reading.read_side(campaign, side, index)
    facts = side_reading.facts(reph)
    return {
        "cpp": side_reading.cpp,
        "offers": side_reading.offers(reph),
        "counts": (facts.oba_without_observer, facts.oba_for_plane, facts.oba_held),
        "today": [g.pk for g in side_reading.today],
    }


@pytest.fixture(params=["rf-cg-1", "sap"])
def world(request, people, sap_campaign):
    if request.param == "sap":
        campaign = sap_campaign
    else:
        campaign = red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")
    reph = walker.open_reph(campaign)
    return campaign, reph


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.data(),
    groups=st.lists(rg, max_size=15),
    movements=st.lists(movement, max_size=20),
)
def test_the_sums_in_sql_judge_as_every_row_does(world, data, groups, movements):
    campaign, reph = world
    side = data.draw(st.sampled_from(campaign.game.side_keys))
    chart = [g["id"] for g in campaign.game.files["rg_charts"]["sides"][side]["groups"]]
    # A few RGs of the chart, OBA among them, so that the same RG is bought again and limits hit.
    pool = data.draw(st.lists(st.sampled_from(chart), max_size=3, unique=True))
    ids = data.draw(
        st.lists(
            st.sampled_from(pool + ["O1", "I2", "I3"]), min_size=len(groups), max_size=len(groups)
        )
    )
    copies = data.draw(st.lists(st.integers(1, 3), min_size=len(groups), max_size=len(groups)))
    index = data.draw(st.integers(0, DAYS - 1))
    reph = SimpleNamespace(index=index, kind=reph.kind)  # a RePh of day ``index``
    drm = st.sampled_from([None, -1, 0, 1])
    hist_drms = {
        k: v
        for k, v in data.draw(st.fixed_dictionaries({"RB": drm, "RO": drm})).items()
        if v is not None
    }
    savepoint = transaction.savepoint()
    try:
        SideDay.objects.update_or_create(
            campaign=campaign,
            index=index,
            side=side,
            defaults={"hist_drm": data.draw(drm), "hist_drms": hist_drms},
        )
        # Each RG with its copies alike (counted in one row of the database's count).
        alike = [
            (rg_id, fields)
            for rg_id, fields, many in zip(ids, groups, copies, strict=True)
            for _ in range(many)
        ]
        ReinforcementGroup.objects.bulk_create(
            ReinforcementGroup(campaign=campaign, side=side, rg_id=rg_id, number=100 + n, **fields)
            for n, (rg_id, fields) in enumerate(alike)
        )
        LedgerEntry.objects.bulk_create(
            LedgerEntry(
                campaign=campaign,
                side=side,
                ledger=LedgerEntry.CPP,
                index=day,
                kind=kind,
                amount=amount,
                rg="I1" if kind == "rg_purchase" else "",
            )
            for day, kind, amount in movements
        )
        assert summed_read(campaign, side, index, reph) == every_row_read(
            campaign, side, index, reph
        )
        # The locked reading (a purchase's) reads the ledger rows themselves: the same CPP.
        with transaction.atomic():
            locked = reading.read_side(campaign, side, index, lock=True)
        assert locked.cpp == reading.read_side(campaign, side, index).cpp
    finally:
        transaction.savepoint_rollback(savepoint)


def test_a_long_record_is_read_in_the_same_queries(campaign, people, django_assert_num_queries):
    reph = walker.open_reph(campaign)

    def read():
        reading.read_side(campaign, "german", reph.index).offers(reph)

    with django_assert_num_queries(4):  # ledger sums, RG counts, the day's RGs, Historical DRM
        read()
    ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=campaign,
            side="german",
            rg_id=("I1", "A6", "O2")[n % 3],
            number=200 + n,
            index=n % 3,
            source="purchased",
        )
        for n in range(90)
    )
    with django_assert_num_queries(4):
        read()
