"""The seeded RB CG I campaign (tests/rosters/conftest.py) with rolls of both sides and a
recorded perimeter; the short games of tests/campaigns/shortgames."""

import pytest

from campaigns.models import DiceRoll
from refit.models import PerimeterState
from tests.campaigns.shortgames.conftest import make_game

# Faces each side rolled (unmodified totals): the German's are his secret; the Soviet's too.
GERMAN_ROLLS = [(3, 4), (6, 6), (1, 2), (5, 5)]
SOVIET_ROLLS = [(1, 1), (2, 1), (1, 1)]


def roll(campaign, side, faces, *, visibility, table="rf.san-adjustment", voided=False):
    from django.utils import timezone

    return DiceRoll.objects.create(
        campaign=campaign,
        index=0,
        side=side,
        step="11.616",
        table_id=table,
        kind="DR" if len(faces) == 2 else "dr",
        faces=list(faces),
        original=sum(faces),
        final=sum(faces),
        visibility=visibility,
        voided_at=timezone.now() if voided else None,
    )


@pytest.fixture
def reported(seeded):
    for faces in GERMAN_ROLLS:
        roll(seeded, "german", faces, visibility="german")
    roll(seeded, "german", (6, 6), visibility="german", voided=True)
    for faces in SOVIET_ROLLS:
        roll(seeded, "soviet", faces, visibility="soviet")
    PerimeterState.objects.create(
        campaign=seeded,
        index=0,
        recorded={
            "perimeter_area": {"german": ["A1", "A2", "A3"], "soviet": ["B1", "B2"]},
            "isolated_areas": [],
        },
    )
    return seeded


@pytest.fixture
def cp_game(people):
    return make_game(people, "cherkassy_pocket", "scenario-1", "german")


@pytest.fixture
def dr_game(people):
    return make_game(people, "defiant_russia", "full-game", "axis")
