"""The perimeter maps in the export file (refit.perimeters.transfer): public except a side's
undeclared units, round-tripped with the escape's roll, crafted shapes refused."""

import copy
import json

import pytest

from campaigns.access import viewer_for
from campaigns.models import DiceRoll
from campaigns.transfer import services as transfer
from refit.models import MapTerrain, PerimeterState, PerimeterUnits
from tests.campaigns.shortgames.conftest import make_game
from tests.campaigns.transfer.test_services import refusal
from tests.refit import campaign_states

pytestmark = pytest.mark.django_db


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


@pytest.fixture
def fought(campaign, people):
    """After the initial scenario's RePh: control, water, fires, a marker, a pocket, the German's
    undeclared squad that escaped, the Soviet's declared one, the recorded result."""
    return campaign_states.after_the_initial_scenario(campaign, people)


def units_of(data):
    return {(row["side"], row["declared"]) for row in data["perimeter_units"]}


def test_a_sides_undeclared_units_go_only_to_it_and_the_referee(fought, people):
    assert units_of(export_as(fought, people["referee"])) == {
        ("german", False),
        ("soviet", True),
    }
    assert units_of(export_as(fought, people["german"])) == {("german", False), ("soviet", True)}
    assert units_of(export_as(fought, people["soviet"])) == {("soviet", True)}
    assert units_of(export_as(fought, people["observer"])) == {("soviet", True)}
    assert "4-6-7 H41" not in json.dumps(
        [row["units"] for row in export_as(fought, people["soviet"])["perimeter_units"]]
    )


def test_the_perimeter_itself_is_public(fought, people):
    files = [export_as(fought, people[p]) for p in ("referee", "german", "soviet", "observer")]

    def without_roll_ids(rows):  # each file numbers the rolls it holds
        return [{**row, "escapes": [{**e, "roll": None} for e in row["escapes"]]} for row in rows]

    assert all(
        without_roll_ids(f["perimeters"]) == without_roll_ids(files[0]["perimeters"]) for f in files
    )
    assert all(f["map_terrain"] == {"water": ["Z10", "Z11", "Z12"]} for f in files)
    (state,) = files[0]["perimeters"]
    assert state["reph"] == 3  # the RePh after the initial scenario, by its file id
    assert state["fires"] == ["C3"] and state["recorded"]["control"]


def test_the_escape_names_its_roll_by_its_file_id_and_the_copy_links_it(fought, people):
    data = export_as(fought, people["observer"])
    (escape,) = data["perimeters"][0]["escapes"]
    roll = next(r for r in data["dice_rolls"] if r["id"] == escape["roll"])
    assert roll["step"] == "11.6063"
    assert {m["id"] for m in roll["modifiers"]} == {"leader", "extra-hs"}
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    (copied,) = PerimeterState.objects.get(campaign=imported).escapes
    linked = DiceRoll.objects.get(pk=copied["roll"])
    assert (linked.campaign_id, linked.faces, linked.step) == (
        imported.pk,
        roll["faces"],
        "11.6063",
    )


def test_the_copys_units_and_terrain_belong_to_it(fought, people):
    first = export_as(fought, people["referee"])
    imported = transfer.load(transfer.parse_export(json.dumps(first)), user=people["outsider"])
    rows = PerimeterUnits.objects.filter(campaign=imported)
    assert {(row.side, row.declared, row.state.campaign_id) for row in rows} == {
        ("german", False, imported.pk),
        ("soviet", True, imported.pk),
    }
    assert MapTerrain.objects.get(campaign=imported).water == ["Z10", "Z11", "Z12"]
    state = PerimeterState.objects.get(campaign=imported)
    assert (state.reph.campaign_id, state.reph.kind) == (imported.pk, "after_scenario")


def changed(data, change):
    data = copy.deepcopy(data)
    change(data)
    return data


def _state(data):
    return data["perimeters"][0]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda d: d["perimeter_units"][0].update(side="german", declared=False),
            "perimeter_units, entry 1, “side”: is secret in a file of scope “side:soviet”.",
        ),
        (
            lambda d: d["perimeter_units"][0].update(perimeter=9),
            "names no perimeter of the file",
        ),
        (
            lambda d: d["perimeter_units"][0]["units"][0].update(kind="tank"),
            "“units”: must be a list of units",
        ),
        (
            lambda d: d["perimeter_units"].append(dict(d["perimeter_units"][0])),
            "another entry has the same perimeter, side",
        ),
        (lambda d: _state(d)["control"].update(A1="finnish"), "“control”: must map hex names"),
        (lambda d: _state(d).update(fires="C3"), "“fires”: must be a list"),
        (lambda d: _state(d)["markers"][0].pop("target"), "“markers”: must be a list of markers"),
        (lambda d: _state(d)["markers"][0].update(kind="loop"), "“markers”"),
        (lambda d: _state(d)["non_ground"][0].update(hexes="M10"), "“non_ground”"),
        (lambda d: _state(d)["escapes"][0].update(roll=[1]), "“escapes”: must be a list"),
        (lambda d: _state(d)["escapes"][0].update(escaped="yes"), "“escapes”"),
        (lambda d: _state(d)["recorded"].update(control=["A1"]), "“recorded”: must be an object"),
        (lambda d: _state(d).update(reph=99), "“reph”: names no Refit Phase of the file"),
        (lambda d: d["perimeters"].append(dict(_state(d), id=2)), "has another perimeter"),
        (lambda d: d.update(map_terrain={"water": "Z10"}), "map_terrain, entry 1, “water”"),
        (lambda d: d.update(map_terrain=["Z10"]), "“map_terrain” must be an object"),
    ],
)
def test_crafted_perimeters_are_refused_naming_where(fought, people, change, words):
    assert words in refusal(changed(export_as(fought, people["soviet"]), change))


def test_a_game_without_a_perimeter_map_refuses_them(fought, people):
    dr = make_game(people, "defiant_russia", "full-game", "axis")
    data = export_as(dr, people["referee"])
    data["perimeters"] = export_as(fought, people["referee"])["perimeters"]
    assert refusal(data) == "The file's “perimeters” belongs to another game."
