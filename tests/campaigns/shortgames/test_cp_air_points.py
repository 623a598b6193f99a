"""Cherkassy Pocket's fixed air points (11.16 B; scenarios 2/3's first turn): credited as the
side marks its air power step, usable, taken back with the mark (never below 0); and no Soviet
segment-1 air roll where scenarios 2 and 3 start (seed 002 L550, L581)."""

import pytest

from campaigns.history import services as history
from campaigns.models import CampaignEvent, PointEntry, PointKind
from campaigns.shortgames import services as short_games
from campaigns.shortgames import turn_marks, turn_points, turn_steps
from tests.campaigns.shortgames.test_turns import mark_all, steps_of

pytestmark = pytest.mark.django_db
ORDER = "combat_first"


def air_left(campaign, side):
    return turn_points.balance(campaign, side, campaign.period_index, PointKind.AIR)


def use(campaign, people, side, amount):
    return turn_points.add_points(
        campaign,
        by=people[side],
        side=side,
        index=campaign.period_index,
        kind=PointKind.AIR,
        action=PointEntry.Action.USED,
        amount=-amount,
    )


def test_turn_0_credits_the_soviet_3_per_segment_as_the_step_is_marked(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    assert air_left(cp_started, "soviet") == 0
    turn_marks.mark(
        cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"], order=ORDER
    )
    assert air_left(cp_started, "soviet") == 3
    assert air_left(cp_started, "german") == 0  # the German rolls on turn 0
    use(cp_started, people, "soviet", 3)
    with pytest.raises(Exception, match="Not enough points"):
        use(cp_started, people, "soviet", 1)


def test_the_credit_goes_with_the_mark_and_never_below_0(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    turn_marks.mark(
        cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"], order=ORDER
    )
    spent = use(cp_started, people, "soviet", 2)
    with pytest.raises(turn_steps.TurnError, match="spent"):
        turn_marks.unmark(
            cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"]
        )
    marked = CampaignEvent.objects.get(action="turn.step_marked", data__step="s1.air_power")
    with pytest.raises(history.UndoError, match="would leave the air points at"):
        history.undo(marked, by=people["referee"])
    PointEntry.objects.filter(pk=spent.pk).delete()
    turn_marks.unmark(
        cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"]
    )
    assert air_left(cp_started, "soviet") == 0
    turn_marks.mark(
        cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"], order=ORDER
    )
    assert air_left(cp_started, "soviet") == 3


def test_turn_1_credits_6_per_segment(cp_started, people):
    cp_started.period_index = 1
    cp_started.save(update_fields=["period_index"])
    mark_all(cp_started, people, upto="s1.air_power")
    turn_marks.mark(
        cp_started, index=1, side="soviet", step_id="s1.air_power", by=people["soviet"], order=ORDER
    )
    assert air_left(cp_started, "soviet") == 6


@pytest.mark.parametrize(("scenario", "turn"), [("scenario-2", 7), ("scenario-3", 16)])
def test_scenarios_2_and_3_offer_no_soviet_segment_1_air(cp_game, people, scenario, turn):
    cp_game.campaign_game = scenario
    cp_game.save(update_fields=["campaign_game"])
    short_games.start(cp_game, by=people["german"], options=[])
    assert short_games.turn_number(cp_game) == turn
    steps = {step.id: step for step in steps_of(cp_game)}
    soviet = next(t for t in steps["s1.air_power"].tables if t.table_id == "cp.air-points-soviet")
    assert not soviet.applies
    assert "German operations segment" in soviet.reason.en
    later = next(t for t in steps["s2.air_power"].tables if t.table_id == "cp.air-points-soviet")
    assert later.applies  # segment 2 rolls as usual
    mark_all(cp_game, people, upto="s1.soviet_operations_1")
    assert air_left(cp_game, "german") == 3  # the scenario's fixed 3
    assert air_left(cp_game, "soviet") == 0


def test_spending_the_credit_is_undone_then_the_credit(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    turn_marks.mark(
        cp_started,
        index=0,
        side="soviet",
        step_id="s1.air_power",
        by=people["soviet"],
        order=ORDER,
    )
    use(cp_started, people, "soviet", 3)
    assert air_left(cp_started, "soviet") == 0
    spent = CampaignEvent.objects.get(action="points.added", data__what="used")
    history.undo(spent, by=people["soviet"])
    assert air_left(cp_started, "soviet") == 3
    marked = CampaignEvent.objects.get(action="turn.step_marked", data__step="s1.air_power")
    history.undo(marked, by=people["soviet"])
    assert air_left(cp_started, "soviet") == 0
    assert not PointEntry.objects.filter(campaign=cp_started).exists()


# --- per activation segment (11.16: "per segment"; what is left lapses at the segment's end) ----


def test_segment_1_points_are_not_spendable_in_segment_2(cp_started, people, client_as):
    from django.urls import reverse

    mark_all(cp_started, people, upto="s1.air_power")
    turn_marks.mark(
        cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"], order=ORDER
    )
    use(cp_started, people, "soviet", 1)
    assert air_left(cp_started, "soviet") == 2
    # Every step up to segment 2's air power phase: segment 1's 2 points lapse.
    mark_all(cp_started, people, upto="s2.air_power")
    assert turn_points.air_segment_now(cp_started) == 2
    assert air_left(cp_started, "soviet") == 0
    with pytest.raises(Exception, match="activation segment"):
        use(cp_started, people, "soviet", 1)
    # Segment 2's own 3 are credited as its step is marked, and only those can be spent.
    turn_marks.mark(
        cp_started, index=0, side="soviet", step_id="s2.air_power", by=people["soviet"], order=ORDER
    )
    assert air_left(cp_started, "soviet") == 3
    spent = use(cp_started, people, "soviet", 3)
    assert spent.segment == 2
    with pytest.raises(Exception, match="activation segment"):
        use(cp_started, people, "soviet", 1)
    # The segment-2 credit's undo would leave segment 2 below 0: refused, for the referee too.
    marked = CampaignEvent.objects.get(action="turn.step_marked", data__step="s2.air_power")
    with pytest.raises(history.UndoError, match="would leave the air points at"):
        history.undo(marked, by=people["referee"])
    # The points page says what is available now and why.
    page = client_as("observer").get(reverse("shortgames:points", args=[cp_started.pk]))
    html = page.content.decode()
    assert 'id="air-now-soviet"' in html
    assert "0 in activation segment 2" in html and "lapses at the segment" in html
    turn = client_as("observer").get(reverse("shortgames:turn", args=[cp_started.pk]))
    assert "0 in activation segment 2" in turn.content.decode().split('id="soviet-air-now"')[1]


def test_the_rows_keep_their_segment(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    turn_marks.mark(
        cp_started, index=0, side="soviet", step_id="s1.air_power", by=people["soviet"], order=ORDER
    )
    assert list(PointEntry.objects.values_list("segment", "amount")) == [(1, 3)]
    # Before segment 1 (and after segment 2) no air point can be spent: the turn is at none.
    assert turn_points.balance(cp_started, "soviet", 0, PointKind.AIR, None) == 0
    assert turn_points.balance(cp_started, "soviet", 0, PointKind.AIR, 1) == 3
