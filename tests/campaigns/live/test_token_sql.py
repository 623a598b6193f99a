"""The token's query is written by hand (campaigns.live.token): it must read what the ORM query
it replaced read — the same token for the same state — for every member, in every state the
poll tests walk through (secret rolls and marks, an undo, a finished Refit Phase)."""

import pytest
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from campaigns import access
from campaigns.live.token import parts
from campaigns.models import Campaign, CampaignEvent, Membership, RefitPhase, StepProgress
from refit.walker import services as walker
from tests.campaigns.live.test_poll import MEMBERS, secret_german_roll
from tests.refit.builders import finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db


def orm_parts(viewer):
    """The token's parts as the ORM read them before (the reference)."""

    def marks(side):
        return Subquery(
            StepProgress.objects.filter(
                reph__campaign=OuterRef("pk"), reph__finished_at__isnull=True, side=side
            )
            .values("reph")
            .annotate(n=Count("pk"))
            .values("n")[:1],
            output_field=IntegerField(),
        )

    campaign = viewer.campaign
    sides = campaign.game.side_keys
    events = viewer.filter_visible(CampaignEvent.objects.filter(campaign=OuterRef("pk")))
    row = (
        Campaign.objects.filter(pk=campaign.pk)
        .annotate(
            last_event=Subquery(events.order_by("-pk").values("pk")[:1]),
            open_reph=Subquery(
                RefitPhase.objects.filter(campaign=OuterRef("pk"), finished_at__isnull=True).values(
                    "pk"
                )[:1]
            ),
            **{f"marks_{i}": Coalesce(marks(side), 0) for i, side in enumerate(sides)},
        )
        .values("last_event", "open_reph", *(f"marks_{i}" for i in range(len(sides))))
        .first()
    )
    return dict(row)


@pytest.fixture
def day_after(campaign, people):
    """The RePh after the initial scenario (as test_poll's ``after``)."""
    reph = walker.open_reph(campaign)
    walk_all(campaign, reph, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


def check(campaign, people):
    seen = {}
    for persona in MEMBERS:
        membership = Membership.objects.get(campaign=campaign, user=people[persona])
        viewer = access.Viewer(campaign=campaign, membership=membership)
        assert parts(viewer) == orm_parts(viewer), persona
        seen[persona] = parts(viewer)
    return seen


def test_the_token_reads_what_the_orm_read_as_created(campaign, people):
    check(campaign, people)
    walker.open_reph(campaign)
    check(campaign, people)


def test_the_token_reads_what_the_orm_read(campaign, people, day_after):
    day = day_after
    check(campaign, people)
    mark_past(campaign, day, "soviet", "11.601", people)
    secret_german_roll(campaign, people)
    seen = check(campaign, people)
    # The secret roll is the German's and the referee's newest event, not the others'.
    assert seen["german"]["last_event"] == seen["referee"]["last_event"]
    assert seen["soviet"]["last_event"] < seen["german"]["last_event"]
    assert seen["soviet"]["marks_1"] >= 1


def test_the_token_reads_what_the_orm_read_after_secret_marks_and_an_undo(
    campaign, people, day_after
):
    walk_all(campaign, day_after, people)
    new_day = finish_phase(campaign, day_after, by=people["referee"])
    check(campaign, people)
    for rule in ("11.612", "11.613"):
        for side in ("german", "soviet"):
            mark_past(campaign, new_day, side, rule, people)
    before = check(campaign, people)
    mark_past(campaign, new_day, "german", "11.614", people)  # a secret step
    seen = check(campaign, people)
    assert seen["observer"]["marks_0"] == before["observer"]["marks_0"] + 1
    assert seen["observer"]["marks_1"] == before["observer"]["marks_1"]
    from campaigns.history import services as history

    event = CampaignEvent.objects.filter(campaign=campaign, action="refit.step_marked").first()
    history.undo(event, by=people["referee"])
    check(campaign, people)
