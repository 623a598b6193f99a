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


def _shown_keys(value, found):
    """Every field key the "Other data" tab shows for ``value`` (``show``'s walk)."""
    if isinstance(value, dict):
        if isinstance(value.get("en"), str) and set(value) <= {"en", "ja"}:
            return found
        if value.get("unknown") is True:  # shown as "unknown", whatever it holds
            return found
        named = any(isinstance(value.get(key), dict) for key in ("name", "when", "text"))
        for key, item in value.items():
            if key in ("en", "ja") or hidden_key(key) or (key == "id" and named):
                continue
            found.add(key)
            _shown_keys(item, found)
    elif isinstance(value, list):
        for item in value:
            _shown_keys(item, found)
    return found


def test_every_field_of_every_other_data_file_has_japanese_words():
    """A new field in a data file fails here until it is named in data_words (one English
    word, "cell", would slip past the Japanese walk's check for two English words)."""
    from campaigns.games.data_words import WORDS, _campaign_game_codes, _side_names
    from campaigns.games.registry import all_modules
    from campaigns.games.views import OWN_PAGE

    unnamed = set()
    for module in all_modules():
        for stem, data in module.files.items():
            if stem in OWN_PAGE:
                continue
            keys = _shown_keys(for_players(data, id_names(module, data)), set())
            unnamed |= {
                f"{module.key}/{stem}: {key}"
                for key in keys
                if key not in WORDS
                and key not in _side_names()
                and key not in _campaign_game_codes()
                and not key[0].isdigit()  # a date or a unit: "1942-10-17", "3PzK"
                and not key.isupper()  # a map's or map group's name: "RB", "N"
                and key != "SaP"
            }
    assert sorted(unnamed) == []


def test_the_short_games_fields_and_values_in_japanese():
    assert data_key("soviet_breakthrough_movement", "ja") == "ソ連軍突破移動"
    assert data_key("axis", "ja") == "枢軸軍"  # a side's key, by the side's name
    assert value_words("encirclement_formed", "ja") == "包囲網の完成"
    assert value_words("turn-7", "ja") == "第7ターン"
    assert value_words("turn-7", "en") == "turn 7"
    assert value_words("vp_2", "ja") == "2 VP"
    assert value_words("setup_Kh", "ja") == "配置コードKh"
    assert value_words("stemmermann", "ja") == "ステンマーマン集団"  # a field's key as a value


def test_a_rule_by_its_text_hides_its_id_and_readings_for_maintainers_are_hidden():
    for key in ("decision", "soviet_entry_decision", "decisions", "reading", "derived", "shape"):
        assert hidden_key(key), key
    rule = {"id": "turn0_1uf_frozen", "text": {"en": "Turn 0: frozen.", "ja": "第0ターン：停止。"}}
    with translation.override("ja"):
        html = str(show(rule))
    assert "turn0_1uf_frozen" not in html and "第0ターン：停止。" in html
    data = {"conditions": [{**rule, "id": "s1.n_units"}], "requires": "s1.n_units"}
    names = id_names(get_module("cherkassy_pocket"), data)
    assert for_players(data, names)["requires"] == rule["text"]


def test_a_data_files_title_is_in_words_not_its_file_name():
    from campaigns.games.data_words import file_title

    assert file_title("game", "ja") == "ゲームの規則のデータ"
    assert file_title("historical_drm", "en") == "Historical DRM chart"
