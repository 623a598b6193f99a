"""An export reads one snapshot: a change saved while it is written is not in the file."""

import threading

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.models import CampaignEvent
from campaigns.roster import services as roster
from campaigns.transfer import export
from campaigns.transfer.snapshot import read_snapshot
from tests.campaigns.transfer.test_services import play_some_days

pytestmark = pytest.mark.django_db(transaction=True)

NOW = timezone.now()


def elsewhere(work):
    """``work`` done by someone else at the same time, on a connection of its own."""
    errors = []

    def run():
        try:
            work()
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and not errors, errors


def a_ledger_entry_undone(campaign, people):
    """The newest ledger entry taken back from the history: its row deleted, its event marked
    undone, an undo event added."""
    event = (
        CampaignEvent.objects.filter(campaign=campaign, undone_at__isnull=True)
        .filter(action__startswith="ledger.")
        .latest("id")
    )
    elsewhere(lambda: history.undo(event, by=people["referee"], reason="Typed twice"))


def a_ledger_entry_saved(campaign, people):
    elsewhere(
        lambda: roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=1,
            kind="recon",
            amount=-1,
            note="Saved during the export",
        )
    )


def in_transaction():
    if connection.vendor == "sqlite":
        return connection.connection is not None and connection.connection.in_transaction
    return connection.in_atomic_block


def test_a_change_saved_while_the_file_is_written_is_not_in_it(campaign, people, monkeypatch):
    play_some_days(campaign, people)
    viewer = viewer_for(people["referee"], campaign.pk)
    before = "".join(export.stream_export(viewer, now=NOW))
    monkeypatch.setattr(export, "STREAM_BYTES", 1)  # a piece at a time
    pieces = export.stream_export(viewer, now=NOW)
    first = next(pieces)
    a_ledger_entry_undone(campaign, people)
    a_ledger_entry_saved(campaign, people)
    during = first + "".join(pieces)
    assert during == before
    after = "".join(export.stream_export(viewer, now=NOW))
    assert after != before and "Saved during the export" in after


def test_build_export_reads_one_snapshot_too(campaign, people, monkeypatch):
    play_some_days(campaign, people)
    viewer = viewer_for(people["referee"], campaign.pk)
    real = export._export_parts

    def parts_then_a_save(*args, **kwargs):
        parts = real(*args, **kwargs)
        a_ledger_entry_undone(campaign, people)  # after the head, before the rows
        return parts

    before = export.build_export(viewer, now=NOW)
    monkeypatch.setattr(export, "_export_parts", parts_then_a_save)
    assert export.build_export(viewer, now=NOW) == before


def test_an_abandoned_download_ends_its_snapshot(campaign, people, client_as, monkeypatch):
    play_some_days(campaign, people)
    monkeypatch.setattr(export, "STREAM_BYTES", 1)
    response = client_as("referee").get(reverse("campaigns:export", args=[campaign.pk]))
    content = iter(response.streaming_content)
    next(content)
    assert in_transaction()
    response.close()  # the server closes a response whose client went away
    assert not in_transaction()
    a_ledger_entry_saved(campaign, people)  # nothing waits on a lock left behind


def test_a_snapshot_inside_a_callers_transaction_opens_nothing(campaign):
    from django.db import transaction

    with transaction.atomic():
        with read_snapshot():
            assert connection.in_atomic_block
        assert connection.in_atomic_block
