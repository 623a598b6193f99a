"""The Fortification Purchase Record builder the page and the printed sheet share."""

import pytest

from campaigns.models import FortificationPurchase
from campaigns.records.services import add_cvp
from refit.fortifications.records import fortification_record

pytestmark = pytest.mark.django_db


def test_the_fortification_record_builder(campaign, people, reph):
    add_cvp(
        campaign,
        by=people["referee"],
        side="soviet",
        index=0,
        phase="scenario",
        what="4-4-7",
        cvp=2,
    )
    FortificationPurchase.objects.create(
        campaign=campaign, side="soviet", index=0, item="ap-minefield", detail="A-P 6", fpp=18
    )
    record = fortification_record(campaign, "soviet")
    assert record.days[0].available == 50  # RB CG I initial OB FPP
    assert [(line.item, line.fpp, line.detail) for line in record.lines] == [
        ("ap-minefield", 18, "A-P 6")
    ]
    assert record.totals == {"ap-minefield": 1}
    assert record.cvp_by_day[0][1:] == (2, 2)
    assert fortification_record(campaign, "german").lines == []


def test_the_cvp_tally_box_leaves_out_sap_uncontrolled_exits(people):
    from tests.campaigns.records.test_scenarios import make_campaign

    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    for cvp, exited in ((3, False), (4, True)):
        add_cvp(
            sap,
            by=people["referee"],
            side="russian",
            index=0,
            phase="scenario",
            what="4-4-7",
            cvp=cvp,
            exited_uncontrolled=exited,
        )
    assert fortification_record(sap, "russian").cvp_by_day[0][1:] == (3, 3)
