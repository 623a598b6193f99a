"""A side's CG Roster page: one row per CG day, CPP columns derived from the ledger."""

import pytest
from django.urls import reverse

from campaigns.models import (
    CampaignDay,
    SideDay,
)
from campaigns.records import services as records
from campaigns.roster import services as roster
from tests.campaigns.builders import SIDE_PAGE_ACCESS, add, cell, make_big_campaign, row_html

pytestmark = pytest.mark.django_db


def url(campaign, side="german"):
    return reverse("campaigns:roster", args=[campaign.pk, side])


@pytest.mark.parametrize(
    "persona, side, status",
    SIDE_PAGE_ACCESS,
)
def test_only_the_sides_players_and_the_referee_open_a_roster(
    campaign, client_as, persona, side, status
):
    assert client_as(persona).get(url(campaign, side)).status_code == status


def test_a_side_the_game_does_not_have_is_404(campaign, client_as):
    assert client_as("referee").get(url(campaign, "russian")).status_code == 404


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302


def test_the_roster_refuses_post(campaign, client_as):
    assert client_as("german").post(url(campaign)).status_code == 405


# --- what it shows -------------------------------------------------------------------------


def test_one_row_per_cg_day_with_the_dates_of_the_campaign_game(campaign, client_as):
    response = client_as("german").get(url(campaign))
    rows = response.context["rows"]
    assert len(rows) == 13
    html = response.content.decode()
    assert "17 Oct 1942" in row_html(html, 0)
    assert "29 Oct 1942" in row_html(html, 12)


def test_dates_read_in_japanese_for_a_japanese_user(campaign, client_as, people):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign)).content.decode()
    assert "1942年10月17日" in row_html(html, 0)


def test_the_cpp_chain_follows_the_ledger(campaign, client_as, people):
    # 11.6162: the German carried 2 CPP over to 18 Oct; replenishment +16 makes a Total of 18.
    german = people["german"]
    add(campaign, german, "german", "cpp", 0, "rg_purchase", -7, "I1")
    add(campaign, german, "german", "cpp", 0, "rg_purchase", -4, "A5")
    add(campaign, german, "german", "cpp", 0, "recon", -2, locations=5)
    add(campaign, german, "german", "cpp", 1, "replenishment", 16)
    add(campaign, german, "german", "cpp", 1, "rg_purchase", -5, "A6")
    add(campaign, german, "german", "cpp", 2, "replenishment", 9)
    html = client_as("german").get(url(campaign)).content.decode()
    columns = ("cpp-start", "cpp-repl", "cpp-total", "cpp-purchases", "cpp-spent", "cpp-left")
    # 11.622: the 2 CPP of recon come off Left at once; the Recon column holds 5 Locations.
    assert [cell(html, 0, c) for c in columns] == ["15", "", "15", "I1 (7), A5 (4)", "11", "2"]
    assert cell(html, 0, "cpp-recon") == "5"
    assert [cell(html, 1, c) for c in columns] == ["2", "16", "18", "A6 (5)", "5", "13"]
    assert [cell(html, 2, c) for c in columns] == ["13", "9", "22", "", "0", "22"]


def test_an_rg_bought_again_that_day_at_that_cost_is_named_once_with_its_count(
    campaign, client_as, people
):
    # 11.619: the ID "(and the CPP used)"; a day's cell stays bounded by the RG chart however
    # many RGs are bought (docs/decisions.md). Spent counts every purchase.
    german = people["german"]
    for rg, cost in (("I1", -2), ("A5", -1), ("I1", -2), ("I1", -3), ("I1", -2)):
        add(campaign, german, "german", "cpp", 0, "rg_purchase", cost, rg)
    html = client_as("german").get(url(campaign)).content.decode()
    assert cell(html, 0, "cpp-purchases") == "I1 (2) ×3, A5 (1), I1 (3)"
    assert cell(html, 0, "cpp-spent") == "10"
    assert "“×n” after an RG" in html


def test_no_count_note_when_each_rg_was_bought_once(campaign, client_as, people):
    add(campaign, people["german"], "german", "cpp", 0, "rg_purchase", -5, "I1")
    assert "×n" not in client_as("german").get(url(campaign)).content.decode()


def test_the_first_days_repl_is_blank_and_later_days_show_zero(campaign, client_as, people):
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="recon",
        amount=-1,
    )
    html = client_as("german").get(url(campaign)).content.decode()
    assert cell(html, 0, "cpp-repl") == ""
    assert cell(html, 1, "cpp-repl") == "0"


def test_days_not_reached_stay_blank(campaign, client_as, people):
    add(campaign, people["german"], "german", "cpp", 2, "replenishment", 5)
    html = client_as("german").get(url(campaign)).content.decode()
    assert cell(html, 2, "cpp-total") == "20"
    assert "not reached yet" in row_html(html, 3)
    assert "cpp-total" not in row_html(html, 3)


def test_a_referee_adjustment_has_its_own_column_and_counts_in_the_total(
    campaign, client_as, people
):
    html = client_as("german").get(url(campaign)).content.decode()
    assert "Referee adj." not in html
    add(campaign, people["referee"], "german", "cpp", 0, "adjustment", -3, note="Miscounted")
    html = client_as("german").get(url(campaign)).content.decode()
    assert "Referee adj." in html
    assert cell(html, 0, "cpp-adjustment") == "−3"
    assert cell(html, 0, "cpp-total") == "12"


def test_fpp_stand_alone_each_day(campaign, client_as, people):
    soviet = people["soviet"]
    add(campaign, soviet, "soviet", "fpp", 0, "fortification_purchase", -44)
    add(campaign, soviet, "soviet", "fpp", 1, "fortification_rg", 30, "M1")
    html = client_as("soviet").get(url(campaign, "soviet")).content.decode()
    assert [cell(html, 0, c) for c in ("fpp-available", "fpp-spent", "fpp-lost")] == [
        "50",
        "44",
        "6",
    ]
    assert [cell(html, 1, c) for c in ("fpp-available", "fpp-spent", "fpp-lost")] == [
        "30",
        "0",
        "30",
    ]


def test_hist_drm_shows_the_known_value_or_unknown(campaign, client_as):
    html = client_as("german").get(url(campaign)).content.decode()
    assert cell(html, 1, "hist-drm") == "−2"  # 11.6162 example
    assert cell(html, 0, "hist-drm") == "unknown"


def test_public_day_facts_scenarios_cvp_chits_and_idle_days(campaign, client_as, people):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(
        moon="Full", weather="clear_gusty", ec="Moderate"
    )
    SideDay.objects.filter(campaign=campaign, side="german", index=1).update(
        elr=3, san=2, initiative_chit="attack"
    )
    records.save_scenario(
        campaign,
        by=people["referee"],
        index=0,
        scenario_type="initial",
        attacker="german",
        winner="soviet",
    )
    records.save_scenario(
        campaign,
        by=people["referee"],
        index=2,
        scenario_type="assault",
        attacker="soviet",
        night=True,
    )
    for cvp, no_cvp in ((3, False), (2, False), (5, True)):
        records.add_cvp(
            campaign,
            by=people["soviet"],
            side="german",
            index=0,
            phase="scenario",
            what="4-6-7",
            cvp=cvp,
            no_cvp=no_cvp,
        )
    records.add_cvp(
        campaign, by=people["german"], side="soviet", index=0, phase="scenario", what="x", cvp=9
    )
    campaign.period_index = 3
    campaign.save()
    html = client_as("german").get(url(campaign)).content.decode()
    # The weather is stored as its key and shown by its name (issue 15).
    assert [cell(html, 0, c) for c in ("moon", "weather", "ec")] == [
        "Full",
        "Clear &amp; Gusty",
        "Moderate",
    ]
    assert cell(html, 0, "scenario-type") == "Initial scenario"
    assert cell(html, 0, "attacker") == "German"
    assert cell(html, 0, "winner") == "Soviet"
    assert cell(html, 2, "scenario-type") == "Assault (night)"
    assert cell(html, 2, "winner") == "—"
    assert cell(html, 0, "cvp") == "5"  # the no-CVP loss does not count; Soviet losses neither
    assert (cell(html, 1, "elr"), cell(html, 1, "san")) == ("3†", "2†")  # not announced yet
    assert cell(html, 0, "elr") == "4"  # the initial ELR is printed in the rules
    assert cell(html, 1, "chit") == "Attack†"
    assert [cell(html, i, "idle") for i in range(4)] == ["", "Idle", "", ""]
    assert 'id="day-3" aria-current="date"' in html


def test_each_row_links_to_its_side_day_form(campaign, client_as):
    for persona in ("german", "referee"):
        html = client_as(persona).get(url(campaign)).content.decode()
        edit = reverse("campaigns:side_day", args=[campaign.pk, "german", 4])
        assert f'href="{edit}"' in row_html(html, 4)


# --- secrets -------------------------------------------------------------------------------


@pytest.fixture
def soviet_secrets(campaign, people):
    soviet = people["soviet"]
    add(campaign, soviet, "soviet", "cpp", 1, "replenishment", 987)
    add(campaign, soviet, "soviet", "cpp", 1, "rg_purchase", -12, "I6")
    add(campaign, soviet, "soviet", "fpp", 1, "fortification_rg", 787, "M1")
    SideDay.objects.filter(campaign=campaign, side="soviet", index=1).update(initiative_chit="idle")


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_opponents_numbers_never_appear_on_a_roster(
    campaign, client_as, soviet_secrets, persona
):
    response = client_as(persona).get(url(campaign, "german"))
    html = response.content.decode()
    for secret in ("987", "995", "983", "I6 (12)", "787"):
        assert secret not in html
    assert {row.side_day.side for row in response.context["rows"]} == {"german"}
    assert all(cell(html, i, "chit") == "" for i in range(13))


def test_the_referee_sees_the_soviet_numbers_on_the_soviet_roster(
    campaign, client_as, soviet_secrets
):
    html = client_as("referee").get(url(campaign, "soviet")).content.decode()
    assert cell(html, 1, "cpp-total") == "995"  # 8 carried over + 987
    assert cell(html, 1, "cpp-purchases") == "I6 (12)"
    assert cell(html, 1, "fpp-available") == "787"


# --- cost ----------------------------------------------------------------------------------


def test_the_number_of_queries_does_not_grow_with_the_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("german")
    with django_assert_max_num_queries(10) as small:
        assert client.get(url(campaign)).status_code == 200
    big = make_big_campaign(people)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(url(big))
    assert len(response.context["rows"]) == 30
    assert response.context["rows"][29].cvp == 20


def test_the_weather_reads_in_japanese_on_the_roster(campaign, client_as, people):
    CampaignDay.objects.filter(campaign=campaign, index=0).update(weather="mist")
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign)).content.decode()
    assert cell(html, 0, "weather") == "霞"


# --- a game without a Historical DRM chart ---------------------------------------------------


def test_a_game_without_a_historical_drm_chart_has_no_hist_drm_column(people, client_as):
    from campaigns.games.registry import get_module
    from campaigns.members import services as members
    from campaigns.models import Role

    ponyri = members.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )
    html = client_as("german").get(url(ponyri)).content.decode()
    assert "Hist DRM" not in html
    assert 'class="num hist-drm"' not in html
    assert 'class="num elr"' in html  # the rows are there, without the column
    # Nor Red Factories' moon, scenario type and attacker, initiative chit, Idle Day (issue 16).
    for word in ("Moon", "Initiative chit", "Idle day", "Attacker", ">Date<"):
        assert word not in html, word
    for column in ("moon", "chit", "idle", "attacker", "scenario-type"):
        assert f'<td class="{column}"' not in html, column
    assert "Time frame" in html and 'class="winner"' in html


def test_red_factories_keeps_its_hist_drm_column(campaign, client_as):
    html = client_as("german").get(url(campaign)).content.decode()
    assert "Hist DRM" in html
    assert 'class="num hist-drm"' in html
    for word in ("Moon", "Initiative chit", "Idle day", "Attacker"):
        assert word in html, word
