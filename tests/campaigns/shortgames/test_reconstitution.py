"""Cherkassy Pocket 12.1: a German battalion returns from the Eligible for Reconstitution box —
checked by campaigns.shortgames.rules.cherkassy.losses.reconstitution, recorded and undoable."""

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, GameUnit, UnitState
from campaigns.shortgames import reconstitution, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData

pytestmark = pytest.mark.django_db


def battalion(name, division="72 ID", state="reconstitution", hex="", pocket=False):
    return UnitData(
        side="german",
        name=name,
        unit_type="infantry",
        formation=division,
        size="battalion",
        full="6-8-12",
        reduced="3-4-12",
        state=state,
        hex=hex,
        in_pocket=pocket,
    )


def box(cp_started, people, count=3, on_map=True):
    units = [battalion(f"{n}/105") for n in range(1, count + 1)]
    if on_map:
        units.append(battalion("III/124", state="full", hex="2121"))
    return short_games.add_units(cp_started, by=people["german"], units=units)


def test_three_battalions_return_one_and_the_rest_are_eliminated(cp_started, people):
    first, second, third, _on_map = box(cp_started, people)
    reconstitution.reconstitute(
        cp_started, first, index=0, version=first.version, hex="2122", by=people["german"]
    )
    states = dict(GameUnit.objects.values_list("name", "state"))
    assert states == {
        "1/105": "reduced",
        "2/105": "eliminated",
        "3/105": "eliminated",
        "III/124": "full",
    }
    first.refresh_from_db()
    assert first.reconstituted and first.hex == "2122"
    event = CampaignEvent.objects.get(action="unit.changed")
    assert event.data["reconstituted"] and "12.1" in history.describe(event)


def test_the_event_is_undone_like_other_unit_changes(cp_started, people):
    first, *_ = box(cp_started, people)
    reconstitution.reconstitute(
        cp_started, first, index=0, version=first.version, hex="2122", by=people["german"]
    )
    history.undo(CampaignEvent.objects.get(action="unit.changed"), by=people["german"])
    assert set(GameUnit.objects.filter(name__endswith="/105").values_list("state", flat=True)) == {
        UnitState.RECONSTITUTION
    }
    assert not GameUnit.objects.filter(reconstituted=True).exists()


def test_two_battalions_are_not_enough(cp_started, people):
    first, *_ = box(cp_started, people, count=2)
    with pytest.raises(turn_steps.TurnError, match=r"3 are needed.*12\.1"):
        reconstitution.reconstitute(
            cp_started, first, index=0, version=first.version, hex="2122", by=people["german"]
        )


def test_once_per_division(cp_started, people):
    first, *_ = box(cp_started, people, count=6)
    reconstitution.reconstitute(
        cp_started, first, index=0, version=first.version, hex="2122", by=people["german"]
    )
    short_games.add_units(
        cp_started, by=people["german"], units=[battalion(f"{n}/266") for n in range(7, 10)]
    )
    late = GameUnit.objects.get(name="7/266")
    late.formation = "72 ID"
    late.save()
    with pytest.raises(turn_steps.TurnError, match="already"):
        reconstitution.reconstitute(
            cp_started, late, index=0, version=late.version, hex="2122", by=people["german"]
        )


def test_none_of_its_division_on_the_map(cp_started, people):
    first, *_ = box(cp_started, people, on_map=False)
    with pytest.raises(turn_steps.TurnError, match="No unit of this division"):
        reconstitution.reconstitute(
            cp_started, first, index=0, version=first.version, hex="2122", by=people["german"]
        )


def test_stemmermann_and_other_battalions_are_not_mixed(cp_started, people):
    units = short_games.add_units(
        cp_started,
        by=people["german"],
        units=[
            battalion("1/105"),
            battalion("2/105"),
            battalion("3/105", pocket=True),
            battalion("III/124", state="full", hex="2121"),
        ],
    )
    with pytest.raises(turn_steps.TurnError, match="3 are needed"):
        reconstitution.reconstitute(
            cp_started, units[0], index=0, version=units[0].version, hex="1", by=people["german"]
        )


def test_a_unit_not_in_the_box_is_refused(cp_started, people):
    *_, on_map = box(cp_started, people)
    with pytest.raises(turn_steps.TurnError, match="Eligible for Reconstitution"):
        reconstitution.reconstitute(
            cp_started, on_map, index=0, version=on_map.version, hex="1", by=people["german"]
        )


@pytest.mark.parametrize(
    ("persona", "status", "returned"),
    [
        ("german", 302, True),
        ("referee", 302, True),
        ("soviet", 403, False),
        ("observer", 403, False),
        ("outsider", 404, False),
    ],
)
def test_the_page_offers_and_takes_it(cp_started, people, client_as, persona, status, returned):
    first, *_ = box(cp_started, people)
    client = client_as(persona)
    page = client.get(reverse("shortgames:units", args=[cp_started.pk]))
    if persona == "outsider":
        assert page.status_code == 404
    else:
        html = page.content.decode()
        assert 'id="reconstitution"' in html
        assert ("Return this unit" in html) is returned
    url = reverse("shortgames:reconstitute", args=[cp_started.pk, first.pk])
    response = client.post(url, {"turn": 0, "version": first.version, "hex": "2122"})
    assert response.status_code == status
    first.refresh_from_db()
    assert (first.state == UnitState.REDUCED) is returned


def test_a_stale_form_changes_nothing(cp_started, people, client_as):
    first, *_ = box(cp_started, people)
    url = reverse("shortgames:reconstitute", args=[cp_started.pk, first.pk])
    client_as("german").post(url, {"turn": 0, "version": first.version + 1, "hex": "2122"})
    client_as("german").post(url, {"turn": 5, "version": first.version, "hex": "2122"})
    first.refresh_from_db()
    assert first.state == UnitState.RECONSTITUTION


def test_no_reconstitution_in_defiant_russia(dr_started, client_as):
    assert (
        'id="reconstitution"'
        not in client_as("german")
        .get(reverse("shortgames:units", args=[dr_started.pk]))
        .content.decode()
    )
