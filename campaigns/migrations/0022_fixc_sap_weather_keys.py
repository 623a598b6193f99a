"""Slaughter at Ponyri's calendar: the weathers and ECs its SSRs fixed (and words typed that
name one) were stored as English words ("Overcast", "Moderate"); they are stored by key now
(campaigns/games/slaughter_at_ponyri/weather.json), like Red Factories'. Other words stay as
typed. Backwards: the keys become the English words again."""

from django.db import migrations

from campaigns.games.weather import key_of

SAP = "slaughter_at_ponyri"
# The types as weather.json names them (frozen here: a migration must not follow later data).
WEATHERS = (
    {"key": "mist", "name": {"en": "Mist", "ja": "霞"}},
    {"key": "overcast", "name": {"en": "Overcast", "ja": "曇天"}},
    {"key": "clear", "name": {"en": "Clear", "ja": "晴天"}},
    {"key": "clear_gusty", "name": {"en": "Clear & Gusty", "ja": "突風性の晴天"}},
)
ECS = (
    {"key": "wet", "name": {"en": "Wet", "ja": "多湿"}},
    {"key": "moist", "name": {"en": "Moist", "ja": "湿潤"}},
    {"key": "moderate", "name": {"en": "Moderate", "ja": "普通"}},
    {"key": "dry", "name": {"en": "Dry", "ja": "乾燥"}},
)


def _convert(apps, to_key: bool) -> None:
    CampaignDay = apps.get_model("campaigns", "CampaignDay")
    for day in CampaignDay.objects.filter(campaign__module=SAP).iterator():
        changed = []
        for field, types in (("weather", WEATHERS), ("ec", ECS)):
            value = getattr(day, field)
            if to_key:
                new = key_of(types, value) or value
            else:
                kind = next((t for t in types if t["key"] == value), None)
                new = kind["name"]["en"] if kind else value
            if new != value:
                setattr(day, field, new)
                changed.append(field)
        if changed:
            day.save(update_fields=changed)


def forwards(apps, schema_editor):
    _convert(apps, to_key=True)


def backwards(apps, schema_editor):
    _convert(apps, to_key=False)


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0021_fixb_fortification_kinds")]

    operations = [migrations.RunPython(forwards, backwards)]
