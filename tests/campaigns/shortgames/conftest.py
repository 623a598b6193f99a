"""A Defiant Russia and a Cherkassy Pocket game with the five personas of tests/conftest.py.

The short games' sides are axis/soviet and german/soviet; the personas keep their names: the
"german" persona plays the Axis in Defiant Russia and the Germans in Cherkassy Pocket.
"""

import pytest

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import Campaign, Role
from campaigns.shortgames import services as short_games
from tests.seats import join as join_seat


def make_game(people, module: str, cg_key: str, first_side: str) -> Campaign:
    campaign = services.create_campaign(
        user=people["german"],
        name=f"{module} at the club",
        module=get_module(module),
        cg_key=cg_key,
        role=Role.PLAYER,
        side=first_side,
    )
    for persona, role, side in (
        ("soviet", Role.PLAYER, "soviet"),
        ("referee", Role.REFEREE, ""),
        ("observer", Role.OBSERVER, ""),
    ):
        invitation = services.create_invitation(campaign, by=people["german"], role=role, side=side)
        join_seat(invitation, people[persona])
    return campaign


@pytest.fixture
def dr_game(people) -> Campaign:
    return make_game(people, "defiant_russia", "full-game", "axis")


@pytest.fixture
def cp_game(people) -> Campaign:
    return make_game(people, "cherkassy_pocket", "scenario-1", "german")


@pytest.fixture
def dr_started(dr_game, people) -> Campaign:
    short_games.start(dr_game, by=people["german"], options=[])
    return dr_game


@pytest.fixture
def cp_started(cp_game, people) -> Campaign:
    short_games.start(cp_game, by=people["german"], options=[])
    return cp_game
