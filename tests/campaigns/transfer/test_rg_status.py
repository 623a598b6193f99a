"""An RG's life-cycle status in the export: written, read back, and for files made before it,
given by the same rule as the data migration (campaigns.orbat.legacy)."""

import pytest
from django.utils import timezone

from campaigns.access import viewer_for
from campaigns.models import RefitPhase, ReinforcementGroup
from campaigns.transfer import services as transfer

pytestmark = pytest.mark.django_db


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def import_(data, user):
    return transfer.load(transfer.parse_export(transfer.dumps(data).encode()), user=user)


@pytest.fixture
def statuses(campaign):
    """The campaign's initial-OB RGs in three different statuses."""
    rgs = list(ReinforcementGroup.objects.filter(campaign=campaign).order_by("id"))
    assert len(rgs) >= 3
    for rg, status in zip(rgs, ("eliminated", "retained", "awaiting_entry"), strict=False):
        rg.status = status
        rg.save(update_fields=["status"])
    return {rg.label + rg.side: rg.status for rg in rgs}


def test_the_export_writes_each_rgs_status(campaign, people, statuses):
    data = export_as(campaign, people["referee"])
    assert {
        row["rg_id"] + "#" + str(row["number"]) + row["side"]: row["status"] for row in data["rgs"]
    } == statuses


def test_the_status_round_trips(campaign, people, statuses):
    copy_ = import_(export_as(campaign, people["referee"]), people["outsider"])
    assert {
        rg.label + rg.side: rg.status for rg in ReinforcementGroup.objects.filter(campaign=copy_)
    } == statuses


def test_a_side_export_holds_only_that_sides_statuses(campaign, people, statuses):
    data = export_as(campaign, people["soviet"])
    assert {row["side"] for row in data["rgs"]} <= {"soviet"}
    assert data["rgs"] and all("status" in row for row in data["rgs"])


def test_an_unknown_status_is_refused_naming_the_column(campaign, people):
    data = export_as(campaign, people["referee"])
    data["rgs"][0]["status"] = "lost"
    with pytest.raises(transfer.ImportRefused) as error:
        transfer.parse_export(transfer.dumps(data).encode())
    assert "status" in str(error.value)


def test_an_older_file_without_the_column_gets_the_migrations_rule(campaign, people):
    # The first RePh and the scenario after it are over: the initial OB has been in play.
    reph = RefitPhase.objects.get(campaign=campaign)
    reph.finished_at = timezone.now()
    reph.save()
    RefitPhase.objects.create(
        campaign=campaign, kind="scenario", index=0, finished_at=timezone.now()
    )
    RefitPhase.objects.create(campaign=campaign, kind="after_scenario", index=0)
    rgs = list(ReinforcementGroup.objects.filter(campaign=campaign))
    for rg in rgs:
        rg.details = {"received": {"strength": "F"}}
        rg.strength = "F"
    ReinforcementGroup.objects.bulk_update(rgs, ["details", "strength"])
    data = export_as(campaign, people["referee"])
    for row in data["rgs"]:
        del row["status"]
    copy_ = import_(data, people["outsider"])
    statuses = set(
        ReinforcementGroup.objects.filter(campaign=copy_).values_list("status", flat=True)
    )
    assert statuses == {"retained"}
