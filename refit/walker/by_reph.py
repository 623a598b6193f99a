"""A Refit Phase's own values read inside a query by the RePh's id (see ``of_reph``)."""

from __future__ import annotations

from django.db.models import Subquery

from campaigns.models import RefitPhase


def of_reph(reph_id: object, field: str) -> Subquery:
    """The RePh's ``field`` (its day, its start, its id) read inside a query by the RePh's id.

    What lets the step page's queries by day and time be compiled once (campaigns.compiled):
    their stand-ins are ids, and PostgreSQL's adapter passes a day (a small-integer column), a
    time or an integer column (``CampaignEvent.step_reph``) as a value of its own type, which no
    stand-in replaces; the RePh's id is a plain one. The subquery reads one row by its primary
    key, once per query (it does not depend on the outer row), and the indexes are used as with
    the value itself."""
    return Subquery(RefitPhase.objects.filter(pk=reph_id).values(field))
