"""A legend says what the step markers (* # †) mean, from the game's data, in the reader's
language: on the Refit Phase overview and on a step's page."""

import html as entities
import re

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.games import step_engine
from refit.walker import services as walker
from refit.walker.situation import marker_legend
from tests.refit.builders import finish_phase
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db

RF_STAR = "Repeated, one new CG day at a time, until step 11.623 generates a new CG scenario."
RF_HASH = "Done only if a CG scenario is played on the current CG day."
RF_DAGGER = "The only steps completed before a CG's initial scenario."
RF_DAGGER_JA = "CG初回シナリオをプレイする前には、“†”がついた手順のみを完了させる必要がある。"


def legend(html: str) -> dict[str, str]:
    """The legend's entries on the page: marker (or "No marker") → meaning."""
    match = re.search(r'<section id="marker-legend".*?</section>', html, re.DOTALL)
    if not match:
        return {}
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", match.group(0), re.DOTALL)
    return {re.sub(r"<[^>]+>", "", dt).strip(): entities.unescape(dd.strip()) for dt, dd in pairs}


def overview(campaign):
    return reverse("refit:overview", args=[campaign.pk])


def step(campaign, rule, side="german"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def all_steps(campaign):
    return [s for s, _raw in step_engine.main_steps(campaign.game.files["refit_steps"])]


def test_the_legend_holds_every_marker_the_game_describes(campaign, sap_campaign):
    rf = {entry.marker: entry.text for entry in marker_legend(campaign, all_steps(campaign))}
    assert rf == {"*": RF_STAR, "#": RF_HASH, "†": RF_DAGGER}
    sap = {e.marker: e.text for e in marker_legend(sap_campaign, all_steps(sap_campaign))}
    assert set(sap) == {"*", "†", ""}
    assert "'Daytime' RePh" in sap["†"]
    assert sap[""].startswith("Steps without a marker")


def test_the_legend_reads_in_japanese(campaign, sap_campaign):
    with translation.override("ja"):
        rf = {e.marker: e.text for e in marker_legend(campaign, all_steps(campaign))}
        sap = {e.marker: e.text for e in marker_legend(sap_campaign, all_steps(sap_campaign))}
    assert rf["†"] == RF_DAGGER_JA
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) for text in rf.values())
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) for text in sap.values())


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_the_overview_explains_the_markers_its_steps_carry(campaign, client_as, persona):
    """The first RePh (before the initial scenario) runs the † * steps only: no # on the page."""
    html = client_as(persona).get(overview(campaign)).content.decode()
    assert legend(html) == {"*": RF_STAR, "†": RF_DAGGER}
    assert '<a href="#marker-legend">Markers</a>' in html


def test_a_later_refit_phase_explains_the_markers_of_its_steps(campaign, client_as, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    after = finish_phase(campaign, scenario, by=people["referee"])
    # After the scenario: 11.601-11.611 once, steps without a marker; RF describes none.
    html = client_as("observer").get(overview(campaign)).content.decode()
    assert legend(html) == {}
    walk_all(campaign, after, people)
    day = finish_phase(campaign, after, by=people["referee"])
    html = client_as("observer").get(overview(campaign)).content.decode()
    shown = {marker for s in walker.steps(campaign, day) for marker in s.markers}
    meaning = {"*": RF_STAR, "#": RF_HASH, "†": RF_DAGGER}
    assert {"*", "†"} <= shown
    assert legend(html) == {marker: meaning[marker] for marker in shown}


def test_a_step_page_explains_its_own_markers(campaign, client_as):
    html = client_as("german").get(step(campaign, "11.619")).content.decode()
    assert legend(html) == {"*": RF_STAR, "†": RF_DAGGER}


def test_the_legend_reads_in_japanese_on_the_page(campaign, client_as, people):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(step(campaign, "11.619")).content.decode()
    entries = legend(html)
    assert entries["†"] == RF_DAGGER_JA
    assert "記号の意味" in html


def test_an_outsider_sees_no_legend(campaign, client_as):
    assert client_as("outsider").get(overview(campaign)).status_code == 404
