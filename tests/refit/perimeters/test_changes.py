"""The perimeter's long computations run outside the write transaction (on SQLite a write
transaction holds every other save on the server), and write only what they computed from."""

import pytest
from django.db import transaction
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import CampaignEvent
from refit.models import PerimeterUnits
from refit.perimeters import changes, positions
from refit.perimeters.state import current_state
from refit.rules.perimeter import isolation, proposal

HTMX = {"HX-Request": "true"}


def url(campaign, name, *args):
    return reverse(f"perimeters:{name}", args=[campaign.pk, *args])


def a_loop(campaign, people):
    """German control on the west and north edges, Soviet control on the others (on a map
    cleared of the CG's initial control)."""
    state = current_state(campaign)
    state.control = {}
    state.save()
    changes.set_control(
        viewer_for(people["german"], campaign.pk),
        state,
        by=people["german"],
        version=state.version,
        text="A1-A47 A1-B0-P0 P10 P20 P30 P39",
        side="german",
    )
    state.refresh_from_db()
    changes.set_control(
        viewer_for(people["soviet"], campaign.pk),
        state,
        by=people["soviet"],
        version=state.version,
        text="Q1-R0-JJ0 A48-B48-JJ48",
        side="soviet",
    )
    state.refresh_from_db()
    return state


def spy_on(monkeypatch, module, name, during=None):
    """Replace ``module.name`` by a wrapper noting whether a transaction was open when it ran
    (and running ``during`` first: what someone else does meanwhile)."""
    real = getattr(module, name)
    seen = []

    def spy(*args, **kwargs):
        seen.append(transaction.get_connection().in_atomic_block)
        if during is not None:
            during()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen


@pytest.mark.django_db(transaction=True)
def test_the_proposal_searches_with_no_transaction_open(campaign, people, client_as, monkeypatch):
    state = a_loop(campaign, people)
    seen = spy_on(monkeypatch, proposal, "propose")
    client_as("german").post(url(campaign, "propose", "german"), {"version": state.version})
    assert seen == [False]
    state.refresh_from_db()
    assert state.markers and all(m["side"] == "german" for m in state.markers)
    assert CampaignEvent.objects.filter(action="perimeter.proposed").count() == 1


@pytest.mark.django_db(transaction=True)
def test_recording_evaluates_with_no_transaction_open(campaign, people, client_as, monkeypatch):
    state = a_loop(campaign, people)
    seen = spy_on(monkeypatch, isolation, "evaluate")
    client_as("referee").post(url(campaign, "record"), {"version": state.version})
    assert seen == [False]
    state.refresh_from_db()
    assert state.recorded["control"]["P10"] == "german"
    assert CampaignEvent.objects.filter(action="perimeter.recorded").count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_escape_evaluates_with_no_transaction_open(campaign, people, client_as, monkeypatch):
    state = current_state(campaign)
    # A German squad alone in H41: a one-hex pocket, isolated.
    client_as("german").post(
        url(campaign, "units", "german"),
        {"version": 1, "hexes": "H41", "kind": "mmc", "label": "4-6-7", "level": 0},
    )
    seen = spy_on(monkeypatch, isolation, "evaluate")
    with dice.use_roller(Loaded(3, 4)):
        client_as("german").post(
            url(campaign, "escape", "german"),
            {
                "version": state.version,
                "units": "4-6-7 H41",
                "hs_equivalents": 1,
                "leader_drm": 0,
                "pp_over_ipc": 0,
            },
        )
    assert seen == [False]
    state.refresh_from_db()
    assert state.escapes[0]["final"] == 7


class Loaded:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


@pytest.mark.django_db
def test_a_change_during_the_search_refuses_the_proposal(campaign, people, client_as, monkeypatch):
    state = a_loop(campaign, people)

    def the_soviet_moves_meanwhile():
        changes.set_control(
            viewer_for(people["soviet"], campaign.pk),
            current_state(campaign),
            by=people["soviet"],
            version=state.version,
            text="P40",
            side="soviet",
        )

    spy_on(monkeypatch, proposal, "propose", during=the_soviet_moves_meanwhile)
    response = client_as("german").post(
        url(campaign, "propose", "german"), {"version": state.version}, headers=HTMX
    )
    assert "Someone else changed this in the meantime" in response.content.decode()
    state.refresh_from_db()
    assert state.markers == []
    assert state.control["P40"] == "soviet"
    assert not CampaignEvent.objects.filter(action="perimeter.proposed").exists()


@pytest.mark.django_db
def test_units_entered_during_the_search_refuse_the_proposal(
    campaign, people, client_as, monkeypatch
):
    state = a_loop(campaign, people)

    def the_german_enters_a_squad_meanwhile():
        positions.add_units(
            state,
            "german",
            by=people["german"],
            version=1,
            text="P15",
            kind="mmc",
            label="",
            level=0,
        )

    spy_on(monkeypatch, proposal, "propose", during=the_german_enters_a_squad_meanwhile)
    response = client_as("german").post(
        url(campaign, "propose", "german"), {"version": state.version}, headers=HTMX
    )
    assert "Someone else changed this in the meantime" in response.content.decode()
    state.refresh_from_db()
    assert state.markers == []


@pytest.mark.django_db
def test_the_other_sides_secret_units_neither_matter_nor_show(
    campaign, people, client_as, monkeypatch
):
    """The Soviet's undeclared units are not in the German's proposal: entering them meanwhile
    must not refuse it (a refusal would tell the German that the Soviet did something)."""
    state = a_loop(campaign, people)

    def the_soviet_enters_a_secret_squad_meanwhile():
        positions.add_units(
            state,
            "soviet",
            by=people["soviet"],
            version=1,
            text="T15",
            kind="mmc",
            label="",
            level=0,
        )

    spy_on(monkeypatch, proposal, "propose", during=the_soviet_enters_a_secret_squad_meanwhile)
    client_as("german").post(url(campaign, "propose", "german"), {"version": state.version})
    state.refresh_from_db()
    assert state.markers
    assert not PerimeterUnits.objects.get(state=state, side="soviet").declared
