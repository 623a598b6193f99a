"""Red Factories Refit Phase step list (11.601-11.625), checked against the rules seed."""

import json
import re
from pathlib import Path

import pytest

from tests.campaigns.games.seeds import seed_lines

MODULE = Path(__file__).resolve().parents[3] / "campaigns" / "games" / "red_factories"
MAIN_RULES = [f"11.6{n:02d}" for n in range(1, 26)]
ORDER_LIST = range(981, 1006)  # the seed's "RePhの順序" list, one line per main step


def load(name):
    return json.loads((MODULE / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def lines():
    return seed_lines("red_factories")


@pytest.fixture(scope="module")
def data():
    return load("refit_steps.json")


@pytest.fixture(scope="module")
def steps(data):
    return data["steps"]


@pytest.fixture(scope="module")
def by_rule(steps):
    return {s["rule"]: s for s in steps}


def seed_order_list(lines):
    """[(markers, rule, ja name)] parsed from the seed's RePh order list."""
    out = []
    for n in ORDER_LIST:
        m = re.fullmatch(r"- ([*#†]*) ?(11\.6\d\d) (.+)", lines[n].strip())
        assert m, (n, lines[n])
        out.append((list(m.group(1)), m.group(2), m.group(3), n))
    return out


def test_main_steps_in_order(steps, lines):
    main = [s for s in steps if s["level"] == "step"]
    assert [s["rule"] for s in main] == MAIN_RULES
    assert [rule for _, rule, _, _ in seed_order_list(lines)] == MAIN_RULES


def test_markers_names_as_printed(steps, lines):
    main = {s["rule"]: s for s in steps if s["level"] == "step"}
    for markers, rule, ja, n in seed_order_list(lines):
        step = main[rule]
        assert step["markers"] == markers, rule
        assert step["list_line"] == n
        assert step["name"]["ja"] == ja, rule


def test_marker_sample_explicit(by_rule, lines):
    assert by_rule["11.611"]["markers"] == [] and "- 11.611 クラス上昇&昇進" in lines[991]
    assert by_rule["11.616"]["markers"] == ["*"] and "- * 11.616 CPP補充" in lines[996]
    assert by_rule["11.619"]["markers"] == ["†", "*"] and "- †* 11.619" in lines[999]
    assert by_rule["11.624"]["markers"] == ["#"] and "- # 11.624" in lines[1004]


def test_marker_groups_match_rule_11_6(data, steps, lines):
    main = [s for s in steps if s["level"] == "step"]
    star = [s["rule"] for s in main if "*" in s["markers"]]
    dagger = [s["rule"] for s in main if "†" in s["markers"]]
    hash_ = [s["rule"] for s in main if "#" in s["markers"]]
    assert star == MAIN_RULES[11:23]  # 11.612-11.623
    assert dagger == ["11.619", "11.620", "11.621", "11.622"]
    assert dagger == data["sequence"]["before_initial_scenario"]
    assert hash_ == ["11.624", "11.625"]
    for mark in ("“*”", "“#”", "“†”"):
        assert mark in lines[data["markers"]["lines"][0]]
    loop = data["sequence"]["repeat_loop"]
    assert (loop["from"], loop["to"]) == (star[0], star[-1])


def test_all_steps_in_play_order(steps):
    rules = [s["rule"] for s in steps]
    assert len(rules) == len(set(rules))
    # within chapter 11.6 the decimal digits sort in play order (11.601 < 11.6011 < 11.602)
    assert rules == sorted(rules)
    assert len(steps) == 93  # 4: 11.6243 is a sub-step of its own (issue 15)


def test_sub_steps_follow_their_parent(steps):
    seen = {}
    for s in steps:
        if s["level"] == "step":
            seen[s["rule"]] = s
            parent = s
            continue
        assert s["parent"] == parent["rule"] and s["rule"].startswith(parent["rule"])
        assert s["markers"] == parent["markers"] and s["markers_inherited"] is True
        for table in s["tables"]:
            assert table in parent["tables"], (s["rule"], table)


def test_step_fields(steps, lines):
    for s in steps:
        assert s["name"]["en"] and s["name"]["ja"], s["rule"]
        assert isinstance(s["secret"], bool) and isinstance(s["both_sides_together"], bool)
        assert s["applies"]
        first, last = s["lines"]
        assert 977 <= first <= last <= 1931, s["rule"]
        heading = s.get("heading_printed", s["rule"])
        assert lines[first].startswith(heading), (s["rule"], lines[first][:30])


def test_every_table_reference_exists(steps):
    tables = load("tables.json")
    ids = {t["id"] for t in tables["dice_tables"]} | {c["id"] for c in tables["charts"]}
    used = set()
    for s in steps:
        for table_id in s["tables"]:
            assert table_id in ids, (s["rule"], table_id)
            used.add(table_id)
    # every dice table belongs to some RePh step, except those used during play
    during_play = {"rf.cg-sniper-selection", "rf.smokestack-sniper"}
    assert {t["id"] for t in tables["dice_tables"]} - used == during_play


def test_step_tables_sample(by_rule):
    assert by_rule["11.6063"]["tables"] == ["rf.escape"]
    assert by_rule["11.616"]["tables"][0] == "rf.cpp-replenishment"
    assert by_rule["11.618"]["tables"] == ["rf.weather", "rf.ec"]
    assert "rf.initiative-matrix" in by_rule["11.623"]["tables"]
    assert by_rule["11.625"]["tables"] == ["rf.dual-attack-first-player"]


def test_secret_steps_against_seed(by_rule, lines):
    for rule, line in (
        ("11.6112", 1236),
        ("11.6113", 1260),
        ("11.6142", 1365),
        ("11.616", 1389),
        ("11.6201", 1650),
        ("11.6204", 1693),
    ):
        assert by_rule[rule]["secret"] is True, rule
        assert "秘密裏" in lines[line], rule
    assert "秘密裏" in lines[1455] and by_rule["11.619"]["secret"] is True
    for rule in ("11.601", "11.609", "11.610", "11.613", "11.615", "11.618", "11.625"):
        assert by_rule[rule]["secret"] is False, rule
    # inferred secrecy is explained
    for rule in ("11.6122", "11.617", "11.621", "11.622"):
        assert by_rule[rule]["secret"] is True and "inferred" in by_rule[rule]["secret_basis"]


def test_both_sides_together(by_rule, lines):
    for rule in ("11.605", "11.606", "11.623", "11.624", "11.625"):
        assert by_rule[rule]["both_sides_together"] is True, rule
    for rule in ("11.616", "11.619", "11.620"):
        assert by_rule[rule]["both_sides_together"] is False, rule
    assert "同時に見せ合い" in lines[1879]


def test_skip_conditions_and_typos(by_rule, lines):
    assert "盤上に火災がない場合、RePhの手順11.609はとばす" in lines[977]
    assert "Blaze" in by_rule["11.609"]["applies"]["en"]
    assert by_rule["11.612"]["heading_printed"] == "11.6112"
    assert lines[1287].startswith("11.6112 新たなCG日&SAN調整")
    items = by_rule["11.602"]["items"]
    assert [i["letter"] for i in items] == list("abcdefghij")
    assert items[7]["printed"] == "b" and lines[items[7]["line"]].startswith("- b) 地下道マーカー")
    grey = by_rule["11.616"]["applies"]["en"]
    assert "10/17 (RB)" in grey and "10/23 (RO)" in grey and "10/17[RB]と10/23[RO]" in lines[1407]


def test_ammunition_shortage_11_6243_is_a_sub_step_of_its_own(by_rule, steps, lines):
    # Issue 15: the data folded 11.6243 into 11.624; it is now listed between 11.6242 and 11.6244.
    step = by_rule["11.6243"]
    assert (step["level"], step["parent"], step["markers"]) == ("sub_step", "11.624", ["#"])
    assert step["name"] == {"en": "Removing Ammunition Shortage", "ja": "弾薬減少の解消"}
    first, last = step["lines"]
    assert lines[first].startswith("11.6243 弾薬減少の解消")
    assert "11.6139" in lines[last] and lines[last + 2].startswith("11.6244")
    assert step["secret"] is False and step["tables"] == []
    assert "11.6139" in step["applies"]["en"] and "11.6139" in step["applies"]["ja"]
    assert "folded_rules" not in by_rule["11.624"]
    rules = [s["rule"] for s in steps]
    assert rules[rules.index("11.6242") + 1 : rules.index("11.6244")] == ["11.6243"]
