"""Fixtures for the purchase tests: the RePh of the shared RB CG I campaign, a SaP campaign."""

import pytest

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Role, SideDay
from refit.walker import services as walker
from tests.conftest import MEMBERS
from tests.seats import join as join_seat


@pytest.fixture
def reph(campaign):
    """RB CG I's first RePh (before the initial scenario); 11.619 is both sides' first step."""
    return walker.open_reph(campaign)


@pytest.fixture
def known_hist_drm(campaign):
    """The referee has entered the Historical DRM of the first day (0 for both sides)."""
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)


@pytest.fixture
def sap_campaign(people):
    """Slaughter at Ponyri with the same people (the Soviet player plays the Russians)."""
    campaign = services.create_campaign(
        user=people["german"],
        name="Ponyri",
        module=get_module("slaughter_at_ponyri"),
        cg_key="timetable-disrupted",
        role=Role.PLAYER,
        side="german",
    )
    for persona, (role, side) in MEMBERS.items():
        if persona == "german":
            continue
        side = "russian" if side == "soviet" else side
        invitation = services.create_invitation(campaign, by=people["german"], role=role, side=side)
        join_seat(invitation, people[persona])
    return campaign
