"""“Scenario over” waits for the scenario's end (issue 15): the RePh after it reads the winner
(RF 11.611's "won" DRM), so the scenario phase is not finished without it — refused with the
reason, the overview saying what is missing and linking the end page. Slaughter at Ponyri (no
"won" DRM) only needs the end recorded, by its players when there is no referee."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.models import Membership, RefitPhase, Role, Scenario
from campaigns.records import services as records
from campaigns.records.end_state import end_missing, reads_winner
from refit.walker import services as walker
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


# --- the rule (pure) -------------------------------------------------------------------------


def missing(**kw):
    found = end_missing(
        **{"exists": True, "winner": "", "end": {}, "locations": {}, "needs_winner": True, **kw}
    )
    return found and found.code


def test_red_factories_reads_the_winner_slaughter_at_ponyri_does_not():
    def tables(module):
        return get_module(module).files["tables"]["dice_tables"]

    assert reads_winner(tables("red_factories")) is True
    assert reads_winner(tables("slaughter_at_ponyri")) is False


def test_a_winner_is_needed_where_the_refit_phase_reads_it():
    assert missing() == "no_winner"
    # Counts alone, or the players' "no winner", are not enough for 11.611.
    assert missing(end={"winner_by": "players"}, locations={"german": {"gained": 3}}) == (
        "no_winner"
    )
    assert missing(winner="soviet") is None


def test_elsewhere_any_recorded_end_will_do():
    assert missing(needs_winner=False) == "end_not_recorded"
    assert missing(needs_winner=False, end={"winner_by": "players"}) is None
    assert missing(needs_winner=False, winner="german") is None


def test_no_scenario_at_all_is_refused_first():
    assert missing(exists=False, winner="german") == "no_scenario"


# --- the service -----------------------------------------------------------------------------


def to_scenario(campaign, people, sides=("german", "soviet")):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people, sides=sides)
    walker.finish(campaign, reph, by=people["referee"])
    return walker.open_reph(campaign)


def test_scenario_over_is_refused_until_the_winner_is_recorded(campaign, people):
    reph = to_scenario(campaign, people)
    assert reph.kind == "scenario"
    with pytest.raises(walker.EndNotRecorded, match="needs its winner") as refused:
        walker.finish(campaign, reph, by=people["referee"])
    scenario = Scenario.objects.get(campaign=campaign, index=0)
    assert refused.value.missing.scenario == scenario
    assert RefitPhase.objects.get(pk=reph.pk).finished_at is None
    records.save_end(
        scenario, by=people["german"], version=scenario.version, locations={}, end={}, winner=""
    )
    with pytest.raises(walker.EndNotRecorded):
        walker.finish(campaign, reph, by=people["referee"])
    scenario.refresh_from_db()
    records.save_end(
        scenario,
        by=people["german"],
        version=scenario.version,
        locations={},
        end={"winner_by": "players"},
        winner="german",
    )
    after = walker.finish(campaign, reph, by=people["referee"])
    assert after.kind == "after_scenario"


def test_a_scenario_phase_without_its_scenario_asks_for_it(campaign, people):
    reph = to_scenario(campaign, people)
    Scenario.objects.filter(campaign=campaign).delete()
    with pytest.raises(walker.EndNotRecorded, match="No scenario is recorded") as refused:
        walker.finish(campaign, reph, by=people["referee"])
    assert refused.value.missing.scenario is None


def test_slaughter_at_ponyri_without_a_referee_players_record_the_end_then_finish(
    sap_campaign, people, client_as
):
    players = {**people, "russian": people["soviet"]}
    reph = walker.open_reph(sap_campaign)
    while reph.kind != "scenario":
        walk_all(sap_campaign, reph, players, sides=("german", "russian"))
        walker.finish(sap_campaign, reph, by=people["referee"])
        reph = walker.open_reph(sap_campaign)
    # The referee leaves: the players finish the time frame themselves.
    Membership.objects.filter(campaign=sap_campaign, role=Role.REFEREE).delete()
    client = client_as("soviet")
    finish_url = reverse("refit:finish", args=[sap_campaign.pk])
    client.post(finish_url, {"reph": reph.pk, "answer": "no"})
    assert RefitPhase.objects.get(pk=reph.pk).finished_at is None
    overview = client.get(reverse("refit:overview", args=[sap_campaign.pk])).content.decode()
    assert "The scenario&#x27;s end is not recorded. Record it first (11.6031)." in overview
    scenario = Scenario.objects.get(campaign=sap_campaign, index=reph.index)
    end_url = reverse("campaigns:scenario_end", args=[sap_campaign.pk, scenario.pk])
    assert end_url in overview
    # No winner (SaP has no per-time-frame VC): the players save the end as "not decided".
    response = client.post(end_url, {"version": scenario.version, "winner": ""})
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert (scenario.winner, scenario.end) == ("", {"winner_by": "players"})
    client.post(finish_url, {"reph": reph.pk, "answer": "no"})
    assert RefitPhase.objects.get(pk=reph.pk).finished_at is not None


# --- the overview and the button -------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, shown", [("german", True), ("soviet", True), ("referee", True), ("observer", True)]
)
def test_the_overview_says_what_is_missing(campaign, people, client_as, persona, shown):
    to_scenario(campaign, people)
    page = client_as(persona).get(reverse("refit:overview", args=[campaign.pk])).content.decode()
    assert ('id="end-missing"' in page) is shown
    assert "needs its winner" in page
    scenario = Scenario.objects.get(campaign=campaign, index=0)
    end_url = reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])
    # Those who record the end get the link (the observer reads what is missing).
    assert (end_url in page) is (persona != "observer")


def test_the_button_is_refused_with_the_reason_and_the_link(campaign, people, client_as):
    reph = to_scenario(campaign, people)
    client = client_as("referee")
    response = client.post(reverse("refit:finish", args=[campaign.pk]), {"reph": reph.pk})
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert 'id="finish-refused"' in page and "needs its winner" in page
    scenario = Scenario.objects.get(campaign=campaign, index=0)
    assert reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk]) in page
    assert RefitPhase.objects.get(pk=reph.pk).finished_at is None


def test_the_outsider_sees_no_overview(campaign, people, client_as):
    to_scenario(campaign, people)
    response = client_as("outsider").get(reverse("refit:overview", args=[campaign.pk]))
    assert response.status_code == 404
