"""The scenario end's control record (11.605): entered by clicking hexes or ticking the front,
kept as data, carried into the next Refit Phase's perimeter, taken back, exported and imported;
and the perimeter page's GET, which writes nothing."""

import json

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.models import CampaignEvent, RefitPhase, Scenario
from campaigns.transfer import services as transfer
from refit.models import PerimeterState, PerimeterUnits, ScenarioControl
from refit.perimeters import scenario_control
from refit.perimeters.state import base_map, current_state
from refit.rules.perimeter.control_changes import apply_changes, change_list, front_hexes
from refit.walker import services as walker

pytestmark = pytest.mark.django_db

PERSONAS = [
    ("german", 200),
    ("soviet", 200),
    ("referee", 200),
    ("observer", 200),
    ("outsider", 404),
]
START = {"H41": "german", "H42": "german", "I41": "soviet", "I42": "soviet", "K41": "soviet"}


def play_scenario(campaign):
    """The first RePh's perimeter with START control (recorded), then its scenario opened."""
    state = current_state(campaign)
    state.control = dict(START)
    state.recorded = {"control": dict(START)}
    state.save()
    reph = walker.open_reph(campaign)
    reph.finished_at = timezone.now()
    reph.save()
    RefitPhase.objects.create(campaign=campaign, kind="scenario", index=reph.index)
    scenario, _ = Scenario.objects.get_or_create(
        campaign=campaign, index=reph.index, sequence=1, defaults={"scenario_type": "initial"}
    )
    return state, scenario


def after_scenario(campaign):
    reph = walker.open_reph(campaign)
    reph.finished_at = timezone.now()
    reph.save()
    return RefitPhase.objects.create(campaign=campaign, kind="after_scenario", index=reph.index)


def page_url(campaign, scenario, name="scenario_control"):
    return reverse(f"perimeters:{name}", args=[campaign.pk, scenario.pk])


def row_counts():
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in ("campaigns", "refit")
    }


# --- the pure rules ---------------------------------------------------------------------------


def test_changes_apply_in_order_and_none_removes_the_marker():
    changes = [
        {"hex": "I41", "from": "soviet", "to": "german"},
        {"hex": "K41", "from": "soviet", "to": ""},
    ]
    assert apply_changes(START, changes) == {
        "H41": "german",
        "H42": "german",
        "I41": "german",
        "I42": "soviet",
    }


def test_a_hex_set_back_to_its_control_before_leaves_the_record():
    entries = change_list([], START, ["I41", "H41"], "german")
    assert entries == [{"hex": "I41", "from": "soviet", "to": "german"}]
    assert change_list(entries, START, ["I41"], "soviet") == []


def test_the_front_is_where_the_sides_meet(campaign):
    hexmap = base_map(campaign)
    front = front_hexes(hexmap, START)
    # H41/H42 touch I41/I42: each side's hexes where they meet.
    assert set(front) >= {"H41", "H42", "I41", "I42"}
    assert "K41" not in front  # Soviet, next to Soviet hexes and empty ones only
    assert front_hexes(hexmap, {"H41": "german"}) == []


# --- the perimeter page's GET writes nothing ---------------------------------------------------


@pytest.mark.parametrize(("persona", "status"), PERSONAS)
def test_a_get_of_the_perimeter_page_leaves_the_database_unchanged(
    campaign, client_as, persona, status
):
    walker.open_reph(campaign)  # the campaign stands in its first RePh
    before = row_counts()
    client = client_as(persona)
    page = reverse("perimeters:page", args=[campaign.pk])
    assert client.get(page).status_code == status
    assert client.get(page, headers={"HX-Request": "true"}).status_code == status
    assert row_counts() == before
    assert not PerimeterState.objects.filter(campaign=campaign).exists()


def test_the_get_shows_the_start_and_the_first_post_saves_it(campaign, client_as):
    state, scenario = play_scenario(campaign)
    PerimeterUnits.objects.create(
        campaign=campaign,
        state=state,
        side="german",
        units=[{"id": "467", "kind": "mmc", "hex": "H41"}],
    )
    ScenarioControl.objects.create(
        campaign=campaign,
        scenario=scenario,
        changes=[{"hex": "I41", "from": "soviet", "to": "german"}],
    )
    after_scenario(campaign)
    client = client_as("german")
    body = client.get(reverse("perimeters:page", args=[campaign.pk])).content.decode()
    assert PerimeterState.objects.filter(campaign=campaign).count() == 1
    assert "467" in body  # the carried units, shown before anything is saved
    response = client.post(
        reverse("perimeters:fires", args=[campaign.pk]),
        {"version": 1, "hexes": "K41", "burning": "on"},
    )
    assert response.status_code == 302
    new = PerimeterState.objects.get(campaign=campaign, reph=walker.open_reph(campaign))
    assert new.fires == ["K41"] and new.control["I41"] == "german"
    assert PerimeterUnits.objects.get(state=new, side="german").units[0]["id"] == "467"


# --- the record and the carry -----------------------------------------------------------------


def test_the_record_carries_into_the_next_rephs_perimeter(campaign, people):
    state, scenario = play_scenario(campaign)
    german = viewer_for(people["german"], campaign.pk)
    soviet = viewer_for(people["soviet"], campaign.pk)
    scenario_control.set_control(
        german, scenario, by=people["german"], version=1, names=["I41", "I42"], side="german"
    )
    scenario_control.set_control(
        soviet, scenario, by=people["soviet"], version=2, names=["H42"], side="soviet"
    )
    record = ScenarioControl.objects.get(scenario=scenario)
    assert record.changes == [
        {"hex": "I41", "from": "soviet", "to": "german"},
        {"hex": "I42", "from": "soviet", "to": "german"},
        {"hex": "H42", "from": "german", "to": "soviet"},
    ]
    # While the scenario is open nothing else changes: the last perimeter stays as recorded.
    state.refresh_from_db()
    assert state.control == START
    after_scenario(campaign)
    new = current_state(campaign)
    assert new.control == {**START, "I41": "german", "I42": "german", "H42": "soviet"}


def test_a_change_after_the_perimeter_started_is_carried_at_once_and_taken_back(campaign, people):
    _, scenario = play_scenario(campaign)
    after_scenario(campaign)
    new = current_state(campaign)
    assert new.control == START
    german = viewer_for(people["german"], campaign.pk)
    scenario_control.set_control(
        german, scenario, by=people["german"], version=1, names=["K41"], side="german"
    )
    new.refresh_from_db()
    assert new.control["K41"] == "german"
    scenario_control.take_back(german, scenario, by=people["german"], version=2, name="K41")
    new.refresh_from_db()
    assert new.control["K41"] == "soviet"
    assert ScenarioControl.objects.get(scenario=scenario).changes == []


def test_the_history_undo_takes_a_change_back_too(campaign, people):
    _, scenario = play_scenario(campaign)
    referee = viewer_for(people["referee"], campaign.pk)
    scenario_control.set_control(
        referee, scenario, by=people["referee"], version=1, names=["H41"], side=""
    )
    event = CampaignEvent.objects.get(campaign=campaign, action="perimeter.scenario_control")
    assert "H41" in history.describe(event)
    history.undo(event, by=people["referee"])
    assert ScenarioControl.objects.filter(scenario=scenario).count() == 0


def test_a_player_records_his_own_sides_gains_only(campaign, people):
    from campaigns.state import StateError

    _, scenario = play_scenario(campaign)
    soviet = viewer_for(people["soviet"], campaign.pk)
    with pytest.raises(StateError):
        scenario_control.set_control(
            soviet, scenario, by=people["soviet"], version=1, names=["I41"], side="german"
        )
    with pytest.raises(StateError):  # removing the German's marker is the referee's
        scenario_control.set_control(
            soviet, scenario, by=people["soviet"], version=1, names=["H41"], side=""
        )
    assert not ScenarioControl.objects.filter(scenario=scenario).exists()


# --- the page ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("persona", "status"), PERSONAS)
def test_the_control_page_for_every_persona(campaign, client_as, persona, status):
    _, scenario = play_scenario(campaign)
    before = row_counts()
    response = client_as(persona).get(page_url(campaign, scenario))
    assert response.status_code == status
    assert row_counts() == before
    if status == 200:
        body = response.content.decode()
        assert '<path id="h-H41"' in body
        assert ('name="front" value="I41"' in body) == (persona != "observer")


@pytest.mark.parametrize(("persona", "status"), PERSONAS)
def test_the_hex_click_answers_with_the_small_partial(campaign, client_as, persona, status):
    _, scenario = play_scenario(campaign)
    response = client_as(persona).get(
        page_url(campaign, scenario),
        {"hex": "i41"},
        headers={"HX-Request": "true", "HX-Target": "selection"},
    )
    assert response.status_code == status
    if status == 200:
        body = response.content.decode()
        assert "<svg" not in body and len(body) < 2000
        assert 'id="control-hexes" name="hexes" value="I41" hx-swap-oob="true"' in body


@pytest.mark.parametrize(
    ("persona", "status", "saved"),
    [
        ("german", 302, True),
        ("soviet", 302, False),  # the German's side: refused with a message
        ("referee", 302, True),
        ("observer", 403, False),
        ("outsider", 404, False),
    ],
)
def test_recording_from_the_front_for_every_persona(campaign, client_as, persona, status, saved):
    _, scenario = play_scenario(campaign)
    response = client_as(persona).post(
        page_url(campaign, scenario, "scenario_control_change"),
        {"version": 1, "front": ["I41", "I42"], "hexes": "", "side": "german"},
    )
    assert response.status_code == status
    record = ScenarioControl.objects.filter(scenario=scenario).first()
    assert (record is not None and len(record.changes) == 2) == saved


@pytest.mark.parametrize(
    ("persona", "status", "taken"),
    [
        ("german", 200, True),
        ("soviet", 200, True),  # the hex was the Soviet's before
        ("referee", 200, True),
        ("observer", 403, False),
        ("outsider", 404, False),
    ],
)
def test_taking_back_with_htmx_for_every_persona(
    campaign, client_as, people, persona, status, taken
):
    _, scenario = play_scenario(campaign)
    german = viewer_for(people["german"], campaign.pk)
    scenario_control.set_control(
        german, scenario, by=people["german"], version=1, names=["I41"], side="german"
    )
    response = client_as(persona).post(
        page_url(campaign, scenario, "scenario_control_take_back"),
        {"version": 2, "hex": "I41"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == status
    assert (ScenarioControl.objects.get(scenario=scenario).changes == []) == taken
    if status == 200:
        assert 'id="scenario-control"' in response.content.decode()


def test_the_scenario_end_links_to_the_record(campaign, client_as, people):
    _, scenario = play_scenario(campaign)
    german = viewer_for(people["german"], campaign.pk)
    scenario_control.set_control(
        german, scenario, by=people["german"], version=1, names=["I41"], side="german"
    )
    body = (
        client_as("observer")
        .get(reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk]))
        .content.decode()
    )
    assert page_url(campaign, scenario) in body
    assert "1 hex changed control." in body


def test_the_control_page_costs_the_same_queries_on_any_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    _, scenario = play_scenario(campaign)
    german = viewer_for(people["german"], campaign.pk)
    for version, name in enumerate(("I41", "I42", "K41"), start=1):
        scenario_control.set_control(
            german, scenario, by=people["german"], version=version, names=[name], side="german"
        )
    client = client_as("german")
    client.get(page_url(campaign, scenario))
    with django_assert_max_num_queries(14):
        client.get(page_url(campaign, scenario))


# --- export and import ------------------------------------------------------------------------


def test_the_record_round_trips(campaign, people):
    _, scenario = play_scenario(campaign)
    german = viewer_for(people["german"], campaign.pk)
    scenario_control.set_control(
        german, scenario, by=people["german"], version=1, names=["I41"], side="german"
    )
    data = transfer.build_export(viewer_for(people["soviet"], campaign.pk))
    assert data["scenario_control"] == [
        {
            "scenario": data["scenarios"][0]["id"],
            "changes": [{"hex": "I41", "from": "soviet", "to": "german"}],
        }
    ]
    copy = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    (record,) = ScenarioControl.objects.filter(campaign=copy)
    assert record.scenario.campaign_id == copy.pk
    assert record.changes == [{"hex": "I41", "from": "soviet", "to": "german"}]
    again = transfer.build_export(viewer_for(people["outsider"], copy.pk))
    assert again["scenario_control"] == data["scenario_control"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["scenario_control"][0].update(scenario=99), "names no scenario of the file"),
        (
            lambda d: d["scenario_control"][0]["changes"][0].update(to="finnish"),
            "“changes”: must be a list of changes",
        ),
        (
            lambda d: d["scenario_control"].append(dict(d["scenario_control"][0])),
            "has another control record",
        ),
    ],
)
def test_a_broken_record_is_refused(campaign, people, change, words):
    from tests.campaigns.transfer.test_services import refusal

    _, scenario = play_scenario(campaign)
    german = viewer_for(people["german"], campaign.pk)
    scenario_control.set_control(
        german, scenario, by=people["german"], version=1, names=["I41"], side="german"
    )
    data = transfer.build_export(viewer_for(people["referee"], campaign.pk))
    change(data)
    assert words in refusal(data)


# --- initial control the app cannot draw: referee-entered -------------------------------------


@pytest.mark.parametrize(
    ("persona", "status", "form"),
    [
        ("german", 200, False),
        ("soviet", 200, False),
        ("referee", 200, True),
        ("observer", 200, False),
        ("outsider", 404, False),
    ],
)
def test_rb_cg_ii_shows_its_initial_ssr_and_the_referee_enters_it(
    people, client_as, persona, status, form
):
    from tests.conftest import red_factories_campaign

    campaign = red_factories_campaign(people, "rb-cg-2", "Second")
    walker.open_reph(campaign)
    before = row_counts()
    response = client_as(persona).get(reverse("perimeters:page", args=[campaign.pk]))
    assert response.status_code == status
    assert row_counts() == before
    if status != 200:
        return
    body = response.content.decode()
    assert 'id="initial-control"' in body
    assert "W1 - W5 - U6 - U25" in body  # the SSR's own words
    assert ('value="W1 W5 U6 U25 Q27 Q29 M31 S40' in body) == form


def test_the_referees_initial_control_is_kept_and_the_ssr_no_longer_asked(people, client_as):
    from tests.conftest import red_factories_campaign

    campaign = red_factories_campaign(people, "rb-cg-2", "Second")
    walker.open_reph(campaign)
    response = client_as("referee").post(
        reverse("perimeters:control", args=[campaign.pk]),
        {"version": 1, "hexes": "W1 W5 U6", "side": "german"},
    )
    assert response.status_code == 302
    state = PerimeterState.objects.get(campaign=campaign)
    assert state.control == {"W1": "german", "W5": "german", "U6": "german"}
    after_scenario_state = reverse("perimeters:page", args=[campaign.pk])
    assert 'id="initial-control"' in client_as("referee").get(after_scenario_state).content.decode()
    # The next Refit Phase starts from it: the SSR is not asked again.
    reph = walker.open_reph(campaign)
    reph.finished_at = timezone.now()
    reph.save()
    RefitPhase.objects.create(campaign=campaign, kind="after_scenario", index=reph.index)
    body = client_as("referee").get(after_scenario_state).content.decode()
    assert 'id="initial-control"' not in body


def test_rb_cg_i_draws_its_ssr_and_asks_nothing(campaign, client_as):
    walker.open_reph(campaign)
    body = client_as("referee").get(reverse("perimeters:page", args=[campaign.pk])).content
    assert b'id="initial-control"' not in body


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 403), ("outsider", 404)],
)
def test_the_initial_control_is_previewed_before_it_is_saved_and_nothing_is_written(
    people, client_as, persona, status
):
    from tests.conftest import red_factories_campaign

    campaign = red_factories_campaign(people, "rb-cg-2", "Second")
    walker.open_reph(campaign)
    page = client_as("referee").get(reverse("perimeters:page", args=[campaign.pk]))
    body = page.content.decode()
    # A new campaign of this CG says what is missing: the whole map is No Man's Land.
    assert 'id="initial-missing"' in body and "Missing: this campaign game" in body
    before = row_counts()
    side = "soviet" if persona == "soviet" else "german"
    response = client_as(persona).post(
        reverse("perimeters:preview_control", args=[campaign.pk]),
        {"version": 1, "hexes": "W1-W5 U6", "side": side},
        headers={"HX-Request": "true", "HX-Target": "perimeter"},
    )
    assert response.status_code == status
    assert row_counts() == before
    assert not PerimeterState.objects.filter(campaign=campaign).exists()
    if status != 200:
        return
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="perimeter">')  # the block, not the page
    assert 'id="initial-preview"' in body and "in 6 hexes" in body
    side_class = "side-1" if side == "soviet" else "side-0"
    assert f'<path id="h-W3" class="hex {side_class}"' in body
    # The typed hexes kept for saving (the referee's form; players use the map's form).
    assert ('value="W1-W5 U6"' in body) == (persona == "referee")
    # Without HTMX: the whole page, the same preview.
    full = client_as(persona).post(
        reverse("perimeters:preview_control", args=[campaign.pk]),
        {"version": 1, "hexes": "W1-W5 U6", "side": side},
    )
    assert full.status_code == 200 and 'id="initial-preview"' in full.content.decode()
    assert "<html" in full.content.decode()


def test_a_player_may_not_preview_the_other_sides_control(people, client_as):
    from tests.conftest import red_factories_campaign

    campaign = red_factories_campaign(people, "rb-cg-2", "Second")
    walker.open_reph(campaign)
    response = client_as("german").post(
        reverse("perimeters:preview_control", args=[campaign.pk]),
        {"version": 1, "hexes": "W1-W5", "side": "soviet"},
    )
    body = response.content.decode()
    assert response.status_code == 200 and 'id="initial-preview"' not in body
    assert '<path id="h-W3" class="hex side-1"' not in body


def test_a_hex_click_adds_the_hex_to_the_initial_control_field(people, client_as):
    from tests.conftest import red_factories_campaign

    campaign = red_factories_campaign(people, "rb-cg-2", "Second")
    walker.open_reph(campaign)
    url = reverse("perimeters:page", args=[campaign.pk])
    page = client_as("referee").get(url).content.decode()
    assert 'hx-include="#initial-hexes"' in page and 'id="initial-hexes"' in page
    click = client_as("referee").get(
        url,
        {"hex": "W7", "hexes": "W1-W5 U6"},
        headers={"HX-Request": "true", "HX-Target": "selection"},
    )
    body = click.content.decode()
    assert '<input id="initial-hexes" name="hexes" value="W1-W5 U6 W7"' in body
    assert 'hx-swap-oob="true"' in body
    again = client_as("referee").get(
        url,
        {"hex": "W7", "hexes": "W1-W5 W7"},
        headers={"HX-Request": "true", "HX-Target": "selection"},
    )
    assert 'value="W1-W5 W7"' in again.content.decode()  # a hex already there is not added twice
    # Without JavaScript the link reloads the page with the hex in the field.
    assert (
        'id="initial-hexes" name="hexes" value="W7"'
        in client_as("referee").get(url, {"hex": "W7"}).content.decode()
    )
    # A player sees what is missing, not the referee's form.
    player = client_as("german").get(url).content.decode()
    assert 'id="initial-missing"' in player and 'id="initial-hexes"' not in player
