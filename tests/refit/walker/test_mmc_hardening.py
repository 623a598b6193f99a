"""11.6112: after the side's MMC Battle Hardening DR, the owner chooses which MMC harden and
what they become; the app books it on the OB lines, within the count the DR gave."""

import pytest
from django.urls import reverse

from campaigns.models import CampaignEvent, DiceRoll, OrbatEntry
from campaigns.orbat import services as orbat
from campaigns.state import StateError
from refit.walker import ob_results
from refit.walker import services as walker
from tests.refit.builders import reph_at
from tests.refit.walker.test_automatic import walk_to

pytestmark = pytest.mark.django_db


@pytest.fixture
def reph(campaign, people):
    reph = reph_at(campaign, "after_scenario", 0)
    walk_to(campaign, reph, people, "11.611")
    return reph


def mmc_roll(campaign, people, mmc, side="german"):
    return DiceRoll.objects.create(
        campaign=campaign,
        index=0,
        side=side,
        step="11.611",
        table_id="rf.mmc-battle-hardening",
        kind="DR",
        faces=[2, 2],
        original=4,
        final=4,
        result={"mmc": mmc},
        visibility=side,
        rolled_by=people[side],
    )


@pytest.fixture
def squads(campaign, people):
    return orbat.add_units(
        campaign, by=people["german"], side="german", box="retained", text="6 × 4-4-7; 2 × 5-4-8"
    )


def test_the_chosen_mmc_become_what_the_owner_names_and_undo_with_the_step(
    campaign, people, reph, squads
):
    first_line, elite = squads
    mmc_roll(campaign, people, 3)
    done = ob_results.harden_mmc(
        campaign,
        reph,
        "german",
        picks={first_line.pk: (2, "4-5-8"), elite.pk: (1, "")},
        by=people["german"],
    )
    assert "MMC battle hardened" in done
    assert OrbatEntry.objects.get(pk=first_line.pk).quantity == 4
    assert OrbatEntry.objects.filter(campaign=campaign, unit_type="4-5-8", quantity=2).exists()
    assert OrbatEntry.objects.filter(
        campaign=campaign, unit_type="5-4-8", quantity=1, statuses=["fanatic"]
    ).exists()
    event = CampaignEvent.objects.get(action="orbat.result")
    assert (event.visibility, event.data["count"]) == ("german", 3)

    with pytest.raises(StateError, match="allows"):
        ob_results.harden_mmc(
            campaign, reph, "german", picks={first_line.pk: (1, "4-5-8")}, by=people["german"]
        )
    walker.undo_effects(campaign, reph, side="german", rule="11.611", by=people["german"])
    assert OrbatEntry.objects.get(pk=first_line.pk).quantity == 6
    assert not OrbatEntry.objects.filter(campaign=campaign, unit_type="4-5-8").exists()


def test_nothing_hardens_before_the_roll(campaign, people, reph, squads):
    with pytest.raises(StateError, match="Roll the MMC"):
        ob_results.harden_mmc(
            campaign, reph, "german", picks={squads[0].pk: (1, "4-5-8")}, by=people["german"]
        )


def step_url(campaign, side="german"):
    return reverse("refit:step", args=[campaign.pk, side, "11.611"])


@pytest.mark.parametrize(
    "persona, status, form",
    [
        ("german", 200, True),
        ("referee", 200, True),
        ("soviet", 404, False),
        ("observer", 404, False),
        ("outsider", 404, False),
    ],
)
def test_the_hardening_form_is_for_those_who_roll_for_the_side(
    campaign, client_as, people, reph, squads, persona, status, form
):
    mmc_roll(campaign, people, 2)
    response = client_as(persona).get(step_url(campaign))
    assert response.status_code == status
    html = response.content.decode()
    assert (f'name="count_{squads[0].pk}"' in html) is form


def test_the_form_books_the_choice(campaign, client_as, people, reph, squads):
    mmc_roll(campaign, people, 2)
    url = reverse("refit:harden", args=[campaign.pk, "german", "11.611"])
    posted = {"reph": reph.pk, f"count_{squads[0].pk}": "2", f"becomes_{squads[0].pk}": "4-5-8"}
    response = client_as("german").post(url, posted)
    assert response.status_code == 302
    assert OrbatEntry.objects.filter(campaign=campaign, unit_type="4-5-8", quantity=2).exists()


@pytest.mark.parametrize("persona, status", [("soviet", 404), ("observer", 404)])
def test_others_cannot_harden_the_sides_mmc(
    campaign, client_as, people, reph, squads, persona, status
):
    mmc_roll(campaign, people, 2)
    url = reverse("refit:harden", args=[campaign.pk, "german", "11.611"])
    posted = {"reph": reph.pk, f"count_{squads[0].pk}": "1", f"becomes_{squads[0].pk}": "4-5-8"}
    assert client_as(persona).post(url, posted).status_code == status
    assert not OrbatEntry.objects.filter(campaign=campaign, unit_type="4-5-8").exists()


@pytest.mark.parametrize("count", ["two", "-1", "1.5"])
def test_a_count_that_is_no_whole_number_hardens_nothing(
    campaign, client_as, people, reph, squads, count
):
    mmc_roll(campaign, people, 2)
    url = reverse("refit:harden", args=[campaign.pk, "german", "11.611"])
    posted = {"reph": reph.pk, f"count_{squads[0].pk}": count, f"becomes_{squads[0].pk}": "4-5-8"}
    response = client_as("german").post(url, posted, follow=True)
    assert "Enter how many as a whole number." in response.content.decode()
    assert not OrbatEntry.objects.filter(campaign=campaign, unit_type="4-5-8").exists()
