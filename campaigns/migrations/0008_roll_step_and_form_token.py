"""A roll's turn step and form token get their own columns, out of the note.

The short games wrote a step table's roll as "<step id>: <note>" and the combat helpers put the
page's token in brackets inside the note; the data step moves both out and leaves the words a
person reads (campaigns.dice.legacy_notes, which the import of older files uses too). Undoing
the migration writes them back into the note.
"""

from django.conf import settings
from django.db import migrations, models

from campaigns.dice.legacy_notes import RollNote, legacy_note, split_legacy_note, turn_step_ids

BATCH = 500


def _turn_steps(module_key):
    # Game data, not the database: the step ids a short game's notes could start with.
    from campaigns.games.registry import get_module

    try:
        return turn_step_ids(get_module(module_key).files.get("turn_sequence"))
    except KeyError:  # a module this installation no longer has: leave its notes alone
        return frozenset()


def _rewrite(apps, convert, *, short_games_only):
    DiceRoll = apps.get_model("campaigns", "DiceRoll")
    Campaign = apps.get_model("campaigns", "Campaign")
    changed = []
    for campaign_id, module_key in Campaign.objects.values_list("id", "module"):
        turn_steps = _turn_steps(module_key)
        if short_games_only and not turn_steps:
            continue  # only a short game wrote either value into notes
        for roll in DiceRoll.objects.filter(campaign_id=campaign_id).iterator(chunk_size=BATCH):
            if convert(roll, turn_steps):
                changed.append(roll)
            if len(changed) >= BATCH:
                DiceRoll.objects.bulk_update(changed, ["note", "sequence_step", "form_token"])
                changed = []
    if changed:
        DiceRoll.objects.bulk_update(changed, ["note", "sequence_step", "form_token"])


def _move_out_of_notes(roll, turn_steps):
    split = split_legacy_note(
        roll.note, step=roll.step, table_id=roll.table_id, turn_steps=turn_steps
    )
    if split == RollNote(roll.note):
        return False
    roll.note, roll.sequence_step, roll.form_token = split.note, split.sequence_step, split.form_token
    return True


def _move_back_into_notes(roll, turn_steps):
    if not roll.sequence_step and not roll.form_token:
        return False
    roll.note = legacy_note(
        RollNote(roll.note, sequence_step=roll.sequence_step, form_token=roll.form_token),
        step=roll.step,
    )
    roll.sequence_step = roll.form_token = ""
    return True


def forwards(apps, schema_editor):
    _rewrite(apps, _move_out_of_notes, short_games_only=True)


def backwards(apps, schema_editor):
    _rewrite(apps, _move_back_into_notes, short_games_only=False)


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0007_short_games'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='diceroll',
            name='form_token',
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.AddField(
            model_name='diceroll',
            name='sequence_step',
            field=models.CharField(blank=True, max_length=60, verbose_name='turn step'),
        ),
        migrations.AddIndex(
            model_name='diceroll',
            index=models.Index(fields=['campaign', 'index', 'sequence_step'], name='campaigns_d_campaig_1e08dd_idx'),
        ),
        migrations.AddIndex(
            model_name='diceroll',
            index=models.Index(fields=['campaign', 'form_token'], name='campaigns_d_campaig_b18c7a_idx'),
        ),
        migrations.RunPython(forwards, backwards),
    ]
