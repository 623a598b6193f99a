"""Red Factories campaign games (11.5, 11.51-11.58) checked against the rules seed and spec 5.2."""

import json
import re
from pathlib import Path

import pytest

from tests.campaigns.games.seeds import seed_lines

MODULE_DIR = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "red_factories"
SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec" / "rf" / "rf-cg-spec.md"

# Initial OBs as printed in the seed: {cg: {side: (rgs, units, cpp, fpp, fort, elr, san)}}.
EXPECTED_OB = {
    "rb-cg-1": {
        "soviet": ({"I3": 2, "I4": 1}, {"45LL AT": 2, "2-2-8": 2}, 8, 50, 5, 3, 4),
        "german": ({"I1": 1, "I3": 1, "A5": 1, "O1": 1, "O5": 1}, {}, 15, 0, 0, 4, 3),
    },
    "rb-cg-2": {
        "soviet": (
            {"I3": 3, "I4": 1, "I2": 1},
            {"76L ART": 2, "45LL AT": 2, "2-2-8": 4},
            14,
            80,
            20,
            3,
            4,
        ),
        "german": ({"I1": 2, "I3": 1, "I4": 2}, {}, 17, 50, 5, 4, 3),
    },
    "rb-cg-4": {
        "soviet": (
            {"I1": 1, "I3": 1, "I4": 1, "I7": 1},
            {"45LL AT": 2, "45L AT": 1, "2-2-8": 3},
            12,
            60,
            20,
            3,
            4,
        ),
        "german": ({"I1": 1, "I4": 1, "A1": 1, "O2": 1}, {}, 16, 40, 0, 4, 3),
    },
    "ro-cg-1": {
        "soviet": (
            {"I1": 2, "I2": 1},
            {"2-2-8": 5, "76* INF": 2, "45LL AT": 2, ".50-cal HMG": 1},
            10,
            60,
            0,
            3,
            4,
        ),
        "german": ({"I1": 2, "I3": 2, "I4": 1, "A1": 1, "A2": 1, "O4": 1}, {}, 18, 0, 0, 4, 3),
    },
    "ro-cg-2": {
        "soviet": (
            {"I1": 2, "I2": 1, "I7": 1},
            {"76L ART": 2, "76* INF": 2, "2-2-8": 4},
            12,
            85,
            18,
            3,
            5,
        ),
        "german": ({"I1": 2, "I3": 2, "I4": 1, "I2": 2, "A1": 1, "G3": 1}, {}, 17, 0, 15, 4, 4),
    },
    "ro-cg-3": {
        "german": (
            {"I1": 3, "I3": 1, "I5": 1, "I2": 2, "O1": 1},
            {"2-2-8": 5, "75L AT": 1, "75* INF": 2, "20L(6) AA": 2},
            10,
            30,
            0,
            4,
            3,
        ),
        "soviet": (
            {"I1": 3, "I4": 1, "I7": 1, "I2": 1},
            {"76L ART": 2, "2-2-8": 4},
            18,
            30,
            20,
            3,
            5,
        ),
    },
}
EXPECTED_OB["rb-cg-3"] = EXPECTED_OB["rb-cg-1"]
SPEC_ROWS = {
    "rb-cg-1": "RB CG I",
    "rb-cg-2": "RB CG II",
    "rb-cg-4": "RB CG IV",
    "ro-cg-1": "RO CG I",
    "ro-cg-2": "RO CG II",
    "ro-cg-3": "RO CG III",
}


@pytest.fixture(scope="module")
def lines():
    return seed_lines("red_factories")


def load(name):
    with open(MODULE_DIR / name, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def cgs():
    return load("campaign_games.json")["campaign_games"]


@pytest.fixture(scope="module")
def charts():
    return load("rg_charts.json")


@pytest.fixture(scope="module")
def module():
    return load("module.json")


@pytest.fixture(scope="module")
def spec_table():
    """Spec 5.2 summary table: {row name: [cells]}."""
    if not SPEC.exists():
        pytest.fail(f"the spec {SPEC} is not beside this checkout (shared/ must be)")
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("### 5.2 Summary table", 1)[1].split("###", 1)[0]
    rows = {}
    for row in section.splitlines():
        if row.startswith("| R") and "CG" in row:
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            rows[cells[0]] = cells
    return rows


def pair(cell):
    """'8 ; 15' -> (8, 15); '3/4 ; 4/3' -> ('3/4', '4/3')."""
    a, b = (x.strip() for x in cell.split(";"))
    return (int(a), int(b)) if a.isdigit() else (a, b)


def test_file_header_and_keys(module):
    data = load("campaign_games.json")
    assert data["version"] == "1"
    assert "003_17379023c41927ed" in data["source"]
    assert list(data["campaign_games"]) == [c["key"] for c in module["campaign_games"]]


def test_registry_fields_agree_with_module(cgs, module, lines):
    for c in module["campaign_games"]:
        cg = cgs[c["key"]]
        assert cg["code"] == c["code"] and cg["rule"] == c["rule"]
        assert cg["map_groups"] == c["map_groups"]
        assert cg["name"] == c["name"]
        assert (cg["cg_days"]["first"], cg["cg_days"]["last"]) == (c["first_day"], c["last_day"])
        line = lines[cg["cg_days"]["lines"][0]]
        assert f"{cg['cg_days']['count']}CG日" in line, c["key"]


@pytest.mark.parametrize("key", sorted(EXPECTED_OB))
def test_initial_ob_against_seed(cgs, lines, key):
    for side, (rgs, units, cpp, fpp, fort, elr, san) in EXPECTED_OB[key].items():
        ob = cgs[key]["initial_ob"][side]
        assert {e["rg"]: e["count"] for e in ob["rgs"]} == rgs, (key, side)
        assert len(ob["rgs"]) == len(rgs)
        assert {e["text"]: e["count"] for e in ob["units"]} == units, (key, side)
        got = (
            ob["cpp"],
            ob["fpp"],
            ob["fortified_building_locations"],
            ob["elr"],
            ob["san"],
        )
        assert got == (cpp, fpp, fort, elr, san), (key, side)
        first, last = ob["lines"]
        for entry in ob["rgs"] + ob["units"]:
            n = entry["lines"][0]
            assert first <= n <= last, (key, entry)
            assert entry["printed"] in lines[n], (key, entry)
            assert entry["printed"].endswith(f"×{entry['count']}"), (key, entry)
        for field, src in ob["value_sources"].items():
            if src["lines"] is None:
                assert ob[field] == 0, (key, side, field)
                continue
            n = src["lines"][0]
            assert src["printed"] in lines[n], (key, side, field)
            assert str(ob[field]) in src["printed"], (key, side, field)


@pytest.mark.parametrize("key", sorted(SPEC_ROWS))
def test_initial_ob_against_spec_table(cgs, spec_table, key):
    row = spec_table[SPEC_ROWS[key]]
    elr_san, cpp, fpp, fort = row[6], row[7], row[8], row[9]
    ob = cgs[key]["initial_ob"]
    sov_es, ger_es = pair(elr_san)
    assert f"{ob['soviet']['elr']}/{ob['soviet']['san']}" == sov_es
    assert f"{ob['german']['elr']}/{ob['german']['san']}" == ger_es
    assert (ob["soviet"]["cpp"], ob["german"]["cpp"]) == pair(cpp)
    assert (ob["soviet"]["fpp"], ob["german"]["fpp"]) == pair(fpp)
    sov_f, ger_f = pair(fort)
    assert (
        ob["soviet"]["fortified_building_locations"],
        ob["german"]["fortified_building_locations"],
    ) == (sov_f, ger_f)


def test_rb_cg_3_is_rb_cg_1_initial_scenario(cgs, spec_table, lines):
    assert "as RB CG I" in spec_table["RB CG III"][6]
    assert "11.51" in lines[733] and "同様" in lines[733]
    assert "CG IとCG III" in lines[637]
    assert cgs["rb-cg-3"]["initial_ob"] == cgs["rb-cg-1"]["initial_ob"]
    rb1 = cgs["rb-cg-1"]["victory"]["structured"]["initial_scenario"]
    assert cgs["rb-cg-3"]["victory"]["structured"]["initial_scenario"] == rb1
    assert [s["id"] for s in cgs["rb-cg-3"]["ssrs"]] == ["I.1", "I.2", "I.3", "I.4", "I.5"]


def test_every_ob_rg_exists_in_the_chart(cgs, charts):
    for key, cg in cgs.items():
        for side, ob in cg["initial_ob"].items():
            ids = {g["id"] for g in charts["sides"][side]["groups"]}
            for e in ob["rgs"]:
                assert e["rg"] in ids, (key, side, e["rg"])
            assert set(cg["initial_ob"]) == {"german", "soviet"}


# How each printed OB name maps to a chart id (the seed's OB names are sometimes short forms).
PRINTED_TO_ID = {
    "german": {
        "ライフル中隊": "I1",
        "2線級中隊": "I2",
        "突撃兵中隊": "I3",
        "戦闘工兵中隊": "I4",
        "重火器小隊": "I5",
        "StuG B小隊": "A1",
        "StuG G小隊": "A2",
        "PzKw III L 小隊": "A5",
        "迫撃砲大隊OBA": "O1",
        "大隊自撃砲OBA": "O1",
        "中砲兵OBA": "O2",
        "ネーベルベルファー-OBA": "O4",
        "盤外観測員": "O5",
        "歩兵砲中隊": "G3",
    },
    "soviet": {
        "親衛狙撃兵中隊": "I1",
        "親衛SMG中隊": "I2",
        "親衛SMG兵中隊": "I2",
        "狙撃兵中隊": "I3",
        "SMG中隊": "I4",
        "SMG兵中隊": "I4",
        "HW小隊": "I7",
        "重火器小隊": "I7",
    },
}


def test_ob_rg_names_map_to_chart_ids(cgs, charts):
    for key, cg in cgs.items():
        for side, ob in cg["initial_ob"].items():
            names = {
                g["id"]: g["name"]["ja"].replace(" ", "") for g in charts["sides"][side]["groups"]
            }
            for e in ob["rgs"]:
                printed = e["printed"].rsplit("×", 1)[0]
                assert PRINTED_TO_ID[side][printed] == e["rg"], (key, side, e)
            # The mapping's exact matches agree with the chart's own names.
            for printed, rid in PRINTED_TO_ID[side].items():
                if printed.replace(" ", "") in names.values():
                    assert names[rid] == printed.replace(" ", ""), (side, printed)


def test_rf_cg_1_combines_rb_cg_2_and_ro_cg_2(cgs, lines, spec_table):
    rf = cgs["rf-cg-1"]
    assert rf["map_groups"] == ["RB", "RO"]
    assert "RB CG II Operation Hubertus" in lines[937] and "RO CG II" in lines[937]
    assert "SAN override: Sov 4, Ger 3" in spec_table["RF CG I"][6]
    assert "ソ連軍が4、ドイツ軍が3" in lines[945]
    for side in ("soviet", "german"):
        ob = rf["initial_ob"][side]
        rb, ro = cgs["rb-cg-2"]["initial_ob"][side], cgs["ro-cg-2"]["initial_ob"][side]
        assert [(e["rg"], e["count"], e["map_group"]) for e in ob["rgs"]] == [
            (e["rg"], e["count"], "RB") for e in rb["rgs"]
        ] + [(e["rg"], e["count"], "RO") for e in ro["rgs"]]
        assert [(e["text"], e["count"], e["map_group"]) for e in ob["units"]] == [
            (e["text"], e["count"], "RB") for e in rb["units"]
        ] + [(e["text"], e["count"], "RO") for e in ro["units"]]
        for field in ("cpp", "fpp", "fortified_building_locations"):
            assert ob[field] == rb[field] + ro[field]
            assert ob["by_map_group"]["RB"][field] == rb[field]
            assert ob["by_map_group"]["RO"][field] == ro[field]
            assert "inferred" in ob["value_sources"][field]
        assert ob["elr"] == rb["elr"] == ro["elr"]
    assert rf["initial_ob"]["soviet"]["san"] == 4 and rf["initial_ob"]["german"]["san"] == 3
    assert (rf["initial_ob"]["soviet"]["cpp"], rf["initial_ob"]["german"]["cpp"]) == (26, 34)
    limits = rf["rg_limits"]
    assert limits["RB"]["cg_max_column"] == "rb-cg-2"
    assert limits["RO"]["cg_max_column"] == "ro-cg-2"
    assert "inferred" in limits
    assert {s["map_group"] for s in rf["ssrs"]} == {"RB", "RO"}
    assert len(rf["ssrs"]) == len(cgs["rb-cg-2"]["ssrs"]) + len(cgs["ro-cg-2"]["ssrs"])
    changes = {c["id"]: c for c in rf["cg_rule_changes"]}
    assert changes["CG6"]["effects"][0]["value"] == 4 and "4つを上限" in lines[953]
    assert changes["CG8"]["effects"][0]["value"] == 4 and "4つの狙撃兵カウンター" in lines[955]
    assert changes["CG17"]["effects"][0]["value"] == 4 and "4個まで" in lines[961]
    assert rf["cg_ssr_values"]["oba_modules_max_per_scenario"]["value"] == 4
    assert rf["victory"]["structured"]["campaign"]["combination"]["kind"] == "split_is_draw"
    assert "引き分け" in lines[941]


def test_rg_limits_columns_exist(cgs, charts, module):
    keys = {c["key"] for c in module["campaign_games"]}
    for key, cg in cgs.items():
        for mg in cg["map_groups"]:
            col = cg["rg_limits"][mg]
            assert col["cg_max_column"] in keys and col["cg_max_column"] != "rf-cg-1", key
            if key != "rf-cg-1":
                assert col["cg_max_column"] == key
            assert col["period_max_column"] == mg
            assert col["cg_max_column"] in charts["sides"]["german"]["groups"][0]["cg_max"]


def test_setup_order_and_scenarios_per_day(cgs, lines):
    assert "ソ連軍が先に初期配置をし、ドイツ軍が先攻" in lines[605]
    assert "例外: RO CG III" in lines[605]
    for key, cg in cgs.items():
        if key == "ro-cg-3":
            assert (cg["sets_up_first"], cg["moves_first"]) == ("german", "soviet")
            assert "inferred" in cg["setup_order_source"]
        else:
            assert (cg["sets_up_first"], cg["moves_first"]) == ("soviet", "german"), key
        # L605's chit sentence (「さらに…」) has no exception: every CG, RO CG III included.
        assert "inferred" not in cg["first_day_chits"], key
        assert (cg["first_day_chits"]["german"], cg["first_day_chits"]["soviet"]) == (
            "attack",
            "idle",
        ), key
    assert "さらに" in lines[605] and "ドイツ軍は" in lines[605]
    assert cgs["ro-cg-1"]["scenarios_on_day"] == {"1942-10-23": 2}
    assert "10月23日" in lines[834] and "2回目のシナリオ" in lines[834]
    assert all(cg["scenarios_on_day"] == {} for k, cg in cgs.items() if k != "ro-cg-1")


def conditions(cgs, key, part):
    return cgs[key]["victory"]["structured"][part]["any_of"]


def test_victory_conditions_against_seed(cgs, lines):
    c = conditions(cgs, "rb-cg-1", "initial_scenario")[0]
    assert (c["kind"], c["count"]) == ("stone_locations_at_least", 15) and "15以上" in lines[617]
    c = conditions(cgs, "rb-cg-1", "campaign")[0]
    assert (c["kind"], c["except"]) == ("stone_locations_all_except", 3)
    assert "いずれか3つを除いて" in lines[615] and "A39-JJ36" in lines[615]
    c = conditions(cgs, "rb-cg-2", "initial_scenario")[0]
    assert (c["kind"], c["count"]) == ("net_stone_locations_gained_at_least", 26)
    assert "26以上" in lines[673]
    c = conditions(cgs, "rb-cg-2", "campaign")[0]
    assert c["except"] == 5 and "いずれか5つ除いて" in lines[671]
    c = conditions(cgs, "rb-cg-3", "campaign")[0]
    assert c["except"] == 1 and "いずれか一つ除いて" in lines[731]
    a, b = conditions(cgs, "rb-cg-4", "campaign")
    assert (a["count"], a["when"], b["count"], b["when"]) == (
        17,
        "any_cg_scenario_end",
        14,
        "cg_end",
    )
    assert "17の工場" in lines[743] and "14以上の工場" in lines[743]
    c = conditions(cgs, "rb-cg-4", "initial_scenario")[0]
    assert (c["kind"], c["count"]) == ("net_factory_hexes_gained_at_least", 15)
    assert "15以上多い工場ヘクス" in lines[745]
    c = conditions(cgs, "ro-cg-1", "initial_scenario")[0]
    assert c["buildings"] == ["J32", "H19"] and c["other_multi_hex_stone_buildings_at_least"] == 4
    assert "J32とH19" in lines[802] and "4つ以上" in lines[802]
    c = conditions(cgs, "ro-cg-1", "campaign")[0]
    assert c["when"] == "cg_end" and "CGの終了時" in lines[800]
    c = conditions(cgs, "ro-cg-2", "campaign")[0]
    assert c["except"] == 10 and "10カ所を除く" in lines[848]
    c = conditions(cgs, "ro-cg-2", "initial_scenario")[0]
    assert c["count"] == 20 and c["of_which"] == {
        "building": "V22",
        "building_kind": "factory",
        "count": 10,
    }
    assert "20以上" in lines[850] and "10以上はV22" in lines[850]
    assert cgs["ro-cg-3"]["victory"]["structured"]["campaign"]["side"] == "soviet"
    c = conditions(cgs, "ro-cg-3", "initial_scenario")[0]
    assert c["count"] == 5 and "5つ以上の工場" in lines[891]
    assert "ヘクス列K" in lines[889]
    for key, cg in cgs.items():
        if key == "rf-cg-1":
            continue
        for part in ("initial_scenario", "campaign"):
            n = cg["victory"]["lines"][part][0]
            assert cg["victory"][part]["ja"] in lines[n], (key, part)


def test_ssrs_against_seed(cgs, lines):
    for key, cg in cgs.items():
        ids = [s["id"] for s in cg["ssrs"]]
        assert len(ids) == len(set(ids)), key
        for s in cg["ssrs"]:
            n = s["lines"][0]
            bare = s["id"].split()[-1]
            assert bare in lines[n], (key, s["id"])
            assert s["text"]["ja"] in lines[n], (key, s["id"])
            assert s["text"]["en"] and s["bookkeeping"], (key, s["id"])
            for e in s["effects"]:
                if e["kind"] == "map_state":
                    hexes = e["rubble"]["hexes"] + e["shellholes"]
                    if isinstance(e["gutted_factories"], list):
                        hexes += e["gutted_factories"]
                    tokens = re.findall(r"\b[A-Z]{1,2}\d{1,2}\b", lines[n], re.ASCII)
                    assert sorted(hexes) == sorted(tokens), (key, s["id"])
                if e["kind"] == "initial_perimeter":
                    printed = re.findall(
                        r"\(?\b[A-Z]{1,2}\d{1,2}\b\)?", lines[n].split("(盤端")[0], re.ASCII
                    )
                    printed = [p for p in printed if not p.startswith("(SSR")]
                    assert [p.strip("()") for p in printed] == e["hexes"], (key, s["id"])
                    alternates = [p.strip("()") for p in printed if p.startswith("(")]
                    assert alternates == e["alternate_hexes"], (key, s["id"])
    i2 = {e["kind"]: e for e in cgs["rb-cg-1"]["ssrs"][1]["effects"]}
    assert i2["purchase_ban"]["rgs"] == ["G1", "G2", "G3", "M2"]
    assert "AT(対戦車砲)中隊、INF(歩兵砲)中隊、SAN増強" in lines[640]
    assert cgs["ro-cg-3"]["ssrs"][3]["effects"][0]["drm"] == 1 and "+1DRM" in lines[919]
    i5 = cgs["ro-cg-1"]["ssrs"][4]["effects"][0]
    assert i5 == {"kind": "game_end_drm", "drm": 1} and "+1drm" in lines[832]
    assert cgs["ro-cg-3"]["ssrs"][2]["effects"][0]["gutted_factories"] == "all"
    assert "全ての工場" in lines[918]


def test_initiative_limits_against_seed(cgs, lines):
    text = lines[1873]
    expected = {
        "rb-cg-1": "RB CG I : 4回",
        "rb-cg-2": "CG II : 2回",
        "rb-cg-3": "CG III : 8回",
        "rb-cg-4": "CG IV : 2回",
        "ro-cg-1": "RO CG I : 3回",
    }
    for key, printed in expected.items():
        assert printed in text
        assert cgs[key]["initiative"]["soviet_attack_max"] == int(printed[-2])
    assert "CG II : 2回。" in text and cgs["ro-cg-2"]["initiative"]["soviet_attack_max"] == 2
    assert cgs["ro-cg-3"]["initiative"]["soviet_attack_max"] is None
    assert cgs["ro-cg-3"]["initiative"]["german_attack_max"] == 4 and "最大回数は4回" in text
    assert cgs["ro-cg-3"]["initiative"]["soviet_night_scenarios_max"] == 4
    assert "RO CG IIIでは4回まで" in lines[1905]
    assert "soviet_attack_max_inferred" in cgs["rf-cg-1"]["initiative"]
    assert cgs["ro-cg-3"]["scenario_vc"]["assault_net_stone_locations"] == {
        "german": 12,
        "soviet": 24,
    }
    assert cgs["rb-cg-1"]["scenario_vc"]["assault_net_stone_locations"] == {
        "german": 24,
        "soviet": 12,
    }
    assert "ドイツ軍は24個以上、ソ連軍は12個以上" in lines[1911]
    assert "RO CG IIIでは、ドイツ軍12個、ソ連軍24個" in lines[1911]


def test_base_cg_ssr_values(cgs, lines):
    assert "最大2つ" in lines[538] and "2個の狙撃兵カウンター" in lines[544]
    assert "2個まで自己回復" in lines[595]
    for key, cg in cgs.items():
        v = cg["cg_ssr_values"]
        expected = 4 if key == "rf-cg-1" else 2
        assert v["oba_modules_max_per_scenario"]["value"] == expected
        assert v["sniper_counters_per_side"]["value"] == expected
        assert v["self_rally_attempts_max"]["value"] == expected
