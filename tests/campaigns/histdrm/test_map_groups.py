"""The Historical DRM chart of RF CG I (11.58): the printed chart has an RB CG and an RO CG
column (11.6161), so each side has one value per map group and CG day — typed, pasted, saved,
undone, as secret as the side's roster — and the roster's side day holds both."""

import re

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, SideDay
from tests.conftest import red_factories_campaign

pytestmark = pytest.mark.django_db

DAYS = 5  # 11–15 Nov 1942


@pytest.fixture
def rf(people):
    return red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")


def url(campaign):
    return reverse("campaigns:histdrm", args=[campaign.pk])


def row(campaign, index, side):
    return SideDay.objects.get(campaign=campaign, index=index, side=side)


def grid(campaign, sides=("german", "soviet"), **typed):
    """The form as the page shows it, a cell per side and map group, with ``typed`` changes
    (``c_1_german_RB="-1"``)."""
    data = {}
    for day in SideDay.objects.filter(campaign=campaign, side__in=sides):
        for group in ("RB", "RO"):
            value = (day.hist_drms or {}).get(group)
            shown = "" if value is None else str(value)
            data[f"c-{day.index}-{day.side}-{group}"] = shown
            data[f"v-{day.index}-{day.side}-{group}"] = f"{day.version}:{shown}"
    data.update({key.replace("_", "-"): value for key, value in typed.items()})
    return data


def cell_text(html, index, side, group):
    match = re.search(
        rf'<tr id="day-{index}"[^>]*>.*?<td class="hist-drm {side} group-{group}[^"]*">(.*?)</td>',
        html,
        re.S,
    )
    assert match, f"no {side} {group} cell on day {index}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


@pytest.mark.parametrize(
    "persona, status, columns",
    [
        ("german", 200, ["German RB", "German RO"]),
        ("soviet", 200, ["Soviet RB", "Soviet RO"]),
        ("referee", 200, ["German RB", "German RO", "Soviet RB", "Soviet RO"]),
        ("observer", 404, None),
        ("outsider", 404, None),
    ],
)
def test_each_member_sees_a_column_per_map_group_of_the_sides_they_see(
    rf, client_as, persona, status, columns
):
    response = client_as(persona).get(url(rf))
    assert response.status_code == status
    if columns:
        shown = [f"{c.side.name.en} {c.map_group}" for c in response.context["columns"]]
        assert shown == columns
        assert len(response.context["rows"]) == DAYS


def test_the_soviet_player_never_sees_the_german_values(rf, client_as):
    SideDay.objects.filter(campaign=rf, side="german", index=2).update(hist_drms={"RB": 7})
    html = client_as("soviet").get(url(rf)).content.decode()
    assert 'class="hist-drm german' not in html
    assert "+7" not in html


@pytest.mark.parametrize("persona, status", [("german", 403), ("soviet", 403), ("observer", 404)])
def test_only_the_referee_saves(rf, client_as, persona, status):
    response = client_as(persona).post(url(rf), grid(rf, c_1_german_RB="-1"))
    assert response.status_code == status
    assert row(rf, 1, "german").hist_drms == {}


def test_the_referee_saves_each_map_groups_value(rf, client_as):
    response = client_as("referee").post(
        url(rf), grid(rf, c_1_german_RB="-1", c_1_german_RO="0", c_1_soviet_RO="+2")
    )
    assert response.status_code == 302
    assert row(rf, 1, "german").hist_drms == {"RB": -1, "RO": 0}
    assert row(rf, 1, "soviet").hist_drms == {"RO": 2}
    assert row(rf, 1, "german").hist_drm is None  # no value for the side as a whole
    html = client_as("referee").get(url(rf)).content.decode()
    assert 'value="-1"' in html or 'value="−1"' in html
    german = client_as("german").get(url(rf)).content.decode()
    assert "−1" in cell_text(german, 1, "german", "RB")


def test_a_pasted_chart_gives_four_columns_per_day(rf, client_as):
    paste = "11/12 -1 0 +1 +2\n13 Nov 0 ? 1 1\n"
    response = client_as("referee").post(url(rf), {**grid(rf), "paste": paste})
    assert response.status_code == 302
    assert row(rf, 1, "german").hist_drms == {"RB": -1, "RO": 0}
    assert row(rf, 1, "soviet").hist_drms == {"RB": 1, "RO": 2}
    assert row(rf, 2, "german").hist_drms == {"RB": 0}


def test_a_header_names_the_columns_by_side_and_map_group(rf, client_as):
    paste = "Date\tSoviet RO\tGerman-RB\n11/14\t+2\t-2\n"
    response = client_as("referee").post(url(rf), {**grid(rf), "paste": paste})
    assert response.status_code == 302
    assert row(rf, 3, "german").hist_drms == {"RB": -2}
    assert row(rf, 3, "soviet").hist_drms == {"RO": 2}


def test_a_short_pasted_line_names_the_columns_it_wants(rf, client_as):
    response = client_as("referee").post(url(rf), {**grid(rf), "paste": "11/12 -1 0"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "German RB, German RO, Soviet RB, Soviet RO" in page
    assert row(rf, 1, "german").hist_drms == {}


def test_a_value_cleared_is_unknown_again_and_one_undo_takes_the_save_back(rf, client_as, people):
    SideDay.objects.filter(campaign=rf, side="german", index=1).update(
        hist_drms={"RB": -1, "RO": 0}
    )
    client_as("referee").post(url(rf), grid(rf, c_1_german_RB="", c_1_german_RO="+1"))
    assert row(rf, 1, "german").hist_drms == {"RO": 1}
    event = CampaignEvent.objects.get(action="side_day.hist_drm", visibility="german")
    assert event.data["values"] == ["RB ? RO +1"]
    history.undo(event, by=people["referee"])
    assert row(rf, 1, "german").hist_drms == {"RB": -1, "RO": 0}


def test_a_stale_cell_is_refused_and_named(rf, client_as):
    data = grid(rf, c_1_german_RB="-1")
    SideDay.objects.filter(campaign=rf, side="german", index=1).update(
        hist_drms={"RO": 3}, version=5
    )
    response = client_as("referee").post(url(rf), data)
    assert response.status_code == 200
    assert row(rf, 1, "german").hist_drms == {"RO": 3}
    html = response.content.decode()
    assert "saved now: ?" in cell_text(html, 1, "german", "RB")
    # The cell the referee did not touch shows what is saved now; a second save keeps it.
    assert re.search(r'name="c-1-german-RO" value="\+3"', html)
    fresh = grid(rf, c_1_german_RB="-1")
    assert client_as("referee").post(url(rf), fresh).status_code == 302
    assert row(rf, 1, "german").hist_drms == {"RB": -1, "RO": 3}


def test_the_roster_side_day_has_a_field_per_map_group(rf, client_as):
    side_day = reverse("campaigns:side_day", args=[rf.pk, "german", 1])
    form = client_as("referee").get(side_day).content.decode()
    assert 'name="hist_drm_RB"' in form and 'name="hist_drm_RO"' in form
    assert 'name="hist_drm"' not in form
    response = client_as("referee").post(
        side_day, {"hist_drm_RB": "-1", "hist_drm_RO": "", "version": 0}
    )
    assert response.status_code == 302
    assert row(rf, 1, "german").hist_drms == {"RB": -1}
    roster = client_as("german").get(reverse("campaigns:roster", args=[rf.pk, "german"]))
    html = roster.content.decode()
    day = html[html.index('id="day-1"') :]
    day = day[: day.index("</tr>")]
    cells = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", day))
    assert "RB −1" in cells and "RO unknown" in cells


def test_a_player_may_not_set_the_map_groups_values_when_there_is_a_referee(rf, client_as):
    side_day = reverse("campaigns:side_day", args=[rf.pk, "german", 1])
    client_as("german").post(side_day, {"hist_drm_RB": "-3", "elr": "4", "version": 0})
    assert row(rf, 1, "german").hist_drms == {}
    assert row(rf, 1, "german").elr == 4
