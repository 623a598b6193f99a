"""Corrections travel in the export file and round-trip (campaigns.corrections.transfer)."""

import copy

import pytest

from campaigns import access
from campaigns.corrections import services
from campaigns.models import Correction, Membership, Role
from campaigns.transfer.services import (
    ImportRefused,
    build_export,
    dumps,
    load,
    parse_export,
)
from tests.campaigns.corrections.test_corrections import secret_roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def asked(campaign, people):
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    german = access.viewer_for(people["german"], campaign.pk)
    soviet = access.viewer_for(people["soviet"], campaign.pk)
    secret = services.ask_void(german, secret_roll(campaign, people["german"]), "misclick")
    services.agree(soviet, secret.pk)
    public = secret_roll(campaign, people["soviet"], side="soviet", visibility="public")
    services.decline(german, services.ask_void(soviet, public, "wrong table").pk)
    services.ask_adjustment(german, ledger="cpp", index=1, amount=4, reason="forgot")
    return campaign


def export(campaign, user):
    return build_export(access.viewer_for(user, campaign.pk))


def test_a_side_export_round_trips_its_corrections(asked, people):
    first = export(asked, people["german"])
    assert [row["reason"] for row in first["corrections"]] == ["misclick", "wrong table", "forgot"]
    imported = load(parse_export(dumps(first).encode()), user=people["outsider"])
    second = export(imported, people["outsider"])
    assert second["corrections"] == first["corrections"]
    rows = Correction.objects.filter(campaign=imported).order_by("asked_at")
    assert [row.state for row in rows] == ["agreed", "declined", "open"]
    void = rows[0]
    assert void.roll is not None and void.roll.campaign_id == imported.pk
    assert void.roll.voided_at is not None


def test_the_other_side_export_holds_only_the_public_request(asked, people):
    soviet = export(asked, people["soviet"])
    assert [row["reason"] for row in soviet["corrections"]] == ["wrong table"]
    observer = export(asked, people["observer"])
    assert [row["reason"] for row in observer["corrections"]] == ["wrong table"]


def test_a_secret_request_in_a_public_file_is_refused(asked, people):
    data = copy.deepcopy(export(asked, people["observer"]))
    data["corrections"][0]["visibility"] = "german"
    with pytest.raises(ImportRefused):
        parse_export(dumps(data).encode())


def test_an_open_undo_request_names_its_change_after_the_import(campaign, people):
    from campaigns.models import CampaignEvent
    from tests.campaigns.corrections.test_corrections import cpp, finish_phase

    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    cpp(campaign, "german", 5)
    finish_phase(campaign)
    added = CampaignEvent.objects.get(campaign=campaign, action="ledger.added")
    german = access.viewer_for(people["german"], campaign.pk)
    asked = services.ask_undo(german, added.pk, "typo")
    first = export(campaign, people["german"])
    imported = load(parse_export(dumps(first).encode()), user=people["outsider"])
    assert export(imported, people["outsider"])["corrections"] == first["corrections"]
    (copy_,) = Correction.objects.filter(campaign=imported)
    named = services.asked_changes([copy_])[copy_.pk]
    assert CampaignEvent.objects.get(pk=named).action == "ledger.added"
    assert CampaignEvent.objects.get(pk=named).campaign_id == imported.pk
    assert services.asked_changes([asked]) == {asked.pk: added.pk}
