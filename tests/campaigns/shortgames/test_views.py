"""The short games' pages for the five personas, their forms, and their query counts."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, ControlPoint, DiceRoll, GameUnit, ShortGame, TurnMark
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from tests.campaigns.dice.test_services import Loaded

pytestmark = pytest.mark.django_db

PAGES = ("shortgames:turn", "shortgames:units", "shortgames:points", "shortgames:victory")
MEMBERS = ("german", "soviet", "referee", "observer")


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("persona", MEMBERS)
def test_every_member_reads_every_page_of_both_games(
    dr_started, cp_started, client_as, page, persona
):
    for game in (dr_started, cp_started):
        response = client_as(persona).get(reverse(page, args=[game.pk]))
        assert response.status_code == 200
        assert game.name in response.content.decode()


@pytest.mark.parametrize("page", [*PAGES, "shortgames:units_file"])
def test_an_outsider_gets_404(dr_started, client_as, page):
    assert client_as("outsider").get(reverse(page, args=[dr_started.pk])).status_code == 404


def test_the_pages_do_not_exist_for_the_campaign_games(campaign, client_as):
    assert (
        client_as("german").get(reverse("shortgames:turn", args=[campaign.pk])).status_code == 404
    )


def test_game_specific_pages_only_in_their_game(dr_started, cp_started, client_as):
    client = client_as("referee")
    assert client.get(reverse("shortgames:combat", args=[cp_started.pk])).status_code == 200
    assert client.get(reverse("shortgames:tables", args=[dr_started.pk])).status_code == 404
    assert client.get(reverse("shortgames:combat", args=[dr_started.pk])).status_code == 200
    assert client.get(reverse("shortgames:tables", args=[cp_started.pk])).status_code == 200


def test_the_nav_shows_the_short_game_tabs_and_hides_the_cpp_ones(dr_started, client_as):
    html = client_as("german").get(reverse("campaigns:detail", args=[dr_started.pk])).content
    html = html.decode()
    assert reverse("shortgames:turn", args=[dr_started.pk]) in html
    assert reverse("campaigns:ledger", args=[dr_started.pk, "axis"]) not in html


def test_start_with_options(dr_game, client_as):
    url = reverse("shortgames:start", args=[dr_game.pk])
    response = client_as("soviet").post(url, {"options": ["random_weather", "no_purge"]})
    assert response.status_code == 302
    assert ShortGame.objects.get(campaign=dr_game).options == ["random_weather", "no_purge"]


def test_an_observer_cannot_start_the_game(dr_game, client_as):
    response = client_as("observer").post(reverse("shortgames:start", args=[dr_game.pk]), {})
    assert response.status_code == 403
    assert not ShortGame.objects.exists()


def test_the_turn_page_offers_the_start_form_until_started(dr_game, client_as):
    html = client_as("german").get(reverse("shortgames:turn", args=[dr_game.pk])).content.decode()
    assert "Random weather" in html
    assert reverse("shortgames:start", args=[dr_game.pk]) in html


def mark_url(game, side, step):
    return reverse("shortgames:mark", args=[game.pk, side, step])


def test_the_soviet_player_marks_the_weather_step(dr_started, client_as):
    response = client_as("soviet").post(
        mark_url(dr_started, "soviet", "weather"), {"turn": 0, "action": "done"}
    )
    assert response.status_code == 302
    assert TurnMark.objects.filter(side="soviet", step="weather").exists()


@pytest.mark.parametrize("persona,status", [("german", 403), ("observer", 403), ("outsider", 404)])
def test_others_cannot_mark_a_sides_step(dr_started, client_as, persona, status):
    response = client_as(persona).post(
        mark_url(dr_started, "soviet", "weather"), {"turn": 0, "action": "done"}
    )
    assert response.status_code == status
    assert not TurnMark.objects.exists()


def test_the_referee_marks_for_a_side(dr_started, client_as):
    client_as("referee").post(
        mark_url(dr_started, "soviet", "weather"), {"turn": 0, "action": "done"}
    )
    assert TurnMark.objects.filter(side="soviet", step="weather").exists()


def test_a_page_left_open_on_an_earlier_turn_changes_nothing(dr_started, client_as):
    response = client_as("soviet").post(
        mark_url(dr_started, "soviet", "weather"), {"turn": 3, "action": "done"}, follow=True
    )
    assert "earlier turn" in response.content.decode()
    assert not TurnMark.objects.exists()


def test_htmx_gets_the_turn_partial(dr_started, client_as):
    response = client_as("soviet").post(
        mark_url(dr_started, "soviet", "weather"),
        {"turn": 0, "action": "done"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="turn">')
    assert "HX-Request" in response.get("Vary", "")


def test_roll_from_the_turn_page_is_logged(dr_game, people, client_as):
    short_games.start(dr_game, by=people["german"], options=["random_weather"])
    dr_game.period_index = 2
    dr_game.save()
    with dice.use_roller(Loaded(3)):
        response = client_as("soviet").post(
            reverse("shortgames:roll", args=[dr_game.pk, "soviet", "weather"]),
            {"turn": 2, "table": "dr.weather-august"},
        )
    assert response.status_code == 302
    roll = DiceRoll.objects.get()
    assert (roll.table_id, roll.final, roll.side) == ("dr.weather-august", 3, "soviet")


def test_a_rolls_note_reads_as_typed_under_its_own_step(dr_game, people, client_as):
    short_games.start(dr_game, by=people["german"], options=["random_weather"])
    dr_game.period_index = 2
    dr_game.save()
    with dice.use_roller(Loaded(3)):
        client_as("soviet").post(
            reverse("shortgames:roll", args=[dr_game.pk, "soviet", "weather"]),
            {"turn": 2, "table": "dr.weather-august", "note": "partisans: near Bryansk"},
        )
    turn = client_as("observer").get(reverse("shortgames:turn", args=[dr_game.pk]))
    html = turn.content.decode()
    assert "(partisans: near Bryansk)" in html
    assert "weather: partisans" not in html
    (row,) = [row for row in turn.context["rows"] if row.rolls]
    assert row.step.id == "weather"
    log = client_as("observer").get(reverse("campaigns:dice_log", args=[dr_game.pk]))
    assert "<br>partisans: near Bryansk</td>" in log.content.decode()


def test_the_dice_log_names_a_rolls_turn_step_before_its_rule(cp_started, people, client_as):
    # Both activation segments roll air points under rule 11.16: the step tells which one.
    with dice.use_roller(Loaded(4)):
        dice.roll(
            cp_started,
            by=people["german"],
            kind="dr",
            step="11.16",
            index=0,
            side="german",
            visibility="public",
            sequence_step="s2.air_power",
        )
    html = client_as("soviet").get(reverse("campaigns:dice_log", args=[cp_started.pk]))
    table = html.content.decode().split('id="dice-log"')[1]
    assert "Air power phase (activation segment 2)" in table
    assert "Air power phase (activation segment 1)" not in table


def test_the_german_player_cannot_roll_the_soviet_weather(dr_game, people, client_as):
    short_games.start(dr_game, by=people["german"], options=["random_weather"])
    response = client_as("german").post(
        reverse("shortgames:roll", args=[dr_game.pk, "soviet", "weather"]),
        {"turn": 0, "table": "dr.weather-august"},
    )
    assert response.status_code == 403


# --- units --------------------------------------------------------------------------------------

QUICK = (
    "18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4\n"
    "16th Army | infantry_army | soviet | 3-3 | 1-3 | K"
)


def test_quick_entry_adds_units_with_arrival_turns(dr_started, client_as):
    response = client_as("soviet").post(
        reverse("shortgames:quick_entry", args=[dr_started.pk, "soviet"]), {"text": QUICK}
    )
    assert response.status_code == 302
    tank, army = GameUnit.objects.order_by("id")
    assert (tank.arrival_turn, tank.state, tank.full, tank.reduced) == (4, "awaiting", "2-5", "1-5")
    assert (army.setup, army.state) == ("K", "full")
    assert CampaignEvent.objects.filter(action="units.added").count() == 1


def test_quick_entry_refuses_a_bad_line_and_keeps_the_text(dr_started, client_as):
    text = "Wrong | no_such_type | soviet | 2-5"
    response = client_as("soviet").post(
        reverse("shortgames:quick_entry", args=[dr_started.pk, "soviet"]), {"text": text}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "not a unit type" in html
    assert "no_such_type" in html
    assert not GameUnit.objects.exists()


def test_a_nationality_of_the_other_side_is_refused(dr_started, client_as):
    response = client_as("german").post(
        reverse("shortgames:quick_entry", args=[dr_started.pk, "axis"]),
        {"text": "Red | armor | soviet | 6-6 | 3-6"},
    )
    assert response.status_code == 400
    assert "does not fight for this side" in response.content.decode()


def test_a_player_cannot_add_the_other_sides_units(dr_started, client_as):
    response = client_as("german").post(
        reverse("shortgames:quick_entry", args=[dr_started.pk, "soviet"]), {"text": QUICK}
    )
    assert response.status_code == 403


def test_stacking_over_the_limit_is_a_warning_with_the_rule(dr_started, people, client_as):
    short_games.add_units(
        dr_started,
        by=people["german"],
        units=[
            UnitData(
                side="axis",
                name=f"{n} Corps",
                unit_type="infantry",
                nationality="german",
                hex="2507",
            )
            for n in ("I", "II", "III")
        ],
    )
    html = (
        client_as("observer")
        .get(reverse("shortgames:units", args=[dr_started.pk]))
        .content.decode()
    )
    assert "Hex 2507" in html
    assert "(6.2)" in html


def test_cp_artillery_may_not_stack(cp_started, people, client_as):
    short_games.add_units(
        cp_started,
        by=people["german"],
        units=[
            UnitData(side="german", name="II/88", unit_type="artillery", steps=1, hex="3809"),
            UnitData(side="german", name="I/105", unit_type="infantry", hex="3809"),
        ],
    )
    html = (
        client_as("german").get(reverse("shortgames:units", args=[cp_started.pk])).content.decode()
    )
    assert "Hex 3809" in html


def test_the_roster_file_round_trips(dr_started, people, client_as, dr_game_factory=None):
    client_as("soviet").post(
        reverse("shortgames:quick_entry", args=[dr_started.pk, "soviet"]), {"text": QUICK}
    )
    army = GameUnit.objects.get(name="16th Army")
    short_games.change_unit(
        dr_started, army, by=people["soviet"], version=army.version, state="reduced", hex="2507"
    )
    payload = (
        client_as("observer").get(reverse("shortgames:units_file", args=[dr_started.pk])).json()
    )
    assert payload["module"] == "defiant_russia"
    # Into a new game: printed values only, or the state too.
    from tests.campaigns.shortgames.conftest import make_game

    GameUnit.objects.all().delete()
    for with_state, expected in ((False, "full"), (True, "reduced")):
        GameUnit.objects.all().delete()
        upload = SimpleUploadedFile("units.json", json.dumps(payload).encode(), "application/json")
        data = {"file": upload, **({"with_state": "on"} if with_state else {})}
        response = client_as("soviet").post(
            reverse("shortgames:upload", args=[dr_started.pk]), data
        )
        assert response.status_code == 302
        army = GameUnit.objects.get(name="16th Army")
        assert army.state == expected
        assert (army.full, army.reduced, army.setup) == ("3-3", "1-3", "K")
    assert make_game  # the helper other tests use to make a second game


def test_a_crafted_roster_file_is_refused(dr_started, client_as):
    bad = {
        "format": "campaign-desk-short-game-units",
        "version": 1,
        "module": "defiant_russia",
        "units": [
            {
                "side": "soviet",
                "name": "X",
                "unit_type": "tank_corps",
                "nationality": "soviet",
                "steps": "2",
            }
        ],
    }
    upload = SimpleUploadedFile("units.json", json.dumps(bad).encode())
    response = client_as("soviet").post(
        reverse("shortgames:upload", args=[dr_started.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert "steps must be 1 or 2" in response.content.decode()
    assert not GameUnit.objects.exists()


def test_a_file_with_the_other_sides_units_is_refused_for_a_player(dr_started, client_as):
    payload = {
        "format": "campaign-desk-short-game-units",
        "version": 1,
        "module": "defiant_russia",
        "units": [{"side": "axis", "name": "X", "unit_type": "armor", "nationality": "german"}],
    }
    upload = SimpleUploadedFile("units.json", json.dumps(payload).encode())
    response = client_as("soviet").post(
        reverse("shortgames:upload", args=[dr_started.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert not GameUnit.objects.exists()


def test_edit_a_unit_with_a_stale_version_changes_nothing(dr_started, people, client_as):
    (unit,) = short_games.add_units(
        dr_started,
        by=people["soviet"],
        units=[
            UnitData(
                side="soviet", name="5th Army", unit_type="infantry_army", nationality="soviet"
            )
        ],
    )
    url = reverse("shortgames:unit", args=[dr_started.pk, unit.pk])
    form = {
        "name": "5th Army",
        "unit_type": "infantry_army",
        "nationality": "soviet",
        "steps": 2,
        "state": "reduced",
        "version": unit.version,
    }
    assert client_as("soviet").post(url, form).status_code == 302
    response = client_as("referee").post(url, {**form, "state": "eliminated"})
    assert response.status_code == 400
    unit.refresh_from_db()
    assert unit.state == "reduced"
    assert client_as("german").post(url, {**form, "version": unit.version}).status_code == 403


# --- points, places, tables, combat ------------------------------------------------------------


def test_the_axis_player_books_air_points(dr_started, client_as):
    response = client_as("german").post(
        reverse("shortgames:points_change", args=[dr_started.pk]),
        {"turn": 0, "side": "axis", "kind": "air", "action": "receive"},
    )
    assert response.status_code == 302
    html = (
        client_as("observer")
        .get(reverse("shortgames:points", args=[dr_started.pk]))
        .content.decode()
    )
    assert '<strong class="air-left">6</strong>' in html


def test_only_the_referee_adjusts_points(dr_started, client_as):
    data = {
        "turn": 0,
        "side": "axis",
        "kind": "air",
        "action": "adjustment",
        "amount": 2,
        "note": "ruling",
    }
    url = reverse("shortgames:points_change", args=[dr_started.pk])
    assert client_as("german").post(url, data).status_code == 403
    assert client_as("referee").post(url, data).status_code == 302


def test_places_start_held_as_the_set_up_fixes_them(dr_started, client_as):
    # 6.4: the Soviet player holds the USSR's places, the Axis Warsaw, Helsinki and Bucharest.
    held = dict(ControlPoint.objects.filter(campaign=dr_started).values_list("key", "controller"))
    assert held["kiev"] == held["moscow"] == held["odessa"] == "soviet"
    assert held["warsaw"] == held["helsinki"] == held["bucharest"] == "axis"
    html = client_as("observer").get(reverse("shortgames:victory", args=[dr_started.pk]))
    assert '<td class="holder">Soviet</td>' in html.content.decode()


def test_city_control_moves_the_victory_points(dr_started, client_as):
    url = reverse("shortgames:control", args=[dr_started.pk])
    victory = reverse("shortgames:victory", args=[dr_started.pk])
    before = client_as("observer").get(victory).content.decode()
    client_as("german").post(url, {"key": "kiev", "controller": "axis", "version": 0})
    html = client_as("observer").get(victory).content.decode()
    assert "Kiev" in html and html != before
    assert ControlPoint.objects.get(campaign=dr_started, key="kiev").controller == "axis"
    assert (
        client_as("observer").post(url, {"key": "kiev", "controller": "soviet"}).status_code == 403
    )


def test_cp_pocket_and_vp(cp_started, people, client_as):
    (unit,) = short_games.add_units(
        cp_started,
        by=people["german"],
        units=[UnitData(side="german", name="Wiking", unit_type="tank")],
    )
    game = ShortGame.objects.get(campaign=cp_started)
    client_as("soviet").post(
        reverse("shortgames:pocket", args=[cp_started.pk]),
        {"version": game.version, "formed": "1", "members": [unit.pk]},
    )
    unit.refresh_from_db()
    game.refresh_from_db()
    assert unit.in_pocket and game.pocket_formed_index == 0
    # The Korsun airfield's VP are counted from who holds hex 3809, not ticked by hand.
    client_as("soviet").post(
        reverse("shortgames:condition", args=[cp_started.pk]),
        {"version": game.version, "condition": "s1.korsun_airfield", "met": "1"},
    )
    game.refresh_from_db()
    assert game.victory == {}
    client_as("soviet").post(
        reverse("shortgames:control", args=[cp_started.pk]),
        {"key": "hex-3809", "controller": "soviet", "version": 0},
    )
    html = (
        client_as("observer")
        .get(reverse("shortgames:victory", args=[cp_started.pk]))
        .content.decode()
    )
    assert '<strong id="vp-total">1</strong>' in html


def test_only_the_referee_enters_a_table_and_a_bad_one_is_refused(cp_started, client_as):
    url = reverse("shortgames:tables", args=[cp_started.pk])
    bad = {
        "id": "x",
        "rule": "5.3",
        "roll": "dr",
        "rows": [{"min": 1, "max": 3, "result": {"weather": "snow"}}],
    }
    assert (
        client_as("soviet")
        .post(url, {"slot": "cp.weather-table", "data": json.dumps(bad)})
        .status_code
        == 403
    )
    response = client_as("referee").post(url, {"slot": "cp.weather-table", "data": json.dumps(bad)})
    assert response.status_code == 400
    assert "cp.weather-table" in response.content.decode()


def test_combat_helper_counts_then_rolls(dr_started, client_as):
    url = reverse("shortgames:combat", args=[dr_started.pk])
    query = {"side": "axis", "role": "attacker", "units": "6a, 3", "nationality": "german"}
    html = client_as("observer").get(url, query).content.decode()
    assert "9 dice" in html
    with dice.use_roller(Loaded(6, 6, 1, 1, 1, 1, 1, 1, 5)):
        html = client_as("german").post(url, query).content.decode()
    assert '<strong id="hits">2 hits</strong>' in html
    assert DiceRoll.objects.count() == 9
    assert client_as("observer").post(url, query).status_code == 403


def test_the_same_combat_form_sent_twice_rolls_once(dr_started, client_as):
    url = reverse("shortgames:combat", args=[dr_started.pk])
    query = {"side": "axis", "role": "attacker", "units": "6a, 3", "nationality": "german"}
    query["token"] = "form-1"
    with dice.use_roller(Loaded(6, 6, 1, 1, 1, 1, 1, 1, 5)):
        first = client_as("german").post(url, query).content.decode()
    again = client_as("german").post(url, query).content.decode()  # no dice left to roll
    assert '<strong id="hits">2 hits</strong>' in first
    assert '<strong id="hits">2 hits</strong>' in again
    assert DiceRoll.objects.count() == 9
    page = client_as("german").get(url, {k: v for k, v in query.items() if k != "token"})
    assert 'name="token"' in page.content.decode()


def test_page_queries_do_not_grow_with_the_roster(
    dr_started, people, client_as, django_assert_max_num_queries
):
    def add(count):
        short_games.add_units(
            dr_started,
            by=people["soviet"],
            units=[
                UnitData(
                    side="soviet",
                    name=f"{n} Army",
                    unit_type="infantry_army",
                    nationality="soviet",
                    state="reduced",
                    hex=f"{2000 + n}",
                )
                for n in range(count)
            ],
        )

    add(3)
    client = client_as("referee")
    counts = {}
    for page in PAGES:
        url = reverse(page, args=[dr_started.pk])
        with django_assert_max_num_queries(60) as captured:
            client.get(url)
        counts[page] = len(captured)
    add(60)
    for page in PAGES:
        with django_assert_max_num_queries(counts[page]):
            client.get(reverse(page, args=[dr_started.pk]))


def test_a_rolled_weather_reads_as_words_not_data():
    from django.utils import translation

    from campaigns.templatetags.gamedata_tags import result_text

    result = {"weather": "clear", "en": "Clear", "ja": "晴天"}
    assert result_text(result) == "Clear"
    with translation.override("ja"):
        assert result_text(result) == "晴天"
    assert result_text({"level_change": -1, "text": {"en": "drops", "ja": "低下"}}) == "drops"
    assert result_text(3) == 3


@pytest.mark.parametrize(
    ("language", "place", "side"),
    [("en", "Korsun airfield", "Soviet"), ("ja", "コルスン飛行場", "ソ連")],
)
def test_the_victory_page_names_the_korsun_airfield_and_who_holds_it(
    cp_started, client_as, language, place, side
):
    client_as("soviet").post(
        reverse("shortgames:control", args=[cp_started.pk]),
        {"key": "hex-3809", "controller": "soviet", "version": 0},
    )
    client = client_as("observer")
    client.cookies["django_language"] = language
    html = client.get(
        reverse("shortgames:victory", args=[cp_started.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    row = html[html.index('id="place-hex-3809"') :]
    row = row[: row.index("</tr>")]
    assert f"<td>{place}</td><td>3809</td>" in row
    assert side in row and ">soviet<" not in row
