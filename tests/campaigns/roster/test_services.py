"""Changes to a side's secret sheets: CPP/FPP ledger entries checked against the rules and what
the side has left, and who may undo them."""

import pytest
from django.utils import timezone

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.records import services as records
from campaigns.roster import services as roster
from campaigns.state import StateError

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("kind", "amount", "note", "message"),
    [
        ("replenishment", -3, "", "more than 0"),
        ("rg_purchase", 5, "", "less than 0"),
        ("adjustment", 2, " ", "reason"),
        ("adjustment", 0, "typo", "cannot be 0"),
        ("fortification_purchase", -4, "", "does not belong"),
    ],
)
def test_ledger_entries_are_checked(campaign, people, kind, amount, note, message):
    with pytest.raises(StateError, match=message):
        roster.add_ledger_entry(
            campaign,
            by=people["referee"],
            side="german",
            ledger="cpp",
            index=1,
            kind=kind,
            amount=amount,
            note=note,
        )


def test_a_ledger_entry_outside_the_calendar_is_refused(campaign, people):
    with pytest.raises(StateError, match="calendar"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=13,
            kind="replenishment",
            amount=3,
        )


def test_an_rg_purchase_must_name_an_rg_of_that_sides_chart(campaign, people):
    with pytest.raises(StateError, match="Z9 is not on this side's RG chart"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="rg_purchase",
            amount=-5,
            rg="Z9",
        )
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="rg_purchase",
        amount=-5,
        rg="I2",
    )


def test_there_is_no_replenishment_on_the_first_day(campaign, people):
    with pytest.raises(StateError, match="first CG day"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="replenishment",
            amount=10,
        )


def test_a_side_cannot_spend_more_cpp_than_it_has_left(campaign, people):
    # RB CG I: the German starts with 15 CPP.
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="rg_purchase",
        amount=-10,
        rg="I1",
    )
    with pytest.raises(StateError, match="costs 6 but only 5 are left"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="rg_purchase",
            amount=-6,
            rg="I2",
        )
    roster.add_ledger_entry(
        campaign, by=people["german"], side="german", ledger="cpp", index=0, kind="recon", amount=-5
    )
    with pytest.raises(StateError, match="only 0 are left"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="recon",
            amount=-1,
        )


def test_a_side_cannot_spend_more_fpp_than_it_has_that_day(campaign, people):
    # RB CG I: the Soviet has 50 FPP for the initial 11.621 step; unspent FPP are lost.
    with pytest.raises(StateError, match="costs 51 but only 50"):
        roster.add_ledger_entry(
            campaign,
            by=people["soviet"],
            side="soviet",
            ledger="fpp",
            index=0,
            kind="fortification_purchase",
            amount=-51,
        )
    with pytest.raises(StateError, match="only 0"):
        roster.add_ledger_entry(
            campaign,
            by=people["soviet"],
            side="soviet",
            ledger="fpp",
            index=1,
            kind="fortification_purchase",
            amount=-1,
        )


def test_a_player_may_undo_only_their_own_changes_the_referee_any(campaign, people):
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=16,
    )
    records.add_cvp(
        campaign, by=people["soviet"], side="german", index=0, phase="scenario", what="4-6-7", cvp=2
    )
    german = set(
        history.undoable_for(viewer_for(people["german"], campaign.pk)).values_list(
            "action", flat=True
        )
    )
    soviet = set(
        history.undoable_for(viewer_for(people["soviet"], campaign.pk)).values_list(
            "action", flat=True
        )
    )
    referee = set(
        history.undoable_for(viewer_for(people["referee"], campaign.pk)).values_list(
            "action", flat=True
        )
    )
    assert german == {"ledger.added"}
    assert soviet == {"cvp.added"}  # and never the German's secret ledger entry
    assert referee == {"ledger.added", "cvp.added"}


def test_only_the_referee_undoes_a_ledger_adjustment(campaign, people):
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=3,
        note="typo on the sheet",
    )
    german = history.undoable_for(viewer_for(people["german"], campaign.pk))
    referee = history.undoable_for(viewer_for(people["referee"], campaign.pk))
    assert not german.filter(action="ledger.added").exists()
    assert referee.filter(action="ledger.added").exists()


def test_the_migration_fills_an_earlier_recon_payment_from_its_roll(campaign, people):
    # Recon paid before the payment kept its Locations: the roll of that side and day says.
    import importlib

    from django.apps import apps

    from campaigns.models import DiceRoll, LedgerEntry

    migration = importlib.import_module("campaigns.migrations.0009_records_recon_locations")
    entry = LedgerEntry.objects.create(
        campaign=campaign, side="german", ledger="cpp", index=0, kind="recon", amount=-1
    )
    other = LedgerEntry.objects.create(
        campaign=campaign, side="german", ledger="cpp", index=1, kind="recon", amount=-1
    )
    for final, voided in ((2, True), (4, False)):
        DiceRoll.objects.create(
            campaign=campaign,
            index=0,
            side="german",
            step="11.622",
            table_id="rf.recon",
            kind="dr",
            faces=[final],
            original=final,
            final=final,
            result={"locations": final},
            visibility="german",
            voided_at=timezone.now() if voided else None,
        )
    migration.fill_from_rolls(apps, None)
    entry.refresh_from_db()
    other.refresh_from_db()
    assert (entry.locations, other.locations) == (4, None)  # no roll on day 1: left blank


def test_only_a_recon_payment_carries_locations(campaign, people):
    with pytest.raises(StateError, match="Only a recon payment"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=0,
            kind="rg_purchase",
            amount=-4,
            rg="A5",
            locations=3,
        )
    entry = roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=0,
        kind="recon",
        amount=-2,
        locations=7,
    )
    assert entry.locations == 7
