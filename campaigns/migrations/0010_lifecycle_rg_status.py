"""An RG's status in its life cycle (issue 15).

Existing RGs get the status the automatic rules give them when replayed over the campaign's
recorded Refit Phases and scenarios (campaigns.orbat.legacy, the same rule an older export file
without the column imports by): an RG not yet rolled in an open Refit Phase is "bought", one
rolled there "rolled"; once its Refit Phase finished it is "awaiting entry"; in a scenario
being played it is "in the scenario"; after a scenario "retained" (a Stuka: "expended"); a
Stuka whose day passed without a scenario "expended"; an RG flagged as having entered play
"retained". Nothing is "withdrawn" or "eliminated": only a person knows that. Going back
drops the column.
"""

from django.db import migrations, models

BATCH = 500


def forwards(apps, schema_editor):
    from campaigns.orbat.legacy import fill_statuses

    Campaign = apps.get_model("campaigns", "Campaign")
    RefitPhase = apps.get_model("campaigns", "RefitPhase")
    ReinforcementGroup = apps.get_model("campaigns", "ReinforcementGroup")
    for campaign in Campaign.objects.filter(rgs__isnull=False).distinct().iterator():
        rgs = list(ReinforcementGroup.objects.filter(campaign=campaign))
        fill_statuses(campaign, rgs, RefitPhase)
        ReinforcementGroup.objects.bulk_update(rgs, ["status"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0009_records_recon_locations"),
    ]

    operations = [
        migrations.AddField(
            model_name="reinforcementgroup",
            name="status",
            field=models.CharField(
                choices=[
                    ("bought", "bought, not yet rolled"),
                    ("rolled", "rolled"),
                    ("awaiting_entry", "awaiting entry"),
                    ("on_map", "in the scenario"),
                    ("retained", "retained"),
                    ("withdrawn", "withdrawn"),
                    ("eliminated", "eliminated"),
                    ("expended", "expended"),
                ],
                default="bought",
                max_length=20,
                verbose_name="status",
            ),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
