"""The record pages' reads of a whole campaign, each a query compiled once (campaigns.compiled):
every calendar, scenarios and CVP page asks them (docs/performance.md, "layout")."""

from __future__ import annotations

from campaigns.compiled import CompiledQuery
from campaigns.models import CampaignDay, CvpEntry, Scenario

# ``list(Scenario.objects.filter(campaign=…))``: the campaign's scenarios, in their order.
scenarios_of = CompiledQuery(
    lambda campaign_id: Scenario.objects.filter(campaign_id=campaign_id), 1
)

# The campaign's CVP entries, day by day in the order they were booked.
cvp_entries_of = CompiledQuery(
    lambda campaign_id: CvpEntry.objects.filter(campaign_id=campaign_id).order_by("index", "id"),
    1,
)

# The campaign's calendar days (weather, moon, EC…), in their order.
days_of = CompiledQuery(lambda campaign_id: CampaignDay.objects.filter(campaign_id=campaign_id), 1)
