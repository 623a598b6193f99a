"""Row locks take the rows of their own table only, on SQLite and on PostgreSQL.

Django joins the tables a model's default ordering follows. An order-of-battle line is ordered by
its RG box, a nullable foreign key, so locking lines put a LEFT OUTER JOIN under FOR UPDATE, which
PostgreSQL refuses ("FOR UPDATE cannot be applied to the nullable side of an outer join"): undo
failed for every order-of-battle change. Orderings through non-null keys locked the campaign row
as well. Every lock therefore names its own table: ``select_for_update(of=("self",))``.
"""

import ast
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.history import services as history
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.orbat import services as orbat

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "campaigns", "config", "refit", "rosters")


@pytest.mark.django_db
def test_undoing_a_move_out_of_an_rg_box_locks_the_line_alone_and_puts_it_back(campaign, people):
    group = ReinforcementGroup.objects.filter(campaign=campaign, side="german").first()
    (line,) = orbat.add_units(
        campaign, by=people["german"], side="german", box=OrbatBox.RG, group=group, text="3 × LMG"
    )
    orbat.change_entry(line, by=people["german"], version=line.version, box=OrbatBox.CASUALTIES)
    event = campaign.events.get(action="orbat.changed")

    with CaptureQueriesContext(connection) as queries:
        history.undo(event, by=people["german"])

    line.refresh_from_db()
    assert (line.box, line.group_id, line.quantity) == ("rg", group.pk, 3)
    locks = [query["sql"] for query in queries if " FOR UPDATE" in query["sql"]]
    if connection.features.has_select_for_update:  # PostgreSQL; SQLite locks the whole file
        table = connection.ops.quote_name(OrbatEntry._meta.db_table)
        assert any(sql.endswith(f"FOR UPDATE OF {table}") for sql in locks), locks
        assert all(" FOR UPDATE OF " in sql for sql in locks), locks
    else:
        assert locks == []


def lock_calls():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "select_for_update"
                ):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def locks_only_its_own_table(call: ast.Call) -> bool:
    of = [keyword.value for keyword in call.keywords if keyword.arg == "of"]
    return len(of) == 1 and isinstance(of[0], ast.Tuple) and ast.literal_eval(of[0]) == ("self",)


def test_every_row_lock_in_the_code_names_its_own_table():
    # SQLite ignores FOR UPDATE, so only this check catches a new bare lock before PostgreSQL does.
    calls = list(lock_calls())
    assert len(calls) > 30  # the scan does find the locks
    assert [where for where, call in calls if not locks_only_its_own_table(call)] == []
