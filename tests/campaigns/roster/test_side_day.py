"""Editing one side's CG Roster row: Historical DRM, ELR, SAN, initiative chit."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CampaignEvent, Role, SideDay
from campaigns.roster import services as roster
from tests.campaigns.builders import SIDE_PAGE_ACCESS

pytestmark = pytest.mark.django_db


def url(campaign, side="german", index=1):
    return reverse("campaigns:side_day", args=[campaign.pk, side, index])


def record(campaign, side="german", index=1):
    return SideDay.objects.get(campaign=campaign, side=side, index=index)


def post_data(row, **changes):
    data = {
        "hist_drm": "" if row.hist_drm is None else row.hist_drm,
        "elr": "" if row.elr is None else row.elr,
        "san": "" if row.san is None else row.san,
        "initiative_chit": row.initiative_chit,
        "version": row.version,
    }
    if row.elr_san_revealed:
        data["elr_san_revealed"] = "on"
    if row.chit_revealed:
        data["chit_revealed"] = "on"
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


# --- who may open and post it --------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, side, status",
    SIDE_PAGE_ACCESS,
)
def test_only_the_sides_players_and_the_referee_open_the_form(
    campaign, client_as, persona, side, status
):
    assert client_as(persona).get(url(campaign, side)).status_code == status


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_nobody_else_can_post_it_and_nothing_changes(campaign, client_as, persona):
    row = record(campaign)
    response = client_as(persona).post(url(campaign), post_data(row, elr=1, san=1))
    assert response.status_code == 404
    row.refresh_from_db()
    assert (row.elr, row.san, row.version) == (None, None, 0)
    assert not CampaignEvent.objects.filter(action="side_day.updated").exists()


@pytest.mark.parametrize("index", [13, 99])
def test_a_day_outside_the_calendar_is_404(campaign, client_as, index):
    # RB CG I has 13 CG days: indexes 0–12.
    assert client_as("german").get(url(campaign, index=index)).status_code == 404
    assert client_as("referee").post(url(campaign, index=index), {"version": 0}).status_code == 404


def test_the_last_day_of_the_calendar_opens(campaign, client_as):
    assert client_as("german").get(url(campaign, index=12)).status_code == 200


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302


# --- saving --------------------------------------------------------------------------------


def test_a_player_saves_elr_san_and_the_chit(campaign, client_as):
    row = record(campaign)
    response = client_as("german").post(
        url(campaign),
        post_data(
            row, elr=3, san=5, initiative_chit="attack", elr_san_revealed="on", chit_revealed="on"
        ),
    )
    assert response.status_code == 302
    assert response["Location"].endswith(
        reverse("campaigns:roster", args=[campaign.pk, "german"]) + "#day-1"
    )
    row.refresh_from_db()
    assert (row.elr, row.san, row.initiative_chit) == (3, 5, "attack")
    assert row.elr_san_revealed and row.chit_revealed
    assert row.version == 1
    event = CampaignEvent.objects.get(action="side_day.updated")
    assert event.visibility == "german"  # the change itself is the side's secret


def test_after_saving_the_roster_shows_the_new_values(campaign, client_as):
    row = record(campaign)
    client = client_as("german")
    response = client.post(url(campaign), post_data(row, elr=2, san=6), follow=True)
    html = response.content.decode()
    assert "Saved 18 Oct 1942." in html
    rows = response.context["rows"]
    assert (rows[1].side_day.elr, rows[1].side_day.san) == (2, 6)


def test_values_can_be_cleared_back_to_unknown(campaign, client_as):
    SideDay.objects.filter(pk=record(campaign).pk).update(elr=3, san=4)
    row = record(campaign)
    client_as("german").post(url(campaign), post_data(row, elr="", san=""))
    row.refresh_from_db()
    assert (row.elr, row.san) == (None, None)


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("elr", 6, "Ensure this value is less than or equal to 5."),
        ("elr", -1, "Ensure this value is greater than or equal to 0."),
        ("san", 8, "Ensure this value is less than or equal to 7."),
        ("san", "many", "Enter a whole number."),
        ("initiative_chit", "defend", "Select a valid choice."),
    ],
)
def test_bad_input_is_refused_named_and_kept(campaign, client_as, field, value, message):
    row = record(campaign)
    kept = "san" if field == "elr" else "elr"
    response = client_as("german").post(url(campaign), post_data(row, **{kept: 3, field: value}))
    assert response.status_code == 200
    form = response.context["form"]
    assert message in " ".join(form.errors[field])
    html = response.content.decode()
    assert "Please correct the fields marked below." in html
    assert f'name="{kept}" value="3"' in html  # the rest of the input is not lost
    row.refresh_from_db()
    assert (row.elr, row.san, row.version) == (None, None, 0)


def test_the_values_the_rules_allow_are_accepted(campaign, client_as):
    row = record(campaign)
    client_as("german").post(url(campaign), post_data(row, elr=0, san=7))
    row.refresh_from_db()
    assert (row.elr, row.san) == (0, 7)


# --- the Historical DRM --------------------------------------------------------------------


def test_a_player_cannot_set_the_historical_drm_when_there_is_a_referee(campaign, client_as):
    row = record(campaign)
    response = client_as("german").get(url(campaign))
    assert response.context["form"].fields["hist_drm"].disabled
    client_as("german").post(url(campaign), post_data(row, hist_drm=3, elr=2))
    row.refresh_from_db()
    assert (row.hist_drm, row.elr) == (-2, 2)  # ELR saved, the DRM kept as the rules give it


def test_the_referee_sets_the_historical_drm(campaign, client_as):
    row = record(campaign, index=2)
    assert row.hist_drm is None
    client_as("referee").post(url(campaign, index=2), post_data(row, hist_drm=-1))
    row.refresh_from_db()
    assert row.hist_drm == -1


def test_without_a_referee_the_sides_player_sets_the_historical_drm(campaign, client_as):
    campaign.memberships.filter(role=Role.REFEREE).delete()
    row = record(campaign, index=2)
    client_as("german").post(url(campaign, index=2), post_data(row, hist_drm=1))
    row.refresh_from_db()
    assert row.hist_drm == 1


def test_the_historical_drm_may_be_left_unknown(campaign, client_as):
    row = record(campaign)
    client_as("referee").post(url(campaign), post_data(row, hist_drm=""))
    row.refresh_from_db()
    assert row.hist_drm is None


# --- stale edits ---------------------------------------------------------------------------


def test_a_stale_edit_is_refused_and_overwrites_nothing(campaign, client_as, people):
    row = record(campaign)
    opened = post_data(row, elr=1, san=1)  # the form as the German player opened it
    roster.update_side_day(campaign, row, by=people["referee"], version=0, elr=4, san=5)
    response = client_as("german").post(url(campaign), opened)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Someone else changed this in the meantime" in html
    assert 'name="elr" value="1"' in html  # the user's input is still there
    assert response.context["stale"].elr == 4  # and what is saved now is shown beside it
    row.refresh_from_db()
    assert (row.elr, row.san, row.version) == (4, 5, 1)


def test_a_form_opened_after_the_change_saves(campaign, client_as, people):
    row = record(campaign)
    roster.update_side_day(campaign, row, by=people["referee"], version=0, elr=4)
    version = client_as("german").get(url(campaign)).context["form"].initial["version"]
    assert version == 1
    row.refresh_from_db()
    response = client_as("german").post(url(campaign), post_data(row, elr=2))
    assert response.status_code == 302
    row.refresh_from_db()
    assert (row.elr, row.version) == (2, 2)


# --- HTMX ----------------------------------------------------------------------------------


def test_htmx_opens_the_form_above_the_roster_as_a_partial(campaign, client_as):
    response = client_as("german").get(url(campaign), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="roster-body">')
    assert 'id="side-day-editor"' in html
    assert "HX-Request" in response["Vary"]


def test_htmx_saving_swaps_the_roster_with_the_new_values(campaign, client_as):
    row = record(campaign)
    response = client_as("german").post(
        url(campaign), post_data(row, elr=2, san=6), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert "Saved 18 Oct 1942." in html
    assert 'id="side-day-editor"' not in html
    assert response.context["rows"][1].side_day.elr == 2


def test_htmx_errors_come_back_in_the_form(campaign, client_as):
    row = record(campaign)
    response = client_as("german").post(
        url(campaign), post_data(row, elr=9), headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert "<html" not in html
    assert "Ensure this value is less than or equal to 5." in html


# --- other games ---------------------------------------------------------------------------


def test_slaughter_at_ponyri_asks_only_elr_and_san(people, client_as):
    """SaP has no Historical DRM chart and no initiative chit (issue 16): its form asks the ELR
    and the SAN only; a posted chit or Historical DRM is ignored."""
    ponyri = services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )
    row = record(ponyri, index=0)
    client = client_as("german")
    html = client.get(url(ponyri, index=0)).content.decode()
    assert 'name="elr"' in html and 'name="san"' in html
    for field in ("hist_drm", "initiative_chit", "chit_revealed"):
        assert f'name="{field}"' not in html
    assert "ELR and SAN" in html and "initiative chit" not in html
    response = client.post(
        url(ponyri, index=0), post_data(row, elr=3, initiative_chit="Continue", hist_drm=2)
    )
    assert response.status_code == 302
    row.refresh_from_db()
    assert (row.elr, row.initiative_chit, row.hist_drm) == (3, "", None)
    assert client.get(url(ponyri, index=6)).status_code == 404  # 6 time frames: 0–5


# --- cost ----------------------------------------------------------------------------------


def test_the_number_of_queries_does_not_grow_with_the_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    from tests.campaigns.builders import make_big_campaign

    client = client_as("german")
    with django_assert_max_num_queries(12) as small:
        assert client.get(url(campaign)).status_code == 200
    big = make_big_campaign(people)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(url(big, index=20)).status_code == 200
