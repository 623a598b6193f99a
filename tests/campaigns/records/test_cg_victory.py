"""Issue 15: the CG victory conditions evaluated from the recorded scenario ends, with the Stone
Location totals the players enter (pre-filled from L496 where the rules give them), per map
group in RF CG I (11.58), on a page every member reads."""

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.games.map_groups import DRAW
from campaigns.history import services as history
from campaigns.models import CampaignEvent, RefitPhase, StoneLocationTotal
from campaigns.records import cg_victory, victory_data
from campaigns.records import services as records
from campaigns.records.cg_victory import MET, NEEDS_MAP, NOT_MET, UNKNOWN_TOTAL, ScenarioEnd
from tests.conftest import red_factories_campaign

RB_CG_2 = {
    "side": "german",
    "otherwise": "soviet",
    "any_of": [{"kind": "stone_locations_all_except", "except": 5, "region": None}],
}
RF_CG_1 = {
    "per_map_group": {
        "RB": RB_CG_2,
        "RO": {**RB_CG_2, "any_of": [{"kind": "stone_locations_all_except", "except": 10}]},
    },
    "combination": {"kind": "split_is_draw"},
}


def end(label, **controlled):
    return ScenarioEnd(label, {area: {"german": n} for area, n in controlled.items()})


# --- the pure rule -----------------------------------------------------------------------------


def test_every_stone_location_but_five_wins_at_the_limit_and_not_one_under():
    totals = {"RB": 570}
    at_limit = cg_victory.standing(RB_CG_2, ["RB"], totals, [end("11 Nov", RB=565)], cg_over=False)
    assert (at_limit.winner, at_limit.areas[0].conditions[0].state) == ("german", MET)
    assert at_limit.areas[0].conditions[0].met_at == "11 Nov"
    one_under = cg_victory.standing(RB_CG_2, ["RB"], totals, [end("11 Nov", RB=564)], cg_over=False)
    assert (one_under.winner, one_under.why) == ("", "in_progress")
    assert one_under.areas[0].conditions[0].best == 564


def test_the_soviet_wins_once_the_cg_is_over_with_the_vc_never_met():
    ends = [end("11 Nov", RB=300), end("15 Nov", RB=400)]
    result = cg_victory.standing(RB_CG_2, ["RB"], {"RB": 570}, ends, cg_over=True)
    assert (result.winner, result.why) == ("soviet", "not_met")


def test_an_unrecorded_count_leaves_the_end_of_the_cg_to_the_players():
    ends = [end("11 Nov", RB=300), ScenarioEnd("12 Nov", {})]
    result = cg_victory.standing(RB_CG_2, ["RB"], {"RB": 570}, ends, cg_over=True)
    assert (result.winner, result.why) == ("", "undecided")
    assert result.areas[0].conditions[0].unrecorded == ("12 Nov",)


def test_an_unknown_total_is_never_guessed():
    vc = {
        **RB_CG_2,
        "any_of": [
            {"kind": "stone_locations_all_except", "except": 3, "region": {"en": "west of U"}}
        ],
    }
    result = cg_victory.standing(vc, ["RB"], {}, [end("18 Oct", region=200)], cg_over=True)
    assert result.winner == ""
    assert result.areas[0].conditions[0].state == UNKNOWN_TOTAL
    assert cg_victory.areas(vc, ["RB"]) == ("region",)
    assert cg_victory.known_total("region") is None


def test_conditions_on_factories_are_left_to_the_players():
    vc = {
        "side": "german",
        "otherwise": "soviet",
        "any_of": [{"kind": "factories_controlled_all", "count": 17}],
    }
    result = cg_victory.standing(vc, ["RB"], {}, [end("25 Oct", RB=500)], cg_over=True)
    assert result.areas[0].conditions[0].state == NEEDS_MAP
    assert result.winner == ""


def test_rf_cg_1_is_judged_per_map_group_and_a_split_is_a_draw():
    totals = {"RB": 570, "RO": 491}
    both = cg_victory.standing(
        RF_CG_1, ["RB", "RO"], totals, [end("11 Nov", RB=565, RO=481)], cg_over=False
    )
    assert (both.winner, both.why) == ("german", "same_side")
    split = cg_victory.standing(
        RF_CG_1, ["RB", "RO"], totals, [end("15 Nov", RB=565, RO=480)], cg_over=True
    )
    assert (split.winner, split.why) == (DRAW, "split")
    assert [a.winner for a in split.areas] == ["german", "soviet"]
    assert split.areas[1].conditions[0].state == NOT_MET
    going_on = cg_victory.standing(
        RF_CG_1, ["RB", "RO"], totals, [end("11 Nov", RB=565, RO=480)], cg_over=False
    )
    assert (going_on.winner, going_on.why) == ("", "in_progress")


def test_the_totals_the_rules_give_are_pre_filled_and_the_region_is_unknown(people):
    rb1 = red_factories_campaign(people, "rb-cg-1", "RB I")
    rf1 = red_factories_campaign(people, "rf-cg-1", "RF I")
    rb2 = red_factories_campaign(people, "rb-cg-2", "RB II")
    assert victory_data.totals(rb1) == {"region": (None, "")}
    assert victory_data.totals(rf1) == {"RB": (570, "rules"), "RO": (491, "rules")}
    assert victory_data.totals(rb2) == {"RB": (570, "rules")}


pytestmark = pytest.mark.django_db


# --- the page ------------------------------------------------------------------------------------


def page_url(campaign):
    return reverse("campaigns:cg_victory", args=[campaign.pk])


def cvp_url(campaign):
    return reverse("campaigns:cvp_table", args=[campaign.pk])


@pytest.fixture
def rb2(people):
    return red_factories_campaign(people, "rb-cg-2", "Hubertus")


def end_scenario(campaign, people, index, controlled, winner=""):
    scenario = records.save_scenario(
        campaign,
        by=people["referee"],
        index=index,
        scenario_type="initial" if index == 0 else "assault",
        attacker="german",
    )
    records.save_end(
        scenario,
        by=people["referee"],
        version=scenario.version,
        locations={"german": {"controlled": controlled}},
        end={},
        winner=winner,
    )
    return scenario


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_every_member_reads_how_the_cg_vc_stand(rb2, people, client_as, persona, status):
    end_scenario(rb2, people, 0, 560)
    response = client_as(persona).get(page_url(rb2))
    assert response.status_code == status
    if status != 200:
        return
    page = response.content.decode()
    assert "every Stone Location of RB map except 5 (565 of 570)" in page
    assert "Not met yet: at best 560 controlled." in page
    assert "Not decided yet: the CG goes on." in page
    assert ('id="totals-form"' in page) == (persona == "referee")
    assert ('id="cvp-form"' in page) == (persona == "referee")


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 403), ("soviet", 403), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_only_the_referee_enters_the_totals(rb2, client_as, persona, status):
    response = client_as(persona).post(page_url(rb2), {"total_RB": "565", "version_RB": "0"})
    assert response.status_code == status
    row = StoneLocationTotal.objects.filter(campaign=rb2, area="RB").first()
    assert (row is not None and row.total == 565) == (status == 302)


def test_a_total_entered_decides_a_scenario_end_already_recorded(rb2, people, client_as):
    end_scenario(rb2, people, 0, 560)
    client = client_as("referee")
    response = client.post(
        page_url(rb2), {"total_RB": "565", "version_RB": "0"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert "<html" not in page and 'id="cg-victory"' in page
    assert "German wins the CG." in page
    assert "Met at the end of" in page
    (event,) = CampaignEvent.objects.filter(campaign=rb2, action="cg_victory.totals")
    assert event.visibility == "public"
    # Undone, the rules' figure comes back.
    history.undo(event, by=people["referee"])
    assert victory_data.totals(rb2) == {"RB": (570, "rules")}


def test_a_stale_total_is_refused(rb2, people, client_as):
    victory_data.save_totals(rb2, by=people["referee"], values={"RB": 560}, versions={"RB": 0})
    response = client_as("referee").post(page_url(rb2), {"total_RB": "565", "version_RB": "0"})
    assert response.status_code == 200
    assert StoneLocationTotal.objects.get(campaign=rb2, area="RB").total == 560


def test_the_end_of_the_cg_without_the_vc_met_is_a_soviet_win(rb2, people, client_as):
    last = len(rb2.cg.periods) - 1
    end_scenario(rb2, people, 0, 300)
    end_scenario(rb2, people, last, 400, winner="soviet")
    # The last day's scenario has its winner, but a Refit Phase is still open: the CG (one
    # reading with the reveal's, campaigns.reveal.rules.cg_over) is not over until it finishes.
    during = client_as("observer").get(page_url(rb2)).content.decode()
    assert "Not decided yet: the CG goes on." in during
    RefitPhase.objects.filter(campaign=rb2).update(finished_at=timezone.now())
    page = client_as("observer").get(page_url(rb2)).content.decode()
    assert "Soviet wins: the CG is over and the CG VC were not met." in page


def test_a_cg_whose_last_phase_is_finished_is_over_though_its_last_day_was_idle(
    rb2, people, client_as
):
    # The last CG day was an Idle Day: no scenario, no winner. The reveal's reading of the end
    # (no Refit Phase follows the last one finished) makes the CG over here too.
    end_scenario(rb2, people, 0, 300)
    before = client_as("observer").get(page_url(rb2)).content.decode()
    assert "Not decided yet: the CG goes on." in before
    RefitPhase.objects.filter(campaign=rb2).update(finished_at=timezone.now())
    page = client_as("observer").get(page_url(rb2)).content.decode()
    assert "Soviet wins: the CG is over and the CG VC were not met." in page


def test_rb_cg_1_counts_its_region_at_the_scenario_end(campaign, people, client_as):
    scenario = records.save_scenario(
        campaign, by=people["referee"], index=0, scenario_type="initial", attacker="german"
    )
    client = client_as("german")
    end_page = client.get(
        reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])
    ).content.decode()
    assert "Stone Locations controlled at the end in the CG VC area" in end_page
    client.post(
        reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk]),
        {
            "version": scenario.version,
            "controlled_german": 15,
            "region_german": 40,
            "winner": "",
            "all_stone_locations": "",
        },
    )
    scenario.refresh_from_db()
    assert scenario.end["region"] == {"german": 40}
    page = client.get(page_url(campaign)).content.decode()
    assert "the area&#x27;s total is unknown" in page
    victory_data.save_totals(campaign, by=people["referee"], values={"region": 43}, versions={})
    page = client.get(page_url(campaign)).content.decode()
    assert "German wins the CG." in page


def test_rf_cg_1_records_and_judges_each_map_group(people, client_as):
    rf1 = red_factories_campaign(people, "rf-cg-1", "Double")
    scenario = records.save_scenario(
        rf1, by=people["referee"], index=1, scenario_type="assault", attacker="german"
    )
    client = client_as("referee")
    client.post(
        reverse("campaigns:scenario_end", args=[rf1.pk, scenario.pk]),
        {
            "version": scenario.version,
            "controlled_german_RB": 565,
            "controlled_german_RO": 400,
            "winner": "german",
            "all_stone_locations": "",
        },
    )
    scenario.refresh_from_db()
    assert scenario.end["map_groups"]["RB"]["german"]["controlled"] == 565
    page = client.get(page_url(rf1)).content.decode()
    assert "Map group RB" in page and "German wins" in page
    assert "Map group RO" in page
    assert "Not decided yet: the CG goes on." in page


def test_the_page_costs_the_same_queries_whatever_the_campaigns_size(
    rb2, people, client_as, django_assert_max_num_queries
):
    client = client_as("observer")
    end_scenario(rb2, people, 0, 500)
    client.get(page_url(rb2))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as small:
        client.get(page_url(rb2))
    for index in range(1, 4):
        end_scenario(rb2, people, index, 500 + index)
    victory_data.save_cvp_values(rb2, by=people["referee"], values={"LMG": 1}, versions={})
    with CaptureQueriesContext(connection) as big:
        client.get(page_url(rb2))
    assert len(big) == len(small)


def test_the_victory_data_round_trips_through_the_export(rb2, people):
    from tests.campaigns.transfer.test_services import comparable, round_trip

    victory_data.save_totals(rb2, by=people["referee"], values={"RB": 560}, versions={})
    victory_data.save_cvp_values(
        rb2, by=people["referee"], values={"PzIIIL": 3, "LMG": 0}, versions={}
    )
    first, imported, second = round_trip(rb2, people["observer"], people["outsider"])
    assert comparable(second) == comparable(first)
    assert first["stone_location_totals"] == [{"area": "RB", "total": 560, "version": 1}]
    assert victory_data.totals(imported) == {"RB": (560, "entered")}
    assert victory_data.cvp_values(imported) == {"lmg": 0, "pziiil": 3}


def test_the_overview_links_the_page(rb2, client_as):
    page = client_as("observer").get(reverse("campaigns:detail", args=[rb2.pk])).content.decode()
    assert f'href="{page_url(rb2)}" id="cg-victory-link"' in page


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 403), ("soviet", 403), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_only_the_referee_enters_the_cvp_table(rb2, client_as, persona, status):
    response = client_as(persona).post(cvp_url(rb2), {"new_type": "StuG III B", "new_cvp": "3"})
    assert response.status_code == status
    assert (victory_data.cvp_values(rb2) == {"stug iii b": 3}) == (status == 302)


def test_the_cvp_table_is_changed_and_emptied_row_by_row(rb2, people, client_as):
    client = client_as("referee")
    client.post(cvp_url(rb2), {"new_type": "StuG III B", "new_cvp": "3"})
    (row,) = rb2.cvp_values.all()
    response = client.post(
        cvp_url(rb2),
        {"cvp_0": "4", "version_0": row.version, "new_type": "MMG", "new_cvp": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert 'id="cg-victory"' in response.content.decode()
    assert victory_data.cvp_values(rb2) == {"stug iii b": 4, "mmg": 0}
    rows = list(rb2.cvp_values.order_by("unit_type"))
    data = {f"version_{n}": r.version for n, r in enumerate(rows)}
    data.update({"cvp_0": "0", "cvp_1": ""})  # MMG kept at 0, StuG removed (empty: unknown)
    client.post(cvp_url(rb2), data)
    assert victory_data.cvp_values(rb2) == {"mmg": 0}
    refused = client.post(cvp_url(rb2), {"new_type": "Pz IVF2"}).content.decode()
    assert "Give both the unit type and its CVP." in refused


def test_slaughter_at_ponyri_has_the_cvp_table_and_no_cg_vc_to_count(people, client_as):
    from tests.campaigns.records.test_scenarios import make_campaign

    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    page = client_as("observer").get(page_url(sap)).content.decode()
    assert "are not in the app's data as counts" in page
    assert 'id="cvp-table"' in page
    assert "Stone Locations of each area" not in page
