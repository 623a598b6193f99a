"""The RePh flow from the module data: which steps run, and what comes next."""

import pytest

from campaigns.games.registry import get_module
from campaigns.games.step_engine import Position, first_position, next_position, steps_for

RF = get_module("red_factories").files["refit_steps"]
SAP = get_module("slaughter_at_ponyri").files["refit_steps"]


def rules(module, data, kind):
    return [step.rule for step in steps_for(module, data, kind)]


def test_before_rfs_initial_scenario_only_the_dagger_steps():
    # 11.5: the initial scenario starts with 11.619 → 11.622 only.
    assert rules("red_factories", RF, "before_initial") == ["11.619", "11.620", "11.621", "11.622"]


def test_after_an_rf_scenario_the_unmarked_steps_once():
    assert rules("red_factories", RF, "after_scenario") == [f"11.6{n:02d}" for n in range(1, 12)]


def test_each_new_rf_cg_day_runs_the_star_steps_and_a_scenario_day_the_hash_steps():
    assert rules("red_factories", RF, "new_day") == [f"11.6{n}" for n in range(12, 24)]
    assert rules("red_factories", RF, "scenario_day") == ["11.624", "11.625"]


def test_sub_steps_travel_with_their_step():
    (step,) = [s for s in steps_for("red_factories", RF, "new_day") if s.rule == "11.612"]
    assert [sub.rule for sub in step.sub_steps][:2] == ["11.6121", "11.6122"]


def test_slaughter_at_ponyri_runs_three_kinds_of_reph():
    full = rules("slaughter_at_ponyri", SAP, "full")
    assert full == [f"11.6{n:02d}" for n in range(1, 23)]
    pre_cg = rules("slaughter_at_ponyri", SAP, "pre_cg")
    assert pre_cg == ["11.617", "11.618", "11.619", "11.620", "11.621", "11.622"]
    daytime = rules("slaughter_at_ponyri", SAP, "daytime")
    # † steps only: no isolation, no fortification removal, no RG strength or fortifications
    assert "11.605" not in daytime and "11.620" not in daytime and "11.621" not in daytime
    assert daytime[:3] == ["11.601", "11.602", "11.603"] and "11.617" in daytime


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="no RePh of kind"):
        steps_for("red_factories", RF, "daytime")


def test_an_rf_cg_idles_until_a_scenario_is_generated():
    position = first_position("red_factories")
    assert position == Position("before_initial", 0)
    position = next_position("red_factories", position, last_index=12)
    assert position == Position("scenario", 0)
    position = next_position("red_factories", position, last_index=12)
    assert position == Position("after_scenario", 0)
    position = next_position("red_factories", position, last_index=12)
    assert position == Position("new_day", 1)
    # Both sides chose Idle: an Idle Day, then the next day's * steps.
    position = next_position("red_factories", position, last_index=12, scenario_generated=False)
    assert position == Position("new_day", 2)
    position = next_position("red_factories", position, last_index=12, scenario_generated=True)
    assert position == Position("scenario_day", 2)
    assert next_position("red_factories", position, last_index=12) == Position("scenario", 2)


def test_the_rf_cg_ends_on_its_last_day_or_when_won():
    after_last = Position("after_scenario", 12)
    assert next_position("red_factories", after_last, last_index=12) is None
    won = Position("after_scenario", 3)
    assert next_position("red_factories", won, last_index=12, cg_won=True) is None
    idle_last = Position("new_day", 12)
    assert (
        next_position("red_factories", idle_last, last_index=12, scenario_generated=False) is None
    )


def test_the_initiative_step_must_decide():
    with pytest.raises(ValueError, match="11.623"):
        next_position("red_factories", Position("new_day", 1), last_index=12)


def test_ro_cg_i_plays_two_scenarios_on_its_first_day():
    # SSR I.6: a normal RePh between them, the date unchanged.
    after_first = Position("after_scenario", 0)
    second = next_position("red_factories", after_first, last_index=8, scenarios_on_day={0: 2})
    assert second == Position("new_day", 0, 2)
    scenario_day = next_position(
        "red_factories", second, last_index=8, scenarios_on_day={0: 2}, scenario_generated=True
    )
    assert next_position("red_factories", scenario_day, last_index=8) == Position("scenario", 0, 2)
    after_second = Position("after_scenario", 0, 2)
    assert next_position(
        "red_factories", after_second, last_index=8, scenarios_on_day={0: 2}
    ) == Position("new_day", 1)


def test_slaughter_at_ponyri_alternates_daytime_and_full_rephs():
    module = "slaughter_at_ponyri"
    position = first_position(module)
    assert position == Position("pre_cg", 0)
    seen = []
    while position is not None:
        seen.append((position.kind, position.index))
        position = next_position(module, position, last_index=5)
    assert seen == [
        ("pre_cg", 0),
        ("scenario", 0),
        ("daytime", 1),
        ("scenario", 1),
        ("full", 2),
        ("scenario", 2),
        ("daytime", 3),
        ("scenario", 3),
        ("full", 4),
        ("scenario", 4),
        ("daytime", 5),
        ("scenario", 5),
    ]


def test_slaughter_at_ponyri_ends_early_when_a_side_wins():
    assert (
        next_position("slaughter_at_ponyri", Position("scenario", 2), last_index=5, cg_won=True)
        is None
    )


def test_the_engine_imports_no_django():
    import subprocess
    import sys

    code = "import sys, campaigns.games.step_engine; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=".").returncode == 0
