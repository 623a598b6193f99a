"""Ids tell nothing (issue 21): no page, partial, form or URL names a row of campaign data by
its database id, which counts up across the server and would let one side count and date the
other side's secret rows (RGs bought, rolls, OB lines, history events) made in between.

The persona walk's world (tests/url_world.py) is asked for every page, and the Soviet
player's pages are compared before and after a series of secret German actions.
"""

import difflib
import re
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client, override_settings
from django.utils import timezone

from campaigns.dice import services as dice
from campaigns.models import OrbatEntry
from campaigns.oid import OpaqueIdConverter, from_oid, oid
from campaigns.orbat import services as orbat
from refit.fortifications import services as fortifications
from refit.purchases import services as purchases
from refit.rules.fortification import FortificationOrder
from refit.rules.purchase_costs import Options
from refit.walker import services as walker
from tests.url_world import RG_PURCHASE_RULE, build_world, url_for, url_patterns

pytestmark = pytest.mark.django_db

PATTERNS = url_patterns()
# Numbers a URL may carry: the campaign's id (the campaign is no side's secret) and positions
# in public sequences (a calendar day, a perimeter marker or pocket).
NUMBERED = {"campaigns", "calendar", "day", "markers", "pockets"}
URL_ATTRIBUTE = re.compile(r'(?:href|action|hx-get|hx-post|hx-delete|hx-put)="([^"#?]*)')
# An element named after a number: a row's database id, unless it is one of these positions
# in public sequences (a calendar day, a step, a perimeter marker, a form's n-th line).
ROW_ID = re.compile(r'(?:id|for)="([A-Za-z_-]*?[-_]\d+)[_"]')
NUMBERED_IDS = re.compile(
    r"(?:day|index|turn|marker|pocket|reconstitution|hex|placement)[-_]\d+$"
    # the n-th line of a table's forms (the fortification table's items, the RG record's lines)
    r"|^id_(?:quantity|size|factors|capacity|ca|nca|unit|belt|trench|detonating|hexes|override"
    r"|note|observer)_\d+$"
)


# --- the token -------------------------------------------------------------------------------


def test_the_token_goes_back_to_its_id_and_tells_neither_id_nor_order():
    tokens = [oid(pk) for pk in range(1, 3001)]
    assert [from_oid(token) for token in tokens] == list(range(1, 3001))
    assert len(set(tokens)) == len(tokens)
    assert all(re.fullmatch(OpaqueIdConverter.regex, token) for token in tokens)
    # No order: about half of the neighbours compare the other way round.
    ups = sum(a < b for a, b in zip(tokens, tokens[1:], strict=False))
    assert 1200 < ups < 1800
    # No digit of the id shows through.
    assert not any(
        str(pk) in token for pk, token in zip(range(100, 3001), tokens[99:], strict=True)
    )


def test_the_token_depends_on_the_secret_key():
    with override_settings(SECRET_KEY="another-key-" + "x" * 40):
        other = oid(42)
        assert from_oid(other) == 42
    assert oid(42) != other
    with pytest.raises(ValueError):
        from_oid(other)


@pytest.mark.parametrize("token", ["", "42", "aaaaaaaaaaaaa", "zzzzzzzzzzzzz", "a" * 14, "!" * 13])
def test_anything_else_is_not_an_id(token):
    with pytest.raises(ValueError):
        from_oid(token)


@pytest.mark.parametrize("value", [0, -1, 1 << 48])
def test_only_database_ids_have_a_token(value):
    with pytest.raises(ValueError):
        oid(value)


# --- the pages ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def _client(world, who: str) -> Client:
    client = Client()
    client.force_login(world.people[who])
    return client


def _numbered_segments(url: str) -> list[str]:
    """The path segments of ``url`` that are numbers where no number belongs."""
    parts = [part for part in url.split("/") if part]
    return [
        f"{before}/{part}"
        for before, part in zip(["", *parts], parts, strict=False)
        if part.isdigit() and before not in NUMBERED
    ]


def _html_pages(world, who: str):
    """Every campaign page ``who`` may read, as (name, URL, HTML); a page of a side is asked for
    each side (url_for names the German side's; the Soviet's own pages are its Soviet twins)."""
    client = _client(world, who)
    for pattern in PATTERNS:
        if (
            pattern.name.startswith(("campaigns:game", "accounts", "password"))
            or "campaign_id" not in pattern.kwargs
        ):
            continue
        german = url_for(world, pattern)
        urls = {pattern.name: german}
        if "side" in pattern.kwargs and "/german/" in german:
            urls[f"{pattern.name} soviet"] = german.replace("/german/", "/soviet/")
        for name, url in urls.items():
            response = client.get(url)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                yield name, url, response.content.decode()


@pytest.mark.parametrize("who", ["german", "soviet", "referee", "observer"])
def test_no_page_names_a_row_by_its_database_id(world, who):
    pages = 0
    for name, url, html in _html_pages(world, who):
        pages += 1
        assert not _numbered_segments(url), (name, url)
        for link in URL_ATTRIBUTE.findall(html):
            assert not _numbered_segments(link), (name, who, link)
        numbered = [found for found in ROW_ID.findall(html) if not NUMBERED_IDS.search(found)]
        assert not numbered, (name, who, numbered[:5])
        # An OB line is checked by "<token>:<version>", never "<id>:<version>".
        assert not re.search(r'name="lines" value="\d+:', html), (name, who)
    assert pages > 15


def test_the_check_above_can_fail(world):
    """The same check finds an id in markup written the old way."""
    roll, campaign = world.roll.pk, world.rf.pk
    old = f'<tr id="roll-{roll}"><a href="/campaigns/{campaign}/dice/{roll}/void/">'
    assert ROW_ID.search(old)
    assert _numbered_segments(URL_ATTRIBUTE.findall(old)[0])


# A form's CSRF token is masked anew on every answer; a purchase form's token (one submit buys
# once) is new on every answer too.
CSRF = re.compile(r'name="(?:csrfmiddlewaretoken|token)" value="[^"]*"|"X-CSRFToken": "[^"]*"')
# A sheet's footer names the minute it was printed, which may turn between the two looks.
PRINTED_AT = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")


def _soviet_view(world) -> dict[str, str]:
    return {
        name: PRINTED_AT.sub("", CSRF.sub("", html))
        for name, _url, html in _html_pages(world, "soviet")
    }


def _german_acts(world) -> None:
    """A series of secret German actions: two RGs bought, a fortification, OB lines, rolls."""
    german, campaign = world.people["german"], world.rf
    reph = walker.open_reph(campaign)
    for rg in ("A6", "A2"):
        purchases.buy(campaign, "german", reph.index, rg, Options(), german)
    fortifications.buy(campaign, "german", reph.index, FortificationOrder("concealment"), german)
    orbat.add_units(campaign, by=german, side="german", box="retained", text="2 × 4-6-7; 9-1")
    for _roll in range(3):
        dice.roll(
            campaign,
            by=german,
            kind="dr",
            step=RG_PURCHASE_RULE,
            index=reph.index,
            side="german",
            visibility="german",
        )


def _soviet_acts(world) -> OrbatEntry:
    """The Soviet adds an OB line and makes a secret roll; returns the line."""
    soviet, campaign = world.people["soviet"], world.rf
    orbat.add_units(campaign, by=soviet, side="soviet", box="retained", text="3 × 4-4-7")
    with dice.use_roller(7):
        dice.roll(
            campaign,
            by=soviet,
            kind="dr",
            step=RG_PURCHASE_RULE,
            index=walker.open_reph(campaign).index,
            side="soviet",
            visibility="soviet",
        )
    return OrbatEntry.objects.filter(campaign=campaign, side="soviet").latest("pk")


def test_the_soviet_sees_no_difference_after_secret_german_actions(world):
    before = _soviet_view(world)
    _german_acts(world)
    after = _soviet_view(world)
    assert sorted(after) == sorted(before)
    assert not _differences(before, after)


def _differences(before: dict[str, str], after: dict[str, str]) -> dict[str, list[str]]:
    """The lines that differ, by page (a few per page, for the failure message)."""
    return {
        name: [
            line
            for line in difflib.unified_diff(
                before[name].splitlines(), after[name].splitlines(), lineterm="", n=0
            )
            if line[:1] in "+-" and line[:3] not in ("+++", "---")
        ][:6]
        for name in before
        if before[name] != after.get(name)
    }


TOKEN = re.compile(rf"(?<![a-z2-7]){OpaqueIdConverter.regex}(?![a-z2-7])")
# The live poll's change token (campaigns/live) is a keyed hash of the newest event the viewer
# may see: it differs between the two worlds as any new token does, and tells nothing either.
LIVE_TOKEN = re.compile(r'(data-token="|since=)[a-p]{24}')


def test_the_soviets_new_rows_do_not_bracket_the_german_ones(world):
    """The Soviet acts once in a world where the German did nothing meanwhile and once where
    he did: the Soviet's pages differ only in opaque tokens, though the database ids of the
    Soviet's new rows differ by the German rows made in between."""
    views, lines = [], []
    now = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=now):
        for german_acts_first in (False, True):
            with transaction.atomic():
                if german_acts_first:
                    _german_acts(world)
                lines.append(_soviet_acts(world))
                views.append(
                    {
                        name: LIVE_TOKEN.sub(r"\1<live>", TOKEN.sub("<oid>", html))
                        for name, html in _soviet_view(world).items()
                    }
                )
                transaction.set_rollback(True)
    assert lines[1].pk > lines[0].pk  # the ids alone would have told
    assert oid(lines[0].pk) != oid(lines[1].pk)
    assert not _differences(*views)
    # The line is on the Soviet's OB page, named only by its token.
    orbat_page = views[0]["campaigns:orbat soviet"]
    assert 'id="entry-<oid>"' in orbat_page
