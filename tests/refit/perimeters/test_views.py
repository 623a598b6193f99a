"""The perimeter page: who sees what, who may change what, forms, escape rolls, the PDF."""

import html as html_lib
import re

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll
from refit.models import MapTerrain, PerimeterUnits
from refit.perimeters.state import current_state
from tests.campaigns.builders import make_big_campaign

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
PERSONAS = ("german", "soviet", "referee", "observer", "outsider")


class Loaded:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def url(campaign, name="page", *args):
    return reverse(f"perimeters:{name}", args=[campaign.pk, *args])


def text(response):
    body = response.content.decode()
    return html_lib.unescape(" ".join(re.sub(r"<[^>]+>", " ", body).split()))


def state_of(campaign):
    """The open Refit Phase's perimeter, cleared of the CG's initial control (the tests below
    place their own)."""
    state = current_state(campaign)
    state.control = {}
    state.save()
    return state


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_perimeters_are_public_to_members(campaign, client_as, persona, status):
    response = client_as(persona).get(url(campaign))
    assert response.status_code == status
    if status == 200:
        assert "<svg" in response.content.decode()
        assert "title>H41<" in response.content.decode()


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_the_pdf_for_every_persona(campaign, client_as, persona, status):
    response = client_as(persona).get(reverse("rosters:perimeter_map", args=[campaign.pk]))
    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")


def test_a_game_without_maps_has_no_perimeter_page(people, client_as):
    from campaigns.games.registry import get_module
    from campaigns.members import services
    from campaigns.models import Role

    other = services.create_campaign(
        user=people["german"],
        name="DR",
        module=get_module("defiant_russia"),
        cg_key=get_module("defiant_russia").campaign_games[0].key,
        role=Role.PLAYER,
        side=get_module("defiant_russia").side_keys[0],
    )
    assert client_as("german").get(url(other)).status_code == 404


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 302), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_who_may_place_control_markers(campaign, client_as, persona, status):
    state = state_of(campaign)
    side = {"soviet": "soviet"}.get(persona, "german")
    response = client_as(persona).post(
        url(campaign, "control"), {"version": state.version, "hexes": "H41 G42-G44", "side": side}
    )
    assert response.status_code == status
    state.refresh_from_db()
    if status == 302:
        assert state.control == {"H41": side, "G42": side, "G43": side, "G44": side}
        event = CampaignEvent.objects.get(action="perimeter.control")
        assert event.visibility == "public"
    else:
        assert state.control == {}


def test_a_player_places_only_their_own_control(campaign, client_as):
    state = state_of(campaign)
    client_as("german").post(
        url(campaign, "control"), {"version": state.version, "hexes": "H41", "side": "soviet"}
    )
    state.refresh_from_db()
    assert state.control == {}


def test_a_stale_form_changes_nothing(campaign, client_as):
    state = state_of(campaign)
    client_as("german").post(
        url(campaign, "control"), {"version": state.version, "hexes": "H41", "side": "german"}
    )
    response = client_as("soviet").post(
        url(campaign, "control"),
        {"version": state.version, "hexes": "H42", "side": "soviet"},
        follow=True,
    )
    state.refresh_from_db()
    assert state.control == {"H41": "german"}
    assert "Someone else changed this" in text(response)


def test_a_bad_hex_list_says_which_part(campaign, client_as):
    state = state_of(campaign)
    response = client_as("german").post(
        url(campaign, "control"),
        {"version": state.version, "hexes": "H41 ZZ99", "side": "german"},
        follow=True,
    )
    assert "“ZZ99” is not a hex" in text(response)


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 403), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_who_may_enter_german_units(campaign, client_as, persona, status):
    state = state_of(campaign)
    response = client_as(persona).post(
        url(campaign, "units", "german"),
        {"version": 1, "hexes": "H41", "kind": "mmc", "label": "4-6-7", "level": 0},
    )
    assert response.status_code == status
    rows = PerimeterUnits.objects.filter(state=state, side="german")
    assert rows.exists() == (status == 302)


def test_units_are_secret_until_declared(campaign, client_as):
    state = state_of(campaign)
    client_as("german").post(
        url(campaign, "units", "german"),
        {"version": 1, "hexes": "H41", "kind": "mmc", "label": "4-6-7 A", "level": 0},
    )
    event = CampaignEvent.objects.get(action="perimeter.units")
    assert event.visibility == "german"
    for persona, sees in [
        ("german", True),
        ("referee", True),
        ("soviet", False),
        ("observer", False),
    ]:
        assert ("4-6-7 A H41" in text(client_as(persona).get(url(campaign)))) is sees, persona
    row = PerimeterUnits.objects.get(state=state, side="german")
    client_as("german").post(url(campaign, "declare", "german"), {"version": row.version})
    for persona in ("german", "referee", "soviet", "observer"):
        assert "4-6-7 A H41" in text(client_as(persona).get(url(campaign))), persona


def test_marker_reasons_at_once(campaign, client_as):
    state = state_of(campaign)
    response = client_as("german").post(
        url(campaign, "add_marker", "german"),
        {"version": state.version, "origin": "G42", "via": "H41", "target": "J41", "kind": "main"},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    body = text(response)
    assert "G42 – H41 → J41" in body
    assert "Not in a ground-level Location with a friendly MMC or control marker" in body
    assert "J41 holds no friendly perimeter marker" in body
    state.refresh_from_db()
    assert state.markers == [
        {"side": "german", "hex": "G42", "via": "H41", "target": "J41", "kind": "main"}
    ]
    # A double submit of the same form acts once.
    again = client_as("german").post(
        url(campaign, "add_marker", "german"),
        {"version": state.version - 1, "origin": "G42", "via": "H41", "target": "J41"},
    )
    assert again.status_code == 302
    state.refresh_from_db()
    assert len(state.markers) == 1


def test_soviet_may_not_place_german_markers(campaign, client_as):
    state = state_of(campaign)
    response = client_as("soviet").post(
        url(campaign, "add_marker", "german"),
        {"version": state.version, "origin": "G42", "target": "G44", "kind": "main"},
    )
    assert response.status_code == 403


def test_water_is_kept_as_map_data(campaign, client_as):
    client_as("referee").post(
        url(campaign, "water"), {"version": 1, "hexes": "JJ10-JJ12", "water": "on"}
    )
    terrain = MapTerrain.objects.get(campaign=campaign)
    assert terrain.water == ["JJ10", "JJ11", "JJ12"]
    assert (
        client_as("observer")
        .post(url(campaign, "water"), {"version": 2, "hexes": "A1"})
        .status_code
        == 403
    )


def _set_up_a_loop(campaign, client_as):
    """German control on the west and north edges and a soviet squad: a small fight."""
    state = state_of(campaign)
    client_as("german").post(
        url(campaign, "control"),
        {"version": state.version, "hexes": "A1-A47 A1-B0-P0 P10 P20 P30 P39", "side": "german"},
    )
    state.refresh_from_db()
    client_as("soviet").post(
        url(campaign, "control"),
        {"version": state.version, "hexes": "Q1-R0-JJ0 A48-B48-JJ48", "side": "soviet"},
    )
    state.refresh_from_db()
    return state


def test_propose_then_compute(campaign, client_as):
    state = _set_up_a_loop(campaign, client_as)
    response = client_as("german").post(
        url(campaign, "propose", "german"), {"version": state.version}, follow=True
    )
    assert "markers proposed" in text(response)
    state.refresh_from_db()
    assert state.markers
    assert all(m["side"] == "german" for m in state.markers)


def test_escape_roll_through_the_dice_service(campaign, client_as):
    state = state_of(campaign)
    # A German squad alone in H41, surrounded by the Soviet: a one-hex pocket.
    client_as("german").post(
        url(campaign, "units", "german"),
        {"version": 1, "hexes": "H41", "kind": "mmc", "label": "4-6-7", "level": 0},
    )
    row = PerimeterUnits.objects.get(state=state, side="german")
    with dice.use_roller(Loaded(3, 4)):
        response = client_as("german").post(
            url(campaign, "escape", "german"),
            {
                "version": state.version,
                "units": "4-6-7 H41",
                "hs_equivalents": 2,
                "leader_drm": 0,
                "pp_over_ipc": 0,
            },
            follow=True,
        )
    roll = DiceRoll.objects.get(step="11.6063")
    assert roll.faces == [3, 4]
    assert roll.visibility == "public"
    assert roll.final == 7 + 1  # +1 for the extra HS
    state.refresh_from_db()
    assert state.escapes[0]["escaped"] is True
    assert state.escapes[0]["left"] == ["4-6-7 H41"]
    assert "Escape DR 8" in text(response)
    assert row.pk  # the unit list is untouched; the escape is on the state


def test_record_keeps_the_public_result(campaign, client_as):
    state = _set_up_a_loop(campaign, client_as)
    client_as("german").post(url(campaign, "propose", "german"), {"version": state.version})
    state.refresh_from_db()
    client_as("referee").post(url(campaign, "record"), {"version": state.version})
    state.refresh_from_db()
    assert state.recorded["perimeter_area"]["german"]
    event = CampaignEvent.objects.get(action="perimeter.recorded")
    assert event.visibility == "public"
    assert (
        client_as("observer").post(url(campaign, "record"), {"version": state.version}).status_code
        == 403
    )


def test_history_sentences(campaign, client_as):
    state = state_of(campaign)
    client_as("german").post(
        url(campaign, "add_marker", "german"),
        {"version": state.version, "origin": "G42", "via": "H41", "target": "J41", "kind": "main"},
    )
    body = text(client_as("observer").get(reverse("campaigns:history", args=[campaign.pk])))
    assert "placed the perimeter marker G42 – H41 → J41" in body


def test_page_queries_do_not_grow(people, campaign, client_as, django_assert_max_num_queries):
    client = client_as("german")
    client.get(url(campaign))
    with django_assert_max_num_queries(14):
        client.get(url(campaign))
    big = make_big_campaign(people)
    client.get(url(big))
    with django_assert_max_num_queries(14):
        client.get(url(big))


def test_clicking_a_hex_selects_it_and_htmx_swaps_the_map(campaign, client_as):
    response = client_as("german").get(url(campaign) + "?hex=H41&zoom=2", headers=HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    assert '<div id="perimeter">' in body and "<html" not in body
    assert 'value="H41"' in body  # the forms start from the selected hex
    assert "Selected: H41" in text(response)


def test_a_sap_campaign_has_its_map(people, client_as):
    from campaigns.games.registry import get_module
    from campaigns.members import services
    from campaigns.models import Role

    sap = services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )
    response = client_as("german").get(url(sap) + "?hex=NN0")
    assert response.status_code == 200
    assert "Selected: NN0" in text(response)
    assert client_as("soviet").get(url(sap)).status_code == 404  # not a member there


HUGE = "H41" * 100_000  # 300,000 characters: more than any address may hold


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("control", (), {"hexes": "H41", "side": "german"}),
        ("water", (), {"hexes": "H41", "water": "on"}),
        ("fires", (), {"hexes": "H41", "burning": "on"}),
        ("units", ("german",), {"hexes": "H41", "kind": "mmc", "label": "4-6-7", "level": 0}),
        ("add_marker", ("german",), {"origin": "G42", "target": "J41", "kind": "main"}),
        ("add_pocket", ("german",), {"hexes": "H41", "label": "1"}),
        ("propose", ("german",), {}),
        ("record", (), {}),
    ],
)
@pytest.mark.parametrize("selected", [HUGE, "H41&zoom=4", "<b>H41</b>"])
def test_a_bad_selected_hex_is_refused_before_anything_is_saved(
    campaign, client_as, name, args, data, selected
):
    state = state_of(campaign)
    response = client_as("german").post(
        url(campaign, name, *args),
        {"version": state.version, **data, "selected": selected},
        follow=True,
    )
    assert response.status_code == 200
    assert "The selected hex is not a hex name." in text(response)
    state.refresh_from_db()
    assert state.version == 1
    assert not MapTerrain.objects.filter(campaign=campaign).exists()
    assert not PerimeterUnits.objects.filter(state=state).exists()
    assert not CampaignEvent.objects.filter(action__startswith="perimeter.").exists()


def test_the_selected_hex_is_shown_again_after_the_change(campaign, client_as):
    state = state_of(campaign)
    response = client_as("german").post(
        url(campaign, "control"),
        {"version": state.version, "hexes": "H41", "side": "german", "selected": "G42"},
    )
    assert response.status_code == 302
    assert response["Location"] == url(campaign) + "?hex=G42"
    state.refresh_from_db()
    assert state.control == {"H41": "german"}


def test_a_whole_stack_escapes_in_one_form(campaign, client_as):
    state = state_of(campaign)
    for label in ("4-6-7", "9-1"):
        kind = "mmc" if label == "4-6-7" else "smc"
        client_as("german").post(
            url(campaign, "units", "german"),
            {
                "version": 1 if label == "4-6-7" else 2,
                "hexes": "H41",
                "kind": kind,
                "label": label,
                "level": 0,
            },
        )
    client_as("german").post(
        url(campaign, "units", "german"),
        {"version": 3, "hexes": "K45", "kind": "mmc", "label": "2-3-7", "level": 0},
    )
    body = client_as("german").get(url(campaign)).content.decode()
    # One form per Location, its units ticked; the squad pre-fills 2 HS.
    form = body[body.index('id="escape-german-H41-0"') :]
    form = form[: form.index("</form>")]
    assert form.count('name="unit"') == 2 and "4-6-7 H41" in form and "9-1 H41" in form
    assert 'name="hs_equivalents" type="number" min="0" max="12" value="2"' in form
    assert 'id="escape-german-K45-0"' in body
    with dice.use_roller(Loaded(3, 4)):
        client_as("german").post(
            url(campaign, "escape", "german"),
            {
                "version": state.version,
                "unit": ["4-6-7 H41", "9-1 H41"],
                "hs_equivalents": 2,
                "leader_drm": -1,
                "pp_over_ipc": 0,
            },
        )
    state.refresh_from_db()
    (entry,) = state.escapes
    assert entry["units"] == ["4-6-7 H41", "9-1 H41"]
    assert DiceRoll.objects.filter(step="11.6063").count() == 1


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 403), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_a_stack_escape_for_every_persona(campaign, client_as, persona, status):
    state = state_of(campaign)
    client_as("german").post(
        url(campaign, "units", "german"),
        {"version": 1, "hexes": "H41", "kind": "mmc", "label": "4-6-7", "level": 0},
    )
    with dice.use_roller(Loaded(3, 4)):
        response = client_as(persona).post(
            url(campaign, "escape", "german"),
            {
                "version": state.version,
                "unit": ["4-6-7 H41"],
                "hs_equivalents": 2,
                "leader_drm": 0,
                "pp_over_ipc": 0,
            },
        )
    assert response.status_code == status
    state.refresh_from_db()
    assert len(state.escapes) == (1 if status == 302 else 0)


def test_non_ground_pockets_derived_or_one_action(campaign, client_as):
    state = state_of(campaign)
    state.control = {"H41": "soviet", "K45": "german"}
    state.save()
    for version, hexes, label in ((1, "H41", "4-6-7"), (2, "K45", "2-3-7")):
        client_as("german").post(
            url(campaign, "units", "german"),
            {"version": version, "hexes": hexes, "kind": "mmc", "label": label, "level": 1},
        )
    body = text(client_as("german").get(url(campaign)))
    # H41: the Soviet holds the ground level, so the German MMC upstairs is in a pocket.
    assert "Derived (ground level held by the other side or burning): H41 (1)" in body
    # K45: the ground level is German; whether stairs are usable is the player's one action.
    assert "2-3-7 K45 cannot reach ground level: a pocket" in body
    assert "4-6-7 H41 cannot reach ground level" not in body
    state.refresh_from_db()
    client_as("german").post(
        url(campaign, "add_pocket", "german"),
        {"version": state.version, "hexes": "K45", "label": "1"},
    )
    state.refresh_from_db()
    assert state.non_ground == [{"side": "german", "hexes": ["K45"], "label": "1"}]
    assert "cannot reach ground level" not in text(client_as("german").get(url(campaign)))
