"""Cherkassy Pocket data files checked against the seed (002)."""

import datetime as dt
import math

import pytest

from campaigns.games.dice_tables import parse_table
from tests.campaigns.games.seeds import chart, dice, load_data, seed_lines, walk


@pytest.fixture(scope="module")
def lines():
    return seed_lines("cherkassy_pocket")


@pytest.fixture(scope="module")
def game():
    return load_data("cherkassy_pocket", "game.json")


@pytest.fixture(scope="module")
def tables():
    return load_data("cherkassy_pocket", "tables.json")


@pytest.fixture(scope="module")
def sequence():
    return load_data("cherkassy_pocket", "turn_sequence.json")


def numbers_in(node):
    if isinstance(node, bool):
        return []
    if isinstance(node, (int, float)):
        return [node]
    if isinstance(node, dict):
        return [n for v in node.values() for n in numbers_in(v)]
    if isinstance(node, list):
        return [n for v in node for n in numbers_in(v)]
    return []


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("name", ["game.json", "tables.json", "turn_sequence.json"])
def test_file_header_and_line_references(name, lines):
    data = load_data("cherkassy_pocket", name)
    # turn_sequence.json 2: every step's `applies` in English and Japanese
    assert data["version"] == ("2" if name == "turn_sequence.json" else "1")
    assert data["source"].endswith("002_df3dfbb03d5b62ed.txt")
    count = 0
    for path, node in walk(data):
        ref = node.get("lines")
        if isinstance(ref, list) and ref and isinstance(ref[0], int):
            first, last = ref
            assert 1 <= first <= last < len(lines), f"{name} {path}.lines {ref}"
            assert lines[first].strip(), f"{name} {path}: seed line {first} is blank"
            count += 1
    assert count >= 15


# --------------------------------------------------------------------------- dice tables


def test_every_dice_table_parses(tables):
    assert [t["id"] for t in tables["dice_tables"]] == [
        "cp.tank-breakdown",
        "cp.pz24-arrival",
        "cp.air-points-german",
        "cp.air-points-soviet",
        "cp.artillery-fire",
    ]
    for t in tables["dice_tables"]:
        parse_table(t, t["id"])
        assert t["name"]["en"] and t["name"]["ja"] and t["secret"] is False


def test_tank_breakdown_table(tables, game, lines):
    t = dice(tables, "cp.tank-breakdown")
    assert t.lookup(1)["effect"] == "maintenance_step_loss"
    assert [t.lookup(r)["effect"] for r in range(2, 7)] == ["none"] * 5
    assert (
        "各々のユニットについてダイスを1つ振る。「1」の目が出たユニットは、整備失敗ということで、1ステップ喪失する"
        in lines[329]
    )
    assert game["tank_breakdown"]["not_for_advance_after_combat"] is True
    assert "戦闘後前進では、整備不良の判定は実施しない" in lines[333]


def test_pz24_arrival_table(tables, game, lines):
    t = dice(tables, "cp.pz24-arrival")
    assert [t.lookup(r)["effect"] for r in range(1, 7)] == ["arrives"] * 3 + ["never_arrives"] * 3
    assert "1～3ならば予定どおり登場し、4～6であれば" in lines[321]
    assert game["reinforcements"]["pz24"]["turn"] == 9 and "ターン9（2月3日）" in lines[319]


def test_air_point_tables(tables, game, lines):
    german = dice(tables, "cp.air-points-german")
    soviet = dice(tables, "cp.air-points-soviet")
    assert [german.lookup(r)["air_points"] for r in range(1, 7)] == [1, 2, 3, 4, 5, 5]
    assert "最大5である（6の目は5とする）" in lines[426]
    assert [soviet.lookup(r)["air_points"] for r in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert "その目の数だけ、セグメントごとに航空支援を受けられる" in lines[424]
    air = game["air_support"]
    assert air["german_max"] == 5
    fixed = {f["turn"]: f["points"] for f in air["soviet_fixed_per_segment"]}
    assert fixed == {0: 3, 1: 6}
    assert "第0ターン（1月25日）は3ポイント、第1ターン（1月26日）には6ポイント" in lines[428]
    assert air["max_points_per_combat"] == 1 and "1戦闘につき1ポイントまで" in lines[430]
    firsts = {f["campaign_game"]: f for f in air["scenario_first_turn_german_per_segment"]}
    assert firsts["scenario-2"]["points"] == firsts["scenario-3"]["points"] == 3
    assert (
        "ドイツ軍は3ポイントの航空支援" in lines[555]
        and "ドイツ軍は3ポイントの航空支援" in lines[586]
    )
    split = air["soviet_front_split"]
    assert "端数分は、第1ウクライナ正面軍（マップ西部）に与えられる" in lines[432]
    n = 5  # an odd roll: 3 to the 1st UF, 2 to the 2nd UF
    assert split["first_ukrainian_front"] == "ceil(points / 2)"
    assert (math.ceil(n / 2), math.floor(n / 2)) == (3, 2)


def test_artillery_fire_table(tables, game, lines):
    t = dice(tables, "cp.artillery-fire")
    assert [t.lookup(r)["fire_strength"] for r in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert "この出目が、その戦闘におけるユニットそれぞれの砲撃力となる" in lines[470]
    artillery = game["combat"]["artillery"]
    assert (artillery["max_per_attack"], artillery["max_per_defense"]) == (3, 1)
    assert "3ユニット、1つの防御については1ユニットまで" in lines[468]
    assert artillery["own_defense"] == 1 and "1防御力を有する、1ステップのユニット" in lines[460]


def test_no_missing_table_was_invented(tables):
    ids = {t["id"] for t in tables["dice_tables"]} | {c["id"] for c in tables["charts"]}
    assert not ids & {"cp.weather", "cp.weather-table", "cp.crt", "cp.tec"}
    terrain = next(r for r in chart(tables, "cp.column-shifts")["rows"] if r["id"] == "terrain")
    assert terrain["shift"] is None and terrain["unknown"] is True


# --------------------------------------------------------------------------- turn track


def test_turn_dates(game, lines):
    track = game["turn_track"]
    module = load_data("cherkassy_pocket", "module.json")
    campaign = next(cg for cg in module["campaign_games"] if cg["key"] == "scenario-4")
    assert [t["period"] for t in track] == [p["key"] for p in campaign["periods"]]
    for t, period in zip(track, campaign["periods"], strict=True):
        date = dt.date.fromisoformat(t["date"])
        assert date == dt.date(1944, 1, 25) + dt.timedelta(days=t["turn"])
        assert period["label"]["ja"].endswith(f"1944年{date.month}月{date.day}日")
        assert t["activation_segments"] == 2
        assert t["track_weather"] is None and t["track_weather_unknown"] is True
    stated = {t["turn"] for t in track if t["date_stated"]}
    assert stated == {0, 1, 2, 5, 7, 9, 15, 16, 23}
    for t in track:
        date = dt.date.fromisoformat(t["date"])
        if t["date_stated"]:
            text = "".join(lines[a] for a, _ in t["lines"])
            assert f"{date.month}月{date.day}日" in text, t
        else:
            assert "inferred" in t
    assert "第0ターン（1月25日）" in lines[428] and "第1ターン（1月26日）" in lines[428]
    assert "1月27日ターン" in lines[313] and "5ターン(1月30日)" in lines[132]
    assert "第7ターン(2月1日)" in lines[550] and "第15ターン(2月9日)" in lines[550]
    assert "第16ターン(2月10日)" in lines[581] and "第23ターン(2月17日)" in lines[581]


# --------------------------------------------------------------------------- scenarios


def test_scenario_lengths(game, lines):
    module = {
        cg["key"]: cg for cg in load_data("cherkassy_pocket", "module.json")["campaign_games"]
    }
    scenarios = {s["campaign_game"]: s for s in game["scenarios"]}
    assert set(scenarios) == set(module)
    for key, s in scenarios.items():
        periods = [p["key"] for p in module[key]["periods"]]
        assert periods[0] == f"turn-{s['start']['turn']}"
        assert periods[-1] == f"turn-{s['end_turn']}"
        assert len(periods) == s["turns"]
    assert "第0ターン(1月25日)から第6ターンまで" in lines[514]
    assert "第0ターンから第23ターンまで" in lines[607]
    for key, line in (("scenario-2", 550), ("scenario-3", 581)):
        assert scenarios[key]["start"]["segment"] == 1
        assert scenarios[key]["start"]["step"] == "german_operations"
        assert "第1活性化セグメント・ドイツ軍作戦セグメントから" in lines[line]
    weather = {w["campaign_game"]: w["weather"] for w in game["weather"]["scenario_first_turn"]}
    assert weather == {"scenario-2": "snow", "scenario-3": "mud"}
    assert "自動的に降雪" in lines[554] and "自動的に泥濘" in lines[585]


def test_scenario_1_victory(game, lines):
    s1 = next(s for s in game["scenarios"] if s["campaign_game"] == "scenario-1")
    conditions = {c["id"]: c for c in s1["victory"]["conditions"]}
    assert conditions["s1.n_units"]["test"] == {
        "german_units_marked_n_eliminated_or_encircled_min": 10
    }
    assert "10個以上" in lines[528]
    assert conditions["s1.non_n_units"]["test"] == {
        "german_units_not_marked_n_eliminated_or_encircled_min": 14
    }
    assert "14個以上" in lines[530]
    assert conditions["s1.korsun_airfield"]["test"] == {"hex": "3809", "controlled_by": "soviet"}
    assert "コルスン飛行場(3809)がソ連軍の支配下" in lines[532]
    assert [c["vp"] for c in s1["victory"]["conditions"]] == [1, 1, 1]
    for level in s1["victory"]["levels"]:
        line = lines[level["lines"][0]]
        assert line.startswith(f"{level['vp']} V P") and level["name"]["ja"] in line


@pytest.mark.parametrize("key", ["scenario-2", "scenario-3"])
def test_relief_scenario_victory(game, lines, key):
    s = next(s for s in game["scenarios"] if s["campaign_game"] == key)
    conditions = s["victory"]["conditions"]
    assert [c["vp"] for c in conditions] == [1, 2, 1]
    for c in conditions:
        assert lines[c["lines"][0]].replace(" ", "").lstrip("- ").startswith(f"{c['vp']}VP")
    assert conditions[0]["exclusive_group"] == conditions[1]["exclusive_group"] == "stemmermann"
    assert "3 V Pとはならない" in lines[565] and "3VPとはならない" in lines[594]
    # the best result: the exclusive pair gives at most 2, plus the tank VP = 3
    best = max(c["vp"] for c in conditions[:2]) + conditions[2]["vp"]
    assert best == s["victory"]["max_vp"] == 3
    assert [lv["vp"] for lv in s["victory"]["levels"]] == [0, 1, 2, 3]
    for level in s["victory"]["levels"]:
        assert level["name"]["ja"] in lines[level["lines"][0]]


def test_scenario_4_victory(game, lines):
    s4 = next(s for s in game["scenarios"] if s["campaign_game"] == "scenario-4")
    conditions = {c["id"]: c for c in s4["victory"]["conditions"]}
    assert conditions["s4.pocket_composition"]["test"] == {
        "stemmermann_units_marked_n_min": 10,
        "stemmermann_units_not_marked_n_min": 14,
    }
    assert "“N”の記号の入ったユニット10個以上と、“N”が入っていないユニット14個以上" in lines[621]
    assert conditions["s4.pocket_end_state"]["requires"] == "encirclement_formed"
    assert "包囲網が形成されなければ" in lines[625]
    assert sum(c["vp"] for c in conditions.values()) == s4["victory"]["max_vp"] == 3
    for level in s4["victory"]["levels"]:
        assert level["name"]["ja"] in lines[level["lines"][0]]


def test_special_rules_turn_0(game, lines):
    for key, line in (("scenario-1", 518), ("scenario-4", 611)):
        s = next(s for s in game["scenarios"] if s["campaign_game"] == key)
        rules = {r["id"]: r for r in s["special_rules"]}
        assert rules["turn0_german_west_of_37xx"]["hex_column_below"] == 37
        assert "37××列より西" in lines[line]
        assert rules["turn0_seg1_tank_corps"]["formations"] == ["18 TC", "20 TC", "29 TC"]
        assert "第18・20・29戦車軍団" in lines[line + 1]
        assert rules["korsun_no_approach"]["radius_hexes"] == 6
        assert "コルスン飛行場から6ヘクス以内" in lines[line + 2]
        assert rules["5gtc_motorized_rifle_battalion"]["foot_movement"] == 4
        assert rules["5gtc_motorized_rifle_battalion"]["hex"] == "2625"


# --------------------------------------------------------------------------- rule values


def test_sequence_and_supply_values(game, lines):
    assert game["sequence"]["activation_segments_per_turn"] == 2
    assert "移動と戦闘フェイズは2つの活性化セグメントで発生する" in lines[176]
    supply = game["supply"]
    assert supply["non_road_max_hexes"] == 6 and "6ヘクス以内" in lines[253]
    assert (
        supply["river_or_lake_hexsides_max"] == 1 and "1つだけしか横切ることできない" in lines[271]
    )
    assert supply["sources"]["german"]["west_edge_hexes"] == ["1033", "1034"]
    assert "1033/1034" in lines[261]
    assert supply["korsun_supply_unit"]["hex"] == "3809" and "Korsun(3809)" in lines[263]
    assert supply["korsun_supply_unit"]["moved"]["radius_hexes"] == 6
    assert "補給ユニットから6ヘクス以内" in lines[265]
    attack = supply["out_of_supply"]["attack"]
    assert attack == {
        "factor": 0.5,
        "rounding": "down",
        "minimum": 1,
        "sum_first": True,
        "applies_to": {"en": "non-artillery attackers", "ja": "砲兵以外の攻撃ユニット"},
    }
    assert "端数は切り捨てる" in lines[245] and "1戦力よりも小さくなることはない" in lines[245]


def test_stacking_and_combat_limits(game, lines):
    stacking = game["stacking"]
    assert stacking["max_non_artillery_units"] == 3 and "非砲兵ユニットを3つまで" in lines[279]
    participation = stacking["soviet_combat_participation"]
    assert participation["max_infantry_regiment_equivalents"] == 2
    assert participation["equivalents"]["battalion"] == 0.5 and "0.5歩兵連隊" in lines[371]
    combat = game["combat"]
    assert combat["soviet_independents_per_attack"]["max"] == 4 and "4ユニットまで" in lines[444]
    assert (
        combat["river"]["attackers_across"]["rounding"] == "up" and "端数は切り上げる" in lines[410]
    )
    assert game["reconstitution"]["battalions_per_unit_returned"] == 3
    assert "歩兵大隊3ユニットにつき1ユニット" in lines[484]
    assert game["recovery"]["placement_radius_hexes"] == 6 and "6ヘクス以内" in lines[498]
    assert game["movement"]["road_march"]["movement_factor"] == 2 and "2倍の移動力" in lines[363]
    edges = game["reinforcements"]["edges"]
    assert edges["E"]["hexes"] == ["7001", "7034"] and "7001～7034" in lines[303]
    assert edges["W"]["hexes"] == ["1001", "1032"] and "1001～1032" in lines[303]
    assert edges["N"]["hexes"] == ["1901", "5201"] and "1901～5201" in lines[313]
    north = game["reinforcements"]["north_edge"]["german"]
    assert (north["from_turn"], north["from_segment"]) == (2, 2)
    assert "1月27日ターンの第2活性化セグメント以降" in lines[313]


def odds_column(attack, defense, shift, columns):
    """Odds (11.6-11.8): clamp the raw odds to the table, shift, clamp again."""
    if attack >= defense:
        raw = f"{attack // defense}:1"
        index = columns.index(raw) if raw in columns else len(columns) - 1
    else:
        raw = f"1:{math.ceil(defense / attack)}"
        index = columns.index(raw) if raw in columns else 0
    return columns[max(0, min(len(columns) - 1, index + shift))]


def test_odds_worked_examples(game, tables, lines):
    columns = next(s for s in game["referee_slots"] if s["id"] == "cp.crt")["shape"][
        "columns_inferred"
    ]
    assert columns[0] == "1:4" and columns[-1] == "7:1" and "1:4~7:1" in lines[383]
    examples = game["combat"]["odds"]["examples"]
    assert odds_column(examples[0]["attack"], examples[0]["defense"], 0, columns) == "3:1"
    assert examples[0]["odds"] == "3:1" and "26 \\div 7 = 3.71" in lines[377]
    assert odds_column(examples[1]["attack"], examples[1]["defense"], 0, columns) == "1:3"
    assert examples[1]["odds"] == "1:3" and "11 \\div 5 = 2.2" in lines[381]
    example = game["combat"]["odds"]["shift_example"]
    shift = example["right"] - example["left"]
    assert odds_column(5, 1, shift, columns) == example["to"] == "7:1"
    assert "5:1が右に3コラム、左に1コラムの修正を受ければ7:1" in lines[383]


def test_column_shift_chart(tables, lines):
    rows = {r["id"]: r for r in chart(tables, "cp.column-shifts")["rows"]}
    assert len(rows) == 8
    for row in rows.values():
        if row["shift"] in (1, -1):
            direction = "右に1コラム" if row["shift"] == 1 else "左に1コラム"
            assert direction in lines[row["lines"][0]], row["id"]
    assert rows["fortified_line_and_stream"]["shift"] == -2
    assert "コラムシフトは累積する" in lines[418]


def test_elimination_routing_chart(tables, lines):
    c = chart(tables, "cp.elimination-routing")
    assert len(c["boxes"]) == 4 and len(c["rows"]) == 5
    assert "Eligible for Reconstitution" in lines[392]
    assert "Tank/Mech Units with 1 Step Eligible for Recovery" in lines[393]
    assert "Permanently Eliminated" in lines[394]
    assert (
        "2 Step Eligible for Recoverly" in lines[331]
        and "1 step Eligible for Recoverly" in lines[331]
    )
    boxes = [r["box"] for r in c["rows"]]
    assert boxes == [
        "eligible_for_reconstitution",
        "recovery_1_step",
        "recovery_2_steps",
        "recovery_1_step",
        "permanently_eliminated",
    ]


# --------------------------------------------------------------------------- referee slots


def test_referee_slots_are_missing_and_empty(game):
    slots = {s["id"]: s for s in game["referee_slots"]}
    assert set(slots) == {
        "cp.weather-table",
        "cp.weather-track",
        "cp.crt",
        "cp.tec",
        "cp.counter-manifest",
        "cp.reinforcement-schedule",
        "cp.setup-scenario-2",
        "cp.setup-scenario-3",
    }
    for slot in slots.values():
        assert slot["status"] == "missing"
        assert slot["kind"] in ("dice_table", "chart", "oob")
        assert slot["name"]["en"] and slot["name"]["ja"]
        assert slot["data"] is None and "rows" not in slot
        assert slot["what_is_known"] and all("lines" in k for k in slot["what_is_known"])
        assert slot["shape"]["en"]
    weather = slots["cp.weather-table"]
    assert weather["kind"] == "dice_table"
    # no roll-to-weather mapping anywhere in the slot: no numbers but the seed line refs
    for known in weather["what_is_known"]:
        assert numbers_in({k: v for k, v in known.items() if k != "lines"}) == []
    assert game["weather"]["table"] is None


def test_referee_slot_known_fragments(game, lines):
    slots = {s["id"]: s for s in game["referee_slots"]}
    cell = next(k for k in slots["cp.crt"]["what_is_known"] if "cell" in k)["cell"]
    assert cell == {
        "column": "2:1",
        "roll": 4,
        "result": {"attacker_steps": 1, "defender_steps": 1},
    }
    assert "戦闘比2:1でダイスが4ならば、戦闘結果は“1/1”" in lines[385]
    manifest = slots["cp.counter-manifest"]["what_is_known"]
    inf = next(k for k in manifest if k.get("unit", {}).get("formation") == "34 ID")["unit"]
    assert (inf["attack"], inf["defense"], inf["movement"], inf["setup"]) == (6, 8, 12, "2121")
    assert "攻撃力は6、防御力は8、移動力は12" in lines[40] and "2121" in lines[40]
    tank = next(k for k in manifest if k.get("unit", {}).get("setup") == "3128")["unit"]
    assert (tank["combat"], tank["reduced_combat"]) == (12, 11) and "11-8面" in lines[156]
    turns = next(
        k for k in slots["cp.reinforcement-schedule"]["what_is_known"] if "artillery_turns" in k
    )
    assert turns["artillery_turns"]["3PzK rocket"] == [4, 5, 6]
    assert "3PzK rocket artillery: 4; 5; 6" in lines[658]
    stream = next(k for k in slots["cp.tec"]["what_is_known"] if k.get("terrain") == "stream")
    assert stream["mp_added"] == {"snow": 1, "mud": 2}
    assert "降雪であれば+1MP、泥濘であれば+2MP" in lines[351]


# --------------------------------------------------------------------------- turn sequence


def test_turn_sequence(sequence, tables, game, lines):
    steps = sequence["steps"]
    assert len(steps) == 19
    ids = {t["id"] for t in tables["dice_tables"]} | {c["id"] for c in tables["charts"]}
    slots = {s["id"] for s in game["referee_slots"]}
    sequence_text = "\n".join(lines[178:198])
    for s in steps:
        assert set(s["tables"]) <= ids, s["id"]
        assert set(s.get("referee_slots", [])) <= slots, s["id"]
        assert set(s.get("table_conditions", {})) <= set(s["tables"]), s["id"]
        assert s["name"]["ja"].split("(")[0] in sequence_text, s["id"]
        assert s["applies"] and s["markers"] == [] and s["secret"] is False
    order = [s["id"] for s in steps]
    assert order[:3] == ["weather", "mutual_supply", "recovery_designation"]
    assert order[-2:] == ["tank_recovery", "turn_advance"]
    assert [s.get("segment") for s in steps[3:17]] == [1] * 7 + [2] * 7
    by_id = {s["id"]: s for s in steps}
    assert by_id["weather"]["referee_slots"] == ["cp.weather-table", "cp.weather-track"]
    assert by_id["weather"]["tables"] == []
    assert by_id["s1.german_operations_1"]["table_conditions"]["cp.pz24-arrival"]["turns"] == [9]
    assert by_id["mutual_supply"]["both_sides_together"] is True
    skipped = [o["campaign_game"] for o in by_id["mutual_supply"]["scenario_overrides"]]
    assert skipped == ["scenario-2", "scenario-3"]
