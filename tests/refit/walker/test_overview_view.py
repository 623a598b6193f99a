"""The Refit Phase overview: where the campaign stands, each side's steps, the finish form."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.dice import services as dice
from campaigns.models import DiceRoll, Membership, RefitPhase, Role, StepProgress
from refit.walker import services as walker
from tests.campaigns.builders import make_big_campaign
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def url(campaign):
    return reverse("refit:overview", args=[campaign.pk])


def text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def progress_html(html):
    match = re.search(r'<section id="progress">(.*?)</section>', html, re.DOTALL)
    assert match, "no progress"
    return match.group(1)


def side_html(html, side):
    match = re.search(rf'<section id="side-{side}".*?</section>', html, re.DOTALL)
    assert match, f"no step list for {side}"
    return match.group(0)


def row_text(html, side, rule):
    match = re.search(
        rf'<tr data-rule="{re.escape(rule)}"[^>]*>(.*?)</tr>', side_html(html, side), re.DOTALL
    )
    assert match, f"no row {rule} for {side}"
    return text(match.group(1))


def to_scenario(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    return finish_phase(campaign, reph, by=people["referee"])


def to_new_day(campaign, people):
    scenario = to_scenario(campaign, people)
    after = finish_phase(campaign, scenario, by=people["referee"])
    walk_all(campaign, after, people)
    return finish_phase(campaign, after, by=people["referee"])


def drop_referee(campaign):
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()


# --- who may see ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, status",
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_every_member_opens_the_overview_and_the_outsider_gets_404(
    campaign, client_as, persona, status
):
    assert client_as(persona).get(url(campaign)).status_code == status


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302


def test_a_game_without_a_refit_phase_has_no_overview(people, client_as):
    from campaigns.games.registry import get_module
    from campaigns.members import services

    module = get_module("defiant_russia")
    other = services.create_campaign(
        user=people["german"],
        name="Barbarossa",
        module=module,
        cg_key=module.campaign_games[0].key,
        role=Role.REFEREE,
        side="",
    )
    assert client_as("german").get(url(other)).status_code == 404


# --- where the campaign stands -------------------------------------------------------------


def test_a_new_campaign_stands_before_the_initial_scenario(campaign, client_as):
    html = client_as("observer").get(url(campaign)).content.decode()
    assert "Before the initial scenario · 17 Oct 1942" in html
    progress = text(progress_html(html))
    assert "German" in progress and "Soviet" in progress
    # 11.619 is secret: the observer learns only that each side is on its secret steps.
    assert progress.count("working on secret steps") == 2
    assert "11.619" not in progress
    assert (
        progress_html(client_as("german").get(url(campaign)).content.decode()).count(
            "11.619 RG purchase"
        )
        == 1
    )


@pytest.mark.parametrize(
    "persona, full",
    [
        ("german", {"german"}),
        ("soviet", {"soviet"}),
        ("referee", {"german", "soviet"}),
        ("observer", set()),
    ],
)
def test_each_member_sees_the_step_marks_of_the_sides_they_may_see(
    campaign, client_as, people, persona, full
):
    reph = walker.open_reph(campaign)
    walker.mark(
        campaign,
        reph,
        side="german",
        rule="11.619",
        by=people["german"],
        skipped=True,
        reason="Saving CPP for the Barrikady",
    )
    walker.mark(
        campaign,
        reph,
        side="soviet",
        rule="11.619",
        by=people["soviet"],
        skipped=True,
        reason="Waiting for the Guards",
    )
    html = client_as(persona).get(url(campaign)).content.decode()
    reasons = {"german": "Saving CPP for the Barrikady", "soviet": "Waiting for the Guards"}
    for side, reason in reasons.items():
        if side in full:
            assert row_text(html, side, "11.619").endswith(f"Skipped: {reason}")
            assert "Current" in row_text(html, side, "11.620")
        else:
            # 11.619–11.622 are secret: no status, no reason, no link.
            assert row_text(html, side, "11.619") == "11.619 RG purchase † * secret"
            assert reason not in html
    # Which secret step a side is on is shown only to those who see the side (issue 21).
    progress = text(progress_html(html))
    assert progress.count("11.620 RG strength") == len(full)
    assert progress.count("working on secret steps") == 2 - len(full)


def test_the_progress_says_who_a_side_waits_for(campaign, client_as, people):
    scenario = to_scenario(campaign, people)
    after = finish_phase(campaign, scenario, by=people["referee"])
    mark_past(campaign, after, "german", "11.601", people)
    html = client_as("observer").get(url(campaign)).content.decode()
    assert "After the scenario · 17 Oct 1942" in html
    german = re.search(r'<li data-side="german">(.*?)</li>', html, re.DOTALL).group(1)
    assert "waiting for the other side to finish 11.601 Melee completion" in " ".join(
        german.split()
    )
    assert "(Soviet)" in german
    # 11.601 is public: the observer sees both sides' rows for it.
    assert row_text(html, "german", "11.601").endswith("Done")
    assert "Waiting for the other side" in row_text(html, "german", "11.602")
    assert "Current" in row_text(html, "soviet", "11.601")


def test_a_player_marks_the_current_step_done_from_the_list(campaign, client_as):
    html = client_as("german").get(url(campaign)).content.decode()
    german = side_html(html, "german")
    assert german.count('name="action" value="done"') == 1
    assert "refit/german/11.619/mark/" in german
    assert 'name="action"' not in side_html(html, "soviet")
    observer = client_as("observer").get(url(campaign)).content.decode()
    assert 'name="action"' not in observer


def test_the_step_names_and_the_day_read_in_japanese(campaign, client_as, people):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign)).content.decode()
    assert "1942年10月17日" in html
    assert "RG purchase" not in side_html(html, "german")


# --- finishing -----------------------------------------------------------------------------


def test_the_finish_form_appears_when_both_sides_are_through_for_the_referee(
    campaign, client_as, people
):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people, sides=("german",))
    assert 'id="finish"' not in client_as("referee").get(url(campaign)).content.decode()
    walk_all(campaign, reph, people, sides=("soviet",))
    html = client_as("referee").get(url(campaign)).content.decode()
    assert "Finish this Refit Phase" in html
    for persona in ("german", "soviet"):
        html = client_as(persona).get(url(campaign)).content.decode()
        assert "Finish this Refit Phase" not in html
        assert "The referee finishes it." in html
    assert (
        "Finish this Refit Phase" not in client_as("observer").get(url(campaign)).content.decode()
    )


def test_without_a_referee_any_player_finishes(campaign, client_as, people):
    walk_all(campaign, walker.open_reph(campaign), people)
    drop_referee(campaign)
    for persona in ("german", "soviet"):
        assert "Finish this Refit Phase" in client_as(persona).get(url(campaign)).content.decode()
    observer = client_as("observer").get(url(campaign)).content.decode()
    assert "Finish this Refit Phase" not in observer
    assert "A player finishes it." in observer


def test_a_scenario_being_played_is_over_when_someone_says_so(campaign, client_as, people):
    to_scenario(campaign, people)
    html = client_as("referee").get(url(campaign)).content.decode()
    assert "Scenario being played · 17 Oct 1942" in html
    assert "A scenario is being played." in html
    assert "Scenario over" in html
    assert 'id="side-german"' not in html


def test_a_new_cg_day_asks_whether_11_623_generated_a_scenario(campaign, client_as, people):
    new_day = to_new_day(campaign, people)
    walk_all(campaign, new_day, people)
    html = client_as("referee").get(url(campaign)).content.decode()
    assert "New CG day · 18 Oct 1942" in html
    assert "Did 11.623 generate a scenario?" in html
    assert 'name="answer" value="no"' in html


def test_after_a_scenario_it_asks_whether_a_side_won_the_cg(campaign, client_as, people):
    scenario = to_scenario(campaign, people)
    after = finish_phase(campaign, scenario, by=people["referee"])
    walk_all(campaign, after, people)
    html = client_as("referee").get(url(campaign)).content.decode()
    assert "Has a side met its CG victory conditions?" in html


def test_when_the_campaign_game_is_over_the_overview_says_so(campaign, client_as, people):
    scenario = to_scenario(campaign, people)
    after = finish_phase(campaign, scenario, by=people["referee"])
    walk_all(campaign, after, people)
    assert finish_phase(campaign, after, by=people["referee"], cg_won=True) is None
    html = client_as("soviet").get(url(campaign)).content.decode()
    assert "The campaign game is over" in html


# --- secrecy of rolls ----------------------------------------------------------------------


def test_the_germans_secret_roll_never_reaches_the_soviet_overview(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    with dice.use_roller(3):
        dice.roll(
            campaign,
            by=people["german"],
            kind="DR",
            step="11.620",
            index=0,
            side="german",
            visibility="german",
            table=campaign.game.dice_table("rf.rg-strength"),
            note="Panzergrenadier company XYZZY",
        )
    walker.mark(
        campaign,
        reph,
        side="german",
        rule="11.619",
        by=people["german"],
        note="Bought PLUGH companies",
    )
    for persona in ("soviet", "observer"):
        html = client_as(persona).get(url(campaign)).content.decode()
        assert "XYZZY" not in html and "PLUGH" not in html


# --- query counts --------------------------------------------------------------------------


def fill_history(campaign, people, rephs=20, rolls=300):
    """Many finished RePhs with both sides' marks and hundreds of rolls, in bulk."""
    steps = walker.steps(campaign, RefitPhase(campaign=campaign, kind="new_day", index=0))
    now = timezone.now()
    progress, log = [], []
    for n in range(rephs):
        reph = RefitPhase.objects.create(
            campaign=campaign, kind="new_day", index=n % 25, finished_at=now
        )
        for step in steps:
            for side in ("german", "soviet"):
                progress.append(
                    StepProgress(
                        reph=reph,
                        side=side,
                        rule=step.rule,
                        status="done",
                        by=people[side],
                        note="n" * 40,
                    )
                )
    for n in range(rolls):
        side = ("german", "soviet")[n % 2]
        log.append(
            DiceRoll(
                campaign=campaign,
                index=n % 25,
                side=side,
                step="11.620",
                kind="DR",
                faces=[3, 4],
                original=7,
                final=7,
                result={"strength": "full"},
                visibility=side,
                rolled_by=people[side],
            )
        )
    StepProgress.objects.bulk_create(progress)
    DiceRoll.objects.bulk_create(log)


def count_queries(client, path):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize("persona", ["german", "referee", "observer"])
def test_the_overview_reads_a_fixed_number_of_queries(
    campaign, client_as, people, persona, django_assert_max_num_queries
):
    client = client_as(persona)
    walker.open_reph(campaign)
    small = count_queries(client, url(campaign))
    big = make_big_campaign(people)
    open_reph = walker.open_reph(big)
    fill_history(big, people)
    mark_past(big, open_reph, "german", "11.619", people)
    walker.mark(
        big,
        open_reph,
        side="soviet",
        rule="11.619",
        by=people["soviet"],
        skipped=True,
        reason="none",
    )
    with django_assert_max_num_queries(8):
        response = client.get(url(big))
    assert response.status_code == 200
    assert count_queries(client, url(big)) == small
