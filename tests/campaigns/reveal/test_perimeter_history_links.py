"""After the CG's end the perimeter page reads the recorded perimeter its history chose
(``?perimeter=``); every link of that page — zoom, each hex (its href, and its hx-get with
JavaScript), the reduced map's PDF, the history's other entries — keeps the choice, so zooming
or choosing a hex never jumps to the last perimeter (issue 22). Five personas: every member
reads it (perimeters are public), an outsider finds nothing."""

import re

import pytest
from django.urls import reverse

from campaigns.oid import oid
from refit.models import PerimeterState
from tests.campaigns.reveal.test_after_the_end import ended, perimeter_url  # noqa: F401
from tests.campaigns.reveal.test_reveal import secrets  # noqa: F401

pytestmark = pytest.mark.django_db

MEMBERS = ("german", "soviet", "referee", "observer")


@pytest.fixture
def two_perimeters(ended):  # noqa: F811
    """The CG is over with two recorded perimeters: the first is the one chosen, not the last."""
    campaign, _reph, _url = ended
    first = PerimeterState.objects.filter(campaign=campaign).order_by("id").first()
    assert first is not None
    last = PerimeterState.objects.create(
        campaign=campaign, index=first.index + 1, control=dict(first.control)
    )
    return campaign, first, last


def _links(page: str) -> list[str]:
    """Every href and hx-get of the page that carries a query (the page's own links)."""
    found = re.findall(r'(?:href|hx-get)="([^"]*\?[^"]*)"', page)
    return [link.replace("&amp;", "&") for link in found]


def _own_links(page: str, campaign) -> list[str]:
    """The links back to the perimeter page (a bare "?…") and to its reduced map."""
    pdf = reverse("rosters:perimeter_map", args=[campaign.pk])
    return [
        link
        for link in _links(page)
        if link.startswith("?") or link.startswith(pdf)
        if "perimeter=" in link or "zoom=" in link or "hex=" in link or link.startswith(pdf)
    ]


def _current_day(page: str) -> str:
    history = page.split('id="perimeter-history"', 1)[1].split("</section>", 1)[0]
    return re.search(r'<strong aria-current="page">([^<]*)</strong>', history).group(1)


@pytest.mark.parametrize("persona", MEMBERS)
def test_every_link_keeps_the_chosen_perimeter(two_perimeters, client_as, persona):
    campaign, first, _last = two_perimeters
    token = oid(first.pk)
    client = client_as(persona)
    page = client.get(perimeter_url(campaign), {"perimeter": token}).content.decode()
    links = _own_links(page, campaign)
    zooms = [link for link in links if link.startswith("?zoom=")]
    hexes = [link for link in links if link.startswith("?hex=")]
    pdf = [link for link in links if not link.startswith("?")]
    assert len(zooms) == 4 and len(hexes) > 100 and len(pdf) == 1
    for link in zooms + hexes + pdf:
        assert f"perimeter={token}" in link, link


@pytest.mark.parametrize("persona", MEMBERS)
def test_zooming_and_choosing_a_hex_stay_on_the_chosen_perimeter(
    two_perimeters, client_as, persona
):
    campaign, first, last = two_perimeters
    client = client_as(persona)
    url = perimeter_url(campaign)
    chosen = client.get(url, {"perimeter": oid(first.pk)}).content.decode()
    shown_last = client.get(url).content.decode()
    assert _current_day(chosen) != _current_day(shown_last)  # the choice shows

    links = _own_links(chosen, campaign)
    zoom = next(link for link in links if link.startswith("?zoom=3"))
    zoomed = client.get(url + zoom).content.decode()
    assert _current_day(zoomed) == _current_day(chosen)
    assert 'style="width: 300%"' in zoomed
    # Zoomed, the hexes keep both the zoom and the perimeter; the history keeps the zoom.
    hex_link = next(link for link in _own_links(zoomed, campaign) if link.startswith("?hex="))
    assert "zoom=3" in hex_link and f"perimeter={oid(first.pk)}" in hex_link
    assert f"?perimeter={oid(last.pk)}&zoom=3" in _links(zoomed)

    # Without JavaScript a hex link loads the whole page, on the chosen perimeter.
    picked = client.get(url + hex_link).content.decode()
    assert _current_day(picked) == _current_day(chosen)
    assert 'id="selection"><strong>' in picked
    # With JavaScript the same link answers with the selection only.
    partial = client.get(url + hex_link, headers={"HX-Request": "true", "HX-Target": "selection"})
    assert partial.status_code == 200 and 'id="perimeter-history"' not in partial.content.decode()


@pytest.mark.parametrize("persona", MEMBERS)
def test_the_reduced_map_is_the_chosen_perimeters(two_perimeters, client_as, persona):
    campaign, first, last = two_perimeters
    pdf = reverse("rosters:perimeter_map", args=[campaign.pk])
    chosen = client_as(persona).get(pdf, {"perimeter": oid(first.pk)})
    assert chosen.status_code == 200
    assert f'filename="perimeter-{first.index + 1}.pdf"' in chosen["Content-Disposition"]
    default = client_as(persona).get(pdf)
    assert f'filename="perimeter-{last.index + 1}.pdf"' in default["Content-Disposition"]
    assert client_as(persona).get(pdf, {"perimeter": "nonsense"}).status_code == 404


def test_the_outsider_finds_neither_page_nor_map(two_perimeters, client_as):
    campaign, first, _last = two_perimeters
    token = {"perimeter": oid(first.pk)}
    outsider = client_as("outsider")
    assert outsider.get(perimeter_url(campaign), token).status_code == 404
    pdf = reverse("rosters:perimeter_map", args=[campaign.pk])
    assert outsider.get(pdf, token).status_code == 404
