"""Setting an RG to withdrawn, eliminated or expended on the order-of-battle page, and the RGs'
statuses shown there (campaigns.orbat.views.rg_status_view, campaigns.orbat.rg_status)."""

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, ReinforcementGroup
from campaigns.orbat import rg_status
from campaigns.state import StaleEdit, StateError

pytestmark = pytest.mark.django_db


def page(campaign, side="german"):
    return reverse("campaigns:orbat", args=[campaign.pk, side])


def status_url(campaign, rg, side="german"):
    return reverse("campaigns:orbat_rg_status", args=[campaign.pk, side, rg.pk])


def platoon(campaign, *, side="german", rg_id="A4", status="retained", entered=True):
    return ReinforcementGroup.objects.create(
        campaign=campaign,
        side=side,
        rg_id=rg_id,
        number=9,
        index=1,
        source=ReinforcementGroup.Source.PURCHASED,
        status=status,
        entered=entered,
    )


@pytest.mark.parametrize(
    "persona, code, changed",
    [
        ("german", 302, True),
        ("referee", 302, True),
        ("soviet", 404, False),
        ("observer", 404, False),
        ("outsider", 404, False),
    ],
)
def test_the_side_and_the_referee_set_a_status_no_one_else(
    campaign, client_as, persona, code, changed
):
    rg = platoon(campaign)
    response = client_as(persona).post(
        status_url(campaign, rg), {"status": "withdrawn", "current": "retained"}
    )
    assert response.status_code == code
    rg.refresh_from_db()
    assert (rg.status == "withdrawn") is changed


@pytest.mark.parametrize(
    "persona, code",
    [("german", 200), ("referee", 200), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_the_page_shows_statuses_to_the_side_and_the_referee_only(
    campaign, client_as, persona, code
):
    platoon(campaign, rg_id="A4")
    response = client_as(persona).get(page(campaign))
    assert response.status_code == code
    if code == 200:
        html = response.content.decode()
        assert "RGs and where they stand" in html
        assert 'data-status="retained"' in html
        assert 'name="status"' in html  # the referee acts for the side too


def test_the_soviet_page_says_nothing_of_the_german_rgs(campaign, client_as):
    platoon(campaign, rg_id="A4")
    html = client_as("soviet").get(page(campaign, "soviet")).content.decode()
    assert "A4#9" not in html
    assert 'data-status="retained"' not in html


def test_counts_by_status_on_the_page(campaign, client_as):
    platoon(campaign, rg_id="A4")
    platoon(campaign, rg_id="A5", status="eliminated")
    response = client_as("german").get(page(campaign))
    counts = {key: n for key, _label, n in response.context["status_counts"]}
    waiting = ReinforcementGroup.objects.filter(
        campaign=campaign, side="german", status="bought"
    ).count()
    assert counts == {"bought": waiting, "retained": 1, "eliminated": 1}


def test_only_what_the_rules_allow_is_offered_and_accepted(campaign, client_as):
    infantry = platoon(campaign, rg_id="I3")
    response = client_as("german").get(page(campaign))
    (row,) = [r for r in response.context["rg_rows"] if r.group.pk == infantry.pk]
    assert [key for key, _label in row.targets] == ["eliminated"]  # 11.6142: AFV platoons only
    response = client_as("german").post(
        status_url(campaign, infantry), {"status": "withdrawn", "current": "retained"}, follow=True
    )
    assert "Only an AFV platoon that has been on the map is withdrawn (11.6142)." in (
        response.content.decode()
    )
    infantry.refresh_from_db()
    assert infantry.status == "retained"


def test_an_automatic_status_cannot_be_posted(campaign, client_as):
    rg = platoon(campaign)
    client_as("german").post(status_url(campaign, rg), {"status": "retained", "current": "on_map"})
    rg.refresh_from_db()
    assert rg.status == "retained"


def test_a_stale_page_changes_nothing(campaign, client_as):
    rg = platoon(campaign)
    response = client_as("german").post(
        status_url(campaign, rg), {"status": "eliminated", "current": "on_map"}, follow=True
    )
    assert "Someone else changed this in the meantime" in response.content.decode()
    rg.refresh_from_db()
    assert rg.status == "retained"


def test_another_sides_rg_is_not_found_through_this_sides_address(campaign, client_as):
    soviet = platoon(campaign, side="soviet", rg_id="A3")
    response = client_as("german").post(
        status_url(campaign, soviet, side="german"), {"status": "eliminated", "current": "retained"}
    )
    assert response.status_code == 404


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_with_htmx_no_one_else_gets_the_partial(campaign, client_as, persona):
    rg = platoon(campaign)
    response = client_as(persona).post(
        status_url(campaign, rg),
        {"status": "eliminated", "current": "retained"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 404
    assert "A4#9" not in response.content.decode()


def test_with_htmx_the_boxes_come_back(campaign, client_as):
    rg = platoon(campaign)
    response = client_as("german").post(
        status_url(campaign, rg),
        {"status": "eliminated", "current": "retained"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert 'id="orbat-boxes"' in response.content.decode()
    assert response["Vary"] and "HX-Request" in response["Vary"]


def test_the_change_is_in_the_sides_history_and_undone(campaign, people):
    rg = platoon(campaign)
    rg_status.set_status(
        campaign,
        rg,
        by=people["german"],
        status="eliminated",
        current="retained",
        rg_type="afv_platoon",
    )
    event = CampaignEvent.objects.get(campaign=campaign, action="rg.status_set")
    assert event.visibility == "german"
    assert history.describe(event) == "German RG A4#9: now eliminated."
    history.undo(event, by=people["german"])
    rg.refresh_from_db()
    assert rg.status == "retained"


def test_the_service_refuses_stale_and_illegal_changes(campaign, people):
    rg = platoon(campaign, status="awaiting_entry", entered=False)
    with pytest.raises(StaleEdit):
        rg_status.set_status(
            campaign, rg, by=people["german"], status="eliminated", current="retained", rg_type=""
        )
    with pytest.raises(StateError, match="has been in a scenario"):
        rg_status.set_status(
            campaign,
            rg,
            by=people["german"],
            status="eliminated",
            current="awaiting_entry",
            rg_type="",
        )
