"""Undo never breaks the books or the rules the change was made under (campaigns.history.services
undo with campaigns.roster.books and refit.purchases.undo / refit.fortifications.undo):

- no side's CPP or FPP of any day below zero, whoever undoes;
- nothing of a finished Refit Phase or a played scenario undone by a player; the referee may,
  with a reason, and the books still hold;
- an undo re-checks what buying and taking back checked (the step open, the limits);
- a manual ledger entry never duplicates the day's rolled replenishment.
"""

import pytest

from campaigns.history import services as history
from campaigns.models import CampaignEvent, LedgerEntry, ReinforcementGroup
from campaigns.roster.ledger import Movement, shortfalls
from campaigns.roster.services import add_ledger_entry
from campaigns.state import StateError
from refit.fortifications import services as fortifications
from refit.purchases import reading
from refit.purchases import services as purchases
from refit.rules.fortification import FortificationOrder
from refit.rules.purchase_costs import Options
from refit.walker import services as walker
from tests.refit.builders import mark_past, reph_at

pytestmark = pytest.mark.django_db


def cpp_left(campaign, side="german", index=0):
    return reading.side_cpp(campaign, side, index).left


def credit(campaign, people, amount, *, side="german", index=0):
    """A referee's adjustment: CPP the side may then spend."""
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side=side,
        ledger="cpp",
        index=index,
        kind="adjustment",
        amount=amount,
        note="found in the box",
    )
    return CampaignEvent.objects.filter(campaign=campaign, action="ledger.added").latest("pk")


def spend_all(campaign, people, side="german", index=0):
    """Spend every CPP the side has left that day (a ledger debit, checked like any)."""
    left = cpp_left(campaign, side, index)
    add_ledger_entry(
        campaign,
        by=people[side],
        side=side,
        ledger="cpp",
        index=index,
        kind="rg_purchase",
        amount=-left,
        rg="A6",
    )


def balances(campaign, side, ledger):
    rows = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger=ledger)
    movements = [Movement(r.index, r.kind, r.amount, r.rg) for r in rows]
    return shortfalls(ledger, len(campaign.cg.periods), movements)


# --- the books ------------------------------------------------------------------------------


def test_a_credit_spent_since_cannot_be_undone(campaign, people, reph):
    event = credit(campaign, people, 10)
    spend_all(campaign, people)
    before = cpp_left(campaign)
    with pytest.raises(history.UndoError, match="German CPP at -"):
        history.undo(event, by=people["referee"])
    # nothing was written
    assert cpp_left(campaign) == before
    assert CampaignEvent.objects.get(pk=event.pk).undone_at is None
    assert balances(campaign, "german", "cpp") == {}


def test_a_credit_not_yet_spent_can_be_undone(campaign, people, reph):
    before = cpp_left(campaign)
    event = credit(campaign, people, 10)
    history.undo(event, by=people["referee"])
    assert cpp_left(campaign) == before


def test_a_credit_spent_on_a_later_day_cannot_be_undone(campaign, people, reph):
    """Points carried over: day 1 spends what day 0's credit left it."""
    event = credit(campaign, people, 10, index=0)
    reph_at(campaign, "new_day", 1)
    spend_all(campaign, people, index=1)
    with pytest.raises(history.UndoError, match="at -10 on 18 Oct 1942"):
        history.undo(event, by=people["referee"], reason="the credit was a typo")
    assert balances(campaign, "german", "cpp") == {}


def test_fpp_spent_on_fortifications_keep_the_rg_that_brought_them(campaign, people, reph):
    purchases.buy(campaign, "soviet", 0, "M1", Options(), people["soviet"])  # 40 FPP
    bought = CampaignEvent.objects.get(campaign=campaign, action="rg.purchased")
    fortifications.buy(
        campaign, "soviet", 0, FortificationOrder("tunnel", quantity=2), people["soviet"]
    )  # 60 FPP of the 90
    with pytest.raises(history.UndoError, match="Soviet FPP at -"):
        history.undo(bought, by=people["soviet"])
    assert ReinforcementGroup.objects.filter(campaign=campaign, rg_id="M1").exists()
    assert balances(campaign, "soviet", "fpp") == {}


def test_a_take_back_undone_after_its_cpp_went_elsewhere_is_refused(campaign, people, reph):
    rg = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    purchases.remove(campaign, rg, people["german"])
    taken_back = CampaignEvent.objects.get(campaign=campaign, action="rg.purchase_removed")
    spend_all(campaign, people)
    with pytest.raises(history.UndoError, match="CPP at -"):
        history.undo(taken_back, by=people["german"])
    assert not ReinforcementGroup.objects.filter(pk=rg.pk).exists()


# --- the rules the change was made under ----------------------------------------------------


def test_undoing_a_take_back_rechecks_the_limits(campaign, people, reph):
    # A2 in RB CG I: CG Max 1.
    first = purchases.buy(campaign, "german", 0, "A2", Options(), people["german"])
    purchases.remove(campaign, first, people["german"])
    taken_back = CampaignEvent.objects.get(campaign=campaign, action="rg.purchase_removed")
    purchases.buy(campaign, "german", 0, "A2", Options(), people["german"])
    with pytest.raises(history.UndoError, match="CG Max reached"):
        history.undo(taken_back, by=people["german"])
    assert ReinforcementGroup.objects.filter(campaign=campaign, rg_id="A2").count() == 1


def test_a_purchase_is_not_undone_once_its_step_is_marked(campaign, people, reph):
    purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    bought = CampaignEvent.objects.get(campaign=campaign, action="rg.purchased")
    walker.mark(campaign, reph, side="german", rule="11.619", by=people["german"])
    with pytest.raises(history.UndoError, match="take the mark back"):
        history.undo(bought, by=people["german"])
    walker.unmark(campaign, reph, side="german", rule="11.619", by=people["german"])
    history.undo(bought, by=people["german"])
    assert not ReinforcementGroup.objects.filter(campaign=campaign, source="purchased").exists()


def test_a_fortification_is_not_undone_once_its_step_is_marked(campaign, people, reph):
    purchases.buy(campaign, "soviet", 0, "M1", Options(), people["soviet"])
    fortifications.buy(campaign, "soviet", 0, FortificationOrder("tunnel"), people["soviet"])
    bought = CampaignEvent.objects.get(campaign=campaign, action="fortification.purchased")
    rule = fortifications.fortification_rule(campaign)
    for step in walker.steps(campaign, reph):
        if step.rule == rule:
            break
        mark_past(campaign, reph, "soviet", step.rule, people)
    mark_past(campaign, reph, "soviet", rule, people)
    with pytest.raises(history.UndoError, match="take the mark back"):
        history.undo(bought, by=people["soviet"])


def test_a_manual_replenishment_never_stands_beside_the_days_other_one(campaign, people):
    reph_at(campaign, "new_day", 1)
    entry = {"side": "german", "ledger": "cpp", "index": 1, "kind": "replenishment"}
    add_ledger_entry(campaign, by=people["german"], amount=16, **entry)
    with pytest.raises(StateError, match="already on the ledger"):
        add_ledger_entry(campaign, by=people["german"], amount=16, **entry)
    # another day, or the other side, is its own
    add_ledger_entry(campaign, by=people["soviet"], amount=9, **{**entry, "side": "soviet"})
    assert LedgerEntry.objects.filter(campaign=campaign, kind="replenishment").count() == 2


# --- a finished phase -----------------------------------------------------------------------


def test_a_player_cannot_undo_a_purchase_of_a_finished_refit_phase(campaign, people, reph):
    purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    bought = CampaignEvent.objects.get(campaign=campaign, action="rg.purchased")
    reph_at(campaign, "scenario", 0)  # the RePh is over: the scenario is being played
    german = walker_viewer(campaign, people["german"])
    assert not history.undoable_for(german).filter(pk=bought.pk).exists()
    with pytest.raises(history.UndoError, match="only the referee"):
        history.undo(bought, by=people["german"])


def test_the_referee_undoes_it_only_with_a_reason_and_the_books_hold(campaign, people, reph):
    before = cpp_left(campaign)
    purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    bought = CampaignEvent.objects.get(campaign=campaign, action="rg.purchased")
    reph_at(campaign, "scenario", 0)
    referee = walker_viewer(campaign, people["referee"])
    assert history.undoable_for(referee).filter(pk=bought.pk).exists()
    with pytest.raises(history.UndoError, match="give the reason"):
        history.undo(bought, by=people["referee"])
    history.undo(bought, by=people["referee"], reason="bought by mistake, agreed by both")
    assert cpp_left(campaign) == before
    assert balances(campaign, "german", "cpp") == {}
    undone = CampaignEvent.objects.get(campaign=campaign, action="change.undone")
    assert undone.data["reason"] == "bought by mistake, agreed by both"
    assert "bought by mistake, agreed by both" in history.describe(undone)


def test_even_the_referee_cannot_undo_a_spent_credit_of_a_finished_phase(campaign, people, reph):
    event = credit(campaign, people, 10)
    spend_all(campaign, people)
    reph_at(campaign, "scenario", 0)
    with pytest.raises(history.UndoError, match="CPP at -"):
        history.undo(event, by=people["referee"], reason="typo")


def test_changes_of_the_open_phase_stay_undoable_for_their_player(campaign, people, reph):
    reph_at(campaign, "scenario", 0)
    reph_at(campaign, "new_day", 1)
    entry = {"side": "german", "ledger": "cpp", "index": 1, "kind": "replenishment"}
    add_ledger_entry(campaign, by=people["german"], amount=16, **entry)
    event = CampaignEvent.objects.filter(action="ledger.added").latest("pk")
    assert (
        history.undoable_for(walker_viewer(campaign, people["german"])).filter(pk=event.pk).exists()
    )
    history.undo(event, by=people["german"])


def walker_viewer(campaign, user):
    from campaigns.access import viewer_for

    return viewer_for(user, campaign.pk)


@pytest.mark.parametrize("who", ["german", "referee"])
def test_a_take_back_is_not_undone_once_its_number_was_bought_again(campaign, people, reph, who):
    # Found by the property test: buy A6 (#1), take it back, buy A6 again (#1 again), undo the
    # take-back: two A6 #1 broke the numbering (an IntegrityError, the undo half done).
    credit(campaign, people, 20)
    first = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    purchases.remove(campaign, first, people["german"])
    taken_back = CampaignEvent.objects.get(campaign=campaign, action="rg.purchase_removed")
    again = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    assert again.number == first.number
    with pytest.raises(history.UndoError, match="bought again since"):
        history.undo(taken_back, by=people[who], reason="a typing slip")
    assert list(ReinforcementGroup.objects.filter(campaign=campaign, rg_id="A6")) == [again]
    assert balances(campaign, "german", "cpp") == {}
