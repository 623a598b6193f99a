"""The Refit Phase walker pages, one module per page family: ``overview`` (where the campaign
stands, finishing the RePh), ``step`` (one step for one side), ``marks`` (marking a step done or
skipped, taking a mark back) and ``rolls`` (rolling a step's tables, undoing what a step
changed, the initiative chits).

Access goes through campaigns.access: a secret step's page, marks and rolls belong to its side
and the referee (``require_side_reader``/``require_side_actor`` with ``secret``: 404 for the
opponent and observers); a public step may be read by every member and acted on by the side's
players and the referee (403 for the others); the referee finishes a Refit Phase, or any player
when the campaign has none (``campaign_actor``). Each page is one situation from
refit.walker.situation; changes go through refit.walker.services, refit.walker.automatic and
refit.walker.initiative, which decide themselves which step and table may be rolled and who sees
the roll. Every form carries the id of the Refit Phase it was shown for, so a page left open
while the campaign moved on changes nothing and says why.
"""
