"""The main pages of the app as each persona opens them, for the phone-width and axe checks.

Built on the persona URL walk (tests/url_world.py, tests/test_url_personas.py): every URL
pattern whose GET answers 200 to a persona is one of that persona's pages, so a page added
later is measured without a change here. The world's objects give the RB CG I, Cherkassy
Pocket and Defiant Russia pages; the demo campaigns (RF, SaP, DR, CP, with a few days of
history: `manage.py demo`) give the same pages again with full tables.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from refit.management.commands.demo import DEMO_CAMPAIGNS
from tests.test_url_personas import CLIENTS, EXPECTED, PATTERNS
from tests.url_world import World, build_world, url_for

# The URL arguments a demo campaign's page is reached with (the rest need the world's objects).
DEMO_KWARGS = {"campaign_id", "side", "index"}
# Pages that are not pages: files, the manifest, sheets a browser only prints, the live poll (a
# hidden element other pages fetch).
NOT_PAGES = {
    "manifest",
    "rosters:pdf",
    "report:pdf",
    "campaigns:export",
    "shortgames:units_file",
    "shortgames:tables_file",
    "campaigns:live",
}
# SaP-only pages: the world's campaign (RB CG I) answers 404 to them, so the demo's SaP campaign
# gives them, to the personas seated on it (the German and the Soviet, who plays the Russians):
# the side's arrivals page, and the German Armor Reserve (German side only).
SAP = "slaughter_at_ponyri"
# Pages every game has, visited in the short games' demo campaigns too (their own sections).
EVERY_GAME = {"report:page"}
SAP_PAGES = {"refit:arrivals": {"german", "russian"}, "reserve:page": {"german"}}


@dataclass(frozen=True)
class Visit:
    who: str
    name: str  # the URL pattern's name
    url: str


def build() -> tuple[World, list[Campaign]]:
    world = build_world()
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 (closed at exit)
    demo = list(Campaign.objects.filter(name__in=[spec["name"] for spec in DEMO_CAMPAIGNS]))
    assert len(demo) == len(DEMO_CAMPAIGNS)
    return world, demo


def _answers_200(name: str, who: str) -> bool:
    row = EXPECTED.get((name, "GET"))
    return bool(row) and row[CLIENTS.index(who)] == "200" and name not in NOT_PAGES


def _demo_side(campaign: Campaign, who: str) -> str:
    sides = dict(Membership.objects.filter(campaign=campaign).values_list("user__username", "side"))
    return sides.get(who) or sides.get("german") or ""


def visits(world: World, demo: list[Campaign], who: str) -> Iterator[Visit]:
    for pattern in PATTERNS:
        if not _answers_200(pattern.name, who):
            continue
        yield Visit(who, pattern.name, url_for(world, pattern))
        if not pattern.kwargs or not set(pattern.kwargs) <= DEMO_KWARGS:
            continue
        short = pattern.name.startswith("shortgames:")
        for campaign in demo:
            is_short_game = campaign.module in {"defiant_russia", "cherkassy_pocket"}
            if short != is_short_game and pattern.name not in EVERY_GAME:
                continue
            values = {"campaign_id": campaign.pk, "side": _demo_side(campaign, who), "index": 0}
            if not values["side"] and "side" in pattern.kwargs:
                continue
            kwargs = {kwarg: values[kwarg] for kwarg in pattern.kwargs}
            yield Visit(who, pattern.name, reverse(pattern.name, kwargs=kwargs))
    yield from sap_visits(demo, who)


def sap_visits(demo: list[Campaign], who: str) -> Iterator[Visit]:
    """The SaP-only pages of the demo's SaP campaign this persona may open."""
    kwargs_of = {pattern.name: pattern.kwargs for pattern in PATTERNS}
    for campaign in demo:
        side = _demo_side(campaign, who) if campaign.module == SAP else ""
        if not Membership.objects.filter(campaign=campaign, user__username=who).exists():
            continue
        for name, sides in SAP_PAGES.items():
            if side not in sides:
                continue
            values = {"campaign_id": campaign.pk, "side": side}
            kwargs = {kwarg: values[kwarg] for kwarg in kwargs_of[name]}
            yield Visit(who, name, reverse(name, kwargs=kwargs))


def session_cookie(user_name: str, base_url: str) -> dict:
    """A signed-in session for the browser, without the sign-in form."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=user_name))
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"name": settings.SESSION_COOKIE_NAME, "value": value, "url": base_url}
