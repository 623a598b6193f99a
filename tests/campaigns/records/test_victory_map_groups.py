"""RF CG I (11.58): victory judged per map group — the initial scenario's VC on each group's own
counts (RB as RB CG II, RO as RO CG II), combined; the CG VC with the rule's draw — and the
scenario's end page recording the counts per map group, its verdict naming each group."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.records import services as records
from campaigns.records.victory import EndFacts, initial, per_map_group, scenario_vc
from tests.conftest import red_factories_campaign

CG = get_module("red_factories").files["campaign_games"]["campaign_games"]["rf-cg-1"]
VC = scenario_vc(CG, "initial")


def facts(german_gained=None, german_lost=None):
    return EndFacts(gained={"german": german_gained}, lost={"german": german_lost})


def test_the_german_winning_on_both_map_groups_is_not_possible_without_the_map():
    # RO needs 10 of the net 20 in the V22 factory: the map, which the app lacks.
    verdict = initial(VC, EndFacts(), {"RB": facts(26), "RO": facts(22)})
    assert verdict.winner is None and verdict.reason == "map_groups_unknown"
    assert verdict.values["groups"]["RB"]["winner"] == "german"
    assert verdict.values["groups"]["RO"]["reason"] == "initial_undecided"


def test_the_soviet_holding_both_map_groups_wins():
    # RB: 25 net < 26; RO: 19 net < 20 → the Soviet on both.
    verdict = initial(VC, EndFacts(), {"RB": facts(27, 2), "RO": facts(19)})
    assert (verdict.winner, verdict.reason) == ("soviet", "map_groups_same")


def test_one_side_on_each_map_group_is_for_the_players_in_the_initial_scenario():
    verdict = initial(VC, EndFacts(), {"RB": facts(26), "RO": facts(10)})
    assert verdict.winner is None and verdict.reason == "map_groups_split"
    groups = verdict.values["groups"]
    assert (groups["RB"]["winner"], groups["RO"]["winner"]) == ("german", "soviet")


def test_counts_not_recorded_for_a_map_group_leave_it_unknown():
    verdict = initial(VC, EndFacts(), {"RB": facts(30)})
    assert verdict.winner is None and verdict.reason == "map_groups_unknown"
    assert verdict.values["groups"]["RO"]["reason"] == "record_counts"


CG_VC = {
    "per_map_group": {
        group: {
            "side": "german",
            "otherwise": "soviet",
            "any_of": [{"kind": "stone_locations_at_least", "count": 30}],
        }
        for group in ("RB", "RO")
    },
    "combination": CG["victory"]["structured"]["campaign"]["combination"],
}


def controlled(n):
    return EndFacts(controlled={"german": n})


def test_the_cg_victory_split_between_the_map_groups_is_a_draw():
    verdict = per_map_group(CG_VC, {"RB": controlled(30), "RO": controlled(29)})
    assert (verdict.winner, verdict.reason) == ("draw", "map_groups_draw")


def test_the_cg_victory_of_one_side_on_both_map_groups_is_its_win():
    verdict = per_map_group(CG_VC, {"RB": controlled(31), "RO": controlled(30)})
    assert (verdict.winner, verdict.reason) == ("german", "map_groups_same")


def test_rf_cg_i_cg_vc_need_the_map_and_stay_unknown_per_group():
    cg_vc = CG["victory"]["structured"]["campaign"]
    verdict = per_map_group(cg_vc, {"RB": controlled(99), "RO": controlled(99)})
    assert verdict.winner is None
    assert {g["reason"] for g in verdict.values["groups"].values()} == {"initial_undecided"}


# --- the scenario's end page ----------------------------------------------------------------


@pytest.fixture
def rf(people):
    return red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")


@pytest.fixture
def first(rf, people):
    return records.save_scenario(
        rf, by=people["referee"], index=0, scenario_type="initial", attacker="german"
    )


def end_url(campaign, scenario):
    return reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])


def end_data(scenario, **fields):
    return {"version": scenario.version, "winner": "", "all_stone_locations": "", **fields}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 302), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_the_counts_are_recorded_per_map_group_and_judged(rf, first, client_as, persona, status):
    data = end_data(first, gained_german_RB=27, lost_german_RB=2, gained_german_RO=19)
    response = client_as(persona).post(end_url(rf, first), data)
    assert response.status_code == status
    first.refresh_from_db()
    if status != 302:
        assert first.end == {} and first.winner == ""
        return
    assert first.end["map_groups"] == {
        "RB": {"german": {"gained": 27, "lost": 2}},
        "RO": {"german": {"gained": 19}},
    }
    assert (first.winner, first.end["winner_by"]) == ("soviet", "rules")
    page = client_as("observer").get(end_url(rf, first)).content.decode()
    assert "RB: Soviet wins." in page and "RO: Soviet wins." in page
    assert "The same side wins on every map group (11.58)." in page


@pytest.mark.django_db
def test_a_map_group_the_app_cannot_judge_says_so_and_the_players_choose(rf, first, client_as):
    client = client_as("german")
    form = client.get(end_url(rf, first)).content.decode()
    assert 'name="gained_german_RB"' in form and 'name="lost_soviet_RO"' in form
    data = end_data(first, gained_german_RB=30, gained_german_RO=25, winner="german")
    client.post(end_url(rf, first), data)
    first.refresh_from_db()
    assert (first.winner, first.end["winner_by"]) == ("german", "players")
    page = client.get(end_url(rf, first)).content.decode()
    assert "RB: German wins." in page
    assert "RO: not known." in page


@pytest.mark.django_db
def test_the_counts_per_map_group_round_trip_the_export(rf, first, client_as, people):
    from campaigns.access import viewer_for
    from campaigns.models import Scenario
    from campaigns.transfer import services as transfer

    client_as("german").post(end_url(rf, first), end_data(first, gained_german_RB=27))
    data = transfer.build_export(viewer_for(people["referee"], rf.pk))
    copy_ = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )
    assert Scenario.objects.get(campaign=copy_).end["map_groups"] == {
        "RB": {"german": {"gained": 27}}
    }
    data["scenarios"][0]["end"]["map_groups"] = {"XX": {"german": {"gained": 1}}}
    with pytest.raises(transfer.ImportRefused, match="map_groups"):
        transfer.parse_export(transfer.dumps(data).encode())
