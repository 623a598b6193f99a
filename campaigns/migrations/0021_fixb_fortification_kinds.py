"""SaP's initial OB lines the data calls fortifications (CG16 Fanatic Strongpoints, CG17 Hidden
Mine Belts) were stored as a vehicle or gun / "other": at a scenario's end they were offered a
wreck, immobilized, abandoned or captured. They are fortifications (only ever eliminated)."""

from django.db import migrations

PREFIXES = ("Fanatic Strongpoint (SSR CG16)", "Hidden Mine Belt (SSR CG17)")


def forwards(apps, schema_editor):
    OrbatEntry = apps.get_model("campaigns", "OrbatEntry")
    for prefix in PREFIXES:
        OrbatEntry.objects.filter(
            campaign__module="slaughter_at_ponyri", unit_type__startswith=prefix
        ).exclude(kind="fortification").update(kind="fortification")


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0020_words_roll_note_words"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
