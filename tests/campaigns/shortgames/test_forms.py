"""The short games' forms read what is typed: a quick entry or a data file into units, a
referee's JSON table, the ticks of the victory page, the combat helpers' entries."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import QueryDict

from campaigns.shortgames.combat_forms import CpCombatForm, DrCombatForm
from campaigns.shortgames.forms import (
    ConditionForm,
    PocketForm,
    QuickEntryForm,
    RefereeTableForm,
    UnitForm,
    UploadForm,
    error_texts,
)
from campaigns.shortgames.rules.defiant_russia.combat import CombatUnit
from campaigns.shortgames.units import FILE_FORMAT, FILE_VERSION

DR_SIDES = ("axis", "soviet")
CP_SIDES = ("german", "soviet")


def query(**values) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in values.items():
        data.setlist(key, value if isinstance(value, list) else [value])
    return data


# --- units ------------------------------------------------------------------------------------


def test_the_quick_entry_reads_its_lines_into_units():
    form = QuickEntryForm(
        {"text": "5th Army | infantry_army | Soviet | 3-3 | 1-3 | T2"},
        module="defiant_russia",
        side="soviet",
    )
    assert form.is_valid()
    (unit,) = form.cleaned_data["units"]
    assert (unit.side, unit.name, unit.nationality, unit.arrival_turn) == (
        "soviet",
        "5th Army",
        "soviet",
        2,
    )


@pytest.mark.parametrize("module", ["defiant_russia", "cherkassy_pocket"])
def test_a_hex_typed_in_quick_entry_lands_in_hex_and_a_code_in_set_up(module):
    form = QuickEntryForm(
        {
            "text": "5th Army | infantry | soviet | 3-3 | | 3809\n"
            "6th Army | infantry | soviet | 3-3 | | K"
        },
        module=module,
        side="soviet",
    )
    assert form.is_valid()
    on_hex, by_code = form.cleaned_data["units"]
    assert (on_hex.hex, on_hex.setup) == ("3809", "")
    assert (by_code.hex, by_code.setup) == ("", "K")


def test_a_bad_quick_entry_line_is_the_texts_error():
    form = QuickEntryForm({"text": "just a name"}, module="defiant_russia", side="soviet")
    assert not form.is_valid()
    assert "Line 1" in form.errors["text"][0]


def test_the_unit_form_trims_its_texts_and_lowers_the_nationality():
    data = {
        "name": "5th Army",
        "unit_type": "infantry_army",
        "nationality": " Soviet ",
        "full": " 3-3 ",
        "steps": "2",
        "state": "full",
        "hex": " 2020 ",
    }
    form = UnitForm(data, module="defiant_russia", states=[("full", "Full")])
    assert form.is_valid(), form.errors
    unit = form.unit_data("soviet")
    assert (unit.side, unit.nationality, unit.full, unit.hex) == ("soviet", "soviet", "3-3", "2020")
    assert "formation" not in form.changes("soviet")  # a Cherkassy field
    assert form.changes("soviet")["nationality"] == "soviet"


def roster_file(**changes) -> bytes:
    payload = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "module": "defiant_russia",
        "units": [{"side": "soviet", "name": "5th Army", "unit_type": "infantry_army"}],
    }
    return json.dumps({**payload, **changes}).encode()


def upload(content: bytes) -> UploadForm:
    file = SimpleUploadedFile("roster.json", content, "application/json")
    return UploadForm({}, {"file": file}, module="defiant_russia")


def test_a_roster_file_is_read_into_units():
    form = upload(roster_file())
    assert form.is_valid(), form.errors
    assert [unit.name for unit in form.cleaned_data["units"]] == ["5th Army"]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"{not json", "The file is not JSON."),
        (b"\xff\xfe", "The file is not JSON."),
        (roster_file(module="cherkassy_pocket"), "another game"),
        (b" " * 2_000_001, "larger than a roster can be"),
    ],
)
def test_a_file_that_is_not_a_roster_of_this_game_is_refused(content, error):
    form = upload(content)
    assert not form.is_valid()
    assert error in form.errors["file"][0]


# --- victory and tables -----------------------------------------------------------------------


def test_the_ring_form_keeps_the_ids_and_only_1_is_yes():
    form = PocketForm(query(version="3", formed="1", members=["4", "x", "12", "-1"]))
    assert form.is_valid()
    assert (form.cleaned_data["formed"], form.cleaned_data["members"]) == (True, [4, 12])
    form = PocketForm(query(version="3", formed="yes"))
    assert form.is_valid()
    assert (form.cleaned_data["formed"], form.cleaned_data["members"]) == (False, [])


def test_a_condition_is_met_only_with_1():
    assert ConditionForm(query(version="0", condition="c", met="1")).is_valid()
    form = ConditionForm(query(version="0", condition="c", met="0"))
    assert form.is_valid() and form.cleaned_data["met"] is False


def test_a_referee_table_is_read_as_json():
    form = RefereeTableForm({"slot": "cp.crt", "data": '{"1:1": {}}'}, slots=["cp.crt"])
    assert form.is_valid()
    assert form.cleaned_data["data"] == {"1:1": {}}


def test_a_table_that_is_not_json_says_where():
    form = RefereeTableForm({"slot": "cp.crt", "data": "{x"}, slots=["cp.crt"])
    assert not form.is_valid()
    assert form.errors["data"][0].startswith("Not JSON: Expecting property name")


def test_the_errors_name_their_fields_but_not_the_version():
    form = RefereeTableForm({"slot": "cp.tec", "version": "x"}, slots=["cp.crt"])
    assert not form.is_valid()
    text = error_texts(form)
    assert "Which table: Select a valid choice." in text
    assert "Table (JSON): This field is required." in text
    assert "Enter a whole number." in text and "Version" not in text


# --- the combat helpers -----------------------------------------------------------------------


def test_a_defiant_russia_combat_is_read_into_the_rules_terms():
    form = DrCombatForm(
        query(
            side="axis",
            units="6a, 3",
            nationality="german",
            terrain=["forest", "sea"],
            leaders=["guderian", "napoleon"],
            air_points="7",
            breakthrough="1",
            note=" Kiev ",
        ),
        sides=DR_SIDES,
    )
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    assert data["units"] == [
        CombatUnit(6, armor=True, nationality="german"),
        CombatUnit(3, nationality="german"),
    ]
    assert (data["role"], data["terrain"], data["leaders"]) == (
        "attacker",
        ["forest"],
        ["guderian"],
    )
    assert (data["air_points"], data["breakthrough"], data["note"]) == (
        7,
        True,
        "Kiev",
    )  # 11.7 refuses over 3, not the form


@pytest.mark.parametrize("values", [{"units": "6x"}, {"units": "6", "air_points": "two"}])
def test_what_cannot_be_read_is_the_pages_one_sentence(values):
    form = DrCombatForm(query(side="axis", **values), sides=DR_SIDES)
    assert not form.is_valid() and not form.crafted
    assert "a for armor" in form.hint()


@pytest.mark.parametrize("values", [{"side": "ussr"}, {"side": "axis", "role": "both"}, {}])
def test_a_side_or_role_the_page_does_not_offer_is_crafted(values):
    assert DrCombatForm(query(units="6", **values), sides=DR_SIDES).crafted


def test_a_cherkassy_combat_defaults_to_the_first_side_and_keeps_what_the_page_offers():
    form = CpCombatForm(
        query(
            attackers=["3", "x"],
            defenders=[str(n) for n in range(40)],
            attack=" 12 ",
            shifts=["air", "bogus"],
            turn="x",
            note="n" * 150,
        ),
        sides=CP_SIDES,
        shifts=["air", "terrain"],
    )
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    assert (data["side"], data["attackers"], data["shifts"]) == ("german", [3], ["air"])
    assert len(data["defenders"]) == 30
    assert (data["attack"], data["defense"], data["turn"], len(data["note"])) == (12, 0, None, 100)


@pytest.mark.parametrize("values", [{"attack": "x"}, {"defense": "201"}])
def test_a_strength_that_cannot_be_read(values):
    form = CpCombatForm(query(**values), sides=CP_SIDES)
    assert not form.is_valid() and not form.crafted
    assert "whole numbers" in form.hint()


def test_a_cherkassy_side_the_page_does_not_offer_is_crafted():
    assert CpCombatForm(query(side="axis"), sides=CP_SIDES).crafted
