"""Who may act is checked before a form is read: an observer's or the wrong side's form is
refused (403) whatever it holds, and a form refused for what it holds names its fields."""

import json

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import DiceRoll, PointEntry, RefereeTable, Role
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from tests.seats import join as join_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def soviet_unit(dr_started, people):
    (unit,) = short_games.add_units(
        dr_started,
        by=people["soviet"],
        units=[
            UnitData(
                side="soviet",
                name="5th Army",
                unit_type="infantry_army",
                nationality="soviet",
                full="3-3",
                reduced="1-3",
                state="reduced",
            )
        ],
    )
    return unit


ACTIONS = {
    "start": [],
    "advance": [],
    "weather": [],
    "mark": ["soviet", "weather"],
    "unmark": ["soviet", "weather"],
    "roll": ["soviet", "weather"],
    "upload": [],
    "add_unit": ["soviet"],
    "quick_entry": ["soviet"],
    "unit": ["UNIT"],
    "unit_remove": ["UNIT"],
    "arrive": ["UNIT"],
    "points_change": [],
    "control": [],
    "pocket": [],
    "condition": [],
    "combat": [],
}


@pytest.mark.parametrize("name", ACTIONS)
def test_an_observers_empty_form_is_refused_before_it_is_read(
    dr_started, soviet_unit, client_as, name
):
    args = [soviet_unit.pk if arg == "UNIT" else arg for arg in ACTIONS[name]]
    url = reverse(f"shortgames:{name}", args=[dr_started.pk, *args])
    assert client_as("observer").post(url, {}).status_code == 403


# --- points -----------------------------------------------------------------------------------

POINTS = {"turn": 0, "side": "axis", "kind": "air", "action": "receive"}


@pytest.mark.parametrize("form", [{}, POINTS, {"side": "soviet"}])
def test_an_observer_books_no_points(dr_started, client_as, form):
    url = reverse("shortgames:points_change", args=[dr_started.pk])
    assert client_as("observer").post(url, form).status_code == 403
    assert not PointEntry.objects.exists()


def test_a_player_is_told_the_form_was_incomplete(dr_started, client_as):
    url = reverse("shortgames:points_change", args=[dr_started.pk])
    response = client_as("soviet").post(url, {}, follow=True)
    assert "The form was incomplete" in response.content.decode()


def test_a_player_books_no_points_for_the_other_side(dr_started, client_as):
    url = reverse("shortgames:points_change", args=[dr_started.pk])
    assert client_as("soviet").post(url, POINTS).status_code == 403
    assert not PointEntry.objects.exists()
    assert client_as("german").post(url, POINTS).status_code == 302
    assert PointEntry.objects.filter(side="axis").exists()


def test_a_bad_unit_version_is_an_incomplete_form(dr_started, soviet_unit, client_as):
    url = reverse("shortgames:points_change", args=[dr_started.pk])
    form = {**POINTS, "side": "soviet", "kind": "replacement", "action": "restore"}
    form["unit"] = soviet_unit.pk
    response = client_as("soviet").post(url, {**form, "version": "x"}, follow=True)
    assert "The form was incomplete" in response.content.decode()
    soviet_unit.refresh_from_db()
    assert soviet_unit.state == "reduced"


# --- the combat helpers -----------------------------------------------------------------------


@pytest.mark.parametrize("game", ["dr_started", "cp_started"])
@pytest.mark.parametrize("form", [{}, {"side": "soviet", "units": "x", "attack": "x"}])
def test_an_observer_rolls_nothing_whatever_the_form_holds(request, client_as, game, form):
    campaign = request.getfixturevalue(game)
    url = reverse("shortgames:combat", args=[campaign.pk])
    assert client_as("observer").post(url, form).status_code == 403
    assert not DiceRoll.objects.exists()


def test_a_cherkassy_roll_names_the_first_side_when_the_form_names_none(cp_started, client_as):
    url = reverse("shortgames:combat", args=[cp_started.pk])
    assert client_as("soviet").post(url, {}).status_code == 403
    assert client_as("german").post(url, {}).status_code == 400  # allowed, then "choose"
    response = client_as("soviet").post(url, {"side": "soviet", "attack": "x"})
    assert response.status_code == 400
    assert 'id="combat-error"' in response.content.decode()
    assert not DiceRoll.objects.exists()


def test_a_defiant_russia_roll_for_the_other_side_is_refused_before_its_units(
    dr_started, client_as
):
    url = reverse("shortgames:combat", args=[dr_started.pk])
    assert client_as("soviet").post(url, {"side": "axis", "units": "6x"}).status_code == 403
    assert client_as("soviet").post(url, {"side": "soviet", "units": "6x"}).status_code == 400
    assert client_as("soviet").post(url, {"units": "6"}).status_code == 404  # no such side
    assert not DiceRoll.objects.exists()


# --- the referee's tables ---------------------------------------------------------------------


def test_a_referees_empty_table_form_says_what_is_missing(cp_started, client_as):
    url = reverse("shortgames:tables", args=[cp_started.pk])
    response = client_as("referee").post(url, {})
    assert response.status_code == 400
    html = response.content.decode()
    assert "The table was not saved:" in html
    assert "Which table: This field is required." in html
    assert "Table (JSON): This field is required." in html
    assert not RefereeTable.objects.exists()


def test_a_table_for_no_slot_of_the_game_is_refused_by_name(cp_started, client_as):
    url = reverse("shortgames:tables", args=[cp_started.pk])
    response = client_as("referee").post(url, {"slot": "cp.nothing", "data": "{}"})
    assert response.status_code == 400
    assert "Which table: Select a valid choice." in response.content.decode()


def test_a_slots_own_errors_are_shown_at_its_table(cp_started, client_as):
    url = reverse("shortgames:tables", args=[cp_started.pk])
    columns = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]
    form = {"slot": "cp.crt", "action": "save", "column": columns, "label": list("123456")}
    cells = {f"cell-{i}-{j}": "1/1" for i in range(6) for j in range(10)}
    response = client_as("referee").post(url, {**form, **cells, "cell-2-2": "X"})
    assert response.status_code == 400
    html = response.content.decode()
    section = html[html.index('<section id="cp.crt"') :]
    section = section[: section.index("</section>")]
    assert "Row 3, column 1:2: &#x27;X&#x27; is not a result" in section
    assert section.count("is not a result") == 1
    assert not RefereeTable.objects.filter(campaign=cp_started).exists()
    assert 'value="X"' in section  # the grid typed is shown again


@pytest.mark.parametrize("persona", ["german", "soviet", "observer"])
def test_only_the_referee_enters_a_table_whatever_the_form_holds(cp_started, client_as, persona):
    url = reverse("shortgames:tables", args=[cp_started.pk])
    for form in ({}, {"slot": "cp.crt", "data": json.dumps({})}):
        assert client_as(persona).post(url, form).status_code == 403


@pytest.fixture
def cp_two_players(people):
    """A Cherkassy Pocket game of two players and an observer, with no referee."""
    campaign = services.create_campaign(
        user=people["german"],
        name="Cherkassy at home",
        module=get_module("cherkassy_pocket"),
        cg_key="scenario-1",
        role=Role.PLAYER,
        side="german",
    )
    for persona, role, side in (("soviet", Role.PLAYER, "soviet"), ("observer", Role.OBSERVER, "")):
        invitation = services.create_invitation(campaign, by=people["german"], role=role, side=side)
        join_seat(invitation, people[persona])
    short_games.start(campaign, by=people["german"], options=[])
    return campaign


@pytest.mark.parametrize("persona", ["german", "soviet"])
def test_without_a_referee_either_player_enters_the_tables(cp_two_players, client_as, persona):
    url = reverse("shortgames:tables", args=[cp_two_players.pk])
    page = client_as(persona).get(url).content.decode()
    assert 'name="slot"' in page  # the entry forms are offered
    assert "either player types each table" in page and "The referee types" not in page
    columns = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]
    form = {"slot": "cp.crt", "action": "save", "column": columns, "label": list("123456")}
    cells = {f"cell-{i}-{j}": "1/1" for i in range(6) for j in range(10)}
    response = client_as(persona).post(url, {**form, **cells})
    assert response.status_code in (200, 302)
    assert RefereeTable.objects.filter(campaign=cp_two_players, slot="cp.crt").exists()


def test_without_a_referee_an_observer_still_enters_no_table(cp_two_players, client_as):
    url = reverse("shortgames:tables", args=[cp_two_players.pk])
    assert 'name="slot"' not in client_as("observer").get(url).content.decode()
    assert client_as("observer").post(url, {"slot": "cp.crt", "data": "{}"}).status_code == 403
    assert not RefereeTable.objects.exists()


def test_without_a_referee_a_player_writes_the_weather_and_an_observer_does_not(
    cp_two_players, client_as
):
    url = reverse("shortgames:weather", args=[cp_two_players.pk])
    day = cp_two_players.days.get(index=cp_two_players.period_index)
    form = {"turn": cp_two_players.period_index, "weather": "snow", "version": day.version}
    assert client_as("observer").post(url, form).status_code == 403
    assert client_as("soviet").post(url, form).status_code == 302
    day.refresh_from_db()
    assert day.weather == "snow"
