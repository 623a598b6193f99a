"""``ReinforcementGroup.map_group``: the database keeps it equal to ``details["map_group"]`` (a
stored generated column, "" for none) on every way an RG is written, the purchase rules' tallies
count it (``RgTotal``, kept by triggers that read it: tests/refit/purchases/test_rg_totals.py)
and the RG Purchase Record's #P reads it from the index ``rg_tallies``, and it is neither in a
history snapshot nor in the export file (it is derived)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.models import CampaignEvent, ReinforcementGroup
from campaigns.transfer import services as transfer
from campaigns.transfer.format import RG_FIELDS
from refit.purchases import reading
from refit.purchases import services as purchases
from refit.rules.purchase_costs import Options

pytestmark = pytest.mark.django_db

DETAILS = [{}, {"map_group": ""}, {"map_group": "RB"}, {"map_group": "RO"}, {"sw": ["LMG"]}]


def columns(campaign):
    return {
        pk: (group, details.get("map_group", ""))
        for pk, group, details in ReinforcementGroup.objects.filter(
            campaign=campaign, rg_id="T9"
        ).values_list("pk", "map_group", "details")
    }


def make(campaign, number, details):
    return ReinforcementGroup(
        campaign=campaign,
        side="german",
        rg_id="T9",  # an id no RG of the test campaign has
        number=number,
        index=0,
        source="purchased",
        details=details,
    )


def assert_in_step(campaign):
    rows = columns(campaign)
    assert rows
    assert all(group == expected for group, expected in rows.values()), rows


def test_every_way_of_writing_an_rg_keeps_the_column_equal_to_the_json(campaign):
    one = make(campaign, 1, {"map_group": "RB"})
    one.save()
    ReinforcementGroup.objects.bulk_create(
        make(campaign, n, details) for n, details in enumerate(DETAILS, start=2)
    )
    assert_in_step(campaign)
    assert columns(campaign)[one.pk] == ("RB", "RB")
    one.details = {"map_group": "RO"}
    one.save()
    assert columns(campaign)[one.pk] == ("RO", "RO")
    one.details = {}
    one.save(update_fields=["details"])
    assert columns(campaign)[one.pk] == ("", "")
    mine = ReinforcementGroup.objects.filter(campaign=campaign, rg_id="T9")
    mine.update(details={"map_group": "RB"})
    assert set(columns(campaign).values()) == {("RB", "RB")}
    rgs = list(mine.order_by("pk"))
    for rg, details in zip(rgs, DETAILS * 2, strict=False):
        rg.details = details
    ReinforcementGroup.objects.bulk_update(rgs, ["details"])
    assert_in_step(campaign)
    assert {group for group, _ in columns(campaign).values()} == {"", "RB", "RO"}


def test_a_purchase_and_its_undo(campaign, people, reph):
    rg = purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    assert ReinforcementGroup.objects.get(pk=rg.pk).map_group == rg.details["map_group"] == "RB"
    # Derived, so not the row's state: a snapshot (and so an undo) never holds or writes it.
    assert "map_group" not in history.snapshot(rg)
    event = CampaignEvent.objects.get(campaign=campaign, action="rg.purchased")
    (step,) = (s for s in event.data["undo"] if s["model"] == "campaigns.reinforcementgroup")
    assert "map_group" not in step["after"]
    history.undo(event, by=people["german"])
    assert not ReinforcementGroup.objects.filter(pk=rg.pk).exists()


def test_an_rg_change_recorded_before_the_column_is_undone(campaign, people):
    """An event's snapshots written before the column existed hold no ``map_group``: the undo
    still finds the row as the event left it."""
    rg = make(campaign, 1, {"map_group": "RB"})
    rg.status = "retained"
    rg.save()
    before = history.snapshot(rg)
    rg.status = "eliminated"
    rg.save()
    event = history.record_change(
        campaign,
        people["german"],
        "rg.status_set",
        visibility="german",
        changes=[(rg, before, history.snapshot(rg))],
        side="german",
        index=0,
        rg=rg.label,
        status="eliminated",
    )
    assert "map_group" not in event.data["undo"][0]["before"]
    history.undo(event, by=people["german"])
    rg.refresh_from_db()
    assert (rg.status, rg.map_group) == ("retained", "RB")


def test_the_tallies_read_the_map_group_column(campaign):
    ReinforcementGroup.objects.bulk_create(
        make(campaign, n, details) for n, details in enumerate(DETAILS * 2, start=1)
    )
    ReinforcementGroup.objects.filter(campaign=campaign, rg_id="T9", number__gt=5).update(
        status="eliminated"
    )
    with_groups = {
        (rg_id, day, source, group, ended): n
        for rg_id, day, source, group, ended, n in reading.rg_tallies(campaign, "german")
        if rg_id == "T9"
    }
    # The test campaign's CG names its map group: each RG counts in its own.
    assert reading.map_groups(campaign) == ("RB",)
    assert with_groups == {
        ("T9", 0, "purchased", "", False): 3,
        ("T9", 0, "purchased", "RB", False): 1,
        ("T9", 0, "purchased", "RO", False): 1,
        ("T9", 0, "purchased", "", True): 3,
        ("T9", 0, "purchased", "RB", True): 1,
        ("T9", 0, "purchased", "RO", True): 1,
    }


def test_without_map_groups_every_rg_counts_as_of_none(sap_campaign):
    ReinforcementGroup.objects.bulk_create(
        make(sap_campaign, n, details) for n, details in enumerate(DETAILS, start=1)
    )
    assert reading.map_groups(sap_campaign) == ()
    tallies = [t for t in reading.rg_tallies(sap_campaign, "german") if t[0] == "T9"]
    assert tallies == [("T9", 0, "purchased", "", False, 5)]


def test_the_tallies_are_read_from_an_index_alone():
    """``rg_tallies`` reads ``RgTotal`` from its covering index ``rg_total_read`` in that
    index's order; the RG table's ``rg_tallies`` index (the record's #P counts a range of it)
    holds the key's columns."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(
            cursor, ReinforcementGroup._meta.db_table
        )
    assert constraints["rg_tallies"]["columns"] == [
        "campaign_id",
        "side",
        "rg_id",
        "map_group",
        "source",
        "index",
        "status",
    ]
    if connection.vendor == "sqlite":
        query = reading._tallies_query("german").build(1).query
        sql, params = query.get_compiler(using="default").as_sql()
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
        assert "COVERING INDEX rg_total_read" in plan
        assert "TEMP B-TREE" not in plan  # in the index's own order


def test_the_export_does_not_hold_the_derived_column_and_the_import_derives_it(
    campaign, people, reph
):
    purchases.buy(campaign, "german", 0, "A6", Options(), people["german"])
    data = transfer.build_export(viewer_for(people["referee"], campaign.pk))
    (row,) = (row for row in data["rgs"] if row["rg_id"] == "A6")
    assert all(set(rg) == {"id", *RG_FIELDS} for rg in data["rgs"])
    assert "map_group" not in row
    assert row["details"]["map_group"] == "RB"
    imported = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )
    assert {
        (rg_id, group, details.get("map_group", ""))
        for rg_id, group, details in ReinforcementGroup.objects.filter(
            campaign=imported
        ).values_list("rg_id", "map_group", "details")
        if group or rg_id == "A6"
    } == {("A6", "RB", "RB")}
    again = transfer.build_export(viewer_for(people["outsider"], imported.pk))
    assert again["rgs"] == data["rgs"]


BEFORE = [("campaigns", "0041_lists_ob_indexes")]
AFTER = [("campaigns", "0042_groups_rg_map_group")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_column_of_existing_rgs():
    apps = migrate(BEFORE)
    Campaign = apps.get_model("campaigns", "Campaign")
    Rg = apps.get_model("campaigns", "ReinforcementGroup")
    campaign = Campaign.objects.create(
        name="RF", module="red_factories", campaign_game="rf-cg-1", data_version="1"
    )
    for n, details in enumerate(DETAILS, start=1):
        Rg.objects.create(
            campaign=campaign,
            side="german",
            rg_id="I1",
            number=n,
            index=0,
            source="purchased",
            details=details,
        )
    try:
        apps = migrate(AFTER)
        Rg = apps.get_model("campaigns", "ReinforcementGroup")
        assert sorted(
            Rg.objects.filter(campaign_id=campaign.pk).values_list("number", "map_group")
        ) == [(1, ""), (2, ""), (3, "RB"), (4, "RO"), (5, "")]
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
