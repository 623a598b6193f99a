"""The perimeter page's map markup is drawn once per computation, zoom and link suffix and kept
on the computation (``refit.perimeters.views._map_markup``): a page read again is not drawn
again, and nothing changed, no other zoom and no other viewer's units are answered from a kept
one. The hex links are plain links; one script makes their clicks HTMX requests."""

import pytest
from django.urls import reverse

from refit.perimeters import state as perimeter
from refit.perimeters import views
from refit.perimeters.drawing import picture, statuses, svg_map
from refit.perimeters.state import current_state

pytestmark = pytest.mark.django_db


def url(campaign, name="page", *args):
    return reverse(f"perimeters:{name}", args=[campaign.pk, *args])


def svg(body):
    return body[body.index("<svg") : body.index("</svg>")]


@pytest.fixture
def drawn(monkeypatch):
    """The maps ``svg_map`` draws for the page, by zoom; none kept from earlier tests."""
    monkeypatch.setattr(perimeter, "_COMPUTED", {})
    calls = []

    def counting(*args, **kwargs):
        calls.append(kwargs.get("zoom"))
        return svg_map(*args, **kwargs)

    monkeypatch.setattr(views, "svg_map", counting)
    return calls


def test_a_page_read_again_is_not_drawn_again(campaign, client_as, drawn):
    german = client_as("german")
    first = german.get(url(campaign)).content.decode()
    assert drawn == [1]
    assert svg(german.get(url(campaign)).content.decode()) == svg(first)
    assert drawn == [1]
    # Another member whose units are the same (none secret here): the same computation.
    client_as("observer").get(url(campaign))
    assert drawn == [1]
    # Another zoom is another markup (its links and names), kept too.
    zoomed = german.get(url(campaign) + "?zoom=2").content.decode()
    assert drawn == [1, 2]
    assert 'class="hex-name"' in zoomed and 'class="hex-name"' not in first
    german.get(url(campaign) + "?zoom=2")
    assert drawn == [1, 2]


def test_a_change_is_drawn_anew(campaign, client_as, drawn):
    german = client_as("german")
    assert '<circle class="fire"' not in german.get(url(campaign)).content.decode()
    assert drawn == [1]
    state = current_state(campaign)
    response = german.post(
        url(campaign, "fires"), {"version": state.version, "hexes": "H41", "burning": "on"}
    )
    assert response.status_code == 302
    assert '<circle class="fire"' in german.get(url(campaign)).content.decode()
    assert drawn == [1, 1]


def test_the_kept_markup_is_what_svg_map_draws(campaign, people, drawn):
    from campaigns.access import viewer_for

    state = current_state(campaign)
    state.fires = ["H41"]
    rows = perimeter.unit_rows(state)
    viewer = viewer_for(people["referee"], campaign.pk)
    computation = perimeter.compute(viewer, state, None, rows)
    hexmap, result = computation.hexmap, computation.result
    side_keys = list(perimeter.sides(campaign))
    fires = set(perimeter.known_hexes(hexmap, state.fires))
    expected = svg_map(
        hexmap,
        statuses(hexmap, result),
        side_keys,
        control=result.board.control,
        fires=fires,
        overlay=picture(hexmap, result, perimeter.markers(state, hexmap), fires, with_hexes=False),
        zoom=3,
        href="&amp;zoom=3",
    )
    assert views._map_markup(computation, state, side_keys, 3, "&amp;zoom=3") == expected.encode()
    assert views._map_markup(computation, state, side_keys, 3, "&amp;zoom=3") is (
        views._map_markup(computation, state, side_keys, 3, "&amp;zoom=3")
    )
    for zoom in (1, 2, 4):  # only the last few kept
        views._map_markup(computation, state, side_keys, zoom, f"&amp;zoom={zoom}")
    assert len(computation.drawn) == views._DRAWN_KEPT


def test_a_side_s_secret_units_are_drawn_only_for_who_may_see_them(campaign, client_as, drawn):
    current_state(campaign)  # saved: the units' row belongs to it
    response = client_as("german").post(
        url(campaign, "units", "german"),
        {"version": 1, "hexes": "H41", "kind": "mmc", "label": "4-6-7 A", "level": 0},
    )
    assert response.status_code == 302
    unit = ">4-6-7 A H41</text>"  # the unit's id (its name and hex) drawn on the map
    seen = {
        persona: unit in client_as(persona).get(url(campaign)).content.decode()
        for persona in ("german", "soviet", "referee", "observer", "german", "soviet")
    }
    assert seen == {"german": True, "soviet": False, "referee": True, "observer": False}
    assert client_as("outsider").get(url(campaign)).status_code == 404


@pytest.mark.parametrize("name", ["page"])
def test_the_hex_links_are_plain_links_made_htmx_by_one_script(campaign, client_as, name):
    body = client_as("german").get(url(campaign, name)).content.decode()
    assert '<a href="?hex=H41&amp;zoom=1"><title>H41</title>' in body
    assert 'hx-get="?hex=' not in body
    assert '<g hx-target="#selection" hx-swap="outerHTML">' in body
    assert body.count("js/perimeter-map.js") == 1
    # The HTMX answer (the map redrawn) has no script: the page's one listens to the document.
    partial = client_as("german").get(url(campaign), headers={"HX-Request": "true"})
    assert "perimeter-map.js" not in partial.content.decode()
    assert '<a href="?hex=H41&amp;zoom=1"><title>H41</title>' in partial.content.decode()
