"""The reveal at the campaign's end (campaigns.reveal, campaigns.access): nothing is revealed
before the CG's end and the reveal; afterwards every member sees both sides, the campaign is
read-only except for notes, and an outsider still finds nothing."""

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from campaigns import access
from campaigns.dice import services as dice
from campaigns.games.registry import get_module
from campaigns.history.services import CampaignRevealed
from campaigns.members import services as members
from campaigns.models import Campaign, CampaignEvent, LedgerEntry, RefitPhase, Role
from campaigns.reveal import rules
from campaigns.reveal import services as reveal
from campaigns.roster import services as roster
from campaigns.transfer import services as transfer
from refit.purchases import notes
from tests.seats import join as join_seat
from tests.url_world import GERMAN_SECRET, _german_secrets

pytestmark = pytest.mark.django_db

SOVIET_SECRET = "Only-the-Soviet-knows-2c9"
MEMBERS = ("german", "soviet", "referee", "observer")


def soviet_secrets(campaign, soviet):
    reph = RefitPhase.objects.get(campaign=campaign, finished_at__isnull=True)
    roster.add_ledger_entry(
        campaign,
        by=soviet,
        side="soviet",
        ledger="fpp",
        index=reph.index,
        kind="fortification_rg",
        amount=20,
        rg="F1",
        note=SOVIET_SECRET,
    )
    dice.roll(
        campaign,
        by=soviet,
        kind="dr",
        step="11.618",
        index=reph.index,
        side="soviet",
        visibility="soviet",
        note=SOVIET_SECRET,
    )


def end_cg(campaign):
    """The CG is over: its last Refit Phase (or scenario) finished, none opened after it."""
    RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=True).update(
        finished_at=timezone.now()
    )


@pytest.fixture
def secrets(campaign, people):
    _german_secrets(campaign, people["german"])
    soviet_secrets(campaign, people["soviet"])
    return campaign


def pages(campaign):
    return {
        "german roster": reverse("campaigns:roster", args=[campaign.pk, "german"]),
        "soviet roster": reverse("campaigns:roster", args=[campaign.pk, "soviet"]),
        "german ledger": reverse("campaigns:ledger", args=[campaign.pk, "german"]),
        "soviet ledger": reverse("campaigns:ledger", args=[campaign.pk, "soviet"]),
    }


def history_rows(client, campaign) -> int:
    page = client.get(reverse("campaigns:history", args=[campaign.pk]) + "?page=all")
    return page.content.decode().count('<tr id="event-')


def post_reveal(client, campaign):
    return client.post(reverse("campaigns:reveal_do", args=[campaign.pk]))


def fresh(campaign):
    return Campaign.objects.get(pk=campaign.pk)


# --- the pure rules ----------------------------------------------------------------------


def test_a_refit_game_is_over_once_it_had_phases_and_none_is_open():
    assert not rules.cg_over(has_refit=True, phases=3, open_phases=1, turn=0, turns=9)
    assert rules.cg_over(has_refit=True, phases=3, open_phases=0, turn=0, turns=9)
    assert not rules.cg_over(has_refit=True, phases=0, open_phases=0, turn=0, turns=9)


def test_a_short_game_is_over_on_its_last_turn():
    assert not rules.cg_over(has_refit=False, phases=0, open_phases=0, turn=5, turns=7)
    assert rules.cg_over(has_refit=False, phases=0, open_phases=0, turn=6, turns=7)


def test_each_side_with_players_must_agree():
    from campaigns.members.consent import Seat

    seats = [Seat(1, "player", "german"), Seat(2, "player", "soviet"), Seat(3, "observer")]
    assert rules.sides_missing(("german", "soviet"), {}, seats) == {"german", "soviet"}
    assert rules.sides_missing(("german", "soviet"), {"german": 1}, seats) == {"soviet"}
    assert not rules.sides_missing(("german", "soviet"), {"german": 1, "soviet": 2}, seats)
    # an agreement lapses when its giver no longer plays the side
    assert rules.sides_missing(("german", "soviet"), {"german": 2, "soviet": 2}, seats) == {
        "german"
    }


# --- before the reveal ---------------------------------------------------------------------


def test_nothing_is_revealed_before_the_cg_end_and_the_referee_is_refused(secrets, client_as):
    campaign = secrets
    response = post_reveal(client_as("referee"), campaign)
    assert response.status_code == 302
    assert fresh(campaign).revealed_at is None
    page = client_as("referee").get(response.url)
    assert "not over yet" in page.content.decode()
    for persona in ("soviet", "observer"):
        assert client_as(persona).get(pages(campaign)["german roster"]).status_code == 404
    for persona in ("german", "observer"):
        assert client_as(persona).get(pages(campaign)["soviet ledger"]).status_code == 404
    every = CampaignEvent.objects.filter(campaign=campaign).count()
    assert history_rows(client_as("referee"), campaign) == every
    assert history_rows(client_as("soviet"), campaign) < every


def test_the_cg_over_is_not_yet_revealed(secrets, client_as):
    end_cg(secrets)
    assert client_as("soviet").get(pages(secrets)["german roster"]).status_code == 404
    log = client_as("observer").get(reverse("campaigns:dice_log", args=[secrets.pk]))
    assert GERMAN_SECRET not in log.content.decode()


@pytest.mark.parametrize("persona", ["german", "soviet", "observer"])
def test_with_a_referee_nobody_else_reveals(secrets, client_as, persona):
    end_cg(secrets)
    assert post_reveal(client_as(persona), secrets).status_code == 403
    assert fresh(secrets).revealed_at is None


def test_an_outsider_finds_no_reveal(secrets, client_as):
    end_cg(secrets)
    assert post_reveal(client_as("outsider"), secrets).status_code == 404
    assert (
        client_as("outsider").get(reverse("campaigns:reveal", args=[secrets.pk])).status_code == 404
    )
    assert fresh(secrets).revealed_at is None


def test_the_reveal_page_offers_the_button_to_the_referee_only(secrets, client_as):
    end_cg(secrets)
    url = reverse("campaigns:reveal", args=[secrets.pk])
    assert "Reveal the campaign" in client_as("referee").get(url).content.decode()
    for persona in ("german", "soviet", "observer"):
        assert "Reveal the campaign</button>" not in client_as(persona).get(url).content.decode()


# --- the reveal ------------------------------------------------------------------------------


@pytest.fixture
def revealed(secrets, client_as):
    end_cg(secrets)
    response = post_reveal(client_as("referee"), secrets)
    assert response.status_code == 302
    campaign = fresh(secrets)
    assert campaign.revealed_at is not None
    return campaign


def test_the_reveal_is_recorded_in_the_public_history(revealed, people):
    event = CampaignEvent.objects.get(campaign=revealed, action="campaign.revealed")
    assert event.visibility == "public" and event.actor == people["referee"]
    assert revealed.revealed_by == people["referee"]


@pytest.mark.parametrize("persona", MEMBERS)
def test_after_the_reveal_every_member_sees_both_sides(revealed, client_as, persona):
    client = client_as(persona)
    for name, url in pages(revealed).items():
        assert client.get(url).status_code == 200, name
    assert GERMAN_SECRET in client.get(pages(revealed)["german ledger"]).content.decode()
    assert SOVIET_SECRET in client.get(pages(revealed)["soviet ledger"]).content.decode()
    log = client.get(reverse("campaigns:dice_log", args=[revealed.pk])).content.decode()
    assert GERMAN_SECRET in log and SOVIET_SECRET in log
    # the history holds every event, each side's secret ones too: as many as the referee's
    every = CampaignEvent.objects.filter(campaign=revealed).count()
    assert history_rows(client, revealed) == every


@pytest.mark.parametrize("persona", MEMBERS)
def test_after_the_reveal_every_members_export_holds_both_sides(revealed, people, persona):
    viewer = access.viewer_for(people[persona], revealed.pk)
    data = json.loads(transfer.dumps(transfer.build_export(viewer)))
    assert data["scope"] == "full"
    assert data["campaign"]["revealed_at"]
    assert {row["side"] for row in data["ledger"]} >= {"german", "soviet"}
    notes_ = {roll["note"] for roll in data["dice_rolls"]}
    assert GERMAN_SECRET in notes_ and SOVIET_SECRET in notes_


def test_before_the_reveal_the_soviet_export_holds_his_side_only(secrets, people):
    from campaigns.transfer.export import build_export

    end_cg(secrets)
    data = build_export(access.viewer_for(people["soviet"], secrets.pk))
    assert data["scope"] == "side:soviet"
    assert {row["side"] for row in data["ledger"]} <= {"soviet"}


def test_an_outsider_still_finds_nothing_after_the_reveal(revealed, client_as):
    client = client_as("outsider")
    for url in (
        *pages(revealed).values(),
        reverse("campaigns:dice_log", args=[revealed.pk]),
        reverse("campaigns:history", args=[revealed.pk]),
        reverse("campaigns:export", args=[revealed.pk]),
    ):
        assert client.get(url).status_code == 404, url


def test_a_revealed_campaign_refuses_writes_in_the_services(revealed, people):
    before = LedgerEntry.objects.filter(campaign=revealed).count()
    with pytest.raises(CampaignRevealed):
        roster.add_ledger_entry(
            revealed,
            by=people["referee"],
            side="german",
            ledger="cpp",
            index=0,
            kind="adjustment",
            amount=5,
            note="after the end",
        )
    assert LedgerEntry.objects.filter(campaign=revealed).count() == before
    with pytest.raises(PermissionDenied):
        dice.roll(revealed, by=people["referee"], kind="dr", step="x", index=0, visibility="public")


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_a_revealed_campaign_refuses_writes_in_the_views(revealed, client_as, persona):
    client = client_as(persona)
    before = LedgerEntry.objects.filter(campaign=revealed).count()
    response = client.post(
        pages(revealed)["german ledger"],
        {"ledger": "cpp", "index": 0, "kind": "adjustment", "amount": 5, "note": "late"},
    )
    assert response.status_code == 403
    # The reason given is the reveal, not the member's role.
    assert "This campaign is revealed: it is read-only now" in response.content.decode()
    assert LedgerEntry.objects.filter(campaign=revealed).count() == before
    assert post_reveal(client, revealed).status_code == 403


def test_notes_are_still_written_after_the_reveal(revealed, people):
    from campaigns.models import ReinforcementGroup

    rg = ReinforcementGroup.objects.filter(campaign=revealed, side="german").first()
    notes.record_notes(
        revealed,
        rg,
        seen=notes.notes_seen(rg),
        hexes="",
        observer_location="",
        note="Written after the end",
        by=people["german"],
    )
    rg.refresh_from_db()
    assert "Written after the end" in json.dumps(rg.details)


def test_the_reveal_survives_export_and_import(revealed, people):
    build_export = transfer.build_export
    text = transfer.dumps(build_export(access.viewer_for(people["observer"], revealed.pk)))
    copy = transfer.load(transfer.parse_export(text), user=people["outsider"])
    assert copy.revealed_at is not None
    viewer = access.viewer_for(people["outsider"], copy.pk)
    assert viewer.can_see_side("german") and viewer.can_see_side("soviet")
    assert not viewer.can_act_for_side("german")
    again = build_export(viewer)
    assert (
        again["campaign"]["revealed_at"]
        == build_export(access.viewer_for(people["observer"], revealed.pk))["campaign"][
            "revealed_at"
        ]
    )


# --- without a referee ----------------------------------------------------------------------


@pytest.fixture
def refereeless(people):
    campaign = members.create_campaign(
        user=people["german"],
        name="Two at the table",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="german",
    )
    for persona, role, side in (("soviet", Role.PLAYER, "soviet"), ("observer", Role.OBSERVER, "")):
        invitation = members.create_invitation(campaign, by=people["german"], role=role, side=side)
        join_seat(invitation, people[persona])
    return campaign


def test_without_a_referee_a_player_of_each_side_agrees(refereeless, client_as):
    campaign = refereeless
    end_cg(campaign)
    assert post_reveal(client_as("observer"), campaign).status_code == 403
    assert post_reveal(client_as("german"), campaign).status_code == 302
    campaign = fresh(campaign)
    assert campaign.revealed_at is None  # the German alone is not enough
    assert client_as("german").get(pages(campaign)["soviet roster"]).status_code == 404
    assert (
        CampaignEvent.objects.filter(campaign=campaign, action="campaign.reveal_agreed").count()
        == 1
    )
    assert post_reveal(client_as("soviet"), campaign).status_code == 302
    campaign = fresh(campaign)
    assert campaign.revealed_at is not None
    assert client_as("german").get(pages(campaign)["soviet roster"]).status_code == 200
    assert client_as("observer").get(pages(campaign)["german roster"]).status_code == 200


def test_without_a_referee_nothing_is_agreed_before_the_end(refereeless, client_as):
    assert post_reveal(client_as("german"), refereeless).status_code == 302
    assert fresh(refereeless).reveal_consents == {}


# --- short games ----------------------------------------------------------------------------


def test_a_short_game_is_revealed_on_its_last_turn(people):
    from campaigns.shortgames import services as short_games

    campaign = members.create_campaign(
        user=people["german"],
        name="Korsun",
        module=get_module("cherkassy_pocket"),
        cg_key=get_module("cherkassy_pocket").campaign_games[0].key,
        role=Role.REFEREE,
        side="",
    )
    short_games.start(campaign, by=people["german"], options=[])
    viewer = access.viewer_for(people["german"], campaign.pk)
    with pytest.raises(reveal.RevealError):
        reveal.reveal(viewer)
    Campaign.objects.filter(pk=campaign.pk).update(period_index=len(campaign.cg.periods) - 1)
    viewer = access.viewer_for(people["german"], campaign.pk)
    assert reveal.reveal(viewer).revealed
    assert not access.viewer_for(people["german"], campaign.pk).can_record


# --- one reading of "the CG is over" (the reveal and the CG victory page) -----------------------


def test_a_last_day_won_is_over_only_with_no_phase_open():
    assert rules.cg_over(
        has_refit=True, phases=0, open_phases=0, turn=0, turns=9, last_day_won=True
    )
    assert not rules.cg_over(
        has_refit=True, phases=4, open_phases=1, turn=8, turns=9, last_day_won=True
    )
    assert not rules.cg_over(
        has_refit=True, phases=0, open_phases=0, turn=8, turns=9, last_day_won=False
    )


def test_the_reveal_and_the_victory_page_read_the_end_alike(secrets, people, client_as):
    from campaigns.models import Scenario
    from campaigns.records import cg_victory_page

    viewer = access.viewer_for(people["referee"], secrets.pk)
    last = len(secrets.cg.periods) - 1
    Scenario.objects.create(campaign=secrets, index=last, winner="soviet")
    # A phase is still open: neither calls the CG over.
    assert not reveal.cg_over(secrets)
    assert not cg_victory_page.victory_page(viewer)["cg_over"]
    end_cg(secrets)
    assert reveal.cg_over(secrets)
    assert cg_victory_page.victory_page(viewer)["cg_over"]
