"""The live poll: a member's change token, 204 while nothing they may see has changed, and the
pages that poll it (the walker's overview and step pages)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import access
from campaigns.dice import services as dice
from campaigns.live.token import change_token
from campaigns.models import Membership
from refit.walker import services as walker
from tests.campaigns.builders import make_big_campaign
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db

MEMBERS = ("german", "soviet", "referee", "observer")


def poll_url(campaign, since=""):
    url = reverse("campaigns:live", args=[campaign.pk])
    return f"{url}?since={since}" if since else url


def token_of(campaign, person):
    membership = Membership.objects.get(campaign=campaign, user=person)
    return change_token(access.Viewer(campaign=campaign, membership=membership))


def tokens(campaign, people):
    return {persona: token_of(campaign, people[persona]) for persona in MEMBERS}


def poll(client_as, campaign, persona, since):
    return client_as(persona).get(poll_url(campaign, since), HTTP_HX_REQUEST="true")


def secret_german_roll(campaign, people, note="XYZZY"):
    with dice.use_roller(3):
        dice.roll(
            campaign,
            by=people["german"],
            kind="DR",
            step="11.620",
            index=0,
            side="german",
            visibility="german",
            table=campaign.game.dice_table("rf.rg-strength"),
            note=note,
        )


@pytest.fixture
def after(campaign, people):
    """The RePh after the initial scenario: its first steps are public, both sides together."""
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


# --- who may ask ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, status",
    [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200), ("outsider", 404)],
)
def test_every_member_gets_the_poll_element_and_the_outsider_404(
    campaign, client_as, persona, status
):
    walker.open_reph(campaign)
    response = client_as(persona).get(poll_url(campaign))
    assert response.status_code == status
    if status == 200:
        html = response.content.decode()
        assert 'id="live-poll"' in html
        assert 'hx-trigger="every 5s [!document.hidden]"' in html
        assert "HX-Trigger" not in response  # a first answer is no change


def test_an_anonymous_visitor_is_sent_to_sign_in(campaign, client):
    response = client.get(poll_url(campaign, "abc"))
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.parametrize("persona", MEMBERS)
def test_nothing_changed_answers_204_with_no_body(campaign, client_as, people, persona):
    walker.open_reph(campaign)
    since = token_of(campaign, people[persona])
    response = poll(client_as, campaign, persona, since)
    assert response.status_code == 204 and response.content == b""
    assert client_as(persona).head(poll_url(campaign, since)).status_code == 204


def test_a_stale_token_answers_the_new_one_and_says_the_campaign_changed(
    campaign, client_as, people
):
    walker.open_reph(campaign)
    response = poll(client_as, campaign, "soviet", "an-old-token")
    assert response.status_code == 200
    assert response["HX-Trigger"] == "campaign-changed"
    new = token_of(campaign, people["soviet"])
    assert f'data-token="{new}"' in response.content.decode()
    assert f"since={new}" in response.content.decode()


def test_each_member_has_their_own_token(campaign, people):
    walker.open_reph(campaign)
    assert len(set(tokens(campaign, people).values())) == len(MEMBERS)


def test_the_token_shows_no_event_id(campaign, people, after):
    secret_german_roll(campaign, people)
    token = token_of(campaign, people["soviet"])
    assert re.fullmatch(r"[a-p]{24}", token)  # letters: no number a secrecy test could see


# --- what moves whose token ----------------------------------------------------------------


def test_a_secret_german_roll_moves_only_the_german_and_referee_tokens(
    campaign, client_as, people, after
):
    before = tokens(campaign, people)
    secret_german_roll(campaign, people)
    for persona in ("soviet", "observer"):
        assert poll(client_as, campaign, persona, before[persona]).status_code == 204
    for persona in ("german", "referee"):
        response = poll(client_as, campaign, persona, before[persona])
        assert response.status_code == 200
        assert response["HX-Trigger"] == "campaign-changed"


def test_a_secret_german_purchase_does_not_move_the_soviet_token(campaign, people):
    from campaigns.roster.services import add_ledger_entry
    from refit.purchases import services as purchases
    from refit.rules.purchase_costs import Options

    walker.open_reph(campaign)  # the RePh before the initial scenario: 11.619 RG purchase
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side="german",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=20,
        note="test",
    )
    before = tokens(campaign, people)
    purchases.buy(campaign, "german", 0, "O1", Options(pre_registered_hexes=2), people["german"])
    now = tokens(campaign, people)
    assert (now["soviet"], now["observer"]) == (before["soviet"], before["observer"])
    assert now["german"] != before["german"] and now["referee"] != before["referee"]


def test_a_public_mark_moves_every_members_token(campaign, people, after):
    before = tokens(campaign, people)
    mark_past(campaign, after, "soviet", "11.601", people)
    now = tokens(campaign, people)
    assert all(now[persona] != before[persona] for persona in MEMBERS)


def test_the_other_sides_secret_mark_moves_the_token_as_the_overview_shows_it(
    campaign, client_as, people, after
):
    """Where each side stands is on every member's overview (a secret step by its number):
    the waiting side learns the other has gone on, and nothing more."""
    walk_all(campaign, after, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    for rule in ("11.612", "11.613"):
        for side in ("german", "soviet"):
            mark_past(campaign, new_day, side, rule, people)
    before = tokens(campaign, people)
    mark_past(campaign, new_day, "german", "11.614", people, note="PLUGH")  # secret step
    now = tokens(campaign, people)
    assert all(now[persona] != before[persona] for persona in MEMBERS)
    for persona in ("soviet", "observer"):
        response = poll(client_as, campaign, persona, before[persona])
        assert "PLUGH" not in response.content.decode()


def test_an_undo_moves_the_token_back_to_a_new_value(campaign, people, after):
    from campaigns.history import services as history
    from campaigns.models import CampaignEvent

    mark_past(campaign, after, "soviet", "11.601", people)
    marked = tokens(campaign, people)
    event = CampaignEvent.objects.filter(campaign=campaign, action="refit.step_marked").first()
    history.undo(event, by=people["soviet"])
    assert token_of(campaign, people["german"]) != marked["german"]


def test_finishing_the_refit_phase_moves_every_token(campaign, people):
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    before = tokens(campaign, people)
    finish_phase(campaign, reph, by=people["referee"])
    now = tokens(campaign, people)
    assert all(now[persona] != before[persona] for persona in MEMBERS)


def test_another_campaigns_changes_do_not_move_the_token(campaign, people, after):
    before = tokens(campaign, people)
    big = make_big_campaign(people)
    reph = walker.open_reph(big)
    mark_past(big, reph, "german", walker.steps(big, reph)[0].rule, people)
    assert tokens(campaign, people) == before


# --- cheap ---------------------------------------------------------------------------------


def campaign_queries(client, url):
    """The queries of one poll that read the campaign's tables (the session and the user are
    read before any view runs)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code in (200, 204)
    return [q["sql"] for q in queries.captured_queries if "campaigns_" in q["sql"]]


@pytest.mark.parametrize("persona", MEMBERS)
def test_the_poll_reads_two_queries_whatever_the_campaigns_size(
    campaign, client_as, people, persona
):
    walker.open_reph(campaign)
    client = client_as(persona)
    small = campaign_queries(client, poll_url(campaign, token_of(campaign, people[persona])))
    big = make_big_campaign(people)
    reph = walker.open_reph(big)
    walk_all(big, reph, people)
    for n in range(30):
        secret_german_roll(big, people, note=f"roll {n}")
    large = campaign_queries(client, poll_url(big, token_of(big, people[persona])))
    assert len(small) == len(large) == 2  # the membership, then the token
    assert "campaigns_membership" in large[0] and "campaigns_campaignevent" in large[1]
