"""refit.perimeters.state.compute keeps its last computations by everything they read: a page
read again is not worked out again, and nothing changed, nor another viewer's units, is ever
answered from a kept one."""

import pytest

from campaigns.access import viewer_for
from refit.models import PerimeterUnits
from refit.perimeters import state as perimeter
from refit.perimeters.state import compute, current_state, terrain_of, unit_rows

pytestmark = pytest.mark.django_db


def rows_and_state(campaign):
    state = current_state(campaign)
    return state, unit_rows(state)


def test_the_same_inputs_give_the_kept_computation(campaign, people):
    state, rows = rows_and_state(campaign)
    german = viewer_for(people["german"], campaign.pk)
    first = compute(german, state, terrain_of(campaign), rows)
    assert compute(german, state, terrain_of(campaign), rows) is first
    # Another member using the same units (none secret here) gets the same computation.
    assert compute(viewer_for(people["soviet"], campaign.pk), state, None, rows) is first


def test_a_change_not_yet_counted_in_any_version_is_a_new_computation(campaign, people):
    """The key is the content, not the row's id or version: an edit in hand (the initial
    control's preview) or a row rolled back and written again is computed afresh."""
    state, rows = rows_and_state(campaign)
    viewer = viewer_for(people["german"], campaign.pk)
    before = compute(viewer, state, None, rows)
    hexmap = before.hexmap
    state.control = {name: side for name, side in state.control.items() if side == "german"}
    after = compute(viewer, state, None, rows)
    assert after is not before
    assert after.board.control != before.board.control
    assert set(after.board.control.values()) == {"german"}
    state.fires = [hexmap.name(next(iter(after.board.control)))]
    assert compute(viewer, state, None, rows) is not after


def test_a_side_s_secret_units_never_reach_another_viewer(campaign, people):
    state, _rows = rows_and_state(campaign)
    PerimeterUnits.objects.create(
        campaign=campaign,
        state=state,
        side="german",
        units=[{"id": "4-6-7 A", "kind": "mmc", "hex": "H41", "level": 0}],
    )
    rows = unit_rows(state)
    seen = {
        persona: {u.id for u in compute(viewer, state, None, rows).board.units}
        for persona, viewer in (
            ("german", viewer_for(people["german"], campaign.pk)),
            ("soviet", viewer_for(people["soviet"], campaign.pk)),
            ("referee", viewer_for(people["referee"], campaign.pk)),
            ("observer", viewer_for(people["observer"], campaign.pk)),
            ("public", None),
        )
    }
    assert seen == {
        "german": {"4-6-7 A"},
        "soviet": set(),
        "referee": {"4-6-7 A"},
        "observer": set(),
        "public": set(),
    }


def test_only_the_last_few_are_kept(campaign, people):
    state, rows = rows_and_state(campaign)
    viewer = viewer_for(people["german"], campaign.pk)
    for n in range(perimeter._COMPUTED_KEPT + 5):
        state.fires = [f"A{n}"]
        compute(viewer, state, None, rows)
    assert len(perimeter._COMPUTED) == perimeter._COMPUTED_KEPT
