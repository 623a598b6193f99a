"""Migration 0010 gives existing RGs the status the life cycle's rules replay from the
campaign's recorded Refit Phases and scenarios."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("campaigns", "0009_records_recon_locations")]
AFTER = [("campaigns", "0010_lifecycle_rg_status")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_existing_rgs_get_the_status_their_campaign_implies():
    apps = migrate(BEFORE)
    Campaign = apps.get_model("campaigns", "Campaign")
    RefitPhase = apps.get_model("campaigns", "RefitPhase")
    ReinforcementGroup = apps.get_model("campaigns", "ReinforcementGroup")
    campaign = Campaign.objects.create(
        name="RB", module="red_factories", campaign_game="rb-cg-1", data_version="1"
    )
    now = timezone.now()
    # Before the initial scenario, the initial scenario, the RePh after it, then 18 Oct's
    # RePh under way.
    for kind, index, finished in (
        ("before_initial", 0, now),
        ("scenario", 0, now),
        ("after_scenario", 0, now),
        ("new_day", 1, None),
    ):
        RefitPhase.objects.create(campaign=campaign, kind=kind, index=index, finished_at=finished)

    def rg(rg_id, number, index, **fields):
        return ReinforcementGroup.objects.create(
            campaign=campaign,
            side="german",
            rg_id=rg_id,
            number=number,
            index=index,
            source="purchased",
            **fields,
        ).pk

    rgs = {
        # Rolled on 17 Oct, in the initial scenario, survived it.
        "retained": rg("I1", 1, 0, strength="F", details={"received": {"strength": "F"}}),
        # A Stuka of 17 Oct: used up with its day's scenario.
        "expended": rg("S1", 1, 0),
        # Bought today, rolled for; today's RePh is still open.
        "rolled": rg("I3", 1, 1, details={"received": {"strength": "D"}}),
        "bought": rg("I3", 2, 1),
    }
    no_phases = Campaign.objects.create(
        name="New", module="red_factories", campaign_game="rb-cg-1", data_version="1"
    )
    entered = ReinforcementGroup.objects.create(
        campaign=no_phases, side="soviet", rg_id="I3", number=1, index=0, entered=True
    ).pk

    apps = migrate(AFTER)
    ReinforcementGroup = apps.get_model("campaigns", "ReinforcementGroup")
    statuses = dict(ReinforcementGroup.objects.values_list("pk", "status"))
    assert {status: statuses[pk] for status, pk in rgs.items()} == {
        status: status for status in rgs
    }
    assert statuses[entered] == "retained"

    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())
