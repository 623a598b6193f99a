"""refit.perimeters.html writes each side's section of the perimeter page as the ``sides``
partial of ``templates/refit/perimeters/page.html`` draws it: tested to the byte, every branch
(markers legal, illegal and pockets; pockets; units declared or not, with levels; non-ground
pockets entered and derived; units off ground level; escape stacks with and without a lone
AFV; a side not editable), text that needs escaping, English and Japanese."""

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from campaigns.history.html import csrf_input
from refit.perimeters import forms
from refit.perimeters.html import sides_html

TOKEN = "tok<&>en"
NASTY = '<b>"A&B"</b>'


def side(key, name, *, can_edit, full):
    if not full:
        return {
            "key": key,
            "name": name,
            "can_edit": can_edit,
            "edge_markers": [],
            "markers": [],
            "loops": [],
            "area_size": 0,
            "pockets": [],
            "non_ground": [],
            "derived_non_ground": [],
            "upper_units": [],
            "units": [],
            "declared": False,
            "units_version": 1,
            "stacks": [],
        }
    return {
        "key": key,
        "name": name,
        "can_edit": can_edit,
        "edge_markers": [("A9", "U1"), ("U1", "off the map"), (NASTY, "B2")],
        "markers": [
            {"position": 0, "notation": "G42-J41", "kind": "main", "reasons": [], "path": ""},
            {
                "position": 3,
                "notation": f"G42-H41-{NASTY}",
                "kind": "pocket",
                "reasons": ["Not closed", NASTY],
                "path": "G42 H41 J41",
            },
        ],
        "loops": [],
        "area_size": 1234,
        "pockets": [
            {"number": 1, "kind": "pocket", "hexes": ["H41", "H42"]},
            {"number": 2, "kind": "non_ground", "hexes": [NASTY]},
        ],
        "non_ground": [
            (0, {"hexes": ["H41", NASTY], "label": "1", "side": key}),
            (2, {"hexes": ["J7"], "label": "2-3", "side": key}),
        ],
        "derived_non_ground": [("H41 H42", "1"), (NASTY, "2")],
        "upper_units": [
            {"id": "4-6-7 A H41", "hex": "H41", "level": 2},
            {"id": NASTY, "hex": "J7", "level": -1},
        ],
        "units": [
            {"id": "4-6-7 A H41", "level": 0},
            {"id": NASTY, "level": 2},
            {"id": "9-1 J7", "level": -1},
        ],
        "declared": key == "soviet",
        "units_version": 17,
        "stacks": [
            {
                "key": "H41-0",
                "location": "H41",
                "units": ["4-6-7 A H41", NASTY],
                "alone_afv": False,
                "hs": 4,
            },
            {
                "key": "J7-2",
                "location": "J7 [2]",
                "units": ["PzIIIH J7"],
                "alone_afv": True,
                "hs": 1,
            },
        ],
    }


CASES = {
    "a player: own side full, the other not editable": [
        side("german", "German", can_edit=True, full=True),
        side("soviet", "Soviet", can_edit=False, full=True),
    ],
    "the referee: both editable, one empty": [
        side("german", "Deutsch <&>", can_edit=True, full=False),
        side("soviet", "Soviet", can_edit=True, full=True),
    ],
    "an observer: nothing editable, nothing placed": [
        side("german", "German", can_edit=False, full=False),
        side("soviet", "Soviet", can_edit=False, full=False),
    ],
    "no sides": [],
}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("selected", ["", "H41"])
def test_the_sides_are_written_as_the_partial_draws_them(case, language, selected):
    sides = CASES[case]
    kinds = forms.UnitsForm.base_fields["kind"].choices
    with translation.override(language):
        expected = render_to_string(
            "refit/perimeters/page.html#sides",
            {
                "sides": sides,
                "campaign": SimpleNamespace(pk=42),
                "state": SimpleNamespace(version=1005),
                "selected": selected,
                "kinds": kinds,
                "csrf_token": TOKEN,
            },
        )
        written = sides_html(
            sides,
            campaign_pk=42,
            state_version=1005,
            selected=selected,
            kinds=kinds,
            csrf=csrf_input(TOKEN),
        )
    assert str(written) == expected
    if sides and any(s["can_edit"] for s in sides):
        assert 'name="csrfmiddlewaretoken"' in expected
