"""The reinforcement queue of the short games (DR 10.2, 11.63; CP 9.1, 9.4, 9.5) and a unit's
arrival on the map, for the five personas."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, GameUnit
from campaigns.shortgames import arrivals, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData, parse_quick_entry
from campaigns.state import StaleEdit
from tests.campaigns.dice.test_services import Loaded

pytestmark = pytest.mark.django_db

MEMBERS = ("german", "soviet", "referee", "observer")


def add(campaign, people, side, text):
    persona = "soviet" if side == "soviet" else "german"
    return short_games.add_units(
        campaign, by=people[persona], units=parse_quick_entry(campaign.module, side, text)
    )


def queue(campaign):
    game = short_games.setup_of(campaign)
    return arrivals.reinforcement_queue(
        campaign, game, list(GameUnit.objects.filter(campaign=campaign))
    )


def rows_by_name(campaign):
    return {str(getattr(row.name, "en", row.name)): row for row in queue(campaign)}


def on_turn(campaign, turn_index):
    campaign.period_index = turn_index
    campaign.save(update_fields=["period_index"])


# --- Defiant Russia ------------------------------------------------------------------------


def test_dr_lists_the_rules_units_and_the_roster_units_by_turn(dr_started, people):
    add(dr_started, people, "soviet", "18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4")
    rows = rows_by_name(dr_started)
    # Zhukov enters on turn 4 (11.63), the airborne unit on turn 6 (11.8); neither is entered.
    assert (rows["Zhukov"].turn, rows["Zhukov"].status, rows["Zhukov"].rule) == (
        4,
        "not_entered",
        "11.63",
    )
    assert rows["Zhukov"].unit is None
    tank = rows["18th Tank Corps"]
    assert (tank.turn, tank.status, tank.may_enter) == (4, "coming", False)


def test_dr_a_rules_unit_entered_in_the_roster_is_matched_by_name(dr_started, people):
    add(dr_started, people, "soviet", "Zhukov | leader | soviet | | | T4")
    on_turn(dr_started, 3)
    zhukov = rows_by_name(dr_started)["Zhukov"]
    assert (zhukov.status, zhukov.may_enter) == ("due", True)
    assert zhukov.unit is not None
    assert len([row for row in queue(dr_started) if row.turn == 4]) == 1  # not twice


def test_dr_an_airborne_unit_due_on_turn_6_is_the_soviet_airborne_unit(dr_started, people):
    # 11.3: the rules name one Soviet airborne unit; the players call it what its counter says.
    add(dr_started, people, "soviet", "1st Airborne Corps | airborne | soviet | 2-4 | 1-4 | T6")
    rows = queue(dr_started)
    (airborne,) = [row for row in rows if row.turn == 6 and row.side == "soviet"]
    assert airborne.unit is not None and airborne.unit.name == "1st Airborne Corps"
    assert (airborne.status, airborne.rule) == ("coming", "11.3")
    assert not [row for row in rows if row.status == "not_entered" and row.turn == 6]


def test_dr_a_late_unit_stays_due_and_a_past_one_that_arrived_is_gone(dr_started, people):
    add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T2")
    on_turn(dr_started, 3)  # turn 4: the 5th Army was due on turn 2
    late = rows_by_name(dr_started)["5th Army"]
    assert (late.turn, late.status, late.may_enter) == (2, "due", True)


def test_dr_early_invasion_brings_the_hungarians_on_turn_4(dr_game, people):
    short_games.start(dr_game, by=people["german"], options=["early_invasion"])
    due = [row for row in queue(dr_game) if row.side == "axis" and row.turn == 4]
    assert due and all(row.rule for row in due)


def test_arrive_puts_the_unit_on_the_map_and_is_recorded(dr_started, people):
    [unit] = add(dr_started, people, "soviet", "Zhukov | leader | soviet | | | T4")
    on_turn(dr_started, 3)
    arrivals.arrive(
        dr_started, unit, index=3, version=unit.version, hex="2507", by=people["soviet"]
    )
    unit.refresh_from_db()
    assert (unit.state, unit.hex) == ("full", "2507")
    event = CampaignEvent.objects.get(action="unit.arrived")
    assert event.data["hex"] == "2507"
    assert rows_by_name(dr_started)["Zhukov"].status == "arrived"


def test_arrive_refuses_a_unit_before_its_turn(dr_started, people):
    [unit] = add(
        dr_started, people, "soviet", "18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4"
    )
    on_turn(dr_started, 2)  # turn 3: one turn early
    with pytest.raises(turn_steps.TurnError, match=r"never early \(10.2\)"):
        arrivals.arrive(
            dr_started, unit, index=2, version=unit.version, hex="", by=people["soviet"]
        )
    unit.refresh_from_db()
    assert unit.state == "awaiting"


def test_arrive_on_its_very_turn_is_allowed_and_sent_twice_acts_once(dr_started, people):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    version = unit.version
    arrivals.arrive(dr_started, unit, index=0, version=version, hex="2507", by=people["soviet"])
    with pytest.raises(StaleEdit):
        arrivals.arrive(dr_started, unit, index=0, version=version, hex="2508", by=people["soviet"])
    unit.refresh_from_db()
    assert unit.hex == "2507"
    assert CampaignEvent.objects.filter(action="unit.arrived").count() == 1


def test_arrive_refuses_a_unit_on_the_map(dr_started, people):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | K")
    with pytest.raises(turn_steps.TurnError, match="not awaiting"):
        arrivals.arrive(
            dr_started, unit, index=0, version=unit.version, hex="", by=people["soviet"]
        )


def test_an_arrival_can_be_undone(dr_started, people):
    from campaigns.history import services as history

    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    arrivals.arrive(
        dr_started, unit, index=0, version=unit.version, hex="2507", by=people["soviet"]
    )
    history.undo(CampaignEvent.objects.get(action="unit.arrived"), by=people["soviet"])
    unit.refresh_from_db()
    assert (unit.state, unit.hex) == ("awaiting", "")


# --- Cherkassy Pocket ------------------------------------------------------------------------


def test_cp_north_edge_units_wait_for_the_pocket_or_turn_2_segment_2(cp_started, people):
    add(
        cp_started,
        people,
        "german",
        "III/Pz Gren 3 | mech_infantry | 3 Pz | 4-5-10 | 2-2-10 | T0 N",
    )
    add(cp_started, people, "german", "KG West | infantry | 72 ID | 3-4-4 | 1-2-4 | T0 W")
    add(cp_started, people, "soviet", "3 TC | tank | 2 TA | 6-4-12 | 3-2-12 | T1 N")
    rows = rows_by_name(cp_started)
    north = rows["III/Pz Gren 3"]
    assert (north.status, north.may_enter, north.edge) == ("due", False, "N")
    assert "9.4" in north.reason.en
    assert rows["KG West"].may_enter
    assert (rows["3 TC"].status, rows["3 TC"].turn) == ("coming", 1)
    short_games.set_pocket(cp_started, by=people["soviet"], formed=True, version=0)
    assert rows_by_name(cp_started)["III/Pz Gren 3"].may_enter


def test_cp_the_24th_panzer_waits_for_its_roll(cp_game, people):
    cp_game.campaign_game = "scenario-2"
    cp_game.save(update_fields=["campaign_game"])
    short_games.start(cp_game, by=people["german"], options=[])
    add(cp_game, people, "german", "I/Pz Rgt 24 | tank | 24 Pz | 7-6-12 | 3-3-12 | T7 W")
    row = rows_by_name(cp_game)["I/Pz Rgt 24"]
    assert (row.may_enter, "9.5" in row.reason.en) == (False, True)


def test_cp_a_24th_panzer_roll_of_1_to_3_lets_it_enter_and_4_to_6_never(cp_game, people):
    from campaigns.models import DiceRoll

    cp_game.campaign_game = "scenario-2"
    cp_game.save(update_fields=["campaign_game"])
    short_games.start(cp_game, by=people["german"], options=[])
    add(cp_game, people, "german", "I/Pz Rgt 24 | tank | 24 Pz | 7-6-12 | 3-3-12 | T7 W")
    table = cp_game.game.dice_table("cp.pz24-arrival")
    for face, enters in ((3, True), (4, False)):
        DiceRoll.objects.filter(campaign=cp_game).delete()
        with dice.use_roller(Loaded(face)):
            dice.roll(
                cp_game,
                by=people["german"],
                kind="dr",
                step="9.5",
                index=0,
                side="german",
                visibility="public",
                table=table,
            )
        assert rows_by_name(cp_game)["I/Pz Rgt 24"].may_enter is enters


def test_cp_arrive_refuses_a_closed_north_edge_with_the_rule(cp_started, people):
    [unit] = add(
        cp_started,
        people,
        "german",
        "III/Pz Gren 3 | mech_infantry | 3 Pz | 4-5-10 | 2-2-10 | T0 N",
    )
    with pytest.raises(turn_steps.TurnError, match=r"9\.4"):
        arrivals.arrive(
            cp_started, unit, index=0, version=unit.version, hex="", by=people["german"]
        )


# --- the page --------------------------------------------------------------------------------


def arrive_url(game, unit):
    return reverse("shortgames:arrive", args=[game.pk, unit.pk])


@pytest.mark.parametrize("persona", MEMBERS)
def test_every_member_sees_the_queue(dr_started, people, client_as, persona):
    add(dr_started, people, "soviet", "18th Tank Corps | tank_corps | soviet | 2-5 | 1-5 | T4")
    html = (
        client_as(persona).get(reverse("shortgames:units", args=[dr_started.pk])).content.decode()
    )
    assert 'id="reinforcements"' in html
    assert "18th Tank Corps" in html and "Zhukov" in html


def test_an_outsider_gets_404_for_the_queue_and_the_action(dr_started, people, client_as):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    client = client_as("outsider")
    assert client.get(reverse("shortgames:units", args=[dr_started.pk])).status_code == 404
    response = client.post(arrive_url(dr_started, unit), {"turn": 0, "version": unit.version})
    assert response.status_code == 404


def test_only_the_sides_player_and_the_referee_see_the_arrive_button(dr_started, people, client_as):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    url = arrive_url(dr_started, unit)
    for persona, shown in (
        ("soviet", True),
        ("referee", True),
        ("german", False),
        ("observer", False),
    ):
        html = (
            client_as(persona)
            .get(reverse("shortgames:units", args=[dr_started.pk]))
            .content.decode()
        )
        assert (url in html) is shown, persona


@pytest.mark.parametrize("persona,status", [("german", 403), ("observer", 403)])
def test_others_cannot_bring_a_sides_unit_in(dr_started, people, client_as, persona, status):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    response = client_as(persona).post(arrive_url(dr_started, unit), {"turn": 0, "version": 0})
    assert response.status_code == status
    unit.refresh_from_db()
    assert unit.state == "awaiting"


@pytest.mark.parametrize("persona", ["soviet", "referee"])
def test_the_sides_player_or_the_referee_brings_it_in(dr_started, people, client_as, persona):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    response = client_as(persona).post(
        arrive_url(dr_started, unit), {"turn": 0, "version": unit.version, "hex": "2507"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#reinforcements")
    unit.refresh_from_db()
    assert (unit.state, unit.hex) == ("full", "2507")


def test_htmx_gets_the_queue_partial_with_the_message(dr_started, people, client_as):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    response = client_as("soviet").post(
        arrive_url(dr_started, unit),
        {"turn": 0, "version": unit.version, "hex": "2507"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="reinforcements">')
    assert "has entered the map" in html
    assert "HX-Request" in response.get("Vary", "")


def test_a_page_of_an_earlier_turn_changes_nothing(dr_started, people, client_as):
    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    on_turn(dr_started, 1)
    response = client_as("soviet").post(
        arrive_url(dr_started, unit), {"turn": 0, "version": unit.version}, follow=True
    )
    assert "earlier turn" in response.content.decode()
    unit.refresh_from_db()
    assert unit.state == "awaiting"


def test_the_refusal_is_shown_with_the_rule(cp_started, people, client_as):
    [unit] = add(
        cp_started,
        people,
        "german",
        "III/Pz Gren 3 | mech_infantry | 3 Pz | 4-5-10 | 2-2-10 | T0 N",
    )
    response = client_as("german").post(
        arrive_url(cp_started, unit), {"turn": 0, "version": unit.version}, follow=True
    )
    assert "9.4" in response.content.decode()
    unit.refresh_from_db()
    assert unit.state == "awaiting"


@pytest.mark.parametrize("fixture", ["dr_started", "cp_started"])
def test_the_units_page_queries_do_not_grow_with_the_queue(
    fixture, request, people, client_as, django_assert_max_num_queries
):
    game = request.getfixturevalue(fixture)
    side = "soviet"

    def add_awaiting(count, start):
        short_games.add_units(
            game,
            by=people["soviet"],
            units=[
                UnitData(
                    side=side,
                    name=f"{n} Army",
                    unit_type="infantry_army" if game.module == "defiant_russia" else "infantry",
                    nationality="soviet" if game.module == "defiant_russia" else "",
                    state="awaiting",
                    arrival_turn=short_games.all_turns(game)[n % 3 + 1],
                    arrival_edge="" if game.module == "defiant_russia" else "N",
                )
                for n in range(start, start + count)
            ],
        )

    add_awaiting(3, 0)
    client = client_as("soviet")
    url = reverse("shortgames:units", args=[game.pk])
    with django_assert_max_num_queries(60) as captured:
        client.get(url)
    add_awaiting(40, 3)
    with django_assert_max_num_queries(len(captured)):
        html = client.get(url).content.decode()
    assert html.count("queue-coming") + html.count("queue-due") >= 43


def test_the_history_says_where_the_unit_entered(dr_started, people):
    from campaigns.history import services as history

    [unit] = add(dr_started, people, "soviet", "5th Army | infantry_army | soviet | 3-3 | 1-3 | T1")
    arrivals.arrive(
        dr_started, unit, index=0, version=unit.version, hex="2507", by=people["soviet"]
    )
    line = history.describe(CampaignEvent.objects.get(action="unit.arrived"))
    assert "5th Army entered the map in 2507" in line
