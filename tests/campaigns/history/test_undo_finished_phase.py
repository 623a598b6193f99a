"""The history page's undo of a change of a finished Refit Phase or a played scenario
(campaigns.history.views.undo_change): no player undoes it, the referee only with a reason."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from campaigns.models import CampaignEvent, LedgerEntry
from campaigns.oid import oid
from campaigns.roster import services as roster
from tests.refit.builders import reph_at

pytestmark = pytest.mark.django_db


def replenish(campaign, people):
    """The German's CPP replenishment of CG day 1, as typed on the ledger page."""
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=16,
    )
    return CampaignEvent.objects.get(campaign=campaign, action="ledger.added")


@pytest.fixture
def finished_credit(campaign, people):
    """A German replenishment booked on CG day 1, whose RePh has finished since."""
    reph_at(campaign, "new_day", 1)
    event = replenish(campaign, people)
    reph_at(campaign, "scenario", 1)
    return event


def history_url(campaign):
    return reverse("campaigns:history", args=[campaign.pk])


def undo_url(campaign, event):
    return reverse("campaigns:undo", args=[campaign.pk, event.pk])


def row_of(response, event):
    return next(row for row in response.context["rows"] if row.event.pk == event.pk)


def test_the_player_sees_no_undo_for_it_any_more(campaign, client_as, finished_credit):
    response = client_as("german").get(history_url(campaign))
    row = row_of(response, finished_credit)
    assert not row.can_undo
    assert undo_url(campaign, finished_credit) not in response.content.decode()


def test_the_referee_is_asked_for_a_reason(campaign, client_as, finished_credit):
    response = client_as("referee").get(history_url(campaign))
    row = row_of(response, finished_credit)
    assert row.closed and row.can_undo
    html = response.content.decode()
    assert f'id="undo-reason-{oid(finished_credit.pk)}"' in html
    assert "Of a finished phase: why undo it?" in html


def test_a_change_of_the_open_phase_asks_no_reason(campaign, people, client_as):
    reph_at(campaign, "new_day", 1)
    event = replenish(campaign, people)
    for persona in ("german", "referee"):
        response = client_as(persona).get(history_url(campaign))
        assert not row_of(response, event).closed
        assert f'id="undo-reason-{oid(event.pk)}"' not in response.content.decode()


@pytest.mark.parametrize("persona", ["german", "soviet", "observer", "outsider"])
def test_nobody_but_the_referee_can_post_its_undo(campaign, client_as, finished_credit, persona):
    response = client_as(persona).post(undo_url(campaign, finished_credit))
    assert response.status_code == 404
    assert LedgerEntry.objects.filter(kind="replenishment").count() == 1


def test_the_referee_without_a_reason_is_told_and_nothing_changes(
    campaign, client_as, finished_credit
):
    client = client_as("referee")
    response = client.post(undo_url(campaign, finished_credit), {"reason": "  "})
    assert response.status_code == 302
    told = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("give the reason" in message for message in told)
    assert LedgerEntry.objects.filter(kind="replenishment").count() == 1


def test_the_referee_with_a_reason_undoes_it_and_the_reason_is_kept(
    campaign, client_as, finished_credit
):
    client = client_as("referee")
    response = client.post(
        undo_url(campaign, finished_credit), {"reason": "entered twice by mistake"}
    )
    assert response.status_code == 302
    assert not LedgerEntry.objects.filter(kind="replenishment").exists()
    html = client.get(history_url(campaign)).content.decode()
    assert "Undid a change of a finished phase: entered twice by mistake" in html


def test_the_japanese_page_asks_in_japanese(campaign, people, client_as, finished_credit):
    people["referee"].language = "ja"
    people["referee"].save()
    html = client_as("referee").get(history_url(campaign)).content.decode()
    assert "終了したフェイズの変更です。取り消す理由は？" in html
