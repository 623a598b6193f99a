"""Changes to a side's order of battle: OB lines added, moved, changed and removed, the
divider's boxes checked, and undoing them."""

import pytest

from campaigns.access import viewer_for
from campaigns.games.registry import get_module
from campaigns.history import services as history
from campaigns.members import services
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup, Role
from campaigns.orbat import services as orbat
from campaigns.state import StateError

pytestmark = pytest.mark.django_db


def test_moving_part_of_a_line_splits_it_and_undo_puts_it_back(campaign, people):
    (squads,) = orbat.add_units(
        campaign, by=people["german"], side="german", box=OrbatBox.RETAINED, text="14 × 4-6-7"
    )
    moved = orbat.change_entry(
        squads,
        by=people["german"],
        version=squads.version,
        box=OrbatBox.CASUALTIES,
        move_quantity=3,
    )
    squads.refresh_from_db()
    assert (squads.quantity, moved.quantity, moved.box) == (11, 3, "casualties")
    event = history.undoable_for(viewer_for(people["german"], campaign.pk)).first()
    assert event.action == "orbat.changed"
    history.undo(event, by=people["german"])
    assert list(
        OrbatEntry.objects.filter(campaign=campaign, unit_type="4-6-7").values_list(
            "box", "quantity"
        )
    ) == [("retained", 14)]


def test_undo_is_refused_when_the_row_changed_again(campaign, people):
    (line,) = orbat.add_units(
        campaign, by=people["german"], side="german", box=OrbatBox.RETAINED, text="2 × LMG"
    )
    orbat.change_entry(line, by=people["german"], version=0, quantity=3)
    added = campaign.events.get(action="orbat.added")
    with pytest.raises(history.UndoError, match="changed again"):
        history.undo(added, by=people["referee"])
    assert OrbatEntry.objects.get(pk=line.pk).quantity == 3


def test_undoing_a_removal_brings_the_line_back(campaign, people):
    (line,) = orbat.add_units(
        campaign, by=people["soviet"], side="soviet", box=OrbatBox.WOUNDED, text="9-1 leader"
    )
    pk = line.pk
    orbat.remove_entry(line, by=people["soviet"], version=0)
    assert not OrbatEntry.objects.filter(pk=pk).exists()
    history.undo(campaign.events.get(action="orbat.removed"), by=people["soviet"])
    assert OrbatEntry.objects.get(pk=pk).unit_type == "9-1 leader"


@pytest.mark.parametrize(
    ("box", "with_group", "message"),
    [("rg", False, "which RG"), ("retained", True, "which RG"), ("attic", False, "not a box")],
)
def test_boxes_are_checked(campaign, people, box, with_group, message):
    group = ReinforcementGroup.objects.filter(campaign=campaign, side="german").first()
    with pytest.raises(StateError, match=message):
        orbat.add_units(
            campaign,
            by=people["german"],
            side="german",
            box=box,
            text="LMG",
            group=group if with_group else None,
        )


def test_another_sides_rg_box_is_refused(campaign, people):
    soviet_rg = ReinforcementGroup.objects.filter(campaign=campaign, side="soviet").first()
    with pytest.raises(StateError, match="not one of this side"):
        orbat.add_units(
            campaign, by=people["german"], side="german", box="rg", text="LMG", group=soviet_rg
        )


def test_undo_touches_only_rows_of_its_own_campaign(campaign, people):
    other = services.create_campaign(
        user=people["german"],
        name="Other",
        module=get_module("red_factories"),
        cg_key="rb-cg-2",
        role=Role.PLAYER,
        side="german",
    )
    (line,) = orbat.add_units(
        other, by=people["german"], side="german", box=OrbatBox.RETAINED, text="LMG"
    )
    forged = campaign.events.create(
        actor=people["german"],
        action="orbat.added",
        visibility="german",
        data={
            "undo": [
                {
                    "model": "campaigns.orbatentry",
                    "pk": line.pk,
                    "before": None,
                    "after": history.snapshot(line),
                }
            ]
        },
    )
    with pytest.raises(history.UndoError):
        history.undo(forged, by=people["referee"])
    assert OrbatEntry.objects.filter(pk=line.pk).exists()
