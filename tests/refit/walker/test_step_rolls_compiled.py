"""The step page's rolls as each viewer may see them, whoever asks first in the process (the
Refit Phase's other reads are compiled once, refit.queries): a secret roll of a public step
reaches the referee and its side, never the other side or an observer."""

import pytest

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import DiceRoll, SideDay
from refit.walker import services as walker
from refit.walker import situation
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
