"""Every table of the project is in the export file or listed, with why, as not campaign data:
a new table cannot be left out of the backup by accident."""

from django.apps import apps

from campaigns.transfer.format import CORE_SECTIONS, NOT_IN_THE_FILE
from campaigns.transfer.sections import REGISTRY

APPS = ("accounts", "campaigns", "refit", "rosters")


def project_models():
    return {model for label in APPS for model in apps.get_app_config(label).get_models()}


def test_every_table_is_in_a_section_or_said_not_to_be_campaign_data():
    covered = REGISTRY.covered_models()
    left_out = {
        model._meta.label_lower
        for model in project_models()
        if model not in covered and model._meta.label_lower not in NOT_IN_THE_FILE
    }
    assert not left_out, (
        f"{sorted(left_out)}: add them to a section of the export file (campaigns.transfer."
        "sections.register_section) or to NOT_IN_THE_FILE with the reason"
    )


def test_what_is_left_out_is_left_out_for_a_reason_and_only_that():
    labels = {model._meta.label_lower for model in project_models()}
    covered = {model._meta.label_lower for model in REGISTRY.covered_models()}
    for label, reason in NOT_IN_THE_FILE.items():
        assert label in labels, label  # a table that no longer exists
        assert label not in covered, label
        assert len(reason.split()) >= 3, label


def test_the_refit_phase_registers_its_sections_from_its_app():
    assert REGISTRY.names()[:1] == ("short_game",)
    assert set(REGISTRY.names()) == {
        "short_game",
        "dr_turn_record",
        "short_game_turns",
        "stone_location_totals",
        "cvp_values",
        "refit_phases",
        "step_marks",
        "map_terrain",
        "perimeters",
        "perimeter_units",
        "scenario_control",
        "armor_reserve",
        "corrections",
    }
    assert not set(REGISTRY.names()) & set(CORE_SECTIONS)


def test_a_table_is_in_one_section_only():
    held = [model for models in CORE_SECTIONS.values() for model in models]
    held += [model for section in REGISTRY for model in section.models]
    assert len(held) == len(set(held))
