"""The SQL the migrations installed through ``campaigns.kept_counts`` stays as it ran.

A migration runs once per database: if ``Counted`` wrote other SQL later, a new database would
get other triggers than an old one. A change to what it writes fails here; it needs a new
migration that drops the triggers and installs them again, and this copy updated.
"""

import hashlib
import importlib

import pytest

from campaigns.kept_counts import Counted

# sha256 of every statement a migration runs (the fill, the triggers, their reverse), per vendor.
INSTALLED = {
    ("0044_rgtally_rg_totals", "RG_TOTALS"): {
        "sqlite": "c157f81de48f7d5e9cec9711aff6d1a0b60ac6e9e731ed05c952fec8d7c2d1fd",
        "postgresql": "b7f2f220210bf6f031caec2dd4f2f5aa71c02699f884fd38be6305a75327c21d",
    },
    ("0045_rolls_roll_totals", "ROLL_TOTALS"): {
        "sqlite": "06c6dadd1a028604a0714ba5e2e3b0c7f55817c1d7ce895f3be177ae6db302ac",
        "postgresql": "f3b0f989f249bb5230914260cdc25ceaac31f9f1a2e3b46607c838027a8076e5",
    },
}


def installed(counted: Counted, vendor: str) -> str:
    statements = [
        counted.fill(),
        *counted.statements(vendor),
        *counted.statements(vendor, reverse=True),
    ]
    return hashlib.sha256("\n;\n".join(statements).encode()).hexdigest()


@pytest.mark.parametrize("vendor", ["sqlite", "postgresql"])
@pytest.mark.parametrize("migration", sorted(INSTALLED))
def test_the_migrations_sql_is_as_it_ran(migration, vendor):
    module, name = migration
    counted = getattr(importlib.import_module(f"campaigns.migrations.{module}"), name)
    assert installed(counted, vendor) == INSTALLED[migration][vendor]


def test_a_vendor_without_triggers_is_refused():
    counted = Counted(name="x", table="t", totals="u", key=("a",), count="n", watched="a")
    with pytest.raises(NotImplementedError):
        counted.statements("mysql")
