"""The step page's rolls as each viewer may see them, whoever asks first in the process (the
Refit Phase's other reads are compiled once, refit.queries): a secret roll of a public step
reaches the referee and its side, never the other side or an observer."""

import pytest
from django.db import transaction

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll, SideDay
from refit.walker import services as walker
from refit.walker import situation, strictness
from refit.walker.views.step import rolled_tables
from tests.refit.builders import finish_phase
from tests.refit.walker import test_roll_view
from tests.refit.walker.test_roll_view import Loaded, data, roll_url, step_url
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db

reph = test_roll_view.reph  # the fixtures: the RePh of the initial scenario, the one after
after = test_roll_view.after

# Who looks, in turn: the referee's query (every scope) first, then the others'.
ORDERS = [
    ("referee", "soviet", "observer", "german", "referee", "soviet"),
    ("soviet", "german", "observer", "referee", "soviet"),
]


@pytest.mark.parametrize("order", ORDERS)
def test_a_secret_roll_in_a_public_step_is_read_for_each_viewer_as_the_viewer_sees(
    campaign, client_as, people, after, order
):
    # 11.612 is public; its SAN adjustment dr (11.6122) is the German's secret.
    walk_all(campaign, after, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    SideDay.objects.filter(campaign=campaign, index=new_day.index, side="german").update(san=4)
    with dice.use_roller(Loaded(6)):
        client_as("german").post(
            roll_url(campaign, "german", "11.612"),
            data(new_day, "rf.san-adjustment", note="SAN XYZZY"),
        )
    roll = DiceRoll.objects.get()
    assert roll.visibility == "german"
    new_reph = walker.open_reph(campaign)
    step = next(s for s in walker.steps(campaign, new_reph) if s.rule == "11.612")
    sees = {"referee": True, "german": True, "soviet": False, "observer": False}
    for persona in order:
        viewer = viewer_for(people[persona], campaign.pk)
        shown = situation._rolls(viewer, new_reph, "german", step)
        assert [r.pk for r in shown] == ([roll.pk] if sees[persona] else []), persona
        tables = rolled_tables(viewer, new_reph, step)
        assert ("rf.san-adjustment" in tables) == sees[persona], persona
        html = client_as(persona).get(step_url(campaign, "german", "11.612")).content.decode()
        assert ("XYZZY" in html) == sees[persona], persona


def test_the_rephs_compiled_reads_by_day_and_time_are_what_the_plain_queries_read(
    campaign, client_as, people, after
):
    # The step page's reads are compiled once with the RePh's day and start as plain values
    # (refit.walker.by_reph): on PostgreSQL the ORM's typed values took no stand-in, and the
    # compiled reads answered nothing.
    walk_all(campaign, after, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    SideDay.objects.filter(campaign=campaign, index=new_day.index, side="german").update(san=4)
    with dice.use_roller(Loaded(6)):
        client_as("german").post(
            roll_url(campaign, "german", "11.612"),
            data(new_day, "rf.san-adjustment", note="SAN"),
        )
    assert DiceRoll.objects.filter(campaign=campaign).count() == 1
    referee = viewer_for(people["referee"], campaign.pk)
    for reph in (after, new_day):
        rolls = DiceRoll.objects.filter(
            campaign=campaign,
            index=reph.index,
            rolled_at__gte=reph.started_at,
            voided_at__isnull=True,
        )
        assert [r.pk for r in strictness.reph_rolls(campaign, reph)] == [r.pk for r in rolls]
        events = CampaignEvent.objects.filter(
            campaign=campaign, step_reph=reph.pk, undone_at__isnull=True
        )
        assert sorted(e.pk for e in walker.reph_events(campaign, reph)) == sorted(
            e.pk for e in events
        )
        rules = [s.rule for s in walker.steps(campaign, reph)]
        step = walker.steps(campaign, reph)[rules.index("11.612") if "11.612" in rules else 0]
        assert [r.pk for r in situation.step_rolls(referee, reph, step)] == [
            r.pk for r in rolls.filter(step=step.rule).order_by("-rolled_at", "-pk")
        ]
    # What the reads found: the new day's roll and what it changed.
    assert len(strictness.reph_rolls(campaign, new_day)) == 1
    assert not strictness.reph_rolls(campaign, after)
    assert walker.reph_events(campaign, new_day)
    assert len(situation.step_rolls(referee, new_day, step)) == 1
    with transaction.atomic():  # as a mark reads it: locked for its transaction
        assert walker.locked(new_day).pk == new_day.pk
