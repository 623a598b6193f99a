"""Defiant Russia data files checked against the seed (001)."""

import math

import pytest

from campaigns.games.dice_tables import parse_table
from tests.campaigns.games.seeds import chart, dice, load_data, seed_lines, walk

WEATHER_JA = {"clear": "晴天", "light_mud": "軽い泥濘", "mud": "泥濘", "snow": "雪"}


@pytest.fixture(scope="module")
def lines():
    return seed_lines("defiant_russia")


@pytest.fixture(scope="module")
def game():
    return load_data("defiant_russia", "game.json")


@pytest.fixture(scope="module")
def tables():
    return load_data("defiant_russia", "tables.json")


@pytest.fixture(scope="module")
def sequence():
    return load_data("defiant_russia", "turn_sequence.json")


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("name", ["game.json", "tables.json", "turn_sequence.json"])
def test_file_header_and_line_references(name, lines):
    data = load_data("defiant_russia", name)
    # turn_sequence.json 2: every step's `applies` in English and Japanese
    assert data["version"] == ("2" if name == "turn_sequence.json" else "1")
    assert data["source"].endswith("001_534cfa9f1632b81e.txt")
    count = 0
    for path, node in walk(data):
        ref = node.get("lines")
        if isinstance(ref, list) and ref and isinstance(ref[0], int):
            first, last = ref
            assert 1 <= first <= last < len(lines), f"{name} {path}.lines {ref}"
            assert lines[first].strip(), f"{name} {path}: seed line {first} is blank"
            count += 1
    assert count >= 15


def test_periods_match_module_json(game):
    module = load_data("defiant_russia", "module.json")
    periods = [p["key"] for p in module["campaign_games"][0]["periods"]]
    assert [t["period"] for t in game["turns"]] == periods
    assert game["campaign_game"] == module["campaign_games"][0]["key"]


# --------------------------------------------------------------------------- dice tables


def test_every_dice_table_parses_and_is_named(tables):
    assert len(tables["dice_tables"]) == 10
    for t in tables["dice_tables"]:
        parse_table(t, t["id"])
        assert t["id"].startswith("dr.")
        assert t["name"]["en"] and t["name"]["ja"]
        assert t["secret"] is False
        assert t["drm_range"] == [0, 0] and t["modifiers"] == []


def test_random_weather_tables_against_seed(tables, lines):
    aug = dice(tables, "dr.weather-august")
    assert [aug.lookup(r)["weather"] for r in range(1, 7)] == ["clear"] * 5 + ["light_mud"]
    assert "8月：1～5は晴天、6は軽い泥濘" in lines[372]

    sep_oct = dice(tables, "dr.weather-september-october")
    assert [sep_oct.lookup(r)["weather"] for r in range(1, 7)] == [
        "clear",
        "clear",
        "light_mud",
        "light_mud",
        "mud",
        "mud",
    ]
    assert "9月と10月：1か2は晴天、3または4は軽い泥濘、5または6は泥濘" in lines[374]

    nov = dice(tables, "dr.weather-november")
    assert [nov.lookup(r)["weather"] for r in range(1, 7)] == [
        "clear",
        "clear",
        "clear",
        "mud",
        "mud",
        "snow",
    ]
    assert "11月：1～3は晴天、4か5は泥濘、6は雪" in lines[376]


def test_weather_schedule_against_seed(game, lines):
    turns = game["turns"]
    assert [t["turn"] for t in turns] == list(range(1, 8))
    assert [t["historical_weather"] for t in turns] == [
        "clear",
        "clear",
        "clear",
        "light_mud",
        "mud",
        "clear",
        "snow",
    ]
    for t in turns:
        line = lines[t["historical_weather_lines"][0]]
        assert f"第{t['turn']}ターン" in line
        assert line.split("：")[1].strip() == WEATHER_JA[t["historical_weather"]]
        assert line.startswith(t["month"]["ja"])
    # random weather: June/July clear, December snow, tables by month
    assert "6月と7月はいつも晴天です" in lines[371]
    assert "12月はいつも雪です" in lines[378]
    by_turn = {t["turn"]: t["random_weather"] for t in turns}
    assert by_turn[1]["fixed"] == by_turn[2]["fixed"] == "clear"
    assert by_turn[7]["fixed"] == "snow"
    assert by_turn[3]["table"] == "dr.weather-august"
    assert by_turn[4]["table"] == by_turn[5]["table"] == "dr.weather-september-october"
    assert by_turn[6]["table"] == "dr.weather-november"
    random_mode = next(m for m in game["weather"]["modes"] if m["key"] == "random")
    assert random_mode["roll_turns"] == [3, 4, 5, 6]
    assert random_mode["roller"] == "soviet" and "ソビエト連邦プレイヤーは8月" in lines[371]


def test_partisan_table(tables, game, lines):
    t = dice(tables, "dr.partisans")
    assert [t.lookup(r)["effect"] for r in range(1, 7)] == ["none"] * 5 + ["axis_reduces_infantry"]
    assert "結果が 6 の時" in lines[486]
    assert "フィンラ" in lines[486] and "ンド軍部隊は選ばません" in lines[488]
    assert game["partisans"]["first_turn"] == 4
    assert "第 4 ターン(9 月)から" in lines[486]


def test_airborne_drop_table(tables, game, lines):
    t = dice(tables, "dr.airborne-drop")
    assert [t.lookup(r)["effect"] for r in range(1, 7)] == [
        "eliminated",
        "reduced",
        "reduced",
        "none",
        "none",
        "none",
    ]
    line = lines[492]
    assert "結果が 1 の時、部隊は除去されます" in line
    assert "2 または 3 の時、部隊は減少戦力になります" in line
    assert "4 から 6 の結果の時は、何の影響もありません" in line
    airborne = game["airborne"]
    assert airborne["arrives_turn"] == 6 and "第 6 ターン(11 月)に増援部隊" in line
    assert airborne["placement_range_hexes"] == 4 and "4 ヘクス以内" in line
    assert airborne["drop_turns"]["historical"] == [7] and "第 7 ターン(12 月)に落下傘降下" in line


def test_leader_casualty_tables(tables, lines):
    partial = dice(tables, "dr.leader-casualty-partial")
    whole = dice(tables, "dr.leader-casualty-whole")
    assert partial.lookup(1)["effect"] == "leader_dies"
    assert partial.lookup(2)["effect"] == "none"
    assert whole.lookup(2)["effect"] == "leader_dies"
    assert whole.lookup(3)["effect"] == "relocate"
    for n in (550, 556, 566):  # Guderian, Stalin, Zhukov
        assert "結果が 1 の時" in lines[n]
        assert "1 または 2 の結果で死亡" in lines[n]


def test_fleet_air_raid_table(tables, game, lines):
    t = dice(tables, "dr.fleet-air-raid")
    assert [t.lookup(r)["effect"] for r in range(1, 7)] == ["none"] * 4 + ["fleet_step_loss"] * 2
    assert "5 または 6 の結果で、艦隊は減少戦力になります" in lines[528]
    raid = game["air_power"]["vs_fleets"]
    assert raid["max_points_per_fleet_per_turn"] == 3 and "最高 3 空軍ポイント" in lines[528]
    assert raid["axis_unit_within_hexes"] == 4 and "4 ヘクス以内" in lines[528]


def test_combat_dice_and_hit_numbers(tables, lines):
    six = dice(tables, "dr.combat-die")
    five_six = dice(tables, "dr.combat-die-5-6")
    assert [six.lookup(r)["hit"] for r in range(1, 7)] == [False] * 5 + [True]
    assert [five_six.lookup(r)["hit"] for r in range(1, 7)] == [False] * 4 + [True] * 2
    assert "6のサイの目毎に攻撃された敵部隊に1ヒット" in lines[304]
    procedure = chart(tables, "dr.combat-procedure")
    hits = {h["id"]: h for h in procedure["hit_rules"]}
    assert hits["default"]["hits_on"] == [6]
    assert hits["fortress_defender"]["hits_on"] == [5, 6]
    assert "防御部隊は5または6でヒットを与えることができ" in lines[414]
    assert hits["first_snow_soviet_attack"]["hits_on"] == [5, 6]
    assert "最初の雪ターンのソビエト軍のすべての攻撃は、6だけでなく、5か6でヒット" in lines[392]
    assert hits["fleet_dice"]["hits_on"] == [6]
    assert "6 のみしかヒットしません" in lines[524]
    air = next(m for m in procedure["strength_modifiers"] if m["id"] == "air_points")
    assert air["max_points"] == 3 and "最高 3 空軍ポイントを 1 つの攻撃に追加" in lines[572]


# --------------------------------------------------------------------------- charts


def tec_rows(tables):
    return {r["terrain"]: r for r in chart(tables, "dr.terrain-effects")["rows"]}


def test_terrain_effects_chart_against_seed(tables, lines):
    rows = tec_rows(tables)
    assert len(rows) == 9
    assert rows["rough"]["movement"] == {"infantry": 2, "cavalry": 2, "armor": 3, "mountain": 1}
    assert "2 mp 歩兵/騎兵, 3mp 装甲, 1 mp 山岳" in lines[612]
    assert rows["rough"]["combat"] == [
        {"side": "defender", "scope": "each_unit", "op": "add", "value": 1}
    ]
    assert "+1 各防御部隊" in lines[612]
    assert rows["forest"]["movement"]["armor"] == 2 and rows["forest"]["movement"]["infantry"] == 1
    assert "2 mp 装甲, 1 mp その他" in lines[613] and "+1 全防御部隊" in lines[613]
    assert rows["swamp"]["movement"]["armor"] == 3 and rows["swamp"]["movement"]["infantry"] == 2
    assert "3 mp 装甲, 2mp その他 装甲の攻撃力半減" in lines[614]
    assert {"side": "attacker", "scope": "each_armor_unit", "op": "add", "value": -1} in rows[
        "city"
    ]["combat"]
    assert "-1 攻撃の各装甲" in lines[615]
    major = rows["major_city"]["combat"]
    assert {"side": "defender", "scope": "total", "op": "add", "value": 1} in major
    assert "+1 全防御部隊, -1 各攻撃の装甲" in lines[616]
    assert rows["river"]["movement"]["armor"] == 1 and rows["river"]["movement"]["additional"]
    assert rows["river"]["combat"][0]["value"] == -1
    assert "+1 装甲渡河" in lines[617] and "-1 各渡河攻撃" in lines[617]
    fortress = rows["fortress"]["combat"]
    assert {"side": "defender", "op": "hits_on", "value": [5, 6]} in fortress
    assert fortress[0]["scope"] == "each_unit" and "部隊毎に1戦力減少" in lines[414]
    assert fortress[0]["alternative_scope"] == "each_armor_unit" and "-1 各攻撃の装甲" in lines[618]
    assert rows["kerch_strait"]["movement"]["armor"] == 3
    assert rows["kerch_strait"]["movement"]["infantry"] == 2
    assert "装甲部隊は横切るのに3移動ポイント、他の部隊は2移動ポイント" in lines[426]


def defender_dice(strengths, terrain_row):
    """Dice of a defending stack: the TEC's per-unit and total additions."""
    total = sum(strengths)
    for effect in terrain_row["combat"]:
        if effect["side"] != "defender" or effect["op"] != "add":
            continue
        if effect["scope"] == "each_unit":
            total += effect["value"] * len(strengths)
        elif effect["scope"] == "total":
            total += effect["value"]
    return total


def test_terrain_worked_examples(tables, lines):
    rows = tec_rows(tables)
    # 9.0: a 3-3 in rough rolls 4 dice; in forest one 3-3 rolls 4, two roll 7 (same in swamp).
    assert defender_dice([3], rows["rough"]) == 4
    assert "3-3歩兵部隊は4個のサイコロを振れます" in lines[400]
    assert defender_dice([3], rows["forest"]) == 4
    assert defender_dice([3, 3], rows["forest"]) == 7
    assert defender_dice([3, 3], rows["swamp"]) == 7
    assert "2個の3-3歩兵部隊では7個になります" in lines[402]
    assert "2個の3-3歩兵部隊では7個になります" in lines[404]
    # 9.1: German 6-6 armor attacking in snow -> 3, into swamp -> 1.5 rounded up to 2.
    example = chart(tables, "dr.terrain-effects")["worked_example"]
    snow = next(
        m
        for m in chart(tables, "dr.combat-procedure")["strength_modifiers"]
        if m["id"] == "snow_axis_attacker"
    )
    swamp = next(e for e in rows["swamp"]["combat"] if e["op"] == "halve")
    assert snow["op"] == swamp["op"] == "halve" and swamp["rounding"] == "up"
    assert math.ceil(example["strength"] * 0.5) == example["after_snow"] == 3
    assert math.ceil(example["strength"] * 0.5 * 0.5) == example["after_swamp"] == 2
    assert "6は3になります" in lines[418] and "1 1/2は切り上げて2になります" in lines[418]


def test_combat_example_uses_oob_strengths(tables, game, lines):
    example = chart(tables, "dr.combat-procedure")["example"]
    units = {u["id"]: u for u in game["oob"]["units"]}
    assert example["attacker_dice"] == units["romanian_mountain_corps"]["strength"] == 4
    assert example["defender_dice"] == units["18th_tank_corps"]["strength"] == 2
    assert "4個のサイコロ" in lines[306] and "2個のサイコロ" in lines[306]
    assert "(2-5)" in lines[306] and "(4-4 部隊)" in lines[306]


def test_breakthrough_chart_against_seed(tables, lines):
    rows = {r["units"]: r for r in chart(tables, "dr.breakthrough-movement")["rows"]}
    assert len(rows) == 7
    assert rows["german_armor"]["mp"]["clear"] == 3 and rows["german_armor"]["mp"]["snow"] == 1
    assert "3 m p\t1 m p" in lines[623]
    assert rows["axis_1_mp"]["mp"]["clear"] == rows["axis_1_mp"]["mp"]["snow"] == 1
    assert "1 m p\t1 m p" in lines[624]
    assert rows["axis_other"]["mp"]["clear"] is None and "不可\t不可" in lines[625]
    assert rows["soviet_armor"]["mp"]["clear"] == rows["soviet_armor"]["mp"]["snow"] == 2
    assert "2 m p\t2 m p" in lines[626]
    assert rows["soviet_cavalry_shock"]["mp"]["snow"] == 1 and "1 m p\t1 m p" in lines[627]
    assert rows["soviet_infantry"]["mp"]["clear"] is None and "不可\t不可" in lines[628]
    assert all(r["mp"]["mud"] is None for r in rows.values() if "mp" in r)
    assert "泥濘ターンには突破移動はできません" in lines[630]
    assert rows["zhukov"]["hexes"]["clear"] == 2 and "2 ヘクスの移動" in lines[562]


# --------------------------------------------------------------------------- schedules


def test_replacement_schedule_by_month(game, lines):
    schedule = game["replacements"]["schedule"]
    assert [r["turn"] for r in schedule] == list(range(1, 8))
    assert [r["axis"]["points"] for r in schedule] == [0, 0, 2, 2, 2, 2, 2]
    assert "第3ターン(8月)から各ターンあたり2補充ポイント" in lines[458]
    assert "補充:第 3 ターン(8 月)から" in lines[134]
    assert [r["soviet"]["base_points"] for r in schedule] == [0, 6, 6, 6, 6, 6, 6]
    assert "第2ターン(7月)から" in lines[462] and "6補充ポイントを基本" in lines[462]
    assert "補充:第 2 ターン(7 月)から" in lines[162]
    assert [r["axis"]["armor_units_max"] for r in schedule] == [None, None, 1, 1, 1, 1, 1]
    assert "1ターンあたり1つの装甲部隊だけ" in lines[458]
    assert [r["soviet"]["armor_units_max"] for r in schedule] == [None, 2, 2, 2, 1, 1, 1]
    assert "7月から9月までは、最高2つまでの装甲部隊" in lines[462]
    assert "10月から12月までは、1つの装甲部隊だけ" in lines[462]
    months = [r["month"]["ja"] for r in schedule]
    assert months[1:4] == ["7月", "8月", "9月"] and months[4:] == ["10月", "11月", "12月"]
    costs = game["replacements"]["costs"]
    assert costs["restore_reduced_to_full"] == 1 and costs["return_eliminated_at_reduced"] == 2
    assert "完全戦力に戻すには1補充ポイント" in lines[450]
    assert "減少戦力でプレイに復帰させるには2補充ポイント" in lines[450]


def test_soviet_replacement_deductions(game, lines):
    soviet = game["replacements"]["soviet"]
    assert soviet["deduction_cities"] == ["leningrad", "moscow", "kiev", "stalingrad"]
    assert "レニングラード、モスクワ、キエフ、またはスターリングラード" in lines[462]
    by_id = {d["id"]: d for d in soviet["deductions"]}
    assert by_id["city_rail_cut"]["points"] == 1 and "1補充ポイントを失います" in lines[462]
    assert by_id["leningrad_cut"]["points"] == 1 and "1 補充ポイントを失います" in lines[468]
    assert "inferred" in by_id["city_axis_controlled"]  # the amount is not printed
    axis = game["replacements"]["axis"]
    assert axis["rebuilt_units_appear"]["default"] == "Warsaw" and "ワルシャワ" in lines[458]
    assert axis["rebuilt_units_appear"]["romanian"] == "Bucharest" and "ブカレスト" in lines[500]


def test_air_point_schedule(game, lines):
    expected = [(6, 0), (8, 0), (8, 0), (7, 1), (6, 2), (4, 2), (0, 4)]
    for turn, (axis, soviet) in zip(game["turns"], expected, strict=True):
        points = turn["air_points"]
        assert (points["axis"], points["soviet"]) == (axis, soviet)
        line = lines[points["lines"][0]]
        assert f"第 {turn['turn']} ターン" in line and line.endswith(f"{axis}/{soviet}")
    assert game["air_power"]["schedule_total"] == {
        "axis": 39,
        "soviet": 9,
        "derived": "sum of turns[].air_points",
    }


def test_rail_and_supply_values(game, lines):
    rail = game["rail_movement"]["units_per_turn"]
    assert rail["axis"] == {"default": 3, "snow": 2} and rail["soviet"]["default"] == 6
    assert "3つの部隊(雪ターンの間は2つ)" in lines[256] and "6部隊移動" in lines[256]
    assert "枢軸軍鉄道移動(6.5)の数は2に減らされます" in lines[390]
    supply = game["supply"]["range_to_rail_hexes"]
    assert supply["default"] == 3 and "3ヘクス以下" in lines[192]
    assert supply["axis_in_snow"] == 2 and "2ヘクスに減らされます" in lines[200]
    assert supply["finnish_in_snow"] == 3 and "フィンランドの補給線は減りません" in lines[200]
    effects = game["weather"]["effects"]
    assert effects["snow"]["axis_rail_units"] == 2 and effects["clear"]["axis_rail_units"] == 3
    assert effects["mud"]["movement_allowance"] == {"factor": 0.5, "rounding": "up"}
    assert "許容移動力が半減(端数切り上げ)" in lines[386]
    assert game["stacking"]["max_units_per_hex"] == 2 and "最高2つの部隊" in lines[230]


# --------------------------------------------------------------------------- phases


def test_phase_conditions_against_seed(game, lines):
    phases = {p["id"]: p for p in game["phases"]}
    assert len(phases) == 11 and [p["number"] for p in game["phases"]] == list(range(1, 12))
    axis_bt = phases["axis_breakthrough_movement"]["exists"]
    soviet_bt = phases["soviet_breakthrough_movement"]["exists"]
    assert 1 not in axis_bt["turns"] and 1 not in soviet_bt["turns"]
    assert "第 1 ターンには突破移動フェイズがありません" in lines[150]
    assert "第 1 ターンには突破移動と突破戦闘フェイズはありません" in lines[284]
    assert "mud" not in axis_bt["weather"] and "mud" not in soviet_bt["weather"]
    assert "どちらのプレイヤーにも突破移動フェイズはありません" in lines[386]
    assert "light_mud" in axis_bt["weather"] and "light_mud" not in soviet_bt["weather"]
    assert "ソビエト連邦突破移動フェイズがなく" in lines[384]
    assert axis_bt["option_changes"][0] == {
        "option": "early_invasion",
        "add_turns": [1],
        "rule": "12.1",
        "lines": [590, 590],
    }
    assert "第 1 ターンに枢軸軍突破移動と枢軸軍突破戦闘フェイズの両方" in lines[590]
    assert phases["axis_breakthrough_combat"]["exists"] == axis_bt
    assert phases["soviet_breakthrough_combat"]["exists"] == soviet_bt
    matrix = {r["turn"]: r["phases"] for r in game["historical_phase_matrix"]["rows"]}
    assert matrix[1]["axis_breakthrough_movement"] == "none"
    assert matrix[2]["soviet_breakthrough_combat"] == "yes"
    assert matrix[4]["axis_breakthrough_movement"] == "limited"
    assert matrix[4]["soviet_breakthrough_movement"] == "none"
    assert matrix[5]["axis_breakthrough_combat"] == "none"
    assert matrix[7]["soviet_breakthrough_movement"] == "yes"


def test_turn_sequence(sequence, tables, game, lines):
    steps = sequence["steps"]
    assert len(steps) == 22
    ids = {t["id"] for t in tables["dice_tables"]} | {c["id"] for c in tables["charts"]}
    seed_text = "\n".join(lines)
    number = {p["id"]: p["number"] for p in game["phases"]}
    order = [number[s["phase"]] for s in steps if s["phase"]]
    assert order == sorted(order) and set(order) == set(range(1, 12))
    for s in steps:
        assert s["name"]["en"] and s["name"]["ja"] in seed_text, s["id"]
        assert set(s["tables"]) <= ids, s["id"]
        assert set(s.get("table_conditions", {})) <= set(s["tables"]), s["id"]
        assert s["markers"] == [] and s["secret"] is False
        assert s["applies"]["en"] and s["applies"]["ja"], s["id"]
        if s["phase"] in ("axis_breakthrough_movement", "axis_breakthrough_combat"):
            assert s["conditions"] == game["phases"][number[s["phase"]] - 1]["exists"]
    by_id = {s["id"]: s for s in steps}
    assert (
        by_id["axis_replacements"]["conditions"]["turns"][0]
        == game["replacements"]["axis"]["first_turn"]
        == 3
    )
    assert (
        by_id["soviet_replacements"]["conditions"]["turns"][0]
        == game["replacements"]["soviet"]["first_turn"]
        == 2
    )
    assert by_id["partisans"]["conditions"]["turns"] == [4, 5, 6, 7]
    assert "バルチザン:第 4 ターン (9 月) から" in lines[166]
    assert by_id["shock_army_exchange"]["conditions"]["turns"] == [7]
    assert by_id["weather"]["table_conditions"]["dr.weather-november"]["turns"] == [6]


# --------------------------------------------------------------------------- rules data


def test_victory_against_seed(game, lines):
    victory = game["victory"]
    cities = {c["id"]: c for c in victory["cities"]}
    assert cities["moscow"]["vp"] == 2 and cities["moscow"]["hex"] is None
    assert cities["moscow"]["unknown"] is True
    assert "モスクワは 2 ポイントに値し" in lines[598]
    expected_hexes = {
        "bryansk": "2813",
        "kharkov": "2311",
        "kiev": "2507",
        "leningrad": "3914",
        "minsk": "3308",
        "rostov": "1713",
        "sevastopol": "1506",
    }
    for city, hex_ in expected_hexes.items():
        assert cities[city]["hex"] == hex_ and cities[city]["vp"] == 1
        assert f"{cities[city]['name']['ja']}({hex_})" in lines[598]
    assert victory["draws"] is False and "引き分けはありません" in lines[604]
    assert (
        victory["casualties"]["tie"] == "soviet"
        and "ソビエト連邦プレイヤーが VP を受け取ります" in lines[602]
    )
    weights = {
        (w["side"], tuple(w["units"])): w["weight"] for w in victory["casualties"]["weights"]
    }
    assert weights[("axis", ("guderian", "german_armor"))] == 3 and "3 倍" in lines[600]
    assert (
        weights[("soviet", ("fleet", "shock_army", "airborne", "zhukov"))] == 2
        and "2 倍" in lines[600]
    )
    # worked example: the historical result is 6 to 5 for the Soviet player.
    vp = {c: cities[c]["vp"] for c in cities} | {"stalin_alive": 1, "casualties": 1}
    result = victory["historical_result"]
    assert sum(vp[x] for x in result["soviet"]["from"]) == result["soviet"]["vp"] == 6
    assert sum(vp[x] for x in result["axis"]["from"]) == result["axis"]["vp"] == 5
    assert "6 対 5" in lines[604]
    auto = {a["side"]: a["hold_simultaneously"] for a in victory["automatic"]}
    assert auto["axis"] == ["leningrad", "moscow", "stalingrad"]
    assert auto["soviet"] == ["warsaw", "helsinki"] and "ワルシャワとヘルシンキ" in lines[606]


def test_oob_fragments(game, lines):
    units = {u["id"]: u for u in game["oob"]["units"]}
    assert game["oob"]["complete"] is False
    printed = {
        "18th_tank_corps": ("2-5", 306),
        "italian_csir": ("3-5 CSIR", 118),
        "hungarian_mobile_corps": ("4-4Mob", 118),
        "blue_division": ("1-4 の青師団", 118),
        "romanian_mountain_corps": ("4-4 部隊", 306),
    }
    for unit_id, (text, line) in printed.items():
        unit = units[unit_id]
        assert text in lines[line]
        assert text.startswith(f"{unit['strength']}-{unit['movement']}")
    for unit in units.values():
        assert unit["name"]["en"] and unit["name"]["ja"]
        if "strength" in unit and unit["strength"] is None:
            assert unit.get("unknown") is True, unit["id"]
    assert units["shock_armies"]["count"] == 4 and "4 つの打撃軍部隊" in lines[482]
    assert units["romanian_units"]["count"] == 6 and "6 個ある黄色地はルーマニア軍" in lines[118]
    assert units["23rd_tank_corps"]["fixed_location"] == "odessa" and "オデッサの都市" in lines[70]
    assert units["zhukov"]["entry_turn"] == 4 and "9 月に増援部隊" in lines[562]


def test_setup_codes(game, lines):
    codes = game["setup"]["codes"]
    assert len(codes["soviet"]) == 16 and len(codes["axis"]) == 5
    for side in ("soviet", "axis"):
        for code in codes[side]:
            assert lines[code["lines"][0]].startswith(f"{code['code']}:"), code
    assert game["setup"]["order"] == ["soviet", "axis"]
    assert "ソビエト連邦プレーヤーは先に配置しなければなりません" in lines[66]


def test_leaders_and_options(game, lines):
    leaders = {x["id"]: x for x in game["leaders"]["leaders"]}
    assert leaders["guderian"]["attack_bonus"] == {"clear": 2, "other": 1}
    assert "晴天のターンに攻撃する時" in lines[548] and "2 戦力追加" in lines[548]
    assert leaders["stalin"]["defense_bonus"] == 2 and "全戦力に 2 戦力を追加" in lines[554]
    zhukov = leaders["zhukov"]
    assert zhukov["attack_bonus"] == {"stack": 2, "two_adjacent_hexes": 1}
    assert zhukov["defense_bonus"] == 1 and "防御する時にジューコフ" in lines[564]
    assert zhukov["movement"]["extra_hexes"] == 3 and "さらに 3 ヘクス" in lines[562]
    options = {o["id"]: o for o in game["optional_rules"]}
    no_purge = options["no_purge"]["effects"]
    assert (no_purge[0]["strength"], no_purge[0]["movement"]) == (4, 3)
    assert (no_purge[1]["strength"], no_purge[1]["movement"]) == (3, 5)
    assert "ソビエト歩兵は 4-3" in lines[594] and "ソビエト装甲は 3-5" in lines[594]
    early = {e.get("unit"): e.get("turn") for e in options["early_invasion"]["effects"]}
    months = {t["turn"]: t["month"]["ja"] for t in game["turns"]}
    assert months[early["hungarian_mobile_corps"]] == "9月"
    assert months[early["italian_csir"]] == "10月"
    assert "ハンガリーの軍団は 9 月、イタリア軍は 10 月に到着" in lines[590]
