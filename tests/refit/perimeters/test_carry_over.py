"""Each Refit Phase's perimeter starts from the last one (control, the markers still legal,
unit positions); the campaign's first from the CG's initial SSRs; the reduced-map PDF shows the
last perimeter and never starts one."""

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import RefitPhase
from refit.models import PerimeterState, PerimeterUnits
from refit.perimeters.state import current_state
from refit.walker import services as walker

pytestmark = pytest.mark.django_db


def next_reph(campaign) -> RefitPhase:
    """Finish the open Refit Phase and open the next day's."""
    reph = walker.open_reph(campaign)
    reph.finished_at = timezone.now()
    reph.save()
    return RefitPhase.objects.create(campaign=campaign, kind=reph.kind, index=reph.index + 1)


def test_a_new_rb_cg_i_map_starts_with_ssr_i4_control(campaign):
    state = current_state(campaign)
    # I.4: the German entry area's edge hexes German (A9 round the corner to U1), all else Soviet.
    assert state.control["A9"] == state.control["A1"] == state.control["U1"] == "german"
    assert state.control["A10"] == state.control["V0"] == state.control["H41"] == "soviet"
    assert len(state.control) == 1746
    assert sum(1 for side in state.control.values() if side == "german") == 29


def test_the_next_reph_carries_control_legal_markers_and_units(campaign):
    state = current_state(campaign)
    state.control = {"H41": "german", "H45": "german", "J43": "soviet", "K40": "german"}
    state.markers = [
        {"side": "german", "hex": "H41", "via": "", "target": "H45", "kind": "main"},
        {"side": "german", "hex": "H45", "via": "", "target": "H41", "kind": "main"},
        # Not anchored once K40 is Soviet (the scenario's control change below).
        {"side": "german", "hex": "K40", "via": "", "target": "H41", "kind": "main"},
    ]
    state.recorded = {"control": {**state.control, "K40": "soviet"}}
    state.save()
    PerimeterUnits.objects.create(
        campaign=campaign,
        state=state,
        side="soviet",
        units=[{"id": "4-4-7", "kind": "mmc", "hex": "J43", "level": 0}],
        declared=True,
    )
    next_reph(campaign)
    new = current_state(campaign)
    assert new.pk != state.pk
    assert new.control == {"H41": "german", "H45": "german", "J43": "soviet", "K40": "soviet"}
    assert [m["hex"] for m in new.markers] == ["H41", "H45"]
    row = PerimeterUnits.objects.get(state=new, side="soviet")
    assert row.units == [{"id": "4-4-7", "kind": "mmc", "hex": "J43", "level": 0}]
    assert not row.declared  # secret again until declared for this RePh


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_viewing_the_pdf_never_starts_a_perimeter(campaign, client_as, persona, status):
    response = client_as(persona).get(reverse("rosters:perimeter_map", args=[campaign.pk]))
    assert response.status_code == status
    assert not PerimeterState.objects.filter(campaign=campaign).exists()


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_after_the_reph_the_pdf_shows_the_last_perimeter(campaign, client_as, persona, status):
    state = current_state(campaign)
    reph = walker.open_reph(campaign)
    reph.finished_at = timezone.now()
    reph.save()
    response = client_as(persona).get(reverse("rosters:perimeter_map", args=[campaign.pk]))
    assert response.status_code == status
    assert list(PerimeterState.objects.filter(campaign=campaign)) == [state]
    if status == 200:
        assert response["Content-Disposition"].endswith(f'perimeter-{state.index + 1}.pdf"')


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_a_hex_click_answers_with_only_what_it_changes(campaign, client_as, persona, status):
    page = reverse("perimeters:page", args=[campaign.pk])
    response = client_as(persona).get(
        page, {"hex": "h41", "zoom": 1}, headers={"HX-Request": "true", "HX-Target": "selection"}
    )
    assert response.status_code == status
    if status != 200:
        return
    body = response.content.decode()
    assert "<svg" not in body and len(body) < 5000
    assert 'id="selection"' in body and "H41" in body
    assert '<style id="selected-hex" hx-swap-oob="true">#h-H41 {' in body
    assert 'id="hexes-control" name="hexes" value="H41" required hx-swap-oob="true"' in body
    assert 'id="origin-marker-german" name="origin" value="H41" size="6"' in body


def test_the_map_links_each_hex_to_the_small_answer(campaign, client_as):
    body = client_as("german").get(reverse("perimeters:page", args=[campaign.pk])).content
    body = body.decode()
    assert 'hx-target="#selection"' in body and '<path id="h-H41"' in body
    # Every form field the click refreshes is on the page under the id the answer names.
    for field in ('id="hexes-control"', 'id="sel-control"', 'id="origin-marker-german"'):
        assert field in body
    assert 'role="img"' not in body  # links inside an image role would be hidden


def test_a_hex_click_costs_the_same_queries_on_any_campaign(
    campaign, client_as, django_assert_max_num_queries
):
    client = client_as("observer")
    page = reverse("perimeters:page", args=[campaign.pk])
    headers = {"HX-Request": "true", "HX-Target": "selection"}
    client.get(page, {"hex": "H41"}, headers=headers)
    with django_assert_max_num_queries(8):
        client.get(page, {"hex": "H42"}, headers=headers)
