"""What a signed-in user is shown is never kept by a cache (accounts.middleware)."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _directives(response) -> set[str]:
    header = response.get("Cache-Control", "")
    return {part.strip().partition("=")[0] for part in header.split(",") if part.strip()}


def test_an_htmx_partial_of_a_campaign_page_is_private(campaign, client_as):
    response = client_as("german").get(reverse("campaigns:history", args=[campaign.pk]), **HX)
    assert response.status_code == 200
    assert b"<html" not in response.content  # the partial, not the page
    assert {"private", "no-store", "no-cache", "must-revalidate"} <= _directives(response)


def test_a_redirect_after_a_form_is_private_too(campaign, client_as):
    """Back after a POST must not show the page as it was before the change."""
    response = client_as("referee").post(reverse("refit:finish", args=[campaign.pk]))
    assert response.status_code in (302, 403)
    assert {"private", "no-store"} <= _directives(response)


def test_a_visitor_asking_for_a_campaign_is_sent_to_sign_in(campaign):
    response = Client().get(reverse("campaigns:detail", args=[campaign.pk]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
