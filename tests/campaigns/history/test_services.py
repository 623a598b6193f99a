import pytest
from django.urls import reverse

from campaigns.access import REFEREE
from campaigns.history import services as history

pytestmark = pytest.mark.django_db


def url(campaign):
    return reverse("campaigns:history", args=[campaign.pk])


@pytest.fixture
def secrets(campaign, people):
    """One secret event per scope, as later capabilities will record them."""
    history.record(
        campaign, people["german"], "test.secret", visibility="german", note="German purchase"
    )
    history.record(
        campaign, people["soviet"], "test.secret", visibility="soviet", note="Soviet purchase"
    )
    history.record(
        campaign, people["referee"], "test.secret", visibility=REFEREE, note="Referee note"
    )


SEES = {
    "german": {"german"},
    "soviet": {"soviet"},
    "referee": {"german", "soviet", REFEREE},
    "observer": set(),
}


@pytest.mark.parametrize("persona", list(SEES))
def test_each_member_sees_public_history_and_only_their_secrets(
    campaign, client_as, secrets, persona
):
    response = client_as(persona).get(url(campaign))
    assert response.status_code == 200
    scopes = {row.event.visibility for row in response.context["rows"]}
    assert scopes == {"public"} | SEES[persona]
    html = response.content.decode()
    assert "Created the campaign “Into the Factory, club night”." in html
    assert "soviet joined as Soviet player." in html


def test_an_outsider_gets_404(campaign, client_as):
    assert client_as("outsider").get(url(campaign)).status_code == 404


def test_role_changes_read_as_sentences(campaign, client_as, people):
    from campaigns.members import services

    observer = campaign.memberships.get(user=people["observer"])
    services.change_role(observer, by=people["german"], role="referee", side="")
    html = client_as("observer").get(url(campaign)).content.decode()
    assert (
        "observer asks to be Referee; the seat opens once these sides agree: German, Soviet" in html
    )
    assert "Agreed for the German side that observer becomes Referee." in html
    services.agree(observer, by=people["soviet"])
    # The old referee sees the Soviet side, which the German creator does not: he leaves himself.
    services.leave(campaign.memberships.get(user=people["referee"]))
    html = client_as("observer").get(url(campaign)).content.decode()
    assert (
        "observer is now Referee (was Observer); agreed by german for the German side, "
        "soviet for the Soviet side." in html
    )
    assert "referee left the campaign (was Referee)." in html


def test_history_reads_in_japanese(campaign, client_as, people):
    people["referee"].language = "ja"
    people["referee"].save()
    html = client_as("referee").get(url(campaign)).content.decode()
    assert "ソ連軍" in html
    assert "joined as" not in html


def test_the_number_of_queries_does_not_grow_with_history(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("referee")
    with django_assert_max_num_queries(20) as before:
        client.get(url(campaign))
    for n in range(30):
        history.record(campaign, people["german"], "test.secret", visibility="german", n=n)
    with django_assert_max_num_queries(len(before.captured_queries)):
        client.get(url(campaign))


def test_a_player_undoes_their_own_change_from_the_history_page(campaign, client_as, people):
    from campaigns.models import LedgerEntry
    from campaigns.roster import services as roster

    entry = roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=16,
    )
    event = campaign.events.get(action="ledger.added")
    undo = reverse("campaigns:undo", args=[campaign.pk, event.pk])
    assert undo in client_as("german").get(url(campaign)).content.decode()
    # The Soviet player cannot even see it; the observer neither.
    assert client_as("soviet").post(undo).status_code == 404
    assert client_as("observer").post(undo).status_code == 404
    assert client_as("outsider").post(undo).status_code == 404
    response = client_as("german").post(undo, follow=True)
    assert "Undone:" in response.content.decode()
    assert not LedgerEntry.objects.filter(pk=entry.pk).exists()


def test_the_referee_undoes_a_players_public_change(campaign, client_as, people):
    from campaigns.records import services as records

    records.add_cvp(
        campaign, by=people["soviet"], side="german", index=0, phase="scenario", what="4-6-7", cvp=2
    )
    event = campaign.events.get(action="cvp.added")
    undo = reverse("campaigns:undo", args=[campaign.pk, event.pk])
    assert client_as("german").post(undo).status_code == 404  # not the German's change
    assert client_as("referee").post(undo).status_code == 302
    assert not campaign.cvp.exists()
