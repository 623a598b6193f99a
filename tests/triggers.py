"""The triggers a table has in the test database (the kept totals and counts: docs/decisions.md)."""

from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection, transaction
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from campaigns.access import viewer_for
from campaigns.kept_counts import Counted
from campaigns.models import Campaign
from campaigns.transfer import services as transfer


def triggers_on(table: str) -> set[str]:
    """The names of ``table``'s own triggers, on SQLite or PostgreSQL."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [table]
            )
        else:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                [table],
            )
        return {name for (name,) in cursor.fetchall()}


def expected_triggers(names: tuple[str, ...], truncate: str) -> set[str]:
    """``names``, and on PostgreSQL the ``truncate`` trigger (TRUNCATE fires no row trigger)."""
    return {*names, truncate} if connection.vendor == "postgresql" else set(names)


def counted_triggers(counted: Counted) -> set[str]:
    """The triggers a kept count (``campaigns.kept_counts.Counted``) installs."""
    return expected_triggers(counted.triggers, f"{counted.name}_truncate")


def refill(counted: Counted) -> None:
    """The counts emptied, as before their migration, then filled as the migration fills them."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {counted.totals}")
        cursor.execute(f"SELECT COUNT(*) FROM {counted.totals}")
        assert cursor.fetchone() == (0,)
        cursor.execute(counted.fill())


# --- the kept tables' Hypothesis tests: any list of writes, the table compared after each ------

WRITES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


# The writes every kept table's test plays beside its own: a copy through a file, and its deletion.
COPY_STEPS = (
    st.tuples(st.just("import"), st.none()),
    st.tuples(st.just("delete_copy"), st.none()),
)


def nth(queryset: Any, n: int) -> Any:
    """The ``n``-th row by id, counting round (None: no row)."""
    rows = list(queryset.order_by("id"))
    return rows[n % len(rows)] if rows else None


def equal_after_each(
    kept: Callable[[], Any],
    counted: Callable[[], Any],
    steps: Iterable[tuple[str, Any]],
    play: Callable[[str, Any], None],
) -> None:
    """``kept()`` (the table the triggers keep) equals ``counted()`` (the rows counted by
    hand) before the steps and after each one played, all in a transaction rolled back."""
    with transaction.atomic():
        assert kept() == counted()
        for action, value in steps:
            play(action, value)
            assert kept() == counted(), action
        transaction.set_rollback(True)


def copy_through_a_file(campaign: Campaign, referee: Any) -> None:
    """The campaign exported as its referee sees it and imported as a new campaign: the
    copy's rows count themselves in."""
    data = transfer.build_export(viewer_for(referee, campaign.pk))
    transfer.load(transfer.parse_export(transfer.dumps(data).encode()), user=referee)
    event("imported")


def delete_the_copy(campaign: Campaign) -> None:
    """The newest other campaign (a copy made by ``copy_through_a_file``) deleted, cascading."""
    copy_ = Campaign.objects.exclude(pk=campaign.pk).order_by("-id").first()
    if copy_ is not None:
        copy_.delete()
