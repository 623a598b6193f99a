"""A recon payment keeps the number of Locations its dr gave (the CG Roster's Recon column,
RF 11.622, SaP 11.620). Payments booked before are filled from their recon roll where one is
found (same campaign, side and CG day, not voided); the others stay blank and read as 0."""

from django.db import migrations, models


def fill_from_rolls(apps, schema_editor):
    LedgerEntry = apps.get_model("campaigns", "LedgerEntry")
    DiceRoll = apps.get_model("campaigns", "DiceRoll")
    for entry in LedgerEntry.objects.filter(kind="recon", amount__lt=0, locations__isnull=True):
        roll = (
            DiceRoll.objects.filter(
                campaign_id=entry.campaign_id,
                side=entry.side,
                index=entry.index,
                table_id__endswith=".recon",
                voided_at__isnull=True,
            )
            .order_by("-id")
            .first()
        )
        found = (roll.result or {}).get("locations") if roll is not None else None
        if isinstance(found, int) and 0 <= found <= 99:
            entry.locations = found
            entry.save(update_fields=["locations"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0008_roll_step_and_form_token"),
    ]

    operations = [
        migrations.AddField(
            model_name="ledgerentry",
            name="locations",
            field=models.PositiveSmallIntegerField(
                blank=True, null=True, verbose_name="Locations reconnoitred"
            ),
        ),
        migrations.RunPython(fill_from_rolls, migrations.RunPython.noop),
    ]
