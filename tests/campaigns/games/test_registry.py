import copy
import json

import pytest

from campaigns.games.registry import (
    GAMES_DIR,
    GameDataError,
    LocalizedText,
    all_modules,
    get_module,
    load_module_file,
    localized,
    parse_module,
)


def raw(module_key: str) -> dict:
    return json.loads((GAMES_DIR / module_key / "module.json").read_text(encoding="utf-8"))


def test_it_knows_the_four_games_in_menu_order():
    assert [m.key for m in all_modules()] == [
        "red_factories",
        "slaughter_at_ponyri",
        "defiant_russia",
        "cherkassy_pocket",
    ]


@pytest.mark.parametrize(
    ("module_key", "sides"),
    [
        ("red_factories", ("german", "soviet")),
        ("slaughter_at_ponyri", ("german", "russian")),
        ("defiant_russia", ("axis", "soviet")),
        ("cherkassy_pocket", ("german", "soviet")),
    ],
)
def test_each_game_has_its_two_sides(module_key, sides):
    assert get_module(module_key).side_keys == sides


def test_red_factories_has_the_eight_campaign_games_with_their_cg_days():
    # 11.51-11.58: first and last CG day and the number of CG days of each CG.
    rf = get_module("red_factories")
    days = {
        cg.code: (cg.periods[0].key, cg.periods[-1].key, len(cg.periods))
        for cg in rf.campaign_games
    }
    assert days == {
        "RB CG I": ("1942-10-17", "1942-10-29", 13),
        "RB CG II": ("1942-11-11", "1942-11-15", 5),
        "RB CG III": ("1942-10-17", "1942-11-15", 30),
        "RB CG IV": ("1942-10-25", "1942-10-31", 7),
        "RO CG I": ("1942-10-23", "1942-10-31", 9),
        "RO CG II": ("1942-11-11", "1942-11-15", 5),
        "RO CG III": ("1942-12-15", "1942-12-30", 16),
        "RF CG I": ("1942-11-11", "1942-11-15", 5),
    }


def test_a_cg_day_has_an_english_and_a_japanese_label():
    first = get_module("red_factories").campaign_game("rb-cg-1").periods[0]
    assert first.label.in_language("en") == "17 Oct 1942"
    assert first.label.in_language("ja") == "1942年10月17日"


def test_slaughter_at_ponyri_has_six_time_frames():
    cg = get_module("slaughter_at_ponyri").campaign_game("timetable-disrupted")
    assert [p.key for p in cg.periods] == ["CG-1", "CG-2", "CG-3", "CG-4", "CG-5", "CG-6"]


def test_defiant_russia_has_seven_monthly_turns():
    cg = get_module("defiant_russia").campaign_games[0]
    assert len(cg.periods) == 7
    assert cg.periods[0].label.en == "Turn 1: June 1941"
    assert cg.periods[-1].label.en == "Turn 7: December 1941"


def test_cherkassy_pocket_scenarios_cover_their_turns():
    cp = get_module("cherkassy_pocket")
    turns = {cg.code: (cg.periods[0].key, cg.periods[-1].key) for cg in cp.campaign_games}
    assert turns == {
        "Scenario 1": ("turn-0", "turn-6"),
        "Scenario 2": ("turn-7", "turn-15"),
        "Scenario 3": ("turn-16", "turn-23"),
        "Scenario 4": ("turn-0", "turn-23"),
    }
    assert cp.campaign_game("scenario-4").periods[-1].label.en == "Turn 23: 17 Feb 1944"


def test_a_missing_field_is_reported_with_its_path():
    data = raw("red_factories")
    del data["campaign_games"][2]["name"]["ja"]
    with pytest.raises(GameDataError) as error:
        parse_module(data)
    assert error.value.path == "module.campaign_games[2].name.ja"


def test_a_bad_date_is_reported_with_its_path():
    data = raw("red_factories")
    data["campaign_games"][0]["last_day"] = "29 Oct"
    with pytest.raises(GameDataError, match=r"campaign_games\[0\]\.last_day"):
        parse_module(data)


def test_a_calendar_that_ends_before_it_starts_is_refused():
    data = raw("red_factories")
    data["campaign_games"][0]["last_day"] = "1942-10-01"
    with pytest.raises(GameDataError, match="before first_day"):
        parse_module(data)


def test_a_game_needs_exactly_two_distinct_sides():
    data = raw("defiant_russia")
    three = copy.deepcopy(data)
    three["sides"].append(three["sides"][0])
    with pytest.raises(GameDataError, match="exactly two sides"):
        parse_module(three)
    same = copy.deepcopy(data)
    same["sides"][1]["key"] = same["sides"][0]["key"]
    with pytest.raises(GameDataError, match="side keys must differ"):
        parse_module(same)


def test_duplicate_campaign_game_keys_are_refused():
    data = raw("cherkassy_pocket")
    data["campaign_games"][1]["key"] = data["campaign_games"][0]["key"]
    with pytest.raises(GameDataError, match="keys must be unique"):
        parse_module(data)


def test_a_file_must_sit_in_the_folder_named_after_its_key(tmp_path):
    folder = tmp_path / "wrong_name"
    folder.mkdir()
    (folder / "module.json").write_text(json.dumps(raw("defiant_russia")), encoding="utf-8")
    with pytest.raises(GameDataError, match="folder name"):
        load_module_file(folder / "module.json")


def test_invalid_json_is_reported(tmp_path):
    folder = tmp_path / "defiant_russia"
    folder.mkdir()
    (folder / "module.json").write_text("{", encoding="utf-8")
    with pytest.raises(GameDataError, match="not valid JSON"):
        load_module_file(folder / "module.json")


# --- localized: the one way to pick a text in the reader's language --------------------------

NAME = LocalizedText(en="Rifle Company", ja="歩兵中隊")


@pytest.mark.parametrize(
    ("value", "language", "text"),
    [
        (NAME, "ja", "歩兵中隊"),
        (NAME, "ja-jp", "歩兵中隊"),
        (NAME, "en", "Rifle Company"),
        (NAME, "en-us", "Rifle Company"),
        (NAME, None, "Rifle Company"),
        (NAME, "", "Rifle Company"),
        (NAME, "de", "Rifle Company"),
        ({"en": "Rifle Company", "ja": "歩兵中隊"}, "ja", "歩兵中隊"),
        ({"en": "Rifle Company", "ja": "歩兵中隊"}, "en", "Rifle Company"),
        ({"en": "Rifle Company", "ja": "歩兵中隊"}, None, "Rifle Company"),
        # Longer data texts may lack Japanese: English rather than nothing.
        ({"en": "Rifle Company"}, "ja", "Rifle Company"),
        ({"en": "Rifle Company", "ja": ""}, "ja", "Rifle Company"),
        (LocalizedText(en="Rifle Company", ja=""), "ja", "Rifle Company"),
        ({}, "ja", ""),
        (None, "ja", ""),
        ("I1", "ja", "I1"),
        (7, "en", "7"),
    ],
)
def test_localized_picks_japanese_when_asked_and_present_else_english(value, language, text):
    assert localized(value, language) == text


def test_in_language_is_localized():
    assert [NAME.in_language(language) for language in ("ja", "en", None)] == [
        localized(NAME, language) for language in ("ja", "en", None)
    ]
