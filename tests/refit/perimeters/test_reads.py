"""The perimeter page's reads (refit.perimeters.state): compiled once, each row's campaign the
campaign asked for (no query more for it), and the map's data written as text once per loaded
data object, never for other data."""

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from refit.models import MapTerrain
from refit.perimeters import state as perimeter

pytestmark = pytest.mark.django_db


def test_open_state_of_a_saved_perimeter_reads_its_rows_and_nothing_for_the_campaign(campaign):
    saved = perimeter.current_state(campaign)
    with CaptureQueriesContext(connection) as queries:
        state, rows = perimeter.open_state(campaign)
        assert state.campaign is campaign and state.reph.campaign is campaign
    assert state.pk == saved.pk and state.version == saved.version
    assert state.control == saved.control
    # the open Refit Phase, its perimeter, its unit rows
    assert len(queries) == 3


def test_the_unsaved_start_is_what_a_change_saves(campaign):
    shown, _rows = perimeter.open_state(campaign)
    assert shown.pk is None
    saved = perimeter.current_state(campaign)
    assert saved.control == shown.control and saved.markers == shown.markers


def test_terrain_of_is_the_campaigns_row_or_none(campaign, people):
    assert perimeter.terrain_of(campaign) is None
    terrain = MapTerrain.objects.create(campaign=campaign, water=["H41"])
    found = perimeter.terrain_of(campaign)
    assert found.pk == terrain.pk and found.water == ["H41"] and found.campaign is campaign


def test_the_maps_text_is_kept_for_the_same_data_object_only():
    data = {"b": [1, 2], "a": {"c": "d"}}
    text = perimeter._data_text(data)
    assert text == '{"a": {"c": "d"}, "b": [1, 2]}'
    assert perimeter._data_text(data) is text
    other = copy.deepcopy(data)
    other["b"].append(3)
    assert perimeter._data_text(other) == '{"a": {"c": "d"}, "b": [1, 2, 3]}'
    assert perimeter._data_text(data) == text


@pytest.mark.parametrize("htmx", [False, True])
def test_the_map_is_spliced_into_the_page_in_the_marks_place(campaign, client_as, htmx):
    from django.urls import reverse

    from refit.perimeters import views

    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("perimeters:page", args=[campaign.pk])
    body = client_as("german").get(url, headers=headers).content.decode()
    assert views._MAP_MARK not in body and "perimeter-map-" not in body.replace(
        'class="perimeter-map"', ""
    )
    start = body.index("<svg ")
    shapes = body[body.index(">", start) + 1 : body.index("</svg>", start)]
    assert shapes.count('id="h-') > 100  # every hex of the map, once
    assert shapes.count('id="h-H41"') == 1


def test_the_initial_control_is_a_fresh_copy_each_time(campaign):
    first = perimeter.initial_control(campaign)
    assert first and first == dict(perimeter._initial_pairs(campaign))
    hex_name = next(iter(first))
    first[hex_name] = "nobody"
    del first[next(iter(first))]
    again = perimeter.initial_control(campaign)
    assert again == dict(perimeter._initial_pairs(campaign)) and again is not first
