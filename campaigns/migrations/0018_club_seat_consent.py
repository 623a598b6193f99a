from django.db import migrations, models


def seated_when_joined(apps, schema_editor):
    Membership = apps.get_model("campaigns", "Membership")
    Membership.objects.filter(seated_at__isnull=True).update(seated_at=models.F("joined_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0017_perf_event_step_columns"),
    ]

    operations = [
        migrations.AddField(
            model_name="membership",
            name="seated_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="in this role since"),
        ),
        migrations.AddField(
            model_name="membership",
            name="requested_role",
            field=models.CharField(blank=True, max_length=10, verbose_name="role asked for"),
        ),
        migrations.AddField(
            model_name="membership",
            name="requested_side",
            field=models.CharField(blank=True, max_length=20, verbose_name="side asked for"),
        ),
        migrations.AddField(
            model_name="membership",
            name="requested_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="asked at"),
        ),
        migrations.AddField(
            model_name="membership",
            name="consents",
            field=models.JSONField(blank=True, default=dict, verbose_name="consents"),
        ),
        migrations.RunPython(seated_when_joined, migrations.RunPython.noop),
    ]
