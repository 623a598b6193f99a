import json

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import DiceRoll, LedgerEntry
from tests.campaigns.transfer.test_services import (
    GERMAN_SECRETS,
    SOVIET_SECRETS,
    big_campaign,
    database_ids,
    numbers_in,
    play_some_days,
    start_ids_large,
)

pytestmark = pytest.mark.django_db


def url(campaign):
    return reverse("campaigns:export", args=[campaign.pk])


@pytest.fixture
def played(campaign, people):
    return play_some_days(campaign, people)


SCOPES = {"german": "side:german", "soviet": "side:soviet", "referee": "full", "observer": "public"}


@pytest.mark.parametrize("persona", list(SCOPES))
def test_every_member_downloads_a_json_file_of_their_scope(played, client_as, persona):
    response = client_as(persona).get(url(played))
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "application/json; charset=utf-8"
    today = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == (
        f'attachment; filename="into-the-factory-club-night-{today}.json"'
    )
    data = json.loads(response.getvalue())
    assert data["format"] == "campaign-desk.export"
    assert data["scope"] == SCOPES[persona]


def test_the_download_is_not_kept_in_caches(played, client_as):
    response = client_as("soviet").get(url(played))
    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]


def test_the_soviet_players_file_has_no_german_secrets(played, client_as):
    content = client_as("soviet").get(url(played)).getvalue().decode()
    data = json.loads(content)
    for key in ("ledger", "rgs", "orbat", "side_days"):
        assert {row["side"] for row in data[key]} == {"soviet"}, key
    for secret in (*GERMAN_SECRETS, "Referee only"):
        assert secret not in content, secret
    assert "Volga crossing" in content


def test_the_german_players_file_has_no_soviet_secrets(played, client_as):
    content = client_as("german").get(url(played)).getvalue().decode()
    for secret in (*SOVIET_SECRETS, "Referee only"):
        assert secret not in content, secret
    assert "Panzer reserve" in content


def test_the_observers_file_has_no_side_secrets(played, client_as):
    content = client_as("observer").get(url(played)).getvalue().decode()
    data = json.loads(content)
    assert data["ledger"] == data["rgs"] == data["orbat"] == data["side_days"] == []
    for secret in (*GERMAN_SECRETS, *SOVIET_SECRETS, "Referee only"):
        assert secret not in content, secret
    assert "Street fighting in the Barrikady" in content  # public scenario notes


@pytest.mark.parametrize(
    ("persona", "visibilities"),
    [
        ("german", {"public", "german"}),
        ("soviet", {"public", "soviet"}),
        ("observer", {"public"}),
        ("referee", {"public", "referee", "german", "soviet"}),
    ],
)
def test_each_file_holds_the_dice_rolls_its_maker_may_see(played, client_as, persona, visibilities):
    data = json.loads(client_as(persona).get(url(played)).getvalue())
    assert {roll["visibility"] for roll in data["dice_rolls"]} == visibilities
    assert (
        len(data["dice_rolls"])
        == DiceRoll.objects.filter(campaign=played, visibility__in=visibilities).count()
    )


@pytest.fixture
def large_ids(db):
    start_ids_large()


@pytest.mark.parametrize("persona", ["soviet", "german"])
def test_a_sides_file_holds_no_database_id(large_ids, campaign, people, client_as, persona):
    # Every row gets an id of 7 000 000 or more (another range per table): none may be in the
    # file, where ids are the file's own (1, 2, …) — not even inside the history's data.
    play_some_days(campaign, people)
    data = json.loads(client_as(persona).get(url(campaign)).getvalue())
    assert not set(numbers_in(data)) & database_ids()
    assert not set(numbers_in([event["data"] for event in data["history"]])) & database_ids()
    # The undo of the Soviet adjustment names the undone event by its id in the file.
    undos = [event for event in data["history"] if event["action"] == "change.undone"]
    if persona == "soviet":
        (undo,) = undos
        undone = next(e for e in data["history"] if e["id"] == undo["data"]["undone"])
        assert (undone["action"], undone["data"]["amount"]) == ("ledger.added", -4)
    else:
        assert undos == []


def test_the_referees_file_has_everything(played, client_as):
    content = client_as("referee").get(url(played)).getvalue().decode()
    for secret in (*GERMAN_SECRETS, *SOVIET_SECRETS, "Referee only"):
        assert secret in content, secret


def test_a_japanese_name_is_kept_in_the_file_name(campaign, client_as):
    campaign.name = "赤い十月"
    campaign.save()
    disposition = client_as("german").get(url(campaign))["Content-Disposition"]
    assert disposition.startswith("attachment; filename*=utf-8''")
    assert "%E8%B5%A4" in disposition  # 赤


def test_an_outsider_gets_404(played, client_as):
    assert client_as("outsider").get(url(played)).status_code == 404


def test_a_campaign_that_does_not_exist_is_404(client_as):
    assert client_as("referee").get(reverse("campaigns:export", args=[999999])).status_code == 404


def test_an_anonymous_visitor_is_asked_to_sign_in(played, client):
    response = client.get(url(played))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize("persona", ["german", "outsider"])
def test_post_is_not_allowed(played, client_as, persona):
    assert client_as(persona).post(url(played)).status_code == 405


@pytest.mark.parametrize("persona", ["referee", "soviet", "observer"])
def test_the_number_of_queries_does_not_grow_with_the_campaign(
    campaign, people, client_as, persona, django_assert_max_num_queries
):
    client = client_as(persona)
    # A fixed number of queries, whatever the campaign's size (issue 18: at most 15): the
    # request's own, the file ids of the rows other rows name (one query), the core sections'
    # rows (one query, read a chunk at a time as the file is written: the file is streamed, its
    # queries made while it is read, here by getvalue()), the history and the dice log (one
    # each), the victory data (one), the perimeters (one), the corrections (one), the Refit
    # Phases and their marks (one).
    with django_assert_max_num_queries(11) as small:
        response = client.get(url(campaign))
        assert response.streaming and response.status_code == 200
        response.getvalue()
    big = big_campaign(people, rows=300)
    with django_assert_max_num_queries(len(small.captured_queries)):
        data = json.loads(client.get(url(big)).getvalue())
    if persona == "referee":
        assert len(data["ledger"]) == LedgerEntry.objects.filter(campaign=big).count() > 300
        assert len(data["orbat"]) > 300
        assert len(data["dice_rolls"]) == DiceRoll.objects.filter(campaign=big).count() == 150
    else:
        assert 0 < len(data["dice_rolls"]) < 150
    assert len(data["cvp"]) == 300 and len(data["days"]) == 30


@pytest.mark.parametrize("persona", ["referee", "soviet", "observer"])
def test_the_streamed_file_is_the_text_of_the_export_data(people, persona):
    """The download is written a chunk of history and dice rolls at a time, to the letter what
    dumps(build_export()) gives (the pieces are cut inside the rows)."""
    import datetime as dt

    from campaigns.access import viewer_for
    from campaigns.transfer import export, services

    big = big_campaign(people, rows=300)
    viewer = viewer_for(people[persona], big.pk)
    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    pieces = list(services.stream_export(viewer, now=now))
    assert "".join(pieces) == services.dumps(services.build_export(viewer, now=now))
    assert len(pieces) > 1 and max(len(p) for p in pieces) < 2 * export.STREAM_BYTES


def test_an_empty_history_and_dice_log_stream_as_empty_lists(campaign, people):
    import datetime as dt

    from campaigns.access import viewer_for
    from campaigns.transfer import services

    viewer = viewer_for(people["referee"], campaign.pk)
    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    data = services.build_export(viewer, now=now)
    assert data["dice_rolls"] == []
    assert "".join(services.stream_export(viewer, now=now)) == services.dumps(data)
