"""Moving lines between the divider's boxes: check several lines, choose the box, one submit."""

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, OrbatEntry
from campaigns.oid import oid
from campaigns.orbat import services as orbat
from campaigns.state import StaleEdit, StateError
from tests.campaigns.orbat.test_orbat import big_campaign, german_rg

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def move_url(campaign, side="german"):
    return reverse("campaigns:orbat_move", args=[campaign.pk, side])


def add(campaign, people, text, box="retained", side="german"):
    return orbat.add_units(campaign, by=people[side], side=side, box=box, text=text)


def checked(*entries):
    return [f"{oid(e.pk)}:{e.version}" for e in entries]


def test_checked_lines_move_whole_to_the_box_in_one_change(campaign, client_as, people):
    squads, leader, lmg = add(campaign, people, "3 × 4-6-7; 9-1; 2 × LMG")
    response = client_as("german").post(
        move_url(campaign), {"lines": checked(squads, leader), "box": "casualties"}
    )
    assert response.status_code == 302
    assert response.url.endswith("#box-casualties")
    boxes = dict(
        OrbatEntry.objects.filter(pk__in=[squads.pk, leader.pk, lmg.pk]).values_list("pk", "box")
    )
    assert boxes == {squads.pk: "casualties", leader.pk: "casualties", lmg.pk: "retained"}
    event = CampaignEvent.objects.get(action="orbat.moved")
    assert event.visibility == "german"
    assert event.data["units"] == ["3 × 4-6-7", "1 × 9-1"]
    history.undo(event, by=people["german"])
    assert set(
        OrbatEntry.objects.filter(pk__in=[squads.pk, leader.pk]).values_list("box", flat=True)
    ) == {"retained"}


def test_lines_move_into_an_rg_box(campaign, client_as, people):
    (squads,) = add(campaign, people, "2 × 4-6-7")
    group = german_rg(campaign)
    client_as("referee").post(
        move_url(campaign), {"lines": checked(squads), "box": f"rg:{oid(group.pk)}"}
    )
    squads.refresh_from_db()
    assert (squads.box, squads.group_id) == ("rg", group.pk)


def test_with_htmx_the_boxes_are_swapped_with_the_message(campaign, client_as, people):
    (squads,) = add(campaign, people, "2 × 4-6-7")
    response = client_as("german").post(
        move_url(campaign), {"lines": checked(squads), "box": "wounded"}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.strip().startswith('<div id="orbat-boxes"')
    assert "Moved to Wounded leaders: 2 × 4-6-7." in html
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(
    "posted, message",
    [
        ({"box": "casualties"}, "Check the lines to move."),
        ({"lines": ["1:x"], "box": "casualties"}, "out of date"),
        ({"lines": ["LINE"], "box": "nowhere"}, "Choose one of this side"),
    ],
)
def test_a_bad_form_moves_nothing_and_says_why(campaign, client_as, people, posted, message):
    posted = {
        **posted,
        "lines": [v.replace("LINE", f"{oid(1)}:0") for v in posted.get("lines", [])],
    }
    response = client_as("german").post(move_url(campaign), posted, follow=True)
    assert message in response.content.decode()
    assert not CampaignEvent.objects.filter(action="orbat.moved").exists()


def test_a_line_saved_since_refuses_the_whole_move(campaign, people):
    squads, leader = add(campaign, people, "3 × 4-6-7; 9-1")
    lines = {squads.pk: squads.version, leader.pk: leader.version}
    orbat.change_entry(leader, by=people["german"], version=leader.version, quantity=2)
    with pytest.raises(StaleEdit):
        orbat.move_entries(
            campaign, by=people["german"], side="german", lines=lines, box="casualties"
        )
    assert OrbatEntry.objects.get(pk=squads.pk).box == "retained"


def test_another_sides_line_cannot_be_moved(campaign, client_as, people):
    (soviet,) = add(campaign, people, "4-4-7", side="soviet")
    with pytest.raises(StateError):
        orbat.move_entries(
            campaign, by=people["german"], side="german", lines={soviet.pk: 0}, box="casualties"
        )
    response = client_as("german").post(
        move_url(campaign), {"lines": checked(soviet), "box": "casualties"}, follow=True
    )
    assert "not in this side" in response.content.decode()
    assert OrbatEntry.objects.get(pk=soviet.pk).box == "retained"


def test_lines_already_in_the_box_are_refused_alone(campaign, people):
    (squads,) = add(campaign, people, "4-6-7")
    with pytest.raises(StateError, match="already in that box"):
        orbat.move_entries(
            campaign, by=people["german"], side="german", lines={squads.pk: 0}, box="retained"
        )


@pytest.mark.parametrize("persona, status", [("soviet", 404), ("observer", 404), ("outsider", 404)])
def test_nobody_moves_lines_of_a_side_they_may_not_act_for(
    campaign, client_as, people, persona, status
):
    (squads,) = add(campaign, people, "4-6-7")
    response = client_as(persona).post(
        move_url(campaign), {"lines": checked(squads), "box": "casualties"}
    )
    assert response.status_code == status
    assert OrbatEntry.objects.get(pk=squads.pk).box == "retained"


def test_each_line_has_its_checkbox_for_the_move_form(campaign, client_as, people):
    squads, leader = add(campaign, people, "3 × 4-6-7; 9-1")
    html = client_as("german").get(reverse("campaigns:orbat", args=[campaign.pk, "german"]))
    html = html.content.decode()
    assert f'value="{oid(squads.pk)}:{squads.version}" form="move"' in html
    assert 'id="move"' in html


def test_moving_costs_the_same_in_a_big_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    (squads,) = add(campaign, people, "4-6-7")
    with django_assert_max_num_queries(30) as small:
        client_as("german").post(
            move_url(campaign), {"lines": checked(squads), "box": "wounded"}, headers=HTMX
        )
    big = big_campaign(people)
    line = OrbatEntry.objects.filter(campaign=big, box="retained").first()
    with django_assert_max_num_queries(len(small.captured_queries)):
        client_as("german").post(
            move_url(big), {"lines": checked(line), "box": "wounded"}, headers=HTMX
        )
    assert OrbatEntry.objects.get(pk=line.pk).box == "wounded"
