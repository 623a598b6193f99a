"""Finishing a Refit Phase (or a scenario) and opening what the rules say comes next."""

import pytest
from django.urls import reverse

from campaigns.models import Membership, RefitPhase, Role
from refit.walker import services as walker
from tests.refit.builders import finish_phase, mark_past, record_end
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def url(campaign):
    return reverse("refit:finish", args=[campaign.pk])


def overview_url(campaign):
    return reverse("refit:overview", args=[campaign.pk])


def position(campaign):
    reph = RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=True).first()
    return None if reph is None else (reph.kind, reph.index)


def walked(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    return reph


def to_after_scenario(campaign, people):
    reph = walked(campaign, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


def to_new_day(campaign, people):
    after = to_after_scenario(campaign, people)
    walk_all(campaign, after, people)
    return finish_phase(campaign, after, by=people["referee"])


# --- who may finish ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, status",
    [("german", 403), ("soviet", 403), ("observer", 403), ("outsider", 404), ("referee", 302)],
)
def test_with_a_referee_in_the_campaign_the_referee_finishes(
    campaign, client_as, people, persona, status
):
    reph = walked(campaign, people)
    assert client_as(persona).post(url(campaign), {"reph": reph.pk}).status_code == status
    assert position(campaign) == (("scenario", 0) if status == 302 else ("before_initial", 0))


@pytest.mark.parametrize(
    "persona, status",
    [("german", 302), ("soviet", 302), ("observer", 403), ("outsider", 404)],
)
def test_without_a_referee_any_player_finishes(campaign, client_as, people, persona, status):
    reph = walked(campaign, people)
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    assert client_as(persona).post(url(campaign), {"reph": reph.pk}).status_code == status
    assert position(campaign) == (("scenario", 0) if status == 302 else ("before_initial", 0))


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client, people):
    reph = walked(campaign, people)
    assert client.post(url(campaign), {"reph": reph.pk}).status_code == 302
    assert position(campaign) == ("before_initial", 0)


def test_a_get_is_refused(campaign, client_as):
    assert client_as("referee").get(url(campaign)).status_code == 405


# --- the flow ------------------------------------------------------------------------------


def test_a_refit_phase_with_steps_left_is_not_finished(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people, sides=("german",))
    response = client_as("referee").post(url(campaign), {"reph": reph.pk}, follow=True)
    assert "Both sides must finish every step first." in response.content.decode()
    assert position(campaign) == ("before_initial", 0)


def test_before_the_initial_scenario_comes_the_scenario_and_then_its_refit_phase(
    campaign, client_as, people
):
    reph = walked(campaign, people)
    client = client_as("referee")
    response = client.post(url(campaign), {"reph": reph.pk}, follow=True)
    assert response.redirect_chain == [(overview_url(campaign), 302)]
    html = response.content.decode()
    assert "The Refit Phase is finished. Now: Scenario being played, 17 Oct 1942." in html
    scenario = walker.open_reph(campaign)
    # "Scenario over" waits for the scenario's winner (issue 15).
    response = client.post(url(campaign), {"reph": scenario.pk}, follow=True)
    assert "needs its winner" in response.content.decode()
    assert position(campaign) == ("scenario", 0)
    record_end(campaign, scenario, people["german"])
    response = client.post(url(campaign), {"reph": scenario.pk}, follow=True)
    assert "The scenario is over. Now: After the scenario, 17 Oct 1942." in (
        response.content.decode()
    )
    assert position(campaign) == ("after_scenario", 0)


def test_after_a_scenario_the_cg_victory_question_must_be_answered(campaign, client_as, people):
    after = to_after_scenario(campaign, people)
    walk_all(campaign, after, people)
    client = client_as("referee")
    response = client.post(url(campaign), {"reph": after.pk})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Say whether a side has won the campaign game." in html
    assert "The Refit Phase was not finished: answer the question." in html
    assert position(campaign) == ("after_scenario", 0)
    response = client.post(url(campaign), {"reph": after.pk, "answer": "no"}, follow=True)
    assert "Now: New CG day, 18 Oct 1942." in response.content.decode()
    assert position(campaign) == ("new_day", 1)


def test_a_side_that_meets_its_cg_victory_conditions_ends_the_campaign_game(
    campaign, client_as, people
):
    after = to_after_scenario(campaign, people)
    walk_all(campaign, after, people)
    client = client_as("referee")
    form = client.get(reverse("refit:overview", args=[campaign.pk])).content.decode()
    assert "Yes, the German side — the campaign game ends" in form
    assert "Yes, the Soviet side — the campaign game ends" in form
    # A bare "yes" names no side: refused, the phase stays open.
    response = client.post(url(campaign), {"reph": after.pk, "answer": "yes"}, follow=True)
    assert "The Refit Phase was not finished: answer the question." in response.content.decode()
    assert position(campaign) == ("after_scenario", 0)
    response = client.post(url(campaign), {"reph": after.pk, "answer": "soviet"}, follow=True)
    html = response.content.decode()
    assert "The campaign game is over." in html
    assert position(campaign) is None
    after.refresh_from_db()
    assert after.outcome == {"scenario_generated": None, "cg_won": True, "cg_winner": "soviet"}
    # The CG victory page and the report name the side the referee recorded.
    victory = client.get(reverse("campaigns:cg_victory", args=[campaign.pk])).content.decode()
    assert "the Soviet side met its CG victory conditions." in victory
    report = client.get(reverse("report:page", args=[campaign.pk])).content.decode()
    assert "The Soviet side met its CG victory conditions" in report


def test_an_idle_day_moves_the_calendar_to_the_next_cg_day(campaign, client_as, people):
    new_day = to_new_day(campaign, people)
    walk_all(campaign, new_day, people)
    client = client_as("referee")
    response = client.post(url(campaign), {"reph": new_day.pk})
    assert "Say whether 11.623 generated a scenario." in response.content.decode()
    response = client.post(url(campaign), {"reph": new_day.pk, "answer": "no"}, follow=True)
    assert "Now: New CG day, 19 Oct 1942." in response.content.decode()
    assert position(campaign) == ("new_day", 2)
    campaign.refresh_from_db()
    assert campaign.current_period.key == "1942-10-19"


def test_a_generated_scenario_leads_to_the_scenario_day_steps(campaign, client_as, people):
    new_day = to_new_day(campaign, people)
    walk_all(campaign, new_day, people)
    response = client_as("referee").post(
        url(campaign), {"reph": new_day.pk, "answer": "yes"}, follow=True
    )
    html = response.content.decode()
    assert "Now: Scenario day, 18 Oct 1942." in html
    assert "11.624 Wind &amp; unit set-up" in html
    assert position(campaign) == ("scenario_day", 1)


def test_a_second_press_of_finish_changes_nothing(campaign, client_as, people):
    reph = walked(campaign, people)
    client = client_as("referee")
    client.post(url(campaign), {"reph": reph.pk})
    response = client.post(url(campaign), {"reph": reph.pk}, follow=True)
    assert "That page was for a Refit Phase that is already finished" in response.content.decode()
    assert position(campaign) == ("scenario", 0)
    assert RefitPhase.objects.filter(campaign=campaign).count() == 2


def test_an_answer_that_is_not_offered_is_refused(campaign, client_as, people):
    new_day = to_new_day(campaign, people)
    walk_all(campaign, new_day, people)
    response = client_as("referee").post(url(campaign), {"reph": new_day.pk, "answer": "maybe"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert position(campaign) == ("new_day", 1)


def test_finishing_reads_a_fixed_number_of_queries(
    campaign, client_as, people, django_assert_max_num_queries
):
    reph = walked(campaign, people)
    client = client_as("referee")
    # 15, and the RGs moving on in their life cycle: one read, one write, one event per side;
    # and the initial scenario made as its play starts (read, slot check, insert, event: 7);
    # verifiable dice: the finished phase's seeds revealed, the next one's committed to (3).
    with django_assert_max_num_queries(29):
        response = client.post(url(campaign), {"reph": reph.pk})
    assert response.status_code == 302


def test_in_slaughter_at_ponyri_the_scenario_asks_whether_a_side_won_the_cg(client_as, people):
    from campaigns.games.registry import get_module
    from campaigns.members import services

    module = get_module("slaughter_at_ponyri")
    sap = services.create_campaign(
        user=people["referee"],
        name="Ponyri",
        module=module,
        cg_key=module.campaign_games[0].key,
        role=Role.REFEREE,
        side="",
    )
    client = client_as("referee")
    html = client.get(overview_url(sap)).content.decode()
    assert "Before 7 July AM · CG-1: 7 July 1943 AM" in html
    reph = walker.open_reph(sap)
    for step in walker.steps(sap, reph):
        for side in sap.game.side_keys:
            mark_past(sap, reph, side, step.rule, people)
    response = client.post(url(sap), {"reph": reph.pk}, follow=True)
    html = response.content.decode()
    assert "Now: Scenario being played, CG-1: 7 July 1943 AM." in html
    assert "Has a side met its CG victory conditions?" in html
    scenario = walker.open_reph(sap)
    record_end(sap, scenario, people["referee"], winner="")
    response = client.post(url(sap), {"reph": scenario.pk, "answer": "no"}, follow=True)
    assert "Now: Daytime RePh, CG-2: 7 July 1943 PM." in response.content.decode()
