"""One action rolls for every RG still to roll (issue 19): each RG's rolls made and logged as
its own button would, secret to the side, once."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll, ReinforcementGroup, SideDay
from campaigns.roster.services import add_ledger_entry
from refit.purchases import receipt
from refit.purchases import services as purchases
from refit.rules.purchase_costs import Options
from refit.walker import services as walker
from tests.refit.builders import mark_past

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def url(campaign, side="german"):
    return reverse("purchases:receive_all", args=[campaign.pk, side])


def page_url(campaign, side="german"):
    return reverse("purchases:page", args=[campaign.pk, side])


def step_url(campaign, side="german", rule="11.620"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def buy_three(campaign, people, reph, mark=True):
    """Three German RGs bought, the purchases marked done: their rolls are due on 11.620, with
    those of the German initial OB's RGs (rolled in the first RePh). Returns every German RG
    whose rolls are due."""
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side="german",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=30,
        note="test",
    )
    for rg in ("A6", "A6", "I1"):
        purchases.buy(campaign, "german", 0, rg, Options(), people["german"])
    if mark:
        mark_past(campaign, reph, "german", "11.619", people)
    due = receipt.pending(campaign, reph, "german")
    assert len(due) > 3 and {"A6", "I1"} <= {rg.rg_id for rg in due}
    return due


def rolled(campaign):
    return list(DiceRoll.objects.filter(campaign=campaign, step="11.620"))


@pytest.mark.parametrize(
    "persona, status",
    [("german", 302), ("referee", 302), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_who_rolls_for_every_german_rg(campaign, client_as, people, reph, persona, status):
    rgs = buy_three(campaign, people, reph)
    with dice.use_roller(7):
        response = client_as(persona).post(url(campaign), {"reph": reph.pk})
    assert response.status_code == status
    for rg in rgs:
        rg.refresh_from_db()
        assert receipt.received(rg) == (status == 302)
    assert bool(rolled(campaign)) == (status == 302)


def test_each_rg_is_rolled_and_logged_as_its_own_button_would(campaign, client_as, people, reph):
    rgs = buy_three(campaign, people, reph)
    with dice.use_roller(7):
        response = client_as("german").post(url(campaign), {"reph": reph.pk}, follow=True)
    html = response.content.decode()
    for rg in rgs:
        rg.refresh_from_db()
        got = rg.details["received"]
        assert got["rolls"], rg.label
        assert f"{rg.label}: " in html
        notes = DiceRoll.objects.filter(pk__in=got["rolls"]).values_list("note", flat=True)
        assert all(note.startswith(rg.label) for note in notes)
    rolls = rolled(campaign)
    assert {roll.visibility for roll in rolls} == {"german"}
    assert CampaignEvent.objects.filter(action="rg.received").count() == len(rgs)
    assert set(
        CampaignEvent.objects.filter(action="dice.rolled").values_list("visibility", flat=True)
    ) <= {"german"}


def test_the_soviet_sees_none_of_it(campaign, client_as, people, reph):
    buy_three(campaign, people, reph)
    with dice.use_roller(7):
        client_as("german").post(url(campaign), {"reph": reph.pk})
    labels = [rg.label for rg in ReinforcementGroup.objects.filter(campaign=campaign)]
    for path in (
        reverse("campaigns:dice_log", args=[campaign.pk]),
        reverse("campaigns:history", args=[campaign.pk]),
        reverse("refit:overview", args=[campaign.pk]),
    ):
        html = client_as("soviet").get(path).content.decode()
        assert not any(label in html for label in labels if label.startswith("A6")), path


def test_a_double_submit_rolls_once(campaign, client_as, people, reph):
    buy_three(campaign, people, reph)
    client = client_as("german")
    with dice.use_roller(7):
        client.post(url(campaign), {"reph": reph.pk})
        count = len(rolled(campaign))
        response = client.post(url(campaign), {"reph": reph.pk}, follow=True)
    assert len(rolled(campaign)) == count
    assert "No RG has rolls left to make." in response.content.decode()


def test_a_stale_page_rolls_nothing(campaign, client_as, people, reph):
    buy_three(campaign, people, reph)
    response = client_as("german").post(url(campaign), {"reph": reph.pk + 99}, follow=True)
    assert not rolled(campaign)
    assert "earlier Refit Phase" in response.content.decode()


def test_before_the_purchases_are_marked_nothing_is_rolled_and_it_says_why(
    campaign, client_as, people, reph
):
    buy_three(campaign, people, reph, mark=False)
    response = client_as("german").post(url(campaign), {"reph": reph.pk}, follow=True)
    assert not rolled(campaign)
    assert "Finish the purchases (11.619) first" in response.content.decode()


def test_with_htmx_the_purchases_block_is_swapped(campaign, client_as, people, reph):
    buy_three(campaign, people, reph)
    with dice.use_roller(7):
        response = client_as("german").post(url(campaign), {"reph": reph.pk}, headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="purchases">')
    assert "Roll for all" not in html  # nothing left to roll


def test_the_purchase_page_offers_it_for_two_rgs_or_more(campaign, client_as, people, reph):
    due = buy_three(campaign, people, reph)
    html = client_as("german").get(page_url(campaign)).content.decode()
    assert f"Roll for all {len(due)} RGs still to roll" in html
    assert (
        "Roll for all"
        not in client_as("referee").get(page_url(campaign, "soviet")).content.decode()
    )


def test_the_strength_step_page_rolls_them_all_and_comes_back(campaign, client_as, people, reph):
    due = buy_three(campaign, people, reph)
    client = client_as("german")
    page = client.get(step_url(campaign)).content.decode()
    assert f"Roll for all {len(due)} RGs still to roll" in page
    with dice.use_roller(7):
        response = client.post(url(campaign), {"reph": reph.pk, "from": "step"})
    assert response["Location"] == step_url(campaign) + "#rolls"
    page = client.get(step_url(campaign)).content.decode()
    assert "RGs still to roll" not in page
    assert not receipt.pending(campaign, walker.open_reph(campaign), "german")
