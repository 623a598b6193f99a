# ruff: noqa: E501 -- the notices are matched whole, as the templates write them
"""The secrecy notices after the reveal (issue 22): once a campaign is revealed every member sees
both sides, so no page may still say "only this side (and the referee) see it" — with a referee
or without one, in English and in Japanese, for the German player, the Soviet player, the
referee and an observer (an outsider gets nothing at all: test_revealed_walk). Before the reveal
the same notices are on the pages, which is what makes this walk able to fail."""

import html

import pytest
from django.test import Client
from django.utils import timezone, translation

from campaigns.models import Campaign, Membership, RefitPhase, Role
from tests.test_url_personas import CLIENTS, EXPECTED, PATTERNS
from tests.url_world import build_world, url_for

pytestmark = pytest.mark.django_db

# Every notice that says who alone sees something (templates and the dice log's labels), with a
# referee and without one. "%(side)s" is the side's name in the reader's language.
ONLY_WITH_SIDE = (
    "What is bought here, its cost and its rolls are seen by the %(side)s side and the referee only.",
    "What is bought here, its cost and its rolls are seen by the %(side)s side only.",
    "What is bought here, its cost and where it is set up are seen by the %(side)s side and the referee only.",
    "What is bought here, its cost and where it is set up are seen by the %(side)s side only.",
    "The %(side)s order of battle is seen by that side and the referee only.",
    "The %(side)s order of battle is seen by that side only.",
    "Its marks and rolls are seen by the %(side)s side and the referee only.",
    "Its marks and rolls are seen by the %(side)s side only.",
    "A secret roll: the %(side)s side and the referee see it.",
    "A secret roll: only the %(side)s side sees it.",
    "Seen by the %(side)s side and the referee only.",
    "Seen by the %(side)s side only.",
    "%(side)s only",
)  # fmt: skip
ONLY = (
    "The Chapter O divider (11.15): what this side has in each box. Only this side and the referee see it.",
    "The Chapter O divider (11.15): what this side has in each box. Only this side sees it.",
    "Secret: only this side's players and the referee see these ledgers. Entries are never edited: undo a mistake from the history page, or ask the referee for an adjustment.",
    "Secret: only this side's players see these ledgers. Entries are never edited: undo a mistake from the history page.",
    "Secret: only this side's players and the referee see this roster. CPP and FPP columns are worked out from the ledger; record movements there.",
    "Secret: only this side's players see this roster. CPP and FPP columns are worked out from the ledger; record movements there.",
    "The German Armor Reserve is part of the German order of battle: the German side and the referee see it.",
    "The German Armor Reserve is part of the German order of battle: only the German side sees it.",
    "Secret steps are shown to that side and the referee only.",
    "Secret steps are shown to that side only.",
    "Each sheet as a PDF, or as a page to print from the browser. A side's sheets show its secrets: only its players and the referee get them. Blank forms carry only what the rules print, for every member.",
    "referee only",
)  # fmt: skip
REVEALED = "The campaign is revealed: every member sees this now."


def _notices(campaign: Campaign, language: str) -> set[str]:
    with translation.override(language):
        words = {translation.gettext(text) for text in ONLY}
        for side in campaign.sides:
            name = {"side": side.name.in_language(language)}
            words |= {translation.gettext(text) % name for text in ONLY_WITH_SIDE}
    return words


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def _urls(world) -> list[str]:
    referee = CLIENTS.index("referee")
    urls = []
    for pattern in PATTERNS:
        if not pattern.name or "campaign_id" not in pattern.route:
            continue
        if EXPECTED.get((pattern.name, "GET"), ("",) * len(CLIENTS))[referee] != "200":
            continue
        url = url_for(world, pattern)
        if f"/{world.rf.pk}/" in url:
            urls.append(url)
    return urls


def _client(world, who: str, language: str) -> Client:
    user = world.people[who]
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def _found(world, who: str, language: str) -> dict[str, set[str]]:
    """Each page's "only … see it" notices, as ``who`` reads the pages in ``language``."""
    client = _client(world, who, language)
    notices = _notices(world.rf, language)
    found: dict[str, set[str]] = {}
    read = 0
    for url in _urls(world):
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        read += 1
        page = html.unescape(response.content.decode())
        hits = {notice for notice in notices if notice in page}
        if hits:
            found[url] = hits
    assert read > 20
    return found


def _reveal(world) -> None:
    RefitPhase.objects.filter(campaign=world.rf).update(finished_at=timezone.now())
    Campaign.objects.filter(pk=world.rf.pk).update(revealed_at=timezone.now())


@pytest.mark.parametrize("language", ["en", "ja"])
def test_before_the_reveal_the_pages_say_who_alone_sees(world, language):
    found = _found(world, "german", language)
    shown = set().union(*found.values())
    # The roster, the ledger, the purchases, the fortifications, a secret step and its secret
    # roll, the dice log's labels, the sheets: the walk meets the notices it looks for.
    assert len(shown) >= 6, shown


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("who", ["german", "soviet", "referee", "observer"])
def test_after_the_reveal_no_page_says_only_a_side_sees(world, who, language):
    _reveal(world)
    assert _found(world, who, language) == {}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("who", ["german", "soviet", "observer"])
def test_without_a_referee_no_page_names_the_side_alone_after_the_reveal(world, who, language):
    assert _found(world, "german", language), "the walk meets the side-alone notices"
    Membership.objects.filter(campaign=world.rf, role=Role.REFEREE).delete()
    _reveal(world)
    assert _found(world, who, language) == {}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_revealed_pages_say_every_member_sees_them(world, language):
    from django.urls import reverse

    _reveal(world)
    client = _client(world, "soviet", language)
    with translation.override(language):
        revealed = translation.gettext(REVEALED)
    for name in ("campaigns:ledger", "campaigns:roster", "purchases:page"):
        page = html.unescape(
            client.get(reverse(name, args=[world.rf.pk, "german"])).content.decode()
        )
        assert revealed in page, name


def test_every_template_notice_of_who_alone_sees_has_its_revealed_words():
    """The pages the walk does not reach (SaP's armor reserve and arrivals, an escape's OB, a
    secret roll's table on an open step): each notice stands beside its revealed variant."""
    from pathlib import Path

    from django.conf import settings

    notices = [text.replace("%(side)s", "{{ side }}") for text in ONLY + ONLY_WITH_SIDE]
    notices = [text for text in notices if text not in ("{{ side }} only", "referee only")]
    missing, seen = [], 0
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in Path(folder).rglob("*.html"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if any(text in line for text in notices):
                    seen += 1
                    if "viewer.is_revealed" not in line:
                        missing.append(f"{path.name}:{number}")
    assert seen >= 12
    assert not missing, missing
