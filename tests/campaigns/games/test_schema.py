"""The checks that tie a module's data files together (docs/gamedata.md, the contract)."""

import pytest

from campaigns.games.registry import GameDataError, get_module
from campaigns.games.schema import check_files

RF = get_module("red_factories")


def name() -> dict:
    return {"en": "x", "ja": "エックス"}


def files() -> dict:
    """A minimal, valid set of Red Factories data files."""
    return {
        "tables": {
            "version": "1",
            "source": "seed",
            "dice_tables": [
                {
                    "id": "rf.sample",
                    "rule": "11.6094",
                    "name": name(),
                    "roll": "dr",
                    "rows": [
                        {"min": None, "max": 4, "result": "a"},
                        {"min": 5, "max": None, "result": "b"},
                    ],
                }
            ],
            "charts": [{"id": "rf.initiative", "rule": "11.623", "name": name()}],
        },
        "rg_charts": {
            "version": "1",
            "source": "seed",
            "sides": {
                "german": {
                    "groups": [
                        {"id": "A1", "name": name(), "notes": ["d"], "cg_max": {"rb-cg-1": 2}}
                    ],
                    "notes": {"d": {"en": "depleted"}},
                },
                "soviet": {"groups": [{"id": "I3", "name": name()}], "notes": {}},
            },
        },
        "campaign_games": {
            "version": "1",
            "source": "seed",
            "campaign_games": {
                "rb-cg-1": {
                    "sets_up_first": "soviet",
                    "moves_first": "german",
                    "initial_ob": {"soviet": {"rgs": [{"rg": "I3", "count": 2}]}},
                }
            },
        },
        "refit_steps": {
            "version": "1",
            "source": "seed",
            "steps": [
                {"rule": "11.623", "name": name(), "markers": ["*"], "tables": ["rf.initiative"]}
            ],
        },
    }


def error_for(change) -> GameDataError:
    data = files()
    change(data)
    with pytest.raises(GameDataError) as error:
        check_files(RF, data)
    return error.value


def test_a_consistent_set_of_files_passes_and_yields_its_dice_tables():
    tables = check_files(RF, files())
    assert [t.id for t in tables] == ["rf.sample"]
    assert tables[0].lookup(6) == "b"


def test_every_file_needs_a_version():
    error = error_for(lambda d: d["tables"].pop("version"))
    assert str(error).startswith("red_factories/tables.json: version")


def test_a_bad_dice_table_is_reported_with_file_and_path():
    error = error_for(lambda d: d["tables"]["dice_tables"][0]["rows"][1].update(min=6))
    assert str(error) == "red_factories/tables.json: dice_tables[0].rows[1]: leaves a gap: 5–5"


def test_names_need_both_languages():
    error = error_for(lambda d: d["tables"]["charts"][0]["name"].pop("ja"))
    assert error.path == "red_factories/tables.json: charts[0].name"


def test_ids_are_unique_across_a_modules_tables():
    error = error_for(lambda d: d["tables"]["charts"][0].update(id="rf.sample"))
    assert "used twice" in str(error)


def test_an_undefined_note_letter_is_refused():
    error = error_for(lambda d: d["rg_charts"]["sides"]["german"]["groups"][0]["notes"].append("z"))
    assert error.path == "red_factories/rg_charts.json: sides.german.groups[0].notes"
    assert "'z' is not defined" in str(error)


def test_a_cg_max_for_an_unknown_campaign_game_is_refused():
    error = error_for(
        lambda d: d["rg_charts"]["sides"]["german"]["groups"][0]["cg_max"].update({"rb-cg-9": 1})
    )
    assert "'rb-cg-9' is not a campaign game" in str(error)


def test_a_chart_for_a_side_the_game_does_not_have_is_refused():
    error = error_for(lambda d: d["rg_charts"]["sides"].update(russian={"groups": []}))
    assert "'russian' is not a side" in str(error)


def test_an_initial_ob_rg_must_be_in_that_sides_chart():
    error = error_for(
        lambda d: d["campaign_games"]["campaign_games"]["rb-cg-1"]["initial_ob"]["soviet"][
            "rgs"
        ].append({"rg": "A1", "count": 1})
    )
    assert error.path == (
        "red_factories/campaign_games.json: campaign_games.rb-cg-1.initial_ob.soviet.rgs[1].rg"
    )
    assert "not in the soviet RG chart" in str(error)


def test_an_unknown_campaign_game_definition_is_refused():
    error = error_for(lambda d: d["campaign_games"]["campaign_games"].update({"rb-cg-9": {}}))
    assert "not a campaign game of red_factories" in str(error)


def test_a_step_must_name_tables_that_exist():
    error = error_for(lambda d: d["refit_steps"]["steps"][0]["tables"].append("rf.missing"))
    assert "table 'rf.missing' is not in tables.json" in str(error)


def test_a_mandatory_roll_names_one_of_the_steps_tables_and_known_conditions():
    def roll(entry):
        return lambda d: d["refit_steps"]["steps"][0].update(mandatory_rolls=[entry])

    assert check_files(RF, _with(roll({"table": "rf.initiative", "when": {"side": "soviet"}})))
    error = error_for(roll({"table": "rf.elsewhere"}))
    assert "steps[0].mandatory_rolls[0].table" in str(error)
    error = error_for(roll({"table": "rf.initiative", "when": {"moon": "full"}}))
    assert "unknown condition 'moon'" in str(error)
    error = error_for(
        lambda d: d["refit_steps"]["steps"][0].update(
            roll_limits=[{"table": "rf.initiative", "instead": {"rule": "11.6114"}}]
        )
    )
    assert "roll_limits[0].instead: needs a rule and English and Japanese text" in str(error)


def _with(change) -> dict:
    data = files()
    change(data)
    return data


def test_a_step_marker_must_be_one_the_rules_print():
    error = error_for(lambda d: d["refit_steps"]["steps"][0]["markers"].append("+"))
    assert "unknown marker '+'" in str(error)


def test_a_file_newer_than_the_module_version_asks_to_bump_it():
    newer = str(int(RF.version) + 1)
    error = error_for(lambda d: d["tables"].update(version=newer))
    assert f"newer than module.json's version {RF.version}: bump that too" in str(error)


def test_a_version_is_a_whole_number():
    error = error_for(lambda d: d["rg_charts"].update(version="1.0"))
    assert "must be a whole number" in str(error)


def weather_file(**kind) -> dict:
    return {
        "version": "1",
        "source": "seed",
        "types": [{"key": "a_weather", "name": name(), "rolled": "a", **kind}],
    }


def with_weather_results(data: dict) -> dict:
    for row, result in zip(data["tables"]["dice_tables"][0]["rows"], ("a", "b"), strict=True):
        row["result"] = {"weather": result}
    return data


def test_named_weathers_pass_when_each_is_a_result_of_the_weather_table():
    data = with_weather_results({**files(), "weather": weather_file(december=True)})
    check_files(RF, data)


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ({"key": "x" * 31}, "types[0].key"),  # the calendar's weather field holds 30
        ({"rolled": "sleet"}, "types[0].rolled"),
        ({"falling_snow": "yes"}, "types[0].falling_snow"),
        ({"name": {"en": "Mist"}}, "types[0].name"),
    ],
)
def test_a_bad_named_weather_is_refused_with_its_path(kind, path):
    data = with_weather_results({**files(), "weather": weather_file(**kind)})
    with pytest.raises(GameDataError) as error:
        check_files(RF, data)
    assert f"red_factories/weather.json: {path}" in str(error.value)


def test_the_red_factories_weathers_fit_the_calendar_and_speak_both_languages():
    data = RF.files["weather"]
    assert data["version"] == "1" and "003_17379023c41927ed" in data["source"]
    assert all(len(kind["key"]) <= 30 for kind in data["types"])
    assert all(kind["name"]["en"] and kind["name"]["ja"] for kind in data["types"])


def test_an_ec_must_be_a_result_of_the_ec_table():
    data = with_weather_results({**files(), "weather": weather_file()})
    data["weather"]["ec_types"] = [{"key": "damp", "name": name()}]
    with pytest.raises(GameDataError) as error:
        check_files(RF, data)
    assert "red_factories/weather.json: ec_types[0].key" in str(error.value)
