"""Cherkassy Pocket 11.16: air points booked before ``PointEntry.segment`` existed (0034) get
the activation segment they were booked in, read from what the record says of that moment, so
that a game in progress keeps spending them.

The segment of a row is the latest segment the record shows as begun when the row was written:
the steps marked ("s1.air_power" …), the dice rolled on a turn step, and the step whose mark
credited the fixed points (its history event names the rows). Rows written before anything of
a segment was recorded belong to segment 1, the first in which they can be spent (points
booked before segment 1 begins are for it). docs/rules-decisions.md, 11.16."""

from django.db import migrations


def segment_of_step(step: str) -> int | None:
    """ "s2.air_power" → 2; None for steps outside the activation segments."""
    if step[:1] == "s" and step[1:2].isdigit() and step[2:3] == ".":
        return int(step[1])
    return None


def backfill(apps, schema_editor):
    PointEntry = apps.get_model("campaigns", "PointEntry")
    TurnMark = apps.get_model("campaigns", "TurnMark")
    DiceRoll = apps.get_model("campaigns", "DiceRoll")
    CampaignEvent = apps.get_model("campaigns", "CampaignEvent")
    rows = PointEntry.objects.filter(
        campaign__module="cherkassy_pocket", kind="air", segment__isnull=True
    ).order_by("campaign_id", "index", "created_at", "id")
    by_turn: dict[tuple[int, int], list] = {}
    for row in rows:
        by_turn.setdefault((row.campaign_id, row.index), []).append(row)
    for (campaign_id, index), turn_rows in by_turn.items():
        # (when, segment) of everything the record says happened in a segment of the turn.
        evidence = [
            (at, segment_of_step(step))
            for at, step in TurnMark.objects.filter(
                campaign_id=campaign_id, index=index
            ).values_list("at", "step")
        ]
        evidence += [
            (at, segment_of_step(step))
            for at, step in DiceRoll.objects.filter(
                campaign_id=campaign_id, index=index, voided_at__isnull=True
            )
            .exclude(sequence_step="")
            .values_list("rolled_at", "sequence_step")
        ]
        evidence = [(at, segment) for at, segment in evidence if segment is not None]
        # The fixed credits name their rows in the mark's history event.
        credited: dict[int, int] = {}
        for data in CampaignEvent.objects.filter(
            campaign_id=campaign_id, action="turn.step_marked"
        ).values_list("data", flat=True):
            data = data or {}
            segment = segment_of_step(str(data.get("step", "")))
            if segment is None or data.get("index") != index:
                continue
            pks = data.get("air_credits") or (
                [data["air_credit"]] if data.get("air_credit") else []
            )
            for pk in pks:
                credited[pk] = segment
        for row in turn_rows:
            segment = credited.get(row.pk)
            if segment is None:
                begun = [s for at, s in evidence if at <= row.created_at]
                segment = max(begun) if begun else 1
            row.segment = segment
            row.save(update_fields=["segment"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0036_perf18_dice_indexes"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
