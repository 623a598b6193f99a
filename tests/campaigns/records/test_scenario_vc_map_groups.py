"""RF CG I (11.58, 11.6235): a Dual Attack's and an Assault's VC judged on each map group's own
Stone Location counts, combined as the initial scenario's (one side on both wins, a split is the
players'), and the scenario's end page showing each group's result and the combined one."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.records import services as records
from campaigns.records.victory import EndFacts, scenario_vc, scenario_winner
from tests.conftest import red_factories_campaign

GAMES = get_module("red_factories").files["campaign_games"]["campaign_games"]
SIDES = ("german", "soviet")
ASSAULT = scenario_vc(GAMES["rf-cg-1"], "assault")
DUAL = scenario_vc(GAMES["rf-cg-1"], "dual_attack")


def group(gained=None, lost=None, *, cvp=None, everything=""):
    """One map group's counts: ``gained`` / ``lost`` per side, the scenario's CVP lost."""
    return EndFacts(
        cvp_lost=cvp or {},
        gained=gained or {},
        lost=lost or {},
        all_stone_locations=everything,
    )


def judge(vc, groups, attacker=""):
    return scenario_winner(vc, EndFacts(), SIDES, attacker=attacker, groups=groups)


def test_rf_cg_i_scenario_vc_name_both_map_groups_other_cgs_none():
    assert ASSAULT["map_groups"] == ("RB", "RO") and DUAL["map_groups"] == ("RB", "RO")
    assert "map_groups" not in scenario_vc(GAMES["rb-cg-2"], "assault")


def test_german_assault_at_24_net_on_both_map_groups_is_his_win():
    # 11.6235 [L1911]: the German attacker needs 24 Stone Locations gained − lost, per group.
    verdict = judge(
        ASSAULT,
        {"RB": group({"german": 24}), "RO": group({"german": 26}, {"german": 2})},
        "german",
    )
    assert (verdict.winner, verdict.reason) == ("german", "map_groups_same")
    assert verdict.values["groups"]["RB"]["reason"] == "assault_locations"
    assert verdict.values["groups"]["RO"]["values"]["net"] == 24


def test_german_assault_one_short_on_one_map_group_is_a_split_for_the_players():
    verdict = judge(ASSAULT, {"RB": group({"german": 24}), "RO": group({"german": 23})}, "german")
    assert verdict.winner is None and verdict.reason == "map_groups_split"
    groups = verdict.values["groups"]
    assert (groups["RB"]["winner"], groups["RO"]["winner"]) == ("german", "soviet")
    assert groups["RO"]["reason"] == "assault_defender"


def test_whole_map_counts_no_longer_decide_rf_cg_i():
    # 24 net over the whole map would have been a German win; per group it is 12 + 12.
    whole = EndFacts(gained={"german": 24})
    verdict = scenario_winner(
        ASSAULT,
        whole,
        SIDES,
        attacker="german",
        groups={"RB": group({"german": 12}), "RO": group({"german": 12})},
    )
    assert (verdict.winner, verdict.reason) == ("soviet", "map_groups_same")


def test_soviet_assault_threshold_is_12_per_map_group():
    at_limit = judge(ASSAULT, {g: group({"soviet": 12}) for g in ("RB", "RO")}, "soviet")
    assert at_limit.winner == "soviet"
    one_under = judge(ASSAULT, {"RB": group({"soviet": 12}), "RO": group({"soviet": 11})}, "soviet")
    assert one_under.values["groups"]["RO"]["winner"] == "german"
    assert one_under.winner is None


def test_the_scenarios_cvp_count_on_every_map_group():
    # CG1: one joined map; 10 CVP inflicted against 5 is the 2× of 11.6235 on each group.
    cvp = {"german": 5, "soviet": 10}
    verdict = judge(ASSAULT, {g: group({"german": 0}, cvp=cvp) for g in ("RB", "RO")}, "german")
    assert (verdict.winner, verdict.reason) == ("german", "map_groups_same")
    assert verdict.values["groups"]["RB"]["reason"] == "assault_cvp"


def test_the_soviet_controlling_every_stone_location_wins_both_groups():
    verdict = judge(ASSAULT, {g: group(everything="soviet") for g in ("RB", "RO")}, "german")
    assert (verdict.winner, verdict.values["groups"]["RO"]["reason"]) == (
        "soviet",
        "assault_all_stone_locations",
    )


def test_dual_attack_per_map_group_and_a_tie_is_the_soviets():
    # RB: German 4 CVP + 5 = 9 VP, Soviet 4 + 3 = 7; RO: 4 + 3 against 4 + 3, a tie → Soviet.
    cvp = {"german": 4, "soviet": 4}
    verdict = judge(
        DUAL,
        {
            "RB": group({"german": 5, "soviet": 3}, cvp=cvp),
            "RO": group({"german": 3, "soviet": 3}, cvp=cvp),
        },
    )
    groups = verdict.values["groups"]
    assert groups["RB"]["values"]["vp"] == {"german": 9, "soviet": 7}
    assert (groups["RB"]["winner"], groups["RO"]["winner"]) == ("german", "soviet")
    assert verdict.reason == "map_groups_split"


def test_a_map_group_without_counts_leaves_the_scenario_unknown():
    verdict = judge(DUAL, {"RB": group({"german": 5, "soviet": 3})})
    assert verdict.winner is None and verdict.reason == "map_groups_unknown"
    assert verdict.values["groups"]["RO"]["reason"] == "record_locations"


# --- the scenario's end page ----------------------------------------------------------------


@pytest.fixture
def rf(people):
    return red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")


@pytest.fixture
def assault(rf, people):
    return records.save_scenario(
        rf, by=people["referee"], index=1, scenario_type="assault", attacker="german"
    )


def end_url(campaign, scenario):
    return reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 302), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_an_assaults_end_is_judged_per_map_group(rf, assault, client_as, persona, status):
    data = {
        "version": assault.version,
        "winner": "",
        "all_stone_locations": "",
        "gained_german_RB": 30,
        "lost_german_RB": 6,
        "gained_german_RO": 24,
        # The whole map's 40 net would have won; RB's 24 and RO's 24 do.
        "gained_german": 10,
    }
    response = client_as(persona).post(end_url(rf, assault), data)
    assert response.status_code == status
    assault.refresh_from_db()
    if status != 302:
        assert assault.winner == ""
        return
    assert (assault.winner, assault.end["winner_by"]) == ("german", "rules")
    page = client_as("observer").get(end_url(rf, assault)).content.decode()
    assert "RB: German wins." in page and "RO: German wins." in page
    assert "The attacker gained 24 Stone Locations net; 24 needed (11.6235)." in page
    assert "The same side wins on every map group (11.58)." in page


@pytest.mark.django_db
def test_a_split_assault_asks_the_players_and_keeps_their_choice(rf, assault, client_as):
    client = client_as("soviet")
    data = {
        "version": assault.version,
        "winner": "soviet",
        "all_stone_locations": "",
        "gained_german_RB": 24,
        "gained_german_RO": 23,
    }
    client.post(end_url(rf, assault), data)
    assault.refresh_from_db()
    assert (assault.winner, assault.end["winner_by"]) == ("soviet", "players")
    page = client.get(end_url(rf, assault)).content.decode()
    assert "RB: German wins." in page and "RO: Soviet wins." in page
    assert "The players recorded the winner: Soviet." in page
    assert "the players&#x27; choice stands" in page


def test_the_words_name_each_groups_result_and_its_numbers():
    from campaigns.records.end import verdict_words

    cvp = {"german": 4, "soviet": 4}
    verdict = judge(
        DUAL,
        {
            "RB": group({"german": 5, "soviet": 3}, cvp=cvp),
            "RO": group({"german": 6, "soviet": 1}, cvp=cvp),
        },
    )
    words = verdict_words(verdict, {"german": "German", "soviet": "Soviet"})
    assert "RB: German wins. VP: German 9, Soviet 7." in words
    assert "RO: German wins. VP: German 10, Soviet 5." in words
    assert words.endswith("The same side wins on every map group (11.58).")
