"""Cherkassy Pocket's referee tables typed as JSON before the grids: each one that reads as a
grid (the shapes the app read, and the "columns/rows" shape the page described) is stored as
one, so the Referee tables page shows it in rows and columns; anything else is left as it was
(the page shows it and asks the referee to enter the table again)."""

from django.db import migrations


def to_grids(apps, schema_editor):
    from campaigns.shortgames.rules.cherkassy import grids

    table = apps.get_model("campaigns", "RefereeTable")
    for row in table.objects.filter(slot__in=list(grids.GRID_SLOTS)):
        if grids.grid_of(row.data) is not None:
            continue
        grid = grids.from_legacy(row.slot, row.data)
        if grid is not None:
            row.data = grid.data()
            row.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0022_fixc_sap_weather_keys")]

    operations = [migrations.RunPython(to_grids, migrations.RunPython.noop)]
