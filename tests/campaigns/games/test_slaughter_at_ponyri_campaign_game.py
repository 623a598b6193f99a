"""Slaughter at Ponyri CG 'A Timetable Disrupted' (11.5) checked against the seed."""

import json
import re
from pathlib import Path

from tests.campaigns.games.seeds import seed_lines

MODULE = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "slaughter_at_ponyri"
CGS = json.loads((MODULE / "campaign_games.json").read_text(encoding="utf-8"))
RG = json.loads((MODULE / "rg_charts.json").read_text(encoding="utf-8"))
MODULE_JSON = json.loads((MODULE / "module.json").read_text(encoding="utf-8"))
LINES = seed_lines("slaughter_at_ponyri")

CG = CGS["campaign_games"]["timetable-disrupted"]
SIDES = {s["key"] for s in MODULE_JSON["sides"]}
PERIODS = [p["key"] for p in MODULE_JSON["campaign_games"][0]["periods"]]


def chart_ids(side):
    return {g["id"] for g in RG["sides"][side]["groups"]}


def test_header_and_keys():
    assert CGS["version"] == "2"  # 2: time_frames.*.initial_conditions (SaP2, CG-5.1, CG-6.1)
    assert "004_012ff7493835fc3d" in CGS["source"]
    assert set(CGS["campaign_games"]) == {cg["key"] for cg in MODULE_JSON["campaign_games"]}
    assert CG["rule"] == MODULE_JSON["campaign_games"][0]["rule"] == "11.5"
    assert "A TIMETABLE DISRUPTED" in LINES[556]
    assert CG["name"]["ja"] in LINES[556]


def test_setup_and_move_order():
    assert CG["sets_up_first"] == "russian" and CG["moves_first"] == "german"
    assert {CG["sets_up_first"], CG["moves_first"]} == SIDES
    assert "ソ連が最初に初期配置してドイツが最初に動く" in LINES[578]


def test_every_initial_ob_rg_exists_in_its_chart():
    for side, ob in CG["initial_ob"].items():
        assert side in SIDES
        for entry in ob["rgs"]:
            assert entry["rg"] in chart_ids(side), (side, entry)
            assert entry["group"] in ob["groups"]
            if "alternative" in entry:
                assert entry["alternative"]["rg"] in chart_ids(side)


def test_russian_initial_ob_against_the_seed():
    ob = CG["initial_ob"]["russian"]
    counts = [(e["rg"], e["count"], e["group"]) for e in ob["rgs"]]
    assert counts == [("I1", 2, "r1"), ("I3", 4, "r1"), ("I4", 2, "r1"), ("I3", 1, "r2")]
    assert "RG: I1 × 2 RG: I3 × 4 RG: I2 × 2 CPP × 22" in LINES[588]
    assert LINES[598] == "RG: I3"
    # the printed I2 × 2 is read as I4 × 2 (11.60721 example, L948)
    i4 = ob["rgs"][2]
    assert i4["printed"] == {"rg": "I2", "count": 2} and i4["inferred"]
    assert "機関銃小隊 RG × 2 を初回 OB である 7 July AM" in LINES[948]
    assert (ob["cpp"], ob["elr"], ob["san"]) == (22, 3, 4)
    assert "[ELR: 3]" in LINES[586] and "{SAN: 4}" in LINES[586]
    assert ob["fortified_building_locations"] == 8 and LINES[594].endswith("× 8")
    units = {u["text"].split(" (")[0].split(" [")[0]: u["count"] for u in ob["units"]}
    assert units == {"Trench": 60, "Wire": 30, "Fanatic Strongpoint": 4, "Hidden Mine Belt": 6}
    assert "塹壕 × 60 鉄条網 × 30 戦意高揚前哨地点 (SSR CG16) × 4" in LINES[590]
    assert "隠匿の地雷地帯 (SSR CG17) × 6" in LINES[592]
    assert ob["units"][3]["allowed"] == {"ap": [6], "at": [2]} and "6A-P か 2A-T" in LINES[592]


def test_german_initial_ob_against_the_seed():
    ob = CG["initial_ob"]["german"]
    counts = [(e["rg"], e["count"], e["group"]) for e in ob["rgs"]]
    assert counts == [
        ("I3", 3, "g1"),
        ("I3", 3, "g2"),
        ("I1", 6, "g3"),
        ("I6", 3, "g3"),
        ("I2", 1, "g4"),
    ]
    assert LINES[608] == "RG: I3 × 3" and LINES[612] == "RG: I3 × 3"
    assert LINES[616] == "RG: I1 × 6 RG: I6 × 3 CPP × 15" and LINES[624] == "RG: I2"
    assert (ob["cpp"], ob["elr"], ob["san"]) == (15, 4, 3)
    assert "[ELR: 4]" in LINES[604] and "{SAN: 3}" in LINES[604]
    afv = [(u["count"], u["up_to"], u["types"]) for u in ob["units"]]
    assert afv == [
        (20, True, ["StuG III G", "StuH 42", "Marder III(t) H"]),
        (6, True, ["StuPz IV", "PzJg Tiger"]),
    ]
    assert "AFV × 20以下" in LINES[618] and "AFV × 6以下" in LINES[626]
    assert "A36より以北" in LINES[606] and "A25より以北" in LINES[610]
    g3 = ob["groups"]["g3"]["entry_structured"]
    assert [(e["from_turn"], e["edge"]) for e in g3] == [(1, "west"), (4, "north")]
    assert "ターン1以降にA31より以北で西端がターン4以降にAA1より東の北端" in LINES[614]


def test_time_frames_cover_the_calendar():
    assert list(CG["time_frames"]) == PERIODS
    preceded = [tf["preceded_by"] for tf in CG["time_frames"].values()]
    assert preceded == ["pre_cg", "daytime", "full", "daytime", "full", "daytime"]
    labels = [
        f"CG-{n} {d} JULY {h}"
        for n, (d, h) in enumerate(
            [(7, "AM"), (7, "PM"), (8, "AM"), (8, "PM"), (9, "AM"), (9, "PM")], start=1
        )
    ]
    for (key, tf), label in zip(CG["time_frames"].items(), labels, strict=True):
        assert LINES[tf["lines"][0]] == label, key
        assert tf["date"].endswith(label.split()[1].zfill(2))
        assert tf["half"] == label.split()[-1]
    assert "CG日: 7~9 July, 1973" in LINES[558]


def test_every_reinforcement_rg_exists_and_matches_its_line():
    seen = []
    for key, tf in CG["time_frames"].items():
        for side, groups in tf["reinforcements"].items():
            assert side in SIDES
            for grp in groups:
                assert set(grp) >= {"group", "entry", "rgs", "units", "lines"}
                for entry in grp["rgs"]:
                    assert entry["rg"] in chart_ids(side), (key, side, entry)
                    line = LINES[entry["lines"][0]]
                    count = "" if entry["count"] == 1 else f" × {entry['count']}"
                    assert re.search(rf"RG ?: {entry['rg']}{re.escape(count)}(\s|$)", line), line
                    seen.append((key, side, entry["rg"], entry["count"]))
                for u in grp["units"]:
                    if u["count"] is not None:
                        assert f"{u.get('ja', u['text'])} × {u['count']}" in LINES[u["lines"][0]]
                    else:
                        assert u["no_limit"] and "移動可能な AFV" in LINES[u["lines"][0]]
    assert seen == [
        ("CG-2", "german", "I1", 2),
        ("CG-2", "german", "I3", 3),
        ("CG-2", "german", "I6", 1),
        ("CG-3", "russian", "I2", 4),
        ("CG-3", "russian", "I2", 2),
        ("CG-5", "german", "I1", 3),
        ("CG-5", "german", "I4", 2),
        ("CG-6", "russian", "I2", 2),
    ]


def test_special_rules_by_time_frame():
    ids = {s["id"] for s in CG["ssrs"]}
    for key, tf in CG["time_frames"].items():
        for rule_id in tf["special_rules"]:
            assert rule_id in ids
            assert rule_id.startswith(key + ".")
    for s in CG["ssrs"]:
        assert s["period"] in PERIODS and s["id"].startswith(s["period"])
        assert LINES[s["lines"][0]].startswith(s["id"]), s["id"]
        assert s["text"]["ja"] in LINES[s["lines"][0]]
    assert CG["time_frames"]["CG-2"]["special_rules"] == []
    assert LINES[664] == "CG-1 7 JULY AM 特別ルール:" and LINES[666] == "なし。"
    cg42 = next(s for s in CG["ssrs"] if s["id"] == "CG-4.2")
    assert cg42["structured"]["min_afvs_via_edge"]["count"] == 10 and "AFV × 10" in LINES[720]
    cg31 = next(s for s in CG["ssrs"] if s["id"] == "CG-3.1")
    assert cg31["structured"]["designation"]["turn"] == 2
    assert cg31["structured"]["designation"]["max_hexes_from_russian_controlled_edge_hex"] == 10
    assert "ターン 2" in LINES[694] and "10 ヘクス以内" in LINES[694]
    assert CG["time_frames"]["CG-5"]["weather"] == CG["time_frames"]["CG-6"]["weather"]
    assert "くもり" in LINES[754] and "くもり" in LINES[778] and "Wet" in LINES[778]


def test_victory_conditions():
    v = CG["victory"]["structured"]
    german = v["sides"]["german"]["all_of"]
    russian = v["sides"]["russian"]["all_of"]
    assert [c["id"] for c in german[:4]] == ["W50", "AA29", "W47", "T67"]
    assert german[4]["min"] == 22
    assert german[4]["route"] == ["EE27", "EE34", "EE37", "EE40", "BB51", "Z66", "Y71"]
    assert russian == german[:4]
    assert v["sides"]["russian"]["from_period"] == PERIODS[1]
    text = LINES[576]
    assert "ヘクス W50、建物 AA29、W47、T67" in text and "22以上" in text
    assert "-".join(german[4]["route"]) in text
    assert "7 July PM CG 時間枠以降" in text
    assert v["check_step"] == "11.601" and "RePh 手順 11.601" in text
    assert v["neither_after_last_period"] == {"result": None, "unknown": True}


def test_german_armor_reserve():
    reserve = CG["german_armor_reserve"]
    pool = {p["type"]: p["count"] for p in reserve["initial_pool"]}
    assert pool == {
        "StuG III G": 21,
        "StuH 42": 9,
        "StuPz IV": 6,
        "PzJg Tiger": 6,
        "Marder III(t) H": 6,
    }
    assert sum(pool.values()) == reserve["initial_total"] == 48
    for p in reserve["initial_pool"]:
        assert LINES[p["lines"][0]] == f"- {p.get('printed', p['type'])} × {p['count']}"
    derived = reserve["armor_leaders_before_cg"]["platoons_derived"]
    for vehicle, count in pool.items():
        assert derived[vehicle] == count // 3
    assert "3 個 (切り捨て) AFV" in LINES[487]
    # the 9 July AM AFVs
    for n, vehicle in ((746, "PzKpfw III L"), (748, "PzKpfw IV F1"), (750, "PzKpfw IV F2")):
        assert LINES[n] == f"{vehicle} × 3" and derived[vehicle] == 1


def test_stavka_armor():
    stavka = CG["stavka_armor"]
    cg3 = [(a["type"], a["count"]) for a in stavka["arrivals"]["CG-3"]]
    cg4 = [(a["type"], a["count"]) for a in stavka["arrivals"]["CG-4"]]
    assert cg3 == [("T-34 M43", 30), ("KV-1 M42", 11), ("KV-1 M42 (with AAMG)", 4)]
    assert cg4 == [("T-70", 15), ("T-34 M43", 5), ("Valentine VIII(b)", 10), ("SU-152", 2)]
    assert "T-34 M43 × 30" in LINES[678]
    assert "KV-1 M42 × 11 (AAMG 付)KV-1 M42 × 4" in LINES[682]
    assert LINES[706] == "T-70 × 15 T-34 M43 × 5 Valentine VIII(b) × 10 SU-152 × 2"
    assert stavka["removal"]["step"] == "11.602h" and "スタフカ機甲増援" in LINES[828]
    assert (
        stavka["removal"]["salvage_allowed"] is False
        and "回収 (11.6131d) の対象でない" in LINES[473]
    )
    derived = stavka["armor_leaders_before_cg"]["platoons_derived"]
    assert derived["CG-3"] == {
        "T-34 M43": 30 // 3,
        "KV-1 M42 (with or without AAMG)": (11 + 4) // 3,
    }
    assert derived["CG-4"]["Valentine (incl. SU-152)"] == (10 + 2) // 3
    assert "SU-152 を Valentine III(b) として" in LINES[487]


def test_dug_in_afvs():
    dug = CG["dug_in_afvs"]
    assert dug["given"][0]["count"] == 6 and LINES[730] == "T-34 M41 (埋設) × 6"
    assert dug["given"][0]["period"] == "CG-5"
    assert dug["purchasable_rg"]["rg"] in chart_ids("russian")
    assert dug["lmg_bonus"]["lmg"] == 1 and "1 個の LMG を OB へ追加" in LINES[481]
    assert dug["restrictions"]["bmg_usable"] is False and "BMG は使用不能" in LINES[481]
    assert dug["armor_leaders_before_cg"]["platoons_derived"] == 6 // 3
    assert dug["armor_leaders_before_cg"]["drm"] == 1 and LINES[504].startswith("+1 埋設")
