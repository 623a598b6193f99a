"""An escape roll's result applied to the side's OB lines: the whole stack in one action."""

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, OrbatEntry
from campaigns.orbat import services as orbat
from campaigns.state import StateError
from refit.models import PerimeterState
from refit.perimeters import escape_results
from refit.walker import services as walker

pytestmark = pytest.mark.django_db


def escape_roll(campaign, people, **outcome):
    """A German stack of three units rolled to escape, with ``outcome``'s flags."""
    reph = walker.open_reph(campaign)
    roll = DiceRoll.objects.create(
        campaign=campaign,
        index=0,
        side="german",
        step="11.6063",
        table_id="rf.escape",
        kind="DR",
        faces=[6, 6],
        original=12,
        final=12,
        visibility="public",
        rolled_by=people["german"],
    )
    entry = {
        "side": "german",
        "units": ["G1", "G2", "G3"],
        "roll": roll.pk,
        "original": 12,
        "final": 12,
        "escaped": False,
        "eliminated": False,
        "abandoned": False,
        "replaced": False,
        "casualty_reduced": False,
        "heat_of_battle": False,
        "left": [],
        **outcome,
    }
    state, _ = PerimeterState.objects.get_or_create(
        campaign=campaign, reph=reph, defaults={"index": 0}
    )
    state.escapes = [*state.escapes, entry]
    state.save()
    return state, roll


@pytest.fixture
def lines(campaign, people):
    return orbat.add_units(
        campaign, by=people["german"], side="german", box="retained", text="5 × 4-6-7; 9-1"
    )


def test_an_eliminated_stack_goes_to_the_eliminated_box_in_one_action(campaign, people, lines):
    squads, leader = lines
    state, roll = escape_roll(campaign, people, eliminated=True)
    done = escape_results.apply_escape(
        campaign,
        state,
        "german",
        roll=roll.pk,
        lines=[squads.pk, squads.pk, leader.pk],
        by=people["german"],
    )
    assert "eliminated" in done
    squads.refresh_from_db()
    leader.refresh_from_db()
    assert squads.quantity == 3
    assert leader.box == "casualties"
    assert OrbatEntry.objects.filter(
        campaign=campaign, box="casualties", unit_type="4-6-7", quantity=2
    ).exists()
    event = CampaignEvent.objects.get(action="orbat.result")
    assert event.visibility == "german"
    assert event.data["refit_step"]["roll"] == roll.pk

    with pytest.raises(StateError, match="already applied"):
        escape_results.apply_escape(
            campaign, state, "german", roll=roll.pk, lines=[squads.pk], by=people["german"]
        )
    history.undo(event, by=people["german"])
    squads.refresh_from_db()
    assert squads.quantity == 5
    assert OrbatEntry.objects.get(pk=leader.pk).box == "retained"


def test_a_reduced_unit_becomes_the_unit_the_player_names(campaign, people, lines):
    squads, _leader = lines
    state, roll = escape_roll(campaign, people, escaped=True, casualty_reduced=True)
    with pytest.raises(StateError, match="becomes"):
        escape_results.apply_escape(
            campaign, state, "german", roll=roll.pk, lines=[squads.pk], by=people["german"]
        )
    escape_results.apply_escape(
        campaign,
        state,
        "german",
        roll=roll.pk,
        lines=[squads.pk],
        becomes="2-4-7",
        by=people["german"],
    )
    assert OrbatEntry.objects.filter(campaign=campaign, unit_type="2-4-7", quantity=1).exists()
    assert OrbatEntry.objects.get(pk=squads.pk).quantity == 4


def test_an_escaped_stack_changes_nothing(campaign, people, lines):
    state, roll = escape_roll(campaign, people, escaped=True)
    with pytest.raises(StateError, match="escaped"):
        escape_results.apply_escape(
            campaign, state, "german", roll=roll.pk, lines=[lines[0].pk], by=people["german"]
        )


def test_more_lines_than_units_or_another_sides_line_is_refused(campaign, people, lines):
    squads, _leader = lines
    soviet = orbat.add_units(
        campaign, by=people["soviet"], side="soviet", box="retained", text="4-4-7"
    )[0]
    state, roll = escape_roll(campaign, people, eliminated=True)
    for picked in ([squads.pk] * 4, [soviet.pk]):
        with pytest.raises(StateError):
            escape_results.apply_escape(
                campaign, state, "german", roll=roll.pk, lines=picked, by=people["german"]
            )
    assert OrbatEntry.objects.get(pk=soviet.pk).box == "retained"


def url(campaign, roll):
    return reverse("perimeters:escape_ob", args=[campaign.pk, "german", roll.pk])


@pytest.mark.parametrize(
    "persona, status",
    [("german", 200), ("referee", 200), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_the_form_is_the_sides_and_the_referees(
    campaign, client_as, people, lines, persona, status
):
    _state, roll = escape_roll(campaign, people, eliminated=True)
    response = client_as(persona).get(url(campaign, roll))
    assert response.status_code == status
    if status == 200:
        html = response.content.decode()
        assert html.count('<select name="lines"') == 3
        assert "5 × 4-6-7" in html


def test_the_form_applies_the_stack_and_goes_to_the_order_of_battle(
    campaign, client_as, people, lines
):
    squads, leader = lines
    _state, roll = escape_roll(campaign, people, eliminated=True)
    response = client_as("german").post(
        url(campaign, roll), {"lines": [squads.pk, squads.pk, leader.pk]}
    )
    assert response.status_code == 302
    assert response.url == reverse("campaigns:orbat", args=[campaign.pk, "german"])
    assert OrbatEntry.objects.get(pk=leader.pk).box == "casualties"


def test_a_refused_form_keeps_the_choices(campaign, client_as, people, lines):
    squads, _leader = lines
    _state, roll = escape_roll(campaign, people, eliminated=True)
    response = client_as("german").post(url(campaign, roll), {"lines": [squads.pk] * 4})
    assert response.status_code == 200
    assert "Name one order-of-battle line for each unit" in response.content.decode()
    assert OrbatEntry.objects.get(pk=squads.pk).quantity == 5


@pytest.mark.parametrize("persona, link", [("german", True), ("observer", False)])
def test_the_perimeter_page_links_the_escape_to_the_ob_for_the_side(
    campaign, client_as, people, persona, link
):
    _state, roll = escape_roll(campaign, people, eliminated=True)
    html = client_as(persona).get(reverse("perimeters:page", args=[campaign.pk]))
    assert (url(campaign, roll) in html.content.decode()) is link
