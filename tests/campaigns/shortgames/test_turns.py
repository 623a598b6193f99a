"""The short games' turn (campaigns.shortgames.turn_steps and the modules beside it): the turn's
steps, marks in order, the weather, rolls through campaigns.dice.services, points."""

import pytest

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll, GameUnit, PointEntry, TurnMark
from campaigns.shortgames import combat_rolls, turn_marks, turn_points, turn_rolls, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from tests.campaigns.dice.test_services import Loaded

pytestmark = pytest.mark.django_db


def steps_of(campaign):
    game = short_games.setup_of(campaign)
    day = turn_steps.current_day(campaign)
    return turn_steps.turn_steps(
        campaign, game, turn_steps.weather_now(campaign, day, game), turn_steps.marks_of(campaign)
    )


def mark_all(campaign, people, upto=None):
    """Mark every step that takes place, in order, by the side(s) it belongs to."""
    persona = {"axis": "german", "german": "german", "soviet": "soviet"}
    for step in steps_of(campaign):
        if step.id == upto:
            return
        if not step.applies:
            continue
        for side in step.sides_to_mark or campaign.game.side_keys:
            turn_marks.mark(
                campaign,
                index=campaign.period_index,
                side=side,
                step_id=step.id,
                by=people[persona[side]],
                order="move_first",  # Cherkassy 5.4: read on the air power steps only
            )


def test_turn_1_skips_the_breakthrough_phases_with_the_rule(dr_started):
    steps = {step.id: step for step in steps_of(dr_started)}
    breakthrough = steps["axis_breakthrough_movement"]
    assert breakthrough.status == "skipped"
    assert "6.7" in breakthrough.reason.en
    assert steps["axis_movement"].applies
    assert steps["weather"].status == "current"


def test_only_the_first_open_step_is_current_and_marks_go_in_order(dr_started, people):
    with pytest.raises(turn_steps.TurnError, match="earlier steps"):
        turn_marks.mark(
            dr_started, index=0, side="axis", step_id="axis_movement", by=people["german"]
        )
    turn_marks.mark(dr_started, index=0, side="soviet", step_id="weather", by=people["soviet"])
    steps = {step.id: step for step in steps_of(dr_started)}
    assert steps["weather"].status == "done"
    assert steps["axis_supply"].status == "current"


def test_a_step_belongs_to_its_side(dr_started, people):
    with pytest.raises(turn_steps.TurnError, match="other side"):
        turn_marks.mark(dr_started, index=0, side="axis", step_id="weather", by=people["german"])


def test_the_historical_weather_is_written_on_the_turn_record_when_its_step_is_done(
    dr_started, people
):
    turn_marks.mark(dr_started, index=0, side="soviet", step_id="weather", by=people["soviet"])
    assert turn_steps.current_day(dr_started).weather == "clear"


def test_a_stale_turn_changes_nothing(dr_started, people):
    with pytest.raises(turn_steps.TurnError, match="earlier turn"):
        turn_marks.mark(dr_started, index=1, side="soviet", step_id="weather", by=people["soviet"])
    assert not TurnMark.objects.exists()


def test_a_mark_sent_twice_is_kept_once(dr_started, people):
    for _ in range(2):
        turn_marks.mark(dr_started, index=0, side="soviet", step_id="weather", by=people["soviet"])
    assert TurnMark.objects.count() == 1


def test_skipping_needs_a_reason(dr_started, people):
    with pytest.raises(turn_steps.TurnError, match="why"):
        turn_marks.mark(
            dr_started, index=0, side="soviet", step_id="weather", by=people["soviet"], skipped=True
        )


def test_unmark_only_the_latest(dr_started, people):
    turn_marks.mark(dr_started, index=0, side="soviet", step_id="weather", by=people["soviet"])
    turn_marks.mark(dr_started, index=0, side="axis", step_id="axis_supply", by=people["german"])
    with pytest.raises(turn_steps.TurnError, match="later step"):
        turn_marks.unmark(
            dr_started, index=0, side="soviet", step_id="weather", by=people["soviet"]
        )
    turn_marks.unmark(dr_started, index=0, side="axis", step_id="axis_supply", by=people["german"])
    assert list(TurnMark.objects.values_list("step", flat=True)) == ["weather"]


def test_the_turn_advances_only_when_every_step_is_marked(dr_started, people):
    with pytest.raises(turn_steps.TurnError, match="Every step"):
        turn_marks.advance(dr_started, index=0, by=people["german"])
    mark_all(dr_started, people)
    turn_marks.advance(dr_started, index=0, by=people["german"])
    dr_started.refresh_from_db()
    assert dr_started.period_index == 1
    # Turn 2 (July): the Soviet replacement step takes place now, the Axis one not yet.
    steps = {step.id: step for step in steps_of(dr_started)}
    assert steps["soviet_replacements"].applies
    assert not steps["axis_replacements"].applies
    assert CampaignEvent.objects.filter(action="turn.advanced").count() == 1


def test_random_weather_is_rolled_on_the_months_table_and_booked(dr_game, people):
    short_games.start(dr_game, by=people["german"], options=["random_weather"])
    dr_game.period_index = 2  # August, turn 3
    dr_game.save()
    steps = {step.id: step for step in steps_of(dr_game)}
    # Until the weather is rolled the breakthrough phases depend on it.
    assert steps["axis_breakthrough_movement"].limited
    with pytest.raises(turn_steps.TurnError, match="weather first"):
        turn_marks.mark(dr_game, index=2, side="soviet", step_id="weather", by=people["soviet"])
    with dice.use_roller(Loaded(6)):
        roll = turn_rolls.roll_table(
            dr_game,
            index=2,
            side="soviet",
            step_id="weather",
            table_id="dr.weather-august",
            by=people["soviet"],
        )
    assert roll.final == 6
    assert turn_steps.current_day(dr_game).weather == roll.result["weather"]
    with pytest.raises(turn_steps.TurnError, match="has been rolled"):
        turn_rolls.roll_table(
            dr_game,
            index=2,
            side="soviet",
            step_id="weather",
            table_id="dr.weather-august",
            by=people["soviet"],
        )


def test_a_table_the_rules_do_not_roll_now_is_refused_with_the_reason(dr_started, people):
    with pytest.raises(turn_steps.TurnError, match="optional rule Random weather"):
        turn_rolls.roll_table(
            dr_started,
            index=0,
            side="soviet",
            step_id="weather",
            table_id="dr.weather-august",
            by=people["soviet"],
        )
    assert not DiceRoll.objects.exists()


def test_cp_weather_cannot_be_rolled_until_the_referee_enters_the_table(cp_started, people):
    with pytest.raises(turn_steps.TurnError):
        turn_rolls.roll_table(
            cp_started,
            index=0,
            side="soviet",
            step_id="weather",
            table_id="cp.weather-table",
            by=people["soviet"],
        )
    table = {
        "id": "cp.weather",
        "rule": "5.3",
        "roll": "dr",
        "rows": [
            {"min": 1, "max": 4, "result": {"weather": "snow", "en": "Snow"}},
            {"min": 5, "max": 6, "result": {"weather": "mud", "en": "Mud"}},
        ],
    }
    short_games.save_referee_table(
        cp_started, by=people["referee"], slot_id="cp.weather-table", data=table, version=None
    )
    with dice.use_roller(Loaded(5)):
        turn_rolls.roll_table(
            cp_started,
            index=0,
            side="soviet",
            step_id="weather",
            table_id="cp.weather-table",
            by=people["soviet"],
        )
    assert turn_steps.current_day(cp_started).weather == "mud"


def test_cp_tank_breakdown_on_a_1_reduces_a_full_tank_with_an_msl(cp_started, people):
    (tank,) = short_games.add_units(
        cp_started,
        by=people["soviet"],
        units=[
            UnitData(side="soviet", name="20 TC 8 Gd", unit_type="tank", full="12-8", reduced="6-8")
        ],
    )
    mark_all(cp_started, people, upto="s1.soviet_operations_1")
    with dice.use_roller(Loaded(1)):
        turn_rolls.roll_table(
            cp_started,
            index=0,
            side="soviet",
            step_id="s1.soviet_operations_1",
            table_id="cp.tank-breakdown",
            by=people["soviet"],
            unit=tank,
        )
    tank.refresh_from_db()
    assert (tank.state, tank.msl) == ("reduced", True)
    with dice.use_roller(Loaded(1)):
        turn_rolls.roll_table(
            cp_started,
            index=0,
            side="soviet",
            step_id="s1.soviet_operations_1",
            table_id="cp.tank-breakdown",
            by=people["soviet"],
            unit=tank,
        )
    tank.refresh_from_db()
    assert tank.state == "recovery_2"


def test_cp_air_points_are_booked_from_the_roll_a_german_6_counts_5(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    with dice.use_roller(Loaded(6)):
        turn_rolls.roll_table(
            cp_started,
            index=0,
            side="german",
            step_id="s1.air_power",
            table_id="cp.air-points-german",
            by=people["german"],
        )
    assert turn_points.balance(cp_started, "german", 0, "air") == 5


def test_dr_replacement_points_follow_the_cities_and_pay_for_a_rebuild(dr_started, people):
    dr_started.period_index = 1  # July: the Soviet gets 6 less deductions
    dr_started.save()
    short_games.set_control(
        dr_started, by=people["german"], key="kiev", controller="axis", cut_off=False, version=0
    )
    assert turn_points.replacements_now(dr_started, "soviet").points == 5
    turn_points.receive_points(
        dr_started, side="soviet", index=1, kind="replacement", by=people["soviet"]
    )
    with pytest.raises(turn_steps.TurnError, match="already"):
        turn_points.receive_points(
            dr_started, side="soviet", index=1, kind="replacement", by=people["soviet"]
        )
    (army,) = short_games.add_units(
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
                state="eliminated",
            )
        ],
    )
    where = turn_points.replace_unit(
        dr_started, army, action="rebuild", index=1, version=army.version, by=people["soviet"]
    )
    army.refresh_from_db()
    assert army.state == "reduced"
    assert "kiev" not in where and "moscow" in where
    assert turn_points.balance(dr_started, "soviet", 1, "replacement") == 3
    assert PointEntry.objects.filter(action="rebuild", amount=-2, unit=army).exists()


def test_dr_replacement_refused_before_turn_3_for_the_axis_with_the_rule(dr_started, people):
    (corps,) = short_games.add_units(
        dr_started,
        by=people["german"],
        units=[
            UnitData(
                side="axis",
                name="XXXIX Pz",
                unit_type="armor",
                nationality="german",
                full="6-6",
                reduced="3-6",
                state="reduced",
            )
        ],
    )
    with pytest.raises(turn_steps.TurnError, match="10.13"):
        turn_points.replace_unit(
            dr_started, corps, action="restore", index=0, version=corps.version, by=people["german"]
        )
    corps.refresh_from_db()
    assert corps.state == "reduced"


def test_combat_rolls_one_logged_die_per_strength_point(dr_started, people):
    with dice.use_roller(Loaded(6, 1, 5, 6)):
        result = combat_rolls.roll_combat(
            dr_started, side="axis", dice_count=4, fleet_dice=0, hit_on=(6,), by=people["german"]
        )
    assert result["faces"] == [6, 1, 5, 6]
    assert result["hits"] == 2
    assert DiceRoll.objects.filter(step="7.11").count() == 4


def test_unit_change_is_recorded_and_can_be_undone(dr_started, people):
    from campaigns.history import services as history

    (unit,) = short_games.add_units(
        dr_started,
        by=people["german"],
        units=[UnitData(side="axis", name="Blue", unit_type="division", nationality="spanish")],
    )
    short_games.change_unit(
        dr_started, unit, by=people["german"], version=unit.version, state="reduced"
    )
    event = CampaignEvent.objects.get(action="unit.changed")
    history.undo(event, by=people["german"])
    unit.refresh_from_db()
    assert unit.state == "full"
    assert GameUnit.objects.count() == 1


def test_a_side_does_not_roll_the_other_sides_air_points(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    with pytest.raises(turn_steps.TurnError, match="own air points"):
        turn_rolls.roll_table(
            cp_started,
            index=0,
            side="soviet",
            step_id="s1.air_power",
            table_id="cp.air-points-german",
            by=people["soviet"],
        )


def test_a_rolls_step_is_its_own_field_whatever_a_note_starts_with(dr_game, people):
    short_games.start(dr_game, by=people["german"], options=["random_weather"])
    dr_game.period_index = 2  # August: the weather is rolled
    dr_game.save()
    with dice.use_roller(Loaded(6, 3)):
        weather = turn_rolls.roll_table(
            dr_game,
            index=2,
            side="soviet",
            step_id="weather",
            table_id="dr.weather-august",
            by=people["soviet"],
            note="partisans: seen near Bryansk",
        )
        combat_rolls.roll_combat(
            dr_game,
            side="axis",
            dice_count=1,
            fleet_dice=0,
            hit_on=(6,),
            by=people["german"],
            note="weather: attack in the rain",
        )
    assert (weather.sequence_step, weather.note) == ("weather", "partisans: seen near Bryansk")
    combat_die = DiceRoll.objects.get(step="7.11")
    assert (combat_die.sequence_step, combat_die.note) == ("", "weather: attack in the rain (1/1)")
    assert turn_rolls.rolls_of_step(dr_game, 2, "weather") == [weather]
    assert turn_rolls.rolls_of_step(dr_game, 2, "partisans") == []


def test_a_combat_note_with_another_forms_token_in_brackets_rolls_anew(dr_started, people):
    def combat(token, note=""):
        return combat_rolls.roll_combat(
            dr_started,
            side="axis",
            dice_count=1,
            fleet_dice=1,
            hit_on=(6,),
            by=people["german"],
            note=note,
            token=token,
        )

    with dice.use_roller(Loaded(6, 2, 1, 6)):
        first = combat("form-1", note="Kiev [form-2]")
        second = combat("form-2")
        again = combat("form-1")  # sent twice: no die left to roll, none is rolled
    assert (first["faces"], first["fleet_faces"]) == ([6], [2])
    assert (second["faces"], second["fleet_faces"]) == ([1], [6])
    assert again == first
    assert DiceRoll.objects.count() == 4
    notes = DiceRoll.objects.filter(form_token="form-1").order_by("id")
    assert [roll.note for roll in notes] == ["Kiev [form-2] (1/1)", "Kiev [form-2] fleet (1/1)"]
