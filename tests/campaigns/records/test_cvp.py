"""The CVP tally: each casualty a side suffered (11.12), public to every member, with the sums
for victory, for the CPP replenishment DRM (11.616) and the running CVP Tally derived from it."""

import re

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CvpEntry, LedgerEntry, Membership, Role, Scenario
from campaigns.records import services as records
from campaigns.roster import services as roster

pytestmark = pytest.mark.django_db

MEMBERS = ["german", "soviet", "referee", "observer"]
EDITORS = ["german", "soviet", "referee"]
TOKEN = re.compile(r"[A-Za-z0-9_-]{12,}")
HX = {"HTTP_HX_REQUEST": "true"}


def url(campaign):
    return reverse("campaigns:cvp", args=[campaign.pk])


def form_data(**fields):
    data = {
        "side": "german",
        "index": 0,
        "scenario": "",
        "phase": "scenario",
        "what": "4-6-7",
        "cvp": 2,
    }
    data.update(fields)
    return data


def lost(campaign, people, side, index, cvp, **fields):
    return records.add_cvp(
        campaign,
        by=people["referee"],
        side=side,
        index=index,
        phase=fields.pop("phase", "scenario"),
        what=fields.pop("what", "squad"),
        cvp=cvp,
        **fields,
    )


def scenario_on(campaign, people, index, sequence=1):
    return records.save_scenario(
        campaign,
        by=people["referee"],
        index=index,
        sequence=sequence,
        scenario_type="dual_attack",
    )


# --- the page ------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", MEMBERS)
def test_every_member_sees_every_casualty_and_the_totals(campaign, client_as, people, persona):
    lost(campaign, people, "german", 0, 6, what="PzIIIH wreck", manual=True)
    lost(campaign, people, "soviet", 0, 2, what="4-4-7", phase="reph_after_vc")
    lost(campaign, people, "soviet", 1, 1, what="2-2-8 in the sewer", no_cvp=True)
    response = client_as(persona).get(url(campaign))
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("PzIIIH wreck", "4-4-7", "2-2-8 in the sewer", "stays on the map", "no CVP"):
        assert text in html
    assert "RePh, after victory determination" in html
    german, soviet = response.context["totals"]
    assert (german.for_victory, german.for_cpp_drm, german.running) == (6, 6, 6)
    assert (soviet.for_victory, soviet.for_cpp_drm, soviet.running) == (0, 2, 2)
    assert [label for label, _sums in response.context["days"]] == ["17 Oct 1942", "18 Oct 1942"]


def test_the_totals_table_shows_each_days_sums_and_the_running_tally(campaign, client_as, people):
    lost(campaign, people, "german", 0, 10)
    lost(campaign, people, "german", 0, 3, exited_uncontrolled=True)
    lost(campaign, people, "german", 2, 5, phase="reph_after_vc")
    html = client_as("observer").get(url(campaign)).content.decode()
    start = html.index('id="cvp-totals"')
    table = re.sub(r">\s+<", "><", html[start : html.index("</table>", start)])
    # 17 Oct: German 13 for victory, 10 for the DRM, tally 13, running 13; Soviet nothing.
    assert '<th scope="row">17 Oct 1942</th><td>13</td><td>10</td><td>13</td><td>13</td>' in table
    # 19 Oct: after victory determination, so not for victory; running 18.
    assert '<th scope="row">19 Oct 1942</th><td>0</td><td>5</td><td>5</td><td>18</td>' in table
    assert "CG so far" in table


def test_the_page_reads_in_japanese(campaign, client_as, people):
    lost(campaign, people, "german", 0, 2)
    people["observer"].language = "ja"
    people["observer"].save()
    html = client_as("observer").get(url(campaign)).content.decode()
    assert "1942年10月17日" in html
    assert "17 Oct 1942" not in html


def test_an_outsider_gets_404(campaign, client_as):
    client = client_as("outsider")
    assert client.get(url(campaign)).status_code == 404
    assert client.get(url(campaign), {"field": "scenario", "index": 0}, **HX).status_code == 404
    assert client.post(url(campaign), form_data()).status_code == 404
    assert client.post(url(campaign), form_data(), **HX).status_code == 404
    assert not CvpEntry.objects.exists()


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302
    assert client.post(url(campaign), form_data()).status_code == 302
    assert not CvpEntry.objects.exists()


# --- adding --------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", EDITORS)
def test_any_player_or_the_referee_may_add_a_casualty(campaign, client_as, people, persona):
    scenario = scenario_on(campaign, people, 0)
    client = client_as(persona)
    response = client.post(
        url(campaign),
        form_data(
            side="soviet",
            scenario=scenario.pk,
            phase="reph_before_vc",
            what="T-34 M41",
            cvp=12,
            exited_uncontrolled="on",
            manual="on",
        ),
    )
    assert response.status_code == 302
    entry = CvpEntry.objects.get(campaign=campaign)
    assert (entry.side, entry.index, entry.scenario, entry.phase) == (
        "soviet",
        0,
        scenario,
        "reph_before_vc",
    )
    assert (entry.what, entry.cvp) == ("T-34 M41", 12)
    assert (entry.exited_uncontrolled, entry.no_cvp, entry.manual) == (True, False, True)
    assert entry.created_by == people[persona]
    assert campaign.events.get(action="cvp.added").visibility == "public"
    # The next form keeps side, day, scenario and phase: casualties come in runs.
    page = client.get(response["Location"])
    assert "Recorded: Soviet lost T-34 M41, 12 CVP (17 Oct 1942)." in page.content.decode()
    initial = page.context["form"].initial
    assert (initial["side"], str(initial["index"]), str(initial["scenario"]), initial["phase"]) == (
        "soviet",
        "0",
        str(scenario.pk),
        "reph_before_vc",
    )


def test_an_observer_reads_but_cannot_add(campaign, client_as):
    client = client_as("observer")
    page = client.get(url(campaign))
    assert page.context["form"] is None
    assert 'name="cvp"' not in page.content.decode()
    assert client.post(url(campaign), form_data()).status_code == 403
    assert client.post(url(campaign), form_data(), **HX).status_code == 403
    assert not CvpEntry.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cvp": 0}, "CVP must be between 1 and 999."),
        ({"cvp": -4}, "CVP must be between 1 and 999."),
        ({"cvp": 1000}, "CVP must be between 1 and 999."),
        ({"cvp": ""}, "Give the CVP (1 to 999)."),
        ({"index": 13}, "Choose a day of this campaign&#x27;s calendar."),
        ({"side": "russian"}, "Choose one of this game&#x27;s sides."),
        ({"phase": "later"}, "Select a valid choice."),
    ],
)
def test_bad_input_is_refused_with_the_rule_and_nothing_is_lost(
    campaign, client_as, fields, message
):
    response = client_as("german").post(
        url(campaign), form_data(what="Commissar with a story", **fields)
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert 'value="Commissar with a story"' in html
    assert not CvpEntry.objects.exists()


def test_the_scenario_must_be_one_of_that_days(campaign, client_as, people):
    first_day = scenario_on(campaign, people, 0)
    response = client_as("soviet").post(url(campaign), form_data(index=1, scenario=first_day.pk))
    assert (
        "That scenario was not played on 18 Oct 1942: choose one of that day&#x27;s, or none."
        in response.content.decode()
    )
    assert not CvpEntry.objects.exists()


def test_another_campaigns_scenario_cannot_be_linked(campaign, client_as, people):
    other = services.create_campaign(
        user=people["german"],
        name="Other",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="german",
    )
    foreign = scenario_on(other, people, 0)
    response = client_as("german").post(url(campaign), form_data(scenario=foreign.pk))
    assert "Choose one of that day&#x27;s scenarios, or none." in response.content.decode()
    assert not CvpEntry.objects.exists()


def test_without_javascript_every_scenario_is_offered_by_day(campaign, client_as, people):
    a = scenario_on(campaign, people, 6)
    b = scenario_on(campaign, people, 6, sequence=2)
    c = scenario_on(campaign, people, 7)
    form = client_as("german").get(url(campaign)).context["form"]
    choices = form.fields["scenario"].choices
    assert choices[0][0] == ""
    groups = {label: [pk for pk, _l in options] for label, options in choices[1:]}
    assert groups == {"23 Oct 1942": [a.pk, b.pk], "24 Oct 1942": [c.pk]}


def test_the_day_defaults_to_the_current_one(campaign, client_as):
    campaign.period_index = 4
    campaign.save()
    form = client_as("german").get(url(campaign)).context["form"]
    assert form.initial["index"] == 4


# --- HTMX ----------------------------------------------------------------------------------


def test_htmx_adding_swaps_the_tally_section(campaign, client_as, people):
    lost(campaign, people, "german", 0, 5)
    response = client_as("soviet").post(
        url(campaign), form_data(cvp=7, phase="reph_before_vc"), **HX
    )
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<section id="cvp-tally">')
    assert "Recorded: German lost 4-6-7, 7 CVP (17 Oct 1942)." in html
    german, _soviet = response.context["totals"]
    assert german.for_victory == 12
    form = response.context["form"]
    assert not form.is_bound
    assert (form.initial["side"], form.initial["phase"]) == ("german", "reph_before_vc")


def test_htmx_errors_come_back_in_the_tally_section(campaign, client_as):
    response = client_as("referee").post(url(campaign), form_data(cvp=0, what="kept"), **HX)
    html = response.content.decode()
    assert html.strip().startswith('<section id="cvp-tally">')
    assert "CVP must be between 1 and 999." in html
    assert 'value="kept"' in html


def test_htmx_changing_the_day_offers_only_that_days_scenarios(campaign, client_as, people):
    a = scenario_on(campaign, people, 6)
    b = scenario_on(campaign, people, 6, sequence=2)
    other = scenario_on(campaign, people, 7)
    response = client_as("german").get(url(campaign), {"field": "scenario", "index": 6}, **HX)
    html = response.content.decode()
    assert html.strip().startswith('<div class="field" id="scenario-field">')
    assert f'value="{a.pk}"' in html and f'value="{b.pk}"' in html
    assert f'value="{other.pk}"' not in html
    assert "23 Oct 1942 #2" in html


# --- secrecy and size ----------------------------------------------------------------------


@pytest.mark.parametrize("persona", MEMBERS)
def test_nobody_sees_any_sides_cpp_here(campaign, client_as, people, persona):
    lost(campaign, people, "german", 0, 3)
    for side, amount in (("german", 987), ("soviet", 876)):
        roster.add_ledger_entry(
            campaign,
            by=people[side],
            side=side,
            ledger=LedgerEntry.CPP,
            index=0,
            kind="adjustment",
            amount=amount,
            note=f"secret {side} note",
        )
    client = client_as(persona)
    responses = [client.get(url(campaign))]
    if persona != "observer":
        responses.append(client.post(url(campaign), form_data(), **HX))
    for response in responses:
        # Tokens (CSRF, live updates, opaque ids) are random letters and digits that may hold
        # "876" by chance; a long run of them is never an amount.
        html = TOKEN.sub("", response.content.decode())
        for secret in ("987", "876", "secret german", "secret soviet"):
            assert secret not in html, (persona, secret)


def big_campaign(people):
    """RB CG III (30 days): a scenario a day, hundreds of casualties and CPP movements."""
    campaign = services.create_campaign(
        user=people["german"],
        name="The Barrikady",
        module=get_module("red_factories"),
        cg_key="rb-cg-3",
        role=Role.PLAYER,
        side="german",
    )
    Membership.objects.create(
        campaign=campaign, user=people["soviet"], role=Role.PLAYER, side="soviet"
    )
    Membership.objects.create(campaign=campaign, user=people["referee"], role=Role.REFEREE)
    Membership.objects.create(campaign=campaign, user=people["observer"], role=Role.OBSERVER)
    scenarios = [scenario_on(campaign, people, index) for index in range(30)]
    CvpEntry.objects.bulk_create(
        CvpEntry(
            campaign=campaign,
            side=("german", "soviet")[n % 2],
            index=n % 30,
            scenario=scenarios[n % 30] if n % 4 else None,
            phase=("scenario", "reph_before_vc", "reph_after_vc")[n % 3],
            what=f"unit {n}",
            cvp=1 + n % 7,
            no_cvp=n % 17 == 0,
            exited_uncontrolled=n % 13 == 0,
        )
        for n in range(500)
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign, side="soviet", ledger="cpp", index=n % 30, kind="recon", amount=-1
        )
        for n in range(200)
    )
    return campaign


def test_the_number_of_queries_does_not_grow_with_the_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("referee")
    lost(campaign, people, "german", 0, 3)
    with django_assert_max_num_queries(6) as small:
        client.get(url(campaign))
    with django_assert_max_num_queries(12) as small_post:
        client.post(url(campaign), form_data(), **HX)
    big = big_campaign(people)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(url(big))
    assert len(response.context["entries"]) == 500
    assert len(response.context["days"]) == 30
    with django_assert_max_num_queries(len(small_post.captured_queries)):
        response = client.post(url(big), form_data(index=29), **HX)
    assert len(response.context["entries"]) == 501
    assert Scenario.objects.filter(campaign=big).count() == 30
