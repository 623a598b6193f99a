"""A roll's words in the reader's language: the DRM reasons and what the roll booked are kept in
every language, so the referee reading Japanese sees Japanese where the German rolled in
English (and the other way round); a person's own words, and rolls from before, stay as written.
"""

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import DiceRoll
from campaigns.transfer import services as transfer
from tests.campaigns.dice.test_services import Loaded
from tests.refit.walker.test_roll_view import _walk_to_new_day
from tests.visible_text import visible_lines

pytestmark = pytest.mark.django_db

JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}


def _log(client, campaign, **headers):
    page = client.get(reverse("campaigns:dice_log", args=[campaign.pk]), **headers)
    return "\n".join(visible_lines(page.content.decode()))


@pytest.fixture
def rolled(campaign, people, client_as):
    """The German, reading English, rolls the CPP replenishment with a DRM of his own."""
    reph = _walk_to_new_day(campaign, people)
    url = reverse("refit:roll", args=[campaign.pk, "german", "11.616"])
    with dice.use_roller(Loaded(4, 6)):
        client_as("german").post(
            url,
            {"reph": reph.pk, "table": "rf.cpp-replenishment", "drm": "1", "reason": "Kaffee"},
        )
    return DiceRoll.objects.get(campaign=campaign, table_id="rf.cpp-replenishment")


def test_the_roll_keeps_its_words_in_every_language(rolled):
    historical = next(m for m in rolled.modifiers if m.get("id") == "historical")
    assert historical["reason"] == "Historical DRM (11.6161)"  # the roller's language
    assert historical["words"] == {"en": "Historical DRM (11.6161)", "ja": "史的DRM (11.6161)"}
    own = next(m for m in rolled.modifiers if m["reason"] == "Kaffee")
    assert "words" not in own  # a person's words are theirs
    assert rolled.note == "14 CPP booked as this day's replenishment."
    assert rolled.note_words["ja"] == "この日の補充として 14 CPP を記帳しました。"


def test_the_referee_reads_the_germans_roll_in_japanese(campaign, rolled, client_as):
    japanese = _log(client_as("referee"), campaign, **JA)
    assert "史的DRM (11.6161)" in japanese
    assert "この日の補充として 14 CPP を記帳しました。" in japanese
    assert "Kaffee" in japanese
    assert "Historical DRM" not in japanese and "booked as this day" not in japanese
    assert "CPP: 14" in japanese  # the result {"cpp": 14} in words, not "cpp"
    english = _log(client_as("german"), campaign)
    assert "Historical DRM (11.6161)" in english and "史的" not in english


def test_a_roll_made_in_japanese_reads_in_english_for_an_english_reader(
    campaign, people, client_as
):
    reph = _walk_to_new_day(campaign, people)
    people["german"].language = "ja"
    people["german"].save()
    with dice.use_roller(Loaded(4, 6)):
        client_as("german").post(
            reverse("refit:roll", args=[campaign.pk, "german", "11.616"]),
            {"reph": reph.pk, "table": "rf.cpp-replenishment"},
        )
    roll = DiceRoll.objects.get(campaign=campaign, table_id="rf.cpp-replenishment")
    assert roll.note.startswith("この日の補充として")
    english = _log(client_as("referee"), campaign)
    assert "Historical DRM (11.6161)" in english
    assert "CPP booked as this day's replenishment." in english
    assert "史的" not in english and "この日" not in english
    step = client_as("referee").get(reverse("refit:step", args=[campaign.pk, "german", "11.616"]))
    assert "Historical DRM (11.6161)" in step.content.decode()


def test_a_roll_from_before_shows_what_it_stored(campaign, rolled, client_as):
    for modifier in rolled.modifiers:
        modifier.pop("words", None)
    DiceRoll.objects.filter(pk=rolled.pk).update(modifiers=rolled.modifiers, note_words={})
    japanese = _log(client_as("referee"), campaign, **JA)
    assert "Historical DRM (11.6161)" in japanese
    assert "14 CPP booked as this day's replenishment." in japanese


def test_the_words_travel_in_the_export(campaign, rolled, people):
    data = transfer.build_export(viewer_for(people["referee"], campaign.pk))
    (row,) = [r for r in data["dice_rolls"] if r["table_id"] == "rf.cpp-replenishment"]
    assert row["note_words"] == rolled.note_words
    copy = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["referee"]
    )
    again = DiceRoll.objects.get(campaign=copy, table_id="rf.cpp-replenishment")
    assert again.note_words == rolled.note_words
    assert again.modifiers == rolled.modifiers
    # A file from before the key reads as before.
    del row["note_words"]
    older = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["referee"]
    )
    assert DiceRoll.objects.get(campaign=older, table_id=row["table_id"]).note_words == {}


def test_a_file_with_bad_note_words_is_refused(campaign, rolled, people):
    data = transfer.build_export(viewer_for(people["referee"], campaign.pk))
    (row,) = [r for r in data["dice_rolls"] if r["table_id"] == "rf.cpp-replenishment"]
    row["note_words"] = {"de": "Kaffee"}
    with pytest.raises(transfer.ImportRefused, match="note_words"):
        transfer.load(transfer.parse_export(transfer.dumps(data).encode()), user=people["referee"])
