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
