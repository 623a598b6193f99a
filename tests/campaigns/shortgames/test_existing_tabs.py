"""The campaign pages every game shares still answer for the short games."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

SHARED = ("detail", "calendar", "scenarios", "cvp", "dice_log", "history", "members", "export")


@pytest.mark.parametrize("name", SHARED)
def test_shared_pages_answer_for_both_short_games(dr_started, cp_started, client_as, name):
    for game in (dr_started, cp_started):
        response = client_as("referee").get(reverse(f"campaigns:{name}", args=[game.pk]))
        assert response.status_code == 200, name


@pytest.mark.parametrize("name", ("roster", "ledger", "orbat"))
def test_the_cpp_pages_hidden_from_the_nav_do_not_crash(dr_started, client_as, name):
    response = client_as("soviet").get(reverse(f"campaigns:{name}", args=[dr_started.pk, "soviet"]))
    assert response.status_code in (200, 404)
