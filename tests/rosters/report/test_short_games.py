"""The short games' report: turn by turn the points each side received and spent (the points
page's figures), the victory status, the dice luck — the same for every member, since nothing
in these games is secret."""

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.models import GameUnit, PointKind
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_points
from rosters.report import build_report
from tests.rosters.report.conftest import roll

pytestmark = pytest.mark.django_db


def _book(campaign, people):
    short_games.start(campaign, by=people["german"], options=[])
    sides = campaign.game.side_keys
    for index, (side, action, amount) in enumerate(
        [(sides[0], "received", 5), (sides[0], "used", -3), (sides[1], "received", 4)]
    ):
        turn_points.add_points(
            campaign,
            by=people["referee"],
            side=side,
            index=0,
            kind=PointKind.REPLACEMENT,
            action=action if index != 1 else "adjustment",
            amount=amount,
            note="the referee's correction",
        )


@pytest.mark.parametrize("game", ["dr_game", "cp_game"])
def test_the_points_are_the_points_pages(request, people, game):
    campaign = request.getfixturevalue(game)
    _book(campaign, people)
    report = build_report(viewer_for(people["observer"], campaign.pk), "en")
    turns = next(s for s in report.sections if s.slug == "turns")
    row = turns.tables[0].rows[0]
    first, second = campaign.game.side_keys
    # Received, Spent, Left of the replacement points, then of the air points, per side.
    assert row.cells[2:5] == ("5", "3", "2")
    assert row.cells[2 + 6 : 5 + 6] == ("4", "0", "4")
    assert row.cells[4] == str(turn_points.balance(campaign, first, 0, PointKind.REPLACEMENT))
    assert row.cells[10] == str(turn_points.balance(campaign, second, 0, PointKind.REPLACEMENT))
    assert turns.charts[0].series[0].values == (5.0,)
    assert any(s.slug == "victory" and s.facts for s in report.sections)


@pytest.mark.parametrize("who", ["german", "soviet", "referee", "observer"])
def test_every_member_reads_the_whole_short_game(cp_game, people, client_as, who):
    _book(cp_game, people)
    roll(cp_game, "soviet", (2, 5), visibility="public", table="")
    response = client_as(who).get(reverse("report:page", args=[cp_game.pk]), {"lang": "en"})
    assert response.status_code == 200
    text = response.content.decode()
    assert "Turn by turn" in text and "Soviet VP" in text
    assert "Nothing in this game is secret" in text
    assert "chart-luck-soviet" in text  # the public rolls, for everyone
    pdf = client_as(who).get(reverse("report:pdf", args=[cp_game.pk]), {"lang": "ja"})
    assert pdf.status_code == 200


def test_an_outsider_finds_no_short_game_report(dr_game, client_as):
    assert client_as("outsider").get(reverse("report:page", args=[dr_game.pk])).status_code == 404


def test_the_units_are_counted_by_state_per_side(cp_game, people):
    for name, side, state in (
        ("1 Pz", "german", "reduced"),
        ("2 Pz", "german", "reduced"),
        ("5 GT", "soviet", "eliminated"),
    ):
        GameUnit.objects.create(
            campaign=cp_game, side=side, name=name, unit_type="armor", state=state
        )
    report = build_report(viewer_for(people["observer"], cp_game.pk), "en")
    units = next(s for s in report.sections if s.slug == "units").tables[0]
    assert {row.cells[0]: row.cells[1:] for row in units.rows} == {
        "Reduced": ("2", "0"),
        "Eliminated": ("0", "1"),
    }
