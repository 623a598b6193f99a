"""Shared fixtures: one Red Factories campaign and the five people every view is tested for.

German player (the creator), Soviet player, referee, observer — and an outsider who is not
in the campaign at all.
"""

from collections.abc import Callable

import pytest
from django.test import Client

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Campaign, Role
from tests.seats import join as join_seat


# Tokens that change from one response to the next must not be able to spell a secret a test looks
# for: a masked CSRF token is 64 random letters and digits, and "983" turns up in one response in a
# few thousand (and an opaque id, base32, may hold the digits 2-7; the secrets the tests plant hold
# an 8, a 9, a 0 or a 1).
@pytest.fixture(autouse=True)
def _csrf_tokens_without_digits(monkeypatch):
    """Every CSRF secret and mask is "a"×32, so every token on a page is "a"×64, still valid."""
    from django.middleware import csrf

    monkeypatch.setattr(csrf, "_get_new_csrf_string", lambda: "a" * csrf.CSRF_SECRET_LENGTH)


PERSONAS = ("german", "soviet", "referee", "observer", "outsider")
MEMBERS = {
    "german": (Role.PLAYER, "german"),
    "soviet": (Role.PLAYER, "soviet"),
    "referee": (Role.REFEREE, ""),
    "observer": (Role.OBSERVER, ""),
}


@pytest.fixture
def people(django_user_model) -> dict:
    return {
        persona: django_user_model.objects.create_user(username=persona, password="pw-123456789")
        for persona in PERSONAS
    }


def red_factories_campaign(people: dict, cg_key: str, name: str) -> Campaign:
    """A Red Factories campaign game created by the German player; the Soviet player, the
    referee and the observer joined through invitation links."""
    campaign = services.create_campaign(
        user=people["german"],
        name=name,
        module=get_module("red_factories"),
        cg_key=cg_key,
        role=Role.PLAYER,
        side="german",
    )
    for persona, (role, side) in MEMBERS.items():
        if persona == "german":
            continue
        invitation = services.create_invitation(campaign, by=people["german"], role=role, side=side)
        join_seat(invitation, people[persona])
    return campaign


@pytest.fixture
def campaign(people) -> Campaign:
    """RB CG I, created by the German player; the others joined through invitation links."""
    return red_factories_campaign(people, "rb-cg-1", "Into the Factory, club night")


@pytest.fixture
def client_as(people) -> Callable[[str], Client]:
    """A signed-in test client for a persona (each call gets its own client)."""

    def make(persona: str) -> Client:
        client = Client()
        client.force_login(people[persona])
        return client

    return make


@pytest.fixture(scope="session", autouse=True)
def compiled_translations():
    """Compile the catalogue when its .mo is missing or older, so `pytest` alone works too.

    The suite runs in parallel workers (pytest-xdist), each of which may get here at once: each
    writes its own temporary file and renames it over the catalogue, so no worker ever reads a
    half-written one."""
    import os
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    po = Path(__file__).resolve().parents[1] / "locale" / "ja" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    if (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime) and shutil.which("msgfmt"):
        handle, partial = tempfile.mkstemp(dir=mo.parent, suffix=".mo.partial")
        os.close(handle)
        try:
            subprocess.run(["msgfmt", "--check-format", "-o", partial, str(po)], check=True)
            os.replace(partial, mo)
        finally:
            if os.path.exists(partial):
                os.remove(partial)


@pytest.fixture(autouse=True)
def english_outside_requests():
    """A request that activates Japanese leaves it active in the thread; code a test calls
    directly afterwards must not inherit it."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()
