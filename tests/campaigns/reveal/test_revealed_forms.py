"""A revealed campaign shows no form it would refuse (issue 22): every page of the revealed
campaign, for each member, is read and every POST form on it is sent as the page fills it. None
may answer 403 ("This campaign is revealed: it is read-only now, except for notes"). The forms
that still work — notes, the members page, the language, signing out — are sent too where
harmless, or left out where sending them would change who is a member."""

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils import timezone

from campaigns.models import Campaign, RefitPhase
from tests.test_url_personas import CLIENTS, EXPECTED, PATTERNS
from tests.url_world import build_world, url_for

pytestmark = pytest.mark.django_db

# Forms that change who is a member or sign the client out: they work after the reveal (a
# revealed campaign still takes members), but sending them would change the walk itself.
NOT_SENT = {
    "campaigns:leave",
    "campaigns:member_remove",
    "campaigns:member_role",
    "campaigns:member_decline",
    "campaigns:invitation_create",
    "campaigns:invitation_revoke",
    "logout",
    "accounts:logout",
}


class Forms(HTMLParser):
    """The POST forms of a page: (action, [(name, value)]) as a browser would send them."""

    def __init__(self, page_url: str) -> None:
        super().__init__()
        self.page_url = page_url
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._form: tuple[str, list[tuple[str, str]]] | None = None
        self._select: str | None = None
        self._select_value: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            if (a.get("method") or "get").lower() == "post":
                self._form = (a.get("action") or self.page_url, [])
            return
        if self._form is None:
            return
        fields = self._form[1]
        if tag == "input" and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind in ("submit", "image", "button", "file"):
                return
            fields.append((a["name"], a.get("value") or ""))
        elif tag == "select" and a.get("name"):
            self._select, self._select_value = a["name"], None
        elif tag == "option" and self._select is not None:
            if self._select_value is None or "selected" in a:
                self._select_value = a.get("value") or ""
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            fields.append((a["name"], ""))
        elif (
            tag == "button"
            and a.get("name")
            and (a.get("type") or "submit") == "submit"
            and not any(name == a["name"] for name, _v in fields)
        ):
            # The first submit button's value is sent (a browser sends the one clicked).
            fields.append((a["name"], a.get("value") or ""))

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None and self._form is not None:
            self._form[1].append((self._select, self._select_value or ""))
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None


def forms_of(url: str, html: str) -> list[tuple[str, list[tuple[str, str]]]]:
    parser = Forms(url)
    parser.feed(html)
    return parser.forms


def _name(action: str) -> str:
    try:
        match = resolve(urlsplit(action).path)
    except Resolver404:
        return ""
    return f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name


@pytest.fixture(scope="module")
def revealed_world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        world = build_world()
        RefitPhase.objects.filter(campaign=world.rf).update(finished_at=timezone.now())
        # The short games too: revealed on their last turn.
        for game in (world.cp, world.dr):
            Campaign.objects.filter(pk=game.pk).update(period_index=len(game.cg.periods) - 1)
        Campaign.objects.filter(pk__in=[world.rf.pk, world.cp.pk, world.dr.pk]).update(
            revealed_at=timezone.now()
        )
        for game in (world.rf, world.cp, world.dr):
            game.refresh_from_db()
        yield world
        transaction.set_rollback(True)


def pages(world, who):
    column = CLIENTS.index(who)
    for pattern in PATTERNS:
        if not pattern.name or "campaign_id" not in pattern.route:
            continue
        if EXPECTED.get((pattern.name, "GET"), ("",) * len(CLIENTS))[column] != "200":
            continue
        yield url_for(world, pattern)  # the RF campaign's, or a short game's, all revealed


@pytest.mark.parametrize("who", ["german", "soviet", "referee", "observer"])
def test_a_revealed_campaign_shows_no_form_it_would_refuse(revealed_world, who):
    client = Client()
    client.force_login(revealed_world.people[who])
    refused, sent = [], 0
    for url in pages(revealed_world, who):
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for action, fields in forms_of(url, response.content.decode()):
            if _name(action) in NOT_SENT or not urlsplit(action).path.startswith("/"):
                continue
            answer = client.post(action, dict(fields))
            sent += 1
            if answer.status_code == 403:
                refused.append(f"{url} → {action} ({_name(action)})")
    assert not refused, "\n".join(sorted(set(refused)))
    assert sent > 0  # the notes and the language forms at least


def test_the_walker_finds_the_forms_it_sends():
    html = (
        '<form method="post" action="/a/"><input name="x" value="1">'
        '<select name="s"><option value="p">P</option><option value="q" selected>Q</option>'
        '</select><button name="go" value="yes">Go</button></form>'
        '<form method="get" action="/b/"><input name="y"></form>'
    )
    assert forms_of("/page/", html) == [("/a/", [("x", "1"), ("s", "q"), ("go", "yes")])]
