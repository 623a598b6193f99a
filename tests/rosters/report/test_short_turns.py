"""The short games' report, turn by turn: the steps each side lost (booked with the units'
changes of state, campaigns.shortgames.per_turn) and the VP at each turn's end (the victory
page's figures, kept as the turn marker advanced) — taken back with what booked them, in the
export file, the same for every member, the page's queries constant with the turns."""

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.models import CampaignEvent, TurnVictoryPoints, UnitLoss
from campaigns.shortgames import per_turn, turn_marks
from campaigns.shortgames import services as short_games
from campaigns.shortgames.pages.victory import victory_page, vp_by_side
from campaigns.shortgames.units import UnitData
from campaigns.transfer import services as transfer
from rosters.report import build_report
from tests.campaigns.shortgames.test_turns import mark_all

pytestmark = pytest.mark.django_db


def _units(campaign, people, side, count, unit_type, nationality=""):
    return short_games.add_units(
        campaign,
        by=people["german"],
        units=[
            UnitData(side=side, name=f"{side} {n}", unit_type=unit_type, nationality=nationality)
            for n in range(count)
        ],
    )


def _set(campaign, unit, people, state):
    unit.refresh_from_db()
    return short_games.change_unit(
        campaign, unit, by=people["referee"], version=unit.version, state=state
    )


def _section(campaign, who, people, slug="losses"):
    report = build_report(viewer_for(people[who], campaign.pk), "en")
    return next(s for s in report.sections if s.slug == slug)


def _advance(campaign, people):
    mark_all(campaign, people)
    turn_marks.advance(campaign, index=campaign.period_index, by=people["german"])
    campaign.refresh_from_db()


@pytest.fixture
def cp_losses(cp_game, people):
    short_games.start(cp_game, by=people["german"], options=[])
    german = _units(cp_game, people, "german", 3, "infantry")
    soviet = _units(cp_game, people, "soviet", 1, "infantry")
    _set(cp_game, german[0], people, "reduced")  # 1 step
    _set(cp_game, german[1], people, "eliminated")  # 2 steps, eliminated
    _set(cp_game, soviet[0], people, "recovery_1")  # 2 steps, off the map
    _set(cp_game, german[2], people, "removed")  # a withdrawal: no loss
    return cp_game


def test_the_steps_lost_are_counted_in_their_turn_per_side(cp_losses, people):
    losses = _section(cp_losses, "observer", people)
    row = losses.tables[0].rows[0]
    # Turn, then German steps lost and eliminated, Soviet's, then the Soviet VP now.
    assert row.cells[1:5] == ("3", "1", "2", "1")
    assert row.cells[5] == str(victory_page(viewer_for(people["observer"], cp_losses.pk)).vp_total)
    lost, vp = losses.charts
    assert lost.slug == "losses" and [s.values for s in lost.series] == [(3.0,), (2.0,)]
    assert vp.slug == "vp" and len(vp.series) == 1  # Cherkassy: the Soviet VP
    assert per_turn.losses_per_turn(cp_losses)[(0, "german")] == per_turn.TurnLosses(3, 1)


def test_a_loss_taken_back_is_no_longer_counted(cp_losses, people):
    event = (
        CampaignEvent.objects.filter(campaign=cp_losses, action="unit.changed")
        .order_by("id")
        .first()
    )
    history.undo(event, by=people["referee"])
    assert _section(cp_losses, "german", people).tables[0].rows[0].cells[1:3] == ("2", "1")
    assert UnitLoss.objects.filter(campaign=cp_losses).count() == 2


def test_a_restore_is_not_a_negative_loss(cp_losses, people):
    unit = cp_losses.units.get(name="german 0")
    _set(cp_losses, unit, people, "full")
    assert _section(cp_losses, "soviet", people).tables[0].rows[0].cells[1] == "3"


def _dr_city(campaign):
    return short_games.game_data(campaign)["victory"]["cities"][0]["id"]


@pytest.fixture
def dr_two_turns(dr_game, people):
    """Turn 1 ends with the VP as the victory page shows them; then the first city changes
    hands on turn 2."""
    short_games.start(dr_game, by=people["german"], options=[])
    _advance(dr_game, people)
    city = dr_game.control.get(key=_dr_city(dr_game))
    short_games.set_control(
        dr_game,
        by=people["referee"],
        key=city.key,
        controller="soviet" if city.controller == "axis" else "axis",
        cut_off=False,
        version=city.version,
    )
    return dr_game


def test_the_vp_of_a_finished_turn_are_those_recorded_as_it_ended(dr_two_turns, people):
    stored = {row.side: row.vp for row in TurnVictoryPoints.objects.filter(index=0)}
    now = vp_by_side(victory_page(viewer_for(people["observer"], dr_two_turns.pk)))
    assert set(stored) == {"axis", "soviet"} and stored != now  # the city changed hands since
    table = _section(dr_two_turns, "referee", people).tables[0]
    first, second = table.rows[0].cells, table.rows[1].cells
    # Turn, axis steps/eliminated, soviet steps/eliminated, then Axis VP, Soviet VP.
    assert first[5:] == (str(stored["axis"]), str(stored["soviet"]))
    assert second[5:] == (str(now["axis"]), str(now["soviet"]))
    vp = _section(dr_two_turns, "referee", people).charts[1]
    assert vp.series[0].values == (float(stored["axis"]), float(now["axis"]))


def test_the_turns_vp_are_taken_back_with_the_advance(dr_game, people):
    short_games.start(dr_game, by=people["german"], options=[])
    _advance(dr_game, people)
    assert TurnVictoryPoints.objects.filter(campaign=dr_game, index=0).count() == 2
    history.undo(
        CampaignEvent.objects.get(campaign=dr_game, action="turn.advanced"), by=people["german"]
    )
    assert not TurnVictoryPoints.objects.filter(campaign=dr_game).exists()
    dr_game.refresh_from_db()
    turn_marks.advance(dr_game, index=0, by=people["german"])  # again: recorded again
    assert TurnVictoryPoints.objects.filter(campaign=dr_game, index=0).count() == 2


def test_a_turn_ended_before_the_record_shows_unknown(dr_two_turns, people):
    TurnVictoryPoints.objects.filter(campaign=dr_two_turns).delete()
    assert _section(dr_two_turns, "german", people).tables[0].rows[0].cells[5:] == ("—", "—")


def test_the_record_round_trips_in_the_export(dr_two_turns, cp_losses, people):
    for campaign, losses, vps in ((dr_two_turns, 0, 2), (cp_losses, 3, 0)):
        first = transfer.build_export(viewer_for(people["observer"], campaign.pk))
        parsed = transfer.parse_export(transfer.dumps(first).encode())
        copy = transfer.load(parsed, user=people["outsider"])
        for model, fields, count in (
            (UnitLoss, per_turn.LOSS_FIELDS, losses),
            (TurnVictoryPoints, per_turn.VP_FIELDS, vps),
        ):
            rows = [
                list(model.objects.filter(campaign=c).order_by("index", "id").values_list(*fields))
                for c in (campaign, copy)
            ]
            assert rows[0] == rows[1] and len(rows[0]) == count
        again = transfer.build_export(viewer_for(people["outsider"], copy.pk))
        assert again["short_game_turns"] == first["short_game_turns"]


@pytest.mark.parametrize("who", ["german", "soviet", "referee", "observer"])
def test_every_member_reads_the_losses_and_vp_on_the_page_and_in_the_pdf(
    cp_losses, people, client_as, who
):
    page = client_as(who).get(reverse("report:page", args=[cp_losses.pk]), {"lang": "en"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Steps lost per turn" in text and "chart-losses" in text and "chart-vp" in text
    pdf = client_as(who).get(reverse("report:pdf", args=[cp_losses.pk]), {"lang": "en"})
    pages = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Steps lost per turn" in pages and "Victory points per turn" in pages


def test_an_outsider_reads_nothing(cp_losses, client_as):
    for name in ("report:page", "report:pdf"):
        assert client_as("outsider").get(reverse(name, args=[cp_losses.pk])).status_code == 404


def test_the_report_speaks_japanese(cp_losses, client_as):
    text = (
        client_as("observer")
        .get(reverse("report:page", args=[cp_losses.pk]), {"lang": "ja"})
        .content.decode()
    )
    assert "ターンごとの失ったステップ" in text and "ターン終了時のVP" in text


def _queries(client, campaign) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("report:page", args=[campaign.pk])).status_code == 200
    return len(queries)


def test_the_page_costs_the_same_queries_however_many_turns(dr_game, people, client_as):
    short_games.start(dr_game, by=people["german"], options=[])
    client = client_as("observer")
    _queries(client, dr_game)  # warm the caches
    one = _queries(client, dr_game)
    for _turn in range(3):
        units = _units(dr_game, people, "axis", 1, "infantry", "german")
        _set(dr_game, units[0], people, "eliminated")
        _advance(dr_game, people)
    assert UnitLoss.objects.filter(campaign=dr_game).count() == 3
    assert TurnVictoryPoints.objects.filter(campaign=dr_game).count() == 6
    assert _queries(client, dr_game) == one
