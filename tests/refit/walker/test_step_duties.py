"""SaP step pages show what the step's text adds and how a Daytime RePh runs it (11.622's
Daytime duties among them), in the reader's language, and link the time frame's reinforcements
(issue 16)."""

import pytest
from django.urls import reverse

from tests.refit.walker.test_arrivals import walk_to

pytestmark = pytest.mark.django_db


def step_url(campaign, side, rule):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def test_the_daytime_11_622_page_lists_its_duties(sap_campaign, people, client_as):
    walk_to(sap_campaign, people, 1)
    html = client_as("german").get(step_url(sap_campaign, "german", "11.622")).content.decode()
    assert "Both sides announce their current SAN" in html
    assert "record offboard observers and pre-registered hexes" in html
    assert 'class="step-daytime message"' in html
    assert reverse("refit:arrivals", args=[sap_campaign.pk, "german"]) in html


def test_the_duties_read_in_japanese(sap_campaign, people, client_as):
    walk_to(sap_campaign, people, 1)
    html = (
        client_as("soviet")
        .get(step_url(sap_campaign, "russian", "11.622"), HTTP_ACCEPT_LANGUAGE="ja")
        .content.decode()
    )
    assert "事前登録ヘクス" in html
    assert "日中の再編成フェイズでは" in html
    assert "Both sides announce" not in html


@pytest.mark.parametrize("persona", ["observer", "outsider"])
def test_others_do_not_read_the_secret_step(sap_campaign, client_as, persona):
    assert client_as(persona).get(step_url(sap_campaign, "german", "11.622")).status_code == 404


def test_no_developer_notes_in_the_sap_step_texts():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "campaigns/games/slaughter_at_ponyri"
    text = (path / "refit_steps.json").read_text()
    data = json.loads(text)

    def texts(steps):
        for step in steps:
            for key in ("notes", "daytime_exceptions"):
                if key in step:
                    yield step[key]
            yield from texts(step.get("substeps") or [])

    for words in texts(data["steps"]):
        assert "ja" in words
        assert "spec §" not in words["en"]
