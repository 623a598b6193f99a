"""The game browser's generic view of data: named ids by their names, maintainers' keys left
out, field names and keys standing as values in the reader's language."""

from django.utils import translation

from campaigns.games.data_words import data_key, value_words
from campaigns.games.display import for_players, hidden_key, id_names
from campaigns.games.registry import get_module
from campaigns.templatetags.gamedata_tags import show


def test_an_id_the_data_names_is_shown_by_its_name_and_bookkeeping_is_left_out():
    data = {
        "boxes": [{"id": "eliminated", "name": {"en": "Eliminated", "ja": "除去"}}],
        "rows": [{"box": "eliminated", "lines": [3, 4], "box_lines": [3, 3]}],
        "weather": {"en": "Snow", "ja": "雪", "inferred": "why"},
        "count_printed": "3",
        "remark": "read as …",
    }
    shown = for_players(data, id_names(get_module("cherkassy_pocket"), data))
    assert shown == {
        "boxes": [{"id": "eliminated", "name": {"en": "Eliminated", "ja": "除去"}}],
        "rows": [{"box": {"en": "Eliminated", "ja": "除去"}}],
        "weather": {"en": "Snow", "ja": "雪"},
    }


def test_dice_tables_campaign_games_and_sides_are_named_across_modules():
    names = id_names(get_module("red_factories"))
    assert names["rb-cg-1"] == {"en": "RB CG I", "ja": "RB CG I"}
    assert names["german"]["ja"]
    assert names["rf.san-adjustment"]["ja"]
    assert names["cp.column-shifts"]["ja"] == "コラムシフト"  # another module's chart


def test_maintainers_keys_are_hidden():
    for key in ("lines", "stemmermann_lines", "inferred", "columns_inferred", "flags_printed"):
        assert hidden_key(key), key
    for key in ("rule", "notes", "cost", "name"):
        assert not hidden_key(key), key


def test_field_names_and_keys_as_values_in_the_readers_language():
    assert data_key("stemmermann_sub_box", "ja") == "ステンマーマン集団用サブボックス"
    assert data_key("stemmermann_sub_box", "en") == "Stemmermann Group sub-box"
    assert data_key("ro-cg-3", "ja") == "RO CG III"
    assert data_key("no_words_for_this", "ja") == "no words for this"
    assert value_words("shock_army", "ja") != "shock_army"
    assert value_words("each_armor_unit", "ja") == "装甲ユニットごと"
    assert value_words("Typed words", "ja") == "Typed words"


def test_show_names_a_named_object_without_its_id_and_its_keys_in_japanese():
    with translation.override("ja"):
        html = str(show({"id": "air", "name": {"en": "Air", "ja": "航空支援"}, "shift": 1}))
    assert "航空支援" in html and "シフト" in html
    assert ">air<" not in html and "shift" not in html
