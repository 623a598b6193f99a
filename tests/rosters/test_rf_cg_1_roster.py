"""The printed CG Roster of RF CG I (11.58) shows what the page shows: the Historical DRM per
map group and Repl with each map group's part."""

import pytest

from campaigns.access import viewer_for
from campaigns.models import SideDay
from campaigns.roster import services as roster
from rosters.builders import build_sheet
from tests.conftest import red_factories_campaign
from tests.rosters.test_builders import column

pytestmark = pytest.mark.django_db


def test_the_printed_roster_has_both_map_groups(people):
    rf = red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")
    SideDay.objects.filter(campaign=rf, index=1, side="german").update(hist_drms={"RB": -1})
    rf.period_index = 1
    rf.save(update_fields=["period_index"])
    for group, amount in (("RB", 15), ("RO", 13)):
        roster.add_ledger_entry(
            rf,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=1,
            kind="replenishment",
            amount=amount,
            map_group=group,
        )
    (table,) = build_sheet(viewer_for(people["german"], rf.pk), "german", "roster", "en").tables
    assert column(table, "Hist DRM")[1] == "RB −1 RO ?"
    assert column(table, "Repl", "CPP")[1] == "28 (RB 15 + RO 13)"
