"""Migration 0037 gives Cherkassy air-point rows written before ``PointEntry.segment`` existed
the activation segment the record shows they were booked in (11.16), so that a game in
progress keeps spending them; rows of other games and kinds are left alone."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("campaigns", "0034_cp20_point_segment")]
AFTER = [("campaigns", "0037_cp20b_point_segment_backfill")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_old_air_rows_get_the_segment_they_were_booked_in():
    apps = migrate(BEFORE)
    Campaign = apps.get_model("campaigns", "Campaign")
    PointEntry = apps.get_model("campaigns", "PointEntry")
    TurnMark = apps.get_model("campaigns", "TurnMark")
    DiceRoll = apps.get_model("campaigns", "DiceRoll")
    CampaignEvent = apps.get_model("campaigns", "CampaignEvent")
    cp = Campaign.objects.create(
        name="CP", module="cherkassy_pocket", campaign_game="cp-1", data_version="1"
    )
    dr = Campaign.objects.create(
        name="DR", module="defiant_russia", campaign_game="dr-1", data_version="1"
    )
    start = timezone.now() - timedelta(hours=2)

    def at(minutes):
        return start + timedelta(minutes=minutes)

    def row(campaign, minutes, amount, *, side="soviet", kind="air", action="received", index=1):
        entry = PointEntry.objects.create(
            campaign=campaign, side=side, index=index, kind=kind, action=action, amount=amount
        )
        PointEntry.objects.filter(pk=entry.pk).update(created_at=at(minutes))
        return entry.pk

    def mark(minutes, step, side="soviet", index=1):
        made = TurnMark.objects.create(
            campaign=cp, index=index, side=side, step=step, status="done"
        )
        TurnMark.objects.filter(pk=made.pk).update(at=at(minutes))

    def roll(minutes, step, side="german"):
        made = DiceRoll.objects.create(
            campaign=cp,
            index=1,
            side=side,
            step="11.16",
            table_id="cp.german-air",
            kind="dr",
            faces=[3],
            original=3,
            final=3,
            visibility="public",
            sequence_step=step,
        )
        DiceRoll.objects.filter(pk=made.pk).update(rolled_at=at(minutes))

    # Turn 1: weather marked, before any segment: a hand adjustment (→ segment 1).
    mark(1, "weather")
    early = row(cp, 2, 1, action="adjustment")
    # Segment 1: the Soviet fixed points credited by the mark (its event names the row) …
    fixed_1 = row(cp, 3, 6)
    mark(3, "s1.air_power")
    CampaignEvent.objects.create(
        campaign=cp,
        action="turn.step_marked",
        data={"step": "s1.air_power", "side": "soviet", "index": 1, "air_credits": [fixed_1]},
    )
    # … and the German roll's credit, a moment after its die (no event names it).
    roll(4, "s1.air_power")
    rolled_1 = row(cp, 4.01, 3, side="german")
    spent_1 = row(cp, 10, -2, action="spent")
    mark(20, "s1.german_operations", side="german")
    # Segment 2: the German air roll, its credit and a spending.
    roll(30, "s2.air_power")
    rolled_2 = row(cp, 30.01, 2, side="german")
    spent_2 = row(cp, 40, -1, side="german", action="spent")
    # A fixed credit whose event says segment 2 although written at minute 5.
    fixed_2 = row(cp, 5, 6)
    CampaignEvent.objects.create(
        campaign=cp,
        action="turn.step_marked",
        data={"step": "s2.air_power", "side": "soviet", "index": 1, "air_credit": fixed_2},
    )
    # Turn 0 of the same game: nothing of a segment recorded (→ segment 1).
    turn_0 = row(cp, 0, 3, index=0)
    # Left alone: replacement points, another game's air points, a row already placed.
    replacement = row(cp, 30.5, 2, kind="replacement")
    other_game = row(dr, 30.5, 4)
    placed = row(cp, 3.5, 1)
    PointEntry.objects.filter(pk=placed).update(segment=2)

    apps = migrate(AFTER)
    PointEntry = apps.get_model("campaigns", "PointEntry")
    segments = dict(PointEntry.objects.values_list("pk", "segment"))
    assert segments[early] == 1
    assert segments[fixed_1] == 1
    assert segments[rolled_1] == 1
    assert segments[spent_1] == 1
    assert segments[rolled_2] == 2
    assert segments[spent_2] == 2
    assert segments[fixed_2] == 2
    assert segments[turn_0] == 1
    assert segments[placed] == 2
    assert segments[replacement] is None
    assert segments[other_game] is None
    latest()
