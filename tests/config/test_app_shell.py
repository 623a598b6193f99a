"""Every page links the app's icon (an SVG of our own, no external request) and its web
manifest (the app's name in the reader's language); both are served."""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.views import serve
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

ICON = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
MANIFEST = '<link rel="manifest" href="/manifest.webmanifest">'


@pytest.mark.parametrize("name", ["login", "signup", "campaigns:games"])
def test_a_visitors_page_links_the_icon_and_the_manifest(name):
    html = Client().get(reverse(name)).content.decode()
    assert ICON in html
    assert MANIFEST in html


def test_a_members_page_links_them_too(campaign, client_as):
    html = client_as("observer").get(reverse("campaigns:detail", args=[campaign.pk])).content
    assert ICON.encode() in html and MANIFEST.encode() in html


def test_the_icon_is_a_static_file_of_our_own_with_no_external_reference():
    path = finders.find("favicon.svg")
    assert path, "static/favicon.svg is not found by the static files finders"
    text = Path(path).read_text(encoding="utf-8")
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # The namespace is a name, not a request; nothing else may point elsewhere.
    assert re.findall(r"https?://", text) == ["http://"]
    assert "href" not in text


@override_settings(DEBUG=True)
def test_the_icon_is_served_in_debug():
    request = RequestFactory().get("/static/favicon.svg")
    response = serve(request, "favicon.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in b"".join(response.streaming_content)


def test_the_manifest_names_the_app_and_its_icon():
    response = Client().get(reverse("manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == data["short_name"] == "Campaign Desk"
    assert data["lang"] == "en"
    assert data["start_url"] == reverse("campaigns:list")
    (icon,) = data["icons"]
    assert icon == {"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml"}
    assert finders.find(icon["src"].removeprefix("/static/"))


def test_the_manifest_speaks_the_readers_language():
    response = Client(headers={"accept-language": "ja"}).get(reverse("manifest"))
    data = json.loads(response.content)
    assert data["name"] == "キャンペーン・デスク"
    assert data["lang"] == "ja"
    assert "Accept-Language" in response["Vary"]


def test_a_signed_in_users_manifest_follows_their_saved_language(people):
    people["referee"].language = "ja"
    people["referee"].save()
    client = Client()
    client.force_login(people["referee"])
    assert json.loads(client.get(reverse("manifest")).content)["name"] == "キャンペーン・デスク"
