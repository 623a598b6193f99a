"""Every page in Japanese: no English sentence, raw key, table id or developer note reaches a
reader who chose Japanese.

Every GET URL of the app (tests/url_world.py, the same objects the persona walk uses: a Red
Barricades campaign, a Cherkassy Pocket and a Defiant Russia game) is read by the German player
and by the referee with Japanese chosen, plus the short games' own campaign pages. The words
people typed (names, notes) and proper names (games, scenarios, units as printed, time zones)
are theirs and stay; anything else in English fails (tests/visible_text.py says what counts).
"""

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaigns.games.registry import all_modules
from campaigns.games.views import game_tabs
from tests.url_world import GERMAN_SECRET, World, build_world, url_for, url_patterns
from tests.visible_text import leaks, visible_lines

pytestmark = pytest.mark.django_db

# The game browser is walked below, every game and every tab (the persona walk reads one).
GAME_BROWSER = {"campaigns:games", "campaigns:game", "campaigns:game_section"}
# Not pages: files, redirects, the language switch, the live poll (a hidden element, no words).
NOT_PAGES = {
    "manifest",
    "logout",
    "set_language",
    "campaigns:export",
    "campaigns:live",
    "rosters:pdf",
    "rosters:perimeter_map",
}
# What the world's people typed, and names printed on counters: theirs, in their words.
TYPED = (
    GERMAN_SECRET,
    "Into the Factory, club night",
    "I/105",
    "72 ID",
    "XXXIX Pz",
)
READERS = ("german", "referee")


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def _urls(world: World) -> list[str]:
    urls = [
        url_for(world, pattern)
        for pattern in url_patterns()
        if pattern.name
        and pattern.name not in NOT_PAGES | GAME_BROWSER
        and "password_reset" not in pattern.name
    ]
    # The short games' campaign pages (the walk above uses Red Barricades' for these).
    for campaign in (world.cp, world.dr):
        for name in ("detail", "history", "dice_log", "calendar", "members"):
            urls.append(reverse(f"campaigns:{name}", args=[campaign.pk]))
    return sorted(set(urls) | set(_game_browser_urls()))


def _game_browser_urls() -> list[str]:
    """The list of games, and every game's every tab (the "Other data" tabs included: every
    field of every data file is named in campaigns/games/data_words.py)."""
    urls = [reverse("campaigns:games")]
    for module in all_modules():
        for section, _label in game_tabs(module):
            if section == "overview":
                urls.append(reverse("campaigns:game", args=[module.key]))
            else:
                urls.append(reverse("campaigns:game_section", args=[module.key, section]))
    return urls


def _japanese_client(world: World, who: str) -> Client:
    user = world.people[who]
    user.language = "ja"
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def _typed(world: World) -> tuple[str, ...]:
    names = tuple(c.name for c in (world.rf, world.cp, world.dr))
    return (*TYPED, *names, *world.people)


@pytest.mark.parametrize("who", READERS)
def test_no_page_speaks_english_to_a_japanese_reader(world, who):
    client = _japanese_client(world, who)
    found: dict[str, list[str]] = {}
    read = 0
    for url in _urls(world):
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        read += 1
        page = response.content.decode()
        assert '<html lang="ja">' in page, url
        lines = leaks(visible_lines(page), usernames=_typed(world))
        if lines:
            found[url] = lines
    assert read > 40  # the walk reads the app's pages, not a handful of redirects
    report = [f"{url}: {line}" for url, lines in found.items() for line in lines]
    assert found == {}, "\n".join(report)


def test_the_check_finds_english_raw_keys_and_developer_notes():
    page = """<html lang="ja"><body><main>
      <p>ドイツ軍 CG記録表</p><td>5 × Fortified Building Location</td><td>no change</td>
      <td>elr_change</td><span>(rf.san-adjustment, dr)</span>
      <li>read turns[].historical_weather</li>
      <li>レフェリーが入力します</li><li>審判が入力します</li>
      <td>史的DRM (11.6161)</td><td>9-1 指揮官</td><td>Red Factories</td><td>Asia/Tokyo</td>
      <button aria-label="Edit the line">編集</button><script>var no_change = 1;</script>
    </main></body></html>"""
    assert sorted(leaks(visible_lines(page))) == sorted(
        [
            "5 × Fortified Building Location",
            "no change",
            "elr_change",
            "(rf.san-adjustment, dr)",
            "read turns[].historical_weather",
            "レフェリーが入力します",
            "Edit the line",
        ]
    )


def _pdf_lines(content: bytes) -> list[str]:
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(content))
    return [
        " ".join(line.split())
        for page in reader.pages
        for line in page.extract_text(extraction_mode="layout").splitlines()
        if line.strip()
    ]


def test_no_pdf_speaks_english_to_a_japanese_reader(world):
    """Every PDF a page links (the sheets of both sides, the report, the perimeter map, the
    short games' status sheets), as the referee, who may print them all, in Japanese."""
    import re

    client = _japanese_client(world, "referee")
    pdfs = set()
    for url in _urls(world):
        response = client.get(url)
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            pdfs |= set(re.findall(r'href="([^"]+\.pdf(?:\?[^"]*)?)"', response.content.decode()))
    found = {}
    read = 0
    for url in sorted(pdfs):
        url = url.replace("&amp;", "&")
        response = client.get(url)
        if response.status_code != 200 or response["Content-Type"] != "application/pdf":
            continue
        read += 1
        lines = leaks(_pdf_lines(response.content), usernames=_typed(world))
        if lines:
            found[url] = lines
    assert read >= 5  # the sheets, the report and the status sheets, not a handful
    report = [f"{url}: {line}" for url, lines in found.items() for line in lines]
    assert found == {}, "\n".join(report)
