"""Counting the reads of the CPP/FPP ledger in captured queries."""

from django.db import connection

from campaigns.models import LedgerEntry, LedgerTotal


def ledger_reads(queries, model=LedgerEntry) -> list[str]:
    """The SELECTs of captured queries that read the ledger table (or ``model``'s)."""
    table = connection.ops.quote_name(model._meta.db_table)
    return [
        query["sql"]
        for query in queries
        if query["sql"].lstrip().upper().startswith("SELECT") and f"FROM {table}" in query["sql"]
    ]


def totals_reads(queries) -> list[str]:
    """The SELECTs of captured queries that read the ledger's totals (``LedgerTotal``)."""
    return ledger_reads(queries, LedgerTotal)


def more_ledger_rows(campaign, side, ledger, count, people):
    """``count`` more movements of one side's ledger, spread over the campaign's days, that add
    up to nothing (so the page shows the same numbers)."""
    days = len(campaign.cg.periods)
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign,
            side=side,
            ledger=ledger,
            index=n % days,
            kind="adjustment",
            amount=1 if n % 2 else -1,
            note="padding",
            created_by=people["referee"],
        )
        for n in range(count)
    )
