"""The scenarios played: recorded by either side or the referee, public to every member, with the
win/loss record and (Red Factories) the automatic CG Scenario Balance DRM of 11.32."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CvpEntry, LedgerEntry, Membership, Role, Scenario
from campaigns.oid import oid
from campaigns.records import services as records
from campaigns.roster import services as roster

pytestmark = pytest.mark.django_db

MEMBERS = ["german", "soviet", "referee", "observer"]
EDITORS = ["german", "soviet", "referee"]
HX = {"HTTP_HX_REQUEST": "true"}


def list_url(campaign):
    return reverse("campaigns:scenarios", args=[campaign.pk])


def edit_url(campaign, scenario):
    return reverse("campaigns:scenario", args=[campaign.pk, scenario.pk])


def form_data(**fields):
    data = {
        "index": 0,
        "sequence": 1,
        "scenario_type": "initial",
        "attacker": "german",
        "sets_up_first": "soviet",
        "moves_first": "german",
        "winner": "",
        "turns_played": "",
        "locations_german_gained": "",
        "locations_german_lost": "",
        "locations_soviet_gained": "",
        "locations_soviet_lost": "",
        "notes": "",
    }
    data.update(fields)
    return {key: value for key, value in data.items() if value is not None}


def played(campaign, people, index, winner, sequence=1, **fields):
    return records.save_scenario(
        campaign,
        by=people["referee"],
        index=index,
        sequence=sequence,
        scenario_type=fields.pop("scenario_type", "dual_attack"),
        winner=winner,
        **fields,
    )


def make_campaign(people, module, cg_key, side):
    """Another game's campaign with the same people: the creator plays ``side``."""
    game = get_module(module)
    other = next(key for key in game.side_keys if key != side)
    campaign = services.create_campaign(
        user=people["german"],
        name=f"{module} club night",
        module=game,
        cg_key=cg_key,
        role=Role.PLAYER,
        side=side,
    )
    Membership.objects.create(
        campaign=campaign, user=people["soviet"], role=Role.PLAYER, side=other
    )
    Membership.objects.create(campaign=campaign, user=people["referee"], role=Role.REFEREE)
    Membership.objects.create(campaign=campaign, user=people["observer"], role=Role.OBSERVER)
    return campaign


# --- the list ------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", MEMBERS)
def test_every_member_sees_the_scenarios_played(campaign, client_as, people, persona):
    played(
        campaign,
        people,
        0,
        "soviet",
        scenario_type="initial",
        attacker="german",
        turns_played=7,
        night=False,
        locations={"german": {"gained": 14, "lost": 3}, "soviet": {"gained": 3, "lost": 14}},
        notes="Hard fighting at the Commissar's House",
    )
    response = client_as(persona).get(list_url(campaign))
    assert response.status_code == 200
    html = response.content.decode()
    assert "17 Oct 1942" in html
    assert "Initial scenario" in html
    assert "Commissar&#x27;s House" in html
    assert "<strong>Soviet</strong>" in html  # the winner
    assert "<td>14 / 3</td>" in html and "<td>3 / 14</td>" in html
    [row] = response.context["rows"]
    assert row.winner == "Soviet" and row.attacker == "German"


def test_an_undecided_scenario_says_so(campaign, client_as, people):
    played(campaign, people, 0, "")
    html = client_as("observer").get(list_url(campaign)).content.decode()
    assert "not decided" in html


@pytest.mark.parametrize(
    ("method", "target"),
    [("get", "list"), ("post", "list"), ("get", "edit"), ("post", "edit")],
)
def test_an_outsider_gets_404_everywhere(campaign, client_as, people, method, target):
    scenario = played(campaign, people, 0, "")
    url = list_url(campaign) if target == "list" else edit_url(campaign, scenario)
    client = client_as("outsider")
    data = form_data(index=1, winner="german", version=0) if method == "post" else None
    assert getattr(client, method)(url, data).status_code == 404
    assert getattr(client, method)(url, data, **HX).status_code == 404
    assert Scenario.objects.filter(campaign=campaign).count() == 1
    assert Scenario.objects.get(pk=scenario.pk).winner == ""


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(list_url(campaign)).status_code == 302
    assert client.post(list_url(campaign), form_data()).status_code == 302
    assert not Scenario.objects.exists()


def test_a_scenario_of_another_campaign_is_not_found(campaign, client_as, people):
    other = make_campaign(people, "red_factories", "ro-cg-1", "german")
    foreign = played(other, people, 0, "german")
    client = client_as("german")
    assert client.get(edit_url(campaign, foreign)).status_code == 404
    response = client.post(edit_url(campaign, foreign), form_data(version=0, winner="soviet"))
    assert response.status_code == 404
    assert Scenario.objects.get(pk=foreign.pk).winner == "german"


# --- recording -----------------------------------------------------------------------------


@pytest.mark.parametrize("persona", EDITORS)
def test_any_player_or_the_referee_may_record_a_scenario(campaign, client_as, persona):
    client = client_as(persona)
    response = client.post(
        list_url(campaign),
        form_data(
            winner="soviet",
            turns_played="6",
            night="on",
            locations_german_gained="12",
            locations_german_lost="0",
            locations_soviet_gained="",
            locations_soviet_lost="12",
            notes="Good game",
        ),
    )
    assert response.status_code == 302
    scenario = Scenario.objects.get(campaign=campaign)
    assert (scenario.index, scenario.sequence, scenario.scenario_type) == (0, 1, "initial")
    assert (scenario.attacker, scenario.sets_up_first, scenario.moves_first) == (
        "german",
        "soviet",
        "german",
    )
    assert (scenario.winner, scenario.night, scenario.turns_played) == ("soviet", True, 6)
    # Blank counts are unknown, not 0.
    assert scenario.locations == {"german": {"gained": 12, "lost": 0}, "soviet": {"lost": 12}}
    assert campaign.events.get(action="scenario.added").visibility == "public"
    html = client.get(list_url(campaign)).content.decode()
    assert "Recorded the scenario of 17 Oct 1942 — Initial scenario." in html


def test_an_observer_reads_but_cannot_record_or_edit(campaign, client_as, people):
    scenario = played(campaign, people, 0, "")
    client = client_as("observer")
    page = client.get(list_url(campaign))
    assert page.context["form"] is None
    assert 'name="scenario_type"' not in page.content.decode()
    response = client.get(edit_url(campaign, scenario))
    assert response.status_code == 200
    assert 'name="scenario_type"' not in response.content.decode()
    assert client.post(list_url(campaign), form_data(index=1)).status_code == 403
    assert client.post(list_url(campaign), form_data(index=1), **HX).status_code == 403
    edit = form_data(version=0, winner="german")
    assert client.post(edit_url(campaign, scenario), edit).status_code == 403
    assert client.post(edit_url(campaign, scenario), edit, **HX).status_code == 403
    assert Scenario.objects.filter(campaign=campaign).count() == 1
    assert Scenario.objects.get(pk=scenario.pk).winner == ""


def test_red_factories_offers_only_its_scenario_types(campaign, client_as):
    form = client_as("german").get(list_url(campaign)).context["form"]
    offered = [value for value, _label in form.fields["scenario_type"].choices]
    assert offered == ["initial", "dual_attack", "assault"]
    response = client_as("german").post(list_url(campaign), form_data(scenario_type="time_frame"))
    assert "Choose one of the types this game has." in response.content.decode()
    assert not Scenario.objects.exists()


@pytest.mark.parametrize(
    ("module", "cg_key", "side", "types"),
    [
        ("slaughter_at_ponyri", "timetable-disrupted", "german", ["time_frame"]),
        ("defiant_russia", "full-game", "axis", ["turn"]),
        ("cherkassy_pocket", "scenario-1", "german", ["turn"]),
    ],
)
def test_other_games_offer_the_type_that_fits_them(people, client_as, module, cg_key, side, types):
    other = make_campaign(people, module, cg_key, side)
    form = client_as("german").get(list_url(other)).context["form"]
    assert [value for value, _label in form.fields["scenario_type"].choices] == types
    assert [value for value, _l in form.fields["winner"].choices] == ["", *other.game.side_keys]


def test_a_second_scenario_on_the_same_day_needs_sequence_2(campaign, client_as, people):
    played(campaign, people, 6, "german")  # 23 Oct
    client = client_as("soviet")
    response = client.post(
        list_url(campaign), form_data(index=6, scenario_type="dual_attack", notes="second fight")
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "23 Oct 1942 already has a scenario with sequence 1" in html
    assert "second fight" in html  # nothing lost
    assert Scenario.objects.filter(campaign=campaign).count() == 1
    response = client.post(
        list_url(campaign), form_data(index=6, sequence=2, scenario_type="dual_attack")
    )
    assert response.status_code == 302
    assert list(Scenario.objects.filter(campaign=campaign).values_list("index", "sequence")) == [
        (6, 1),
        (6, 2),
    ]
    html = client.get(list_url(campaign)).content.decode()
    assert "23 Oct 1942 #2" in html


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("index", 13, "Choose a day of this campaign&#x27;s calendar."),
        ("index", -1, "Choose a day of this campaign&#x27;s calendar."),
        ("winner", "axis", "Choose one of this game&#x27;s sides."),
        ("attacker", "russian", "Choose one of this game&#x27;s sides."),
        ("sequence", 0, "The sequence is 1, or 2 for a second scenario on the same day."),
        ("turns_played", 0, "Turns played must be between 1 and 99 (or empty)."),
        ("locations_german_gained", -3, "A count must be between 0 and 999 (or empty)."),
        ("locations_soviet_lost", 1000, "A count must be between 0 and 999 (or empty)."),
    ],
)
def test_bad_input_is_refused_with_the_rule_and_nothing_is_lost(
    campaign, client_as, field, value, message
):
    response = client_as("german").post(
        list_url(campaign), form_data(notes="keep these notes", **{field: value})
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert "keep these notes" in html
    assert field in response.context["form"].errors
    assert not Scenario.objects.exists()


# --- editing -------------------------------------------------------------------------------


def test_the_edit_page_shows_the_scenario_in_the_form(campaign, client_as, people):
    scenario = played(
        campaign, people, 2, "", locations={"soviet": {"gained": 4, "lost": 9}}, notes="to do"
    )
    response = client_as("soviet").get(edit_url(campaign, scenario))
    assert response.status_code == 200
    assert response.context["editing"] == scenario
    html = response.content.decode()
    assert "Edit the scenario of 19 Oct 1942 — Dual Attack" in html
    assert f'action="{edit_url(campaign, scenario)}"' in html
    assert 'name="locations_soviet_gained" value="4"' in html
    assert 'name="locations_soviet_lost" value="9"' in html
    assert 'name="version" value="0"' in html


@pytest.mark.parametrize("persona", EDITORS)
def test_any_player_or_the_referee_may_edit_a_scenario(campaign, client_as, people, persona):
    scenario = played(campaign, people, 2, "")
    client = client_as(persona)
    response = client.post(
        edit_url(campaign, scenario),
        form_data(index=2, scenario_type="assault", attacker="soviet", winner="german", version=0),
    )
    assert response.status_code == 302
    assert response["Location"] == f"{list_url(campaign)}#scenario-{oid(scenario.pk)}"
    scenario.refresh_from_db()
    assert (scenario.scenario_type, scenario.attacker, scenario.winner) == (
        "assault",
        "soviet",
        "german",
    )
    assert scenario.version == 1
    assert campaign.events.filter(action="scenario.updated").count() == 1


def test_a_stale_edit_is_refused_and_overwrites_nothing(campaign, client_as, people):
    scenario = played(campaign, people, 2, "")
    first, second = client_as("german"), client_as("soviet")
    assert (
        first.post(
            edit_url(campaign, scenario), form_data(index=2, winner="german", version=0)
        ).status_code
        == 302
    )
    response = second.post(
        edit_url(campaign, scenario),
        form_data(index=2, winner="soviet", notes="Soviet's view", version=0),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Someone else changed this in the meantime." in html
    assert "Soviet&#x27;s view" in html  # the input is kept
    scenario.refresh_from_db()
    assert (scenario.winner, scenario.notes, scenario.version) == ("german", "", 1)


def test_moving_a_scenario_onto_a_taken_day_is_refused(campaign, client_as, people):
    played(campaign, people, 1, "german")
    second = played(campaign, people, 2, "soviet")
    response = client_as("german").post(
        edit_url(campaign, second), form_data(index=1, winner="soviet", version=0)
    )
    assert "18 Oct 1942 already has a scenario with sequence 1" in response.content.decode()
    second.refresh_from_db()
    assert (second.index, second.version) == (2, 0)


def test_an_edit_may_keep_its_own_day(campaign, client_as, people):
    scenario = played(campaign, people, 1, "")
    response = client_as("german").post(
        edit_url(campaign, scenario), form_data(index=1, winner="soviet", version=0)
    )
    assert response.status_code == 302


# --- win/loss record and the balance DRM ---------------------------------------------------


def balance(response):
    return {
        side["name"]: (side["won"], side["lost"], side["drm"])
        for side in response.context["record"]
    }


def test_each_sides_record_and_the_11_32_drm_are_shown_above_the_list(campaign, client_as, people):
    client = client_as("observer")
    for index in range(3):
        played(campaign, people, index, "german")
    played(campaign, people, 3, "")  # not decided: not completed
    response = client.get(list_url(campaign))
    assert balance(response) == {"German": (3, 0, "0"), "Soviet": (0, 3, "−1")}
    html = response.content.decode()
    assert html.index('id="win-loss"') < html.index('id="scenario-list"')
    assert "CG Scenario Balance DRM (11.32)" in html
    assert '<td class="balance-drm">−1</td>' in html
    assert "3 scenarios completed" in html
    # One more German win: 0 of 4 → −2.
    played(campaign, people, 4, "german")
    assert balance(client.get(list_url(campaign)))["Soviet"] == (0, 4, "−2")
    # A Soviet win: 1 of 5 is still 1/4 or less.
    played(campaign, people, 5, "soviet")
    assert balance(client.get(list_url(campaign)))["Soviet"] == (1, 4, "−2")
    # Another: 2 of 6 is 1/3 → −1.
    played(campaign, people, 6, "soviet")
    assert balance(client.get(list_url(campaign)))["Soviet"] == (2, 4, "−1")


def test_recording_a_winner_updates_the_drm(campaign, client_as, people):
    for index in range(2):
        played(campaign, people, index, "german")
    client = client_as("soviet")
    assert balance(client.get(list_url(campaign)))["Soviet"] == (0, 2, "0")
    client.post(list_url(campaign), form_data(index=2, scenario_type="assault", winner="german"))
    assert balance(client.get(list_url(campaign)))["Soviet"] == (0, 3, "−1")


def test_the_balance_drm_is_shown_only_for_red_factories(people, client_as):
    ponyri = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    for index in range(4):
        records.save_scenario(
            ponyri, by=people["referee"], index=index, scenario_type="time_frame", winner="german"
        )
    response = client_as("observer").get(list_url(ponyri))
    assert balance(response) == {"German": (4, 0, None), "Russian": (0, 4, None)}
    html = response.content.decode()
    assert "11.32" not in html
    assert "balance-drm" not in html


# --- CVP, derived from the tally ------------------------------------------------------------


def test_cvp_per_scenario_come_from_the_cvp_tally(campaign, client_as, people):
    first = played(campaign, people, 6, "german")
    second = played(campaign, people, 6, "soviet", sequence=2)
    only = played(campaign, people, 7, "")

    def lost(side, index, cvp, scenario=None, **flags):
        records.add_cvp(
            campaign,
            by=people["referee"],
            side=side,
            index=index,
            scenario=scenario,
            phase=flags.pop("phase", "scenario"),
            what="squad",
            cvp=cvp,
            **flags,
        )

    lost("german", 6, 10, first)
    lost("german", 6, 4, first, phase="reph_before_vc")
    lost("german", 6, 50, first, phase="reph_after_vc")  # after victory determination
    lost("german", 6, 60, first, no_cvp=True)  # CG18
    lost("german", 6, 3, first, exited_uncontrolled=True)  # counts for victory (CG13)
    lost("soviet", 6, 7, second)
    lost("soviet", 6, 100)  # two scenarios that day, not linked: neither gets it
    lost("soviet", 7, 9)  # the only scenario of its day gets it
    rows = {
        row.scenario.pk: row.cvp
        for row in client_as("observer").get(list_url(campaign)).context["rows"]
    }
    assert rows[first.pk] == [("German", 17), ("Soviet", 0)]
    assert rows[second.pk] == [("German", 0), ("Soviet", 7)]
    assert rows[only.pk] == [("German", 0), ("Soviet", 9)]


# --- HTMX ----------------------------------------------------------------------------------


def test_htmx_recording_swaps_the_scenario_book(campaign, client_as):
    response = client_as("referee").post(list_url(campaign), form_data(winner="german"), **HX)
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<section id="scenario-book">')
    assert "Recorded the scenario of 17 Oct 1942" in html  # the message comes with the partial
    assert '<td class="balance-drm">0</td>' in html
    assert 'name="notes"' in html and response.context["form"].is_bound is False


def test_htmx_errors_come_back_in_the_partial(campaign, client_as):
    response = client_as("referee").post(
        list_url(campaign), form_data(index=99, notes="still here"), **HX
    )
    html = response.content.decode()
    assert "<html" not in html
    assert "Choose a day of this campaign&#x27;s calendar." in html
    assert "still here" in html


def test_htmx_edit_returns_to_the_list_and_its_url(campaign, client_as, people):
    scenario = played(campaign, people, 3, "")
    response = client_as("german").post(
        edit_url(campaign, scenario), form_data(index=3, winner="soviet", version=0), **HX
    )
    assert response.status_code == 200
    assert response["HX-Push-Url"] == list_url(campaign)
    html = response.content.decode()
    assert "Record a scenario" in html
    assert "Saved the scenario of 20 Oct 1942" in html


# --- secrecy and size ----------------------------------------------------------------------


@pytest.mark.parametrize("persona", MEMBERS)
def test_nobody_sees_any_sides_cpp_here(campaign, client_as, people, persona):
    scenario = played(campaign, people, 1, "german")
    for side, amount in (("german", 987), ("soviet", 876)):
        roster.add_ledger_entry(
            campaign,
            by=people[side],
            side=side,
            ledger=LedgerEntry.CPP,
            index=1,
            kind="replenishment",
            amount=amount,
            note=f"secret {side} note",
        )
    client = client_as(persona)
    for url in (list_url(campaign), edit_url(campaign, scenario)):
        html = client.get(url).content.decode()
        for secret in ("987", "876", "secret german", "secret soviet"):
            assert secret not in html, (persona, url, secret)


def big_campaign(people):
    """RB CG III (30 days): a scenario every day, hundreds of casualties and CPP movements."""
    campaign = make_campaign(people, "red_factories", "rb-cg-3", "german")
    for index in range(30):
        played(campaign, people, index, "german" if index % 3 else "soviet")
    scenarios = list(Scenario.objects.filter(campaign=campaign))
    CvpEntry.objects.bulk_create(
        CvpEntry(
            campaign=campaign,
            side=("german", "soviet")[n % 2],
            index=n % 30,
            scenario=scenarios[n % 30] if n % 4 else None,
            phase=("scenario", "reph_before_vc", "reph_after_vc")[n % 3],
            what=f"unit {n}",
            cvp=1 + n % 7,
        )
        for n in range(400)
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign, side="german", ledger="cpp", index=n % 30, kind="recon", amount=-1
        )
        for n in range(200)
    )
    return campaign


def test_the_number_of_queries_does_not_grow_with_the_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("german")
    first = played(campaign, people, 0, "german")
    # Session, user, membership, scenarios, CVP, the scenario phases, the live-update token.
    with django_assert_max_num_queries(7) as small:
        client.get(list_url(campaign))
    with django_assert_max_num_queries(7) as small_edit:
        client.get(edit_url(campaign, first))
    big = big_campaign(people)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(list_url(big))
    assert len(response.context["rows"]) == 30
    last = Scenario.objects.filter(campaign=big).last()
    with django_assert_max_num_queries(len(small_edit.captured_queries)):
        client.get(edit_url(big, last))
    # + the slot check, savepoint, insert, event; the new form asks the day last played (one).
    with django_assert_max_num_queries(12):
        response = client.post(list_url(big), form_data(index=29, sequence=2), **HX)
    assert len(response.context["rows"]) == 31


def test_the_first_scenario_starts_as_the_initial_one_with_its_set_up_order(
    campaign, people, client_as
):
    # RB CG I (11.5, L605): the Soviet sets up first, the German moves first; the attacker is
    # not in the data and stays to choose.
    form = client_as("german").get(list_url(campaign)).context["form"]
    assert form.initial == {
        "index": 0,
        "scenario_type": "initial",
        "sets_up_first": "soviet",
        "moves_first": "german",
    }
    html = client_as("german").get(list_url(campaign)).content.decode()
    assert '<option value="initial" selected>' in html
    Scenario.objects.create(campaign=campaign, index=0, scenario_type="initial")
    later = client_as("german").get(list_url(campaign)).context["form"]
    assert later.initial == {"index": 0}


def test_a_time_frame_starts_with_the_set_up_order_sap_always_has(people, client_as):
    # SaP (seed L578): in every CG time frame the Russian sets up first and the German moves
    # first — filled in, still editable.
    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    form = client_as("german").get(list_url(sap)).context["form"]
    assert form.initial == {
        "index": 0,
        "scenario_type": "time_frame",
        "sets_up_first": "russian",
        "moves_first": "german",
    }
    assert not form.fields["sets_up_first"].disabled
    html = client_as("german").get(list_url(sap)).content.decode()
    assert '<option value="russian" selected>' in html


def test_a_time_frame_recorded_afterwards_defaults_to_the_one_played(people, client_as):
    """QA: the AM time frame recorded once the campaign stands in CG-2 defaulted to CG-2."""
    from django.utils import timezone

    from campaigns.models import RefitPhase

    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    RefitPhase.objects.create(campaign=sap, kind="scenario", index=0, finished_at=timezone.now())
    sap.period_index = 1
    sap.save(update_fields=["period_index"])
    form = client_as("german").get(list_url(sap)).context["form"]
    assert form.initial["index"] == 0
    played(sap, people, 0, "", scenario_type="time_frame")
    # Once the AM has its scenario, the current time frame is the default again.
    assert client_as("german").get(list_url(sap)).context["form"].initial["index"] == 1


@pytest.mark.parametrize(("persona", "offered"), [("german", True), ("observer", False)])
def test_the_list_offers_to_record_a_scenarios_end(campaign, client_as, people, persona, offered):
    scenario = played(campaign, people, 0, "", scenario_type="initial")
    page = client_as(persona).get(list_url(campaign)).content.decode()
    end = reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])
    assert f'href="{end}"' in page
    assert ("Record the scenario's end" in page) is offered
