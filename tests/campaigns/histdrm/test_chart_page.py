"""The Historical DRM chart page: every CG day × side on one page, typed or pasted, one Save."""

import re
from html import unescape

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.histdrm import services
from campaigns.history import services as history
from campaigns.members import services as members
from campaigns.models import CampaignEvent, Role, SideDay
from tests.campaigns.builders import make_big_campaign

pytestmark = pytest.mark.django_db

DAYS = 13  # RB CG I: 17–29 Oct 1942


def url(campaign):
    return reverse("campaigns:histdrm", args=[campaign.pk])


def row(campaign, index, side):
    return SideDay.objects.get(campaign=campaign, index=index, side=side)


def grid(campaign, sides=("german", "soviet"), **typed):
    """The form as the page shows it now, with ``typed`` cells (``c-1-german="-1"``) changed."""
    data = {}
    for day in SideDay.objects.filter(campaign=campaign, side__in=sides):
        shown = "" if day.hist_drm is None else str(day.hist_drm)
        data[f"c-{day.index}-{day.side}"] = shown
        data[f"v-{day.index}-{day.side}"] = f"{day.version}:{shown}"
    data.update({key.replace("_", "-"): value for key, value in typed.items()})
    return data


def cell_text(html, index, side):
    match = re.search(
        rf'<tr id="day-{index}"[^>]*>.*?<td class="hist-drm {side}[^"]*">(.*?)</td>', html, re.S
    )
    assert match, f"no {side} cell on day {index}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


# --- who sees it ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, status, columns",
    [
        ("german", 200, ["German"]),
        ("soviet", 200, ["Soviet"]),
        ("referee", 200, ["German", "Soviet"]),
        ("observer", 404, None),
        ("outsider", 404, None),
    ],
)
def test_each_member_sees_the_columns_of_the_sides_whose_roster_they_see(
    campaign, client_as, persona, status, columns
):
    response = client_as(persona).get(url(campaign))
    assert response.status_code == status
    if columns:
        assert [side.name.en for side in response.context["sides"]] == columns
        assert len(response.context["rows"]) == DAYS


def test_the_soviet_player_never_sees_the_german_column(campaign, client_as):
    SideDay.objects.filter(campaign=campaign, side="german", index=3).update(hist_drm=7)
    html = client_as("soviet").get(url(campaign)).content.decode()
    assert 'class="hist-drm german' not in html
    assert "+7" not in html


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    response = client.get(url(campaign))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_game_without_the_chart_has_no_page(people, client_as):
    sap = members.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key=get_module("slaughter_at_ponyri").campaign_games[0].key,
        role=Role.PLAYER,
        side="german",
    )
    assert client_as("german").get(url(sap)).status_code == 404


# --- who sets it ---------------------------------------------------------------------------


def test_players_read_their_column_when_there_is_a_referee(campaign, client_as):
    response = client_as("german").get(url(campaign))
    assert response.context["form"] is None
    html = response.content.decode()
    assert "<input" not in html.split('id="histdrm-chart"')[1].split("</table>")[0]
    assert cell_text(html, 1, "german").startswith("−2")
    assert cell_text(html, 2, "german").startswith("unknown")
    assert "Only the referee sets the Historical DRM" in html


@pytest.mark.parametrize(
    "persona, status", [("german", 403), ("soviet", 403), ("observer", 404), ("outsider", 404)]
)
def test_nobody_but_the_referee_may_save_and_nothing_changes(campaign, client_as, persona, status):
    response = client_as(persona).post(url(campaign), grid(campaign, c_2_german="1"))
    assert response.status_code == status
    assert row(campaign, 2, "german").hist_drm is None
    assert not CampaignEvent.objects.filter(action=services.ACTION).exists()


def test_without_a_referee_each_player_sets_their_own_column(campaign, client_as):
    campaign.memberships.filter(role=Role.REFEREE).delete()
    client = client_as("german")
    assert client.get(url(campaign)).context["form"] is not None
    data = grid(campaign, sides=("german",), c_2_german="+1")
    data["c-2-soviet"] = "3"  # not a field of the German player's form: ignored
    data["v-2-soviet"] = "0:"
    response = client.post(url(campaign), data)
    assert response.status_code == 302
    assert row(campaign, 2, "german").hist_drm == 1
    assert row(campaign, 2, "soviet").hist_drm is None


def _help(client, campaign, language):
    client.cookies["django_language"] = language
    html = client.get(url(campaign), headers={"Accept-Language": language}).content.decode()
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.parametrize("persona", ["german", "soviet", "referee"])
def test_the_help_says_the_referee_types_the_chart_when_there_is_one(campaign, client_as, persona):
    text = _help(client_as(persona), campaign, "en")
    assert "the referee types it in from the printed module" in text
    assert "with no referee" not in text
    text = _help(client_as(persona), campaign, "ja")
    assert "審判が印刷されたモジュールから" in text
    assert "審判がいないので" not in text


@pytest.mark.parametrize("persona", ["german", "soviet"])
def test_without_a_referee_the_help_says_each_player_types_their_own_column(
    campaign, client_as, persona
):
    campaign.memberships.filter(role=Role.REFEREE).delete()
    text = _help(client_as(persona), campaign, "en")
    assert "with no referee, each player types their own side's column in" in text
    assert "the referee types it in" not in text
    assert "the referee both" not in text
    assert "Only the referee sets" not in text
    text = _help(client_as(persona), campaign, "ja")
    assert "審判がいないので、各プレイヤーが自陣営の列を" in text
    assert "審判が印刷された" not in text
    assert "審判は両方" not in text


# --- what it shows -------------------------------------------------------------------------


def test_the_value_the_rules_give_is_pre_filled_and_marked(campaign, client_as):
    response = client_as("referee").get(url(campaign))
    html = response.content.decode()
    assert re.search(r'name="c-1-german" value="−2"', html)
    assert "rules: −2" in cell_text(html, 1, "german")
    assert "rules:" not in cell_text(html, 1, "soviet")
    assert re.search(r'name="c-2-german"(?! value)', html)  # unknown: empty
    assert response.context["unknown"] == 2 * DAYS - 1
    assert "25 values are still unknown" in html


def test_rows_carry_the_calendar_labels_and_the_current_day(campaign, client_as):
    rows = client_as("referee").get(url(campaign)).context["rows"]
    assert [r.period.label.en for r in rows[:2]] == ["17 Oct 1942", "18 Oct 1942"]
    assert [r.current for r in rows[:2]] == [True, False]


def test_an_example_without_its_map_group_is_offered_as_a_hint_not_a_value(people, client_as):
    rb3 = make_big_campaign(people)  # RB CG III: 12 Nov is a CG day
    response = client_as("referee").get(url(rb3))
    index = next(i for i, r in enumerate(response.context["rows"]) if r.period.key == "1942-11-12")
    html = response.content.decode()
    assert "example: −1?" in cell_text(html, index, "german")
    assert row(rb3, index, "german").hist_drm is None


def test_the_page_is_in_japanese_for_a_japanese_reader(campaign, client_as):
    client = client_as("referee")
    client.cookies["django_language"] = "ja"
    html = client.get(url(campaign), headers={"Accept-Language": "ja"}).content.decode()
    assert "1942年10月18日" in html
    assert "史的DRM表" in html
    assert "ルール：−2" in html


# --- saving --------------------------------------------------------------------------------


def test_the_referee_saves_the_whole_grid_at_once(campaign, client_as):
    response = client_as("referee").post(
        url(campaign), grid(campaign, c_2_german="+1", c_2_soviet="−1", c_12_soviet="0")
    )
    assert response.status_code == 302
    assert response.url == url(campaign)
    assert row(campaign, 2, "german").hist_drm == 1
    assert row(campaign, 2, "soviet").hist_drm == -1
    assert row(campaign, 12, "soviet").hist_drm == 0
    # Only the changed rows were written.
    assert row(campaign, 3, "german").version == 0
    assert row(campaign, 1, "german").version == 0
    events = CampaignEvent.objects.filter(action=services.ACTION).order_by("pk")
    assert [(e.visibility, e.data["indexes"]) for e in events] == [
        ("german", [2]),
        ("soviet", [2, 12]),
    ]


def test_after_saving_the_page_says_how_many_values_changed(campaign, client_as):
    response = client_as("referee").post(
        url(campaign), grid(campaign, c_2_german="1", c_3_german="2"), follow=True
    )
    assert "Saved the Historical DRM chart: 2 values changed." in response.content.decode()


def test_saving_without_a_change_writes_nothing(campaign, client_as):
    response = client_as("referee").post(url(campaign), grid(campaign), follow=True)
    assert "Nothing to save" in response.content.decode()
    assert not CampaignEvent.objects.filter(action=services.ACTION).exists()


def test_a_value_can_be_cleared_back_to_unknown(campaign, client_as):
    client_as("referee").post(url(campaign), grid(campaign, c_1_german="?"))
    assert row(campaign, 1, "german").hist_drm is None


def test_a_pasted_chart_is_saved_over_the_grid(campaign, client_as):
    paste = "Date\tGerman\tSoviet\n10/19\t-1\t+2\n10/20\t?\t0\n"
    client_as("referee").post(
        url(campaign), {**grid(campaign, c_5_german="3", c_19_german="1"), "paste": paste}
    )
    assert row(campaign, 2, "german").hist_drm == -1
    assert row(campaign, 2, "soviet").hist_drm == 2
    assert row(campaign, 3, "soviet").hist_drm == 0
    assert row(campaign, 5, "german").hist_drm == 3  # typed in the grid, not in the paste
    assert row(campaign, 1, "german").hist_drm == -2  # neither: kept


def test_a_wrong_paste_saves_nothing_and_names_the_line_and_the_cell(campaign, client_as):
    paste = "10/19 -1 +2\n10/20 x 0\n11/31 1 1\n"
    response = client_as("referee").post(
        url(campaign), {**grid(campaign, c_5_german="3"), "paste": paste}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Line 2, German cell (10/20): “x” is not a DRM" in html
    assert "Line 3: “11/31” is not a CG day of this campaign game." in html
    assert "Nothing was saved" in html
    assert "10/20 x 0" in html  # the paste is kept
    assert 'name="c-5-german" value="3"' in html  # and so is the grid
    assert row(campaign, 2, "german").hist_drm is None
    assert row(campaign, 5, "german").hist_drm is None


@pytest.mark.parametrize(
    "typed, message",
    [
        ("abc", "Not a DRM: write −2, +1, 0 or ? for unknown."),
        ("12", "Beyond the chart's limit of ±9."),
    ],
)
def test_a_wrong_cell_saves_nothing_and_is_named(campaign, client_as, typed, message):
    response = client_as("referee").post(
        url(campaign), grid(campaign, c_2_german="1", c_3_soviet=typed)
    )
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert f"20 Oct 1942, Soviet: {message}" in html
    assert row(campaign, 2, "german").hist_drm is None


def test_a_form_without_its_versions_is_refused(campaign, client_as):
    response = client_as("referee").post(url(campaign), {"c-2-german": "1"})
    assert response.status_code == 200
    assert "The page was incomplete" in response.content.decode()
    assert row(campaign, 2, "german").hist_drm is None


# --- stale edits and undo ------------------------------------------------------------------


def test_a_stale_edit_is_refused_and_a_second_save_keeps_only_the_users_changes(
    campaign, client_as, people
):
    opened = grid(campaign, c_2_german="1", c_4_soviet="2")
    # Meanwhile someone saves 20 Oct German and 22 Oct German.
    services.save_chart(
        campaign,
        by=people["referee"],
        edits=[services.Edit(3, "german", 0, -1), services.Edit(5, "german", 0, 0)],
    )
    opened["c-3-german"] = "2"  # the user typed over one of them
    client = client_as("referee")
    response = client.post(url(campaign), opened)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Someone else changed the marked cells in the meantime" in html
    assert "saved now: −1" in cell_text(html, 3, "german")
    assert row(campaign, 2, "german").hist_drm is None  # nothing of the save was written
    form = response.context["form"]
    assert form["c-5-german"].value() == "0"  # not typed by the user: shows what is saved
    assert form["c-3-german"].value() == "2"  # typed: kept
    again = {name: form[name].value() or "" for name in form.fields if name != "paste"}
    assert client.post(url(campaign), again).status_code == 302
    assert row(campaign, 2, "german").hist_drm == 1
    assert row(campaign, 3, "german").hist_drm == 2
    assert row(campaign, 5, "german").hist_drm == 0


def test_one_undo_takes_back_a_sides_whole_save(campaign, client_as, people):
    client_as("referee").post(url(campaign), grid(campaign, c_2_german="1", c_3_german="-1"))
    event = CampaignEvent.objects.get(action=services.ACTION, visibility="german")
    assert "Historical DRM chart, German: 19 Oct 1942 +1; 20 Oct 1942 −1." in history.describe(
        event
    )
    history.undo(event, by=people["referee"])
    assert row(campaign, 2, "german").hist_drm is None
    assert row(campaign, 3, "german").hist_drm is None


# --- HTMX, links, cost ---------------------------------------------------------------------


def test_with_htmx_the_chart_answers_with_its_partial(campaign, client_as):
    response = client_as("referee").post(
        url(campaign), grid(campaign, c_2_german="1"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="histdrm-chart">')
    assert "Saved the Historical DRM chart: 1 value changed." in html
    assert "HX-Request" in response["Vary"]
    assert row(campaign, 2, "german").hist_drm == 1


def test_the_roster_and_the_nav_link_to_the_chart(campaign, client_as):
    html = (
        client_as("german")
        .get(reverse("campaigns:roster", args=[campaign.pk, "german"]))
        .content.decode()
    )
    assert html.count(f'href="{url(campaign)}"') >= 2


def test_the_observer_has_no_link_to_it(campaign, client_as):
    html = (
        client_as("observer").get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    )
    assert url(campaign) not in html


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_number_of_queries_does_not_grow_with_the_campaign(
    campaign, client_as, people, persona, django_assert_num_queries, django_assert_max_num_queries
):
    client = client_as(persona)
    with django_assert_max_num_queries(8) as small:
        assert client.get(url(campaign)).status_code == 200
    big = make_big_campaign(people)
    with django_assert_num_queries(len(small.captured_queries)):
        response = client.get(url(big))
    assert len(response.context["rows"]) == 30


def test_december_days_the_printed_chart_may_not_cover_are_marked(people, client_as):
    ro3 = members.create_campaign(
        user=people["referee"],
        name="Red October, December",
        module=get_module("red_factories"),
        cg_key="ro-cg-3",
        role=Role.REFEREE,
        side="",
    )
    rows = client_as("referee").get(url(ro3)).context["rows"]
    december = [r for r in rows if r.period.key.startswith("1942-12")]
    assert december and all(r.outside_printed_rows for r in december)
    assert not any(r.outside_printed_rows for r in rows if r.period.key < "1942-12")
