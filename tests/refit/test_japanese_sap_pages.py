"""Slaughter at Ponyri's pages in Japanese (tests/visible_text.py's checker, as
tests/test_japanese_pages.py walks Red Barricades'): the Refit Phase with every step page,
the calendar, rosters, OBs, ledgers, arrivals, the Armor Reserve and the history, read by
the German and the Soviet player after the armor leaders were rolled and the first time
frame's arrivals joined. Words the app writes from game data ("8-1 armor leader"), the
weathers the SSRs fix ("Overcast", "Moderate") and time frames ("7 July AM") read in Japanese.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.games import step_engine
from refit.reserve import leaders
from tests.campaigns.dice.test_services import Loaded
from tests.refit.walker.test_arrivals import walk_to
from tests.visible_text import leaks, visible_lines

pytestmark = pytest.mark.django_db

# Single English words the checker lets pass (it looks for two in a row) but a reader saw.
WORDS = re.compile(r"\b(?:July|AM|PM|Moderate|Overcast|Recon|Ammo|Shock|armor leader)\b")
SIDES = (("german", "german"), ("soviet", "russian"))


def _client(people, who):
    user = people[who]
    user.language = "ja"
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def _urls(campaign, side):
    steps = step_engine.main_steps(campaign.game.files["refit_steps"])
    return [
        reverse("refit:overview", args=[campaign.pk]),
        *(reverse("refit:step", args=[campaign.pk, side, step.rule]) for step, _raw in steps),
        reverse("campaigns:calendar", args=[campaign.pk]),
        reverse("campaigns:roster", args=[campaign.pk, side]),
        reverse("campaigns:orbat", args=[campaign.pk, side]),
        reverse("campaigns:ledger", args=[campaign.pk, side]),
        reverse("campaigns:history", args=[campaign.pk]),
        reverse("refit:arrivals", args=[campaign.pk, side]),
        *([reverse("reserve:page", args=[campaign.pk])] if side == "german" else []),
    ]


def test_slaughter_at_ponyri_pages_read_in_japanese(sap_campaign, people):
    with dice.use_roller(Loaded(*([2, 3] * 19))):
        leaders.roll_all(sap_campaign, "german", by=people["german"])
    with dice.use_roller(Loaded(*([2, 2] * 27))):
        leaders.roll_all(sap_campaign, "russian", by=people["soviet"])
    walk_to(sap_campaign, people, 2)
    typed = (sap_campaign.name, "walked past in a test", *people)
    found = {}
    for who, side in SIDES:
        client = _client(people, who)
        for url in _urls(sap_campaign, side):
            response = client.get(url)
            assert response.status_code == 200, url
            lines = visible_lines(response.content.decode())
            bad = leaks(lines, usernames=typed)
            bad += [line for line in lines if WORDS.search(line) and line not in bad]
            if bad:
                found[f"{who} {url}"] = bad
    assert found == {}


def _sheet_lines(sheet):
    """Every text a printed sheet shows: title, facts, table titles, headings, cells, notes."""
    lines = [sheet.title, *sheet.notes]
    lines += [f"{fact.label} {fact.value}" for fact in sheet.facts]
    for table in sheet.tables:
        lines += [table.title or "", *(col.heading for col in table.columns)]
        lines += [cell for row in table.rows for cell in row.cells]
    return [line for line in lines if line]


def test_slaughter_at_ponyri_sheets_read_in_japanese(sap_campaign, people):
    """The printed sheets after the time frames' arrivals (9 July AM: the Russian's dug-in
    T-34s placed, the German's AFVs awaiting entry; the armor leaders with them), in Japanese:
    the OB divider's unit names the app wrote and its statuses, and every other sheet."""
    from campaigns.access import viewer_for
    from refit.walker import arrivals
    from rosters.builders import KINDS, build_sheet

    with dice.use_roller(Loaded(*([2, 3] * 19))):
        leaders.roll_all(sap_campaign, "german", by=people["german"])
    with dice.use_roller(Loaded(*([2, 2] * 27))):
        leaders.roll_all(sap_campaign, "russian", by=people["soviet"])
    walk_to(sap_campaign, people, 4)
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    typed = (sap_campaign.name, "walked past in a test", *people)
    found = {}
    for who, side in SIDES:
        for slug in KINDS:
            sheet = build_sheet(viewer_for(people[who], sap_campaign.pk), side, slug, "ja")
            lines = _sheet_lines(sheet)
            bad = leaks(lines, usernames=typed)
            bad += [line for line in lines if WORDS.search(line) and line not in bad]
            if bad:
                found[f"{who} {slug}"] = bad
    assert found == {}


def test_9_july_pages_read_in_japanese(sap_campaign, people):
    """9 July AM's arrivals (the dug-in T-34 M41s and their LMG placed, the German's AFVs
    awaiting entry, 8 July PM's Stavka armor removed) on the arrivals, OB, history and Armor
    Reserve pages, then 9 July PM's (CG-5.2's joiners), in Japanese."""
    from refit.walker import arrivals

    walk_to(sap_campaign, people, 4)
    arrivals.place(sap_campaign, "russian", by=people["soviet"])
    typed = (sap_campaign.name, "walked past in a test", *people)
    found = {}
    for who, side in SIDES:
        client = _client(people, who)
        urls = [
            reverse("refit:arrivals", args=[sap_campaign.pk, side]),
            reverse("campaigns:orbat", args=[sap_campaign.pk, side]),
            reverse("campaigns:history", args=[sap_campaign.pk]),  # the Stavka's removal
            *([reverse("reserve:page", args=[sap_campaign.pk])] if side == "german" else []),
        ]
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            lines = visible_lines(response.content.decode())
            bad = leaks(lines, usernames=typed)
            bad += [line for line in lines if WORDS.search(line) and line not in bad]
            if bad:
                found[f"{who} {url}"] = bad
    # 9 July PM: CG-5.2's joiners in the reserve and the history, the Russian's I2s arriving.
    walk_to(sap_campaign, people, 5)
    for who, url in (
        ("german", reverse("reserve:page", args=[sap_campaign.pk])),
        ("german", reverse("campaigns:history", args=[sap_campaign.pk])),
        ("soviet", reverse("refit:arrivals", args=[sap_campaign.pk, "russian"])),
    ):
        lines = visible_lines(_client(people, who).get(url).content.decode())
        bad = leaks(lines, usernames=typed)
        bad += [line for line in lines if WORDS.search(line) and line not in bad]
        if bad:
            found[f"{who} {url}"] = bad
    assert found == {}
