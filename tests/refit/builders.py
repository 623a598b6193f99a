"""Putting a campaign at a given Refit Phase for tests."""

from django.utils import timezone

from campaigns.models import RefitPhase


def reph_at(campaign, kind, index, sequence=1, outcome=None):
    """Close the open RePh (with ``outcome``) and open one of ``kind`` on CG day ``index``."""
    RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=True).update(
        finished_at=timezone.now(), outcome=outcome or {}
    )
    campaign.period_index = index
    campaign.save(update_fields=["period_index"])
    return RefitPhase.objects.create(campaign=campaign, kind=kind, index=index, sequence=sequence)


def mark_past(campaign, reph, side, rule, people, **kwargs):
    """Mark ``side``'s step ``rule`` done by its player; where the rules require a roll (or RG
    rolls) the test does not make, the referee marks it with a written reason (issue 15)."""
    from refit.walker import services as walker
    from refit.walker import strictness

    step = next(s for s in walker.steps(campaign, reph) if s.rule == rule)
    if strictness.missing(campaign, reph, side, step):
        return walker.mark(
            campaign,
            reph,
            side=side,
            rule=rule,
            by=people["referee"],
            overrule="walked past in a test",
            **kwargs,
        )
    player = people[side] if side in people else people["soviet"]  # SaP's Russian player
    return walker.mark(campaign, reph, side=side, rule=rule, by=player, **kwargs)


def booby_traps(campaign, side="soviet", levels=1, index=0):
    """The side's booby traps raised ``levels`` above C on day ``index`` (B for one, A for two);
    they hold from the next day's RePh on (11.6123 rolls on them)."""
    from campaigns.models import FortificationPurchase

    return FortificationPurchase.objects.create(
        campaign=campaign, side=side, index=index, item="booby-trap", quantity=levels, fpp=0
    )


def record_end(campaign, reph, by, winner="german"):
    """Record the end of the scenario ``reph`` plays, as its players do before "Scenario over"
    (issue 15): the day's scenario (made as the phase would), its winner (None: none, only that
    the end was recorded)."""
    from campaigns.models import Scenario
    from campaigns.records import services as records

    scenario = Scenario.objects.filter(
        campaign=campaign, index=reph.index, sequence=reph.sequence
    ).first()
    if scenario is None:
        scenario = records.save_scenario(
            campaign, by=by, index=reph.index, sequence=reph.sequence, scenario_type="assault"
        )
    if scenario.winner or scenario.end:
        return scenario
    winner = winner if winner in campaign.game.side_keys else ""
    records.save_end(
        scenario,
        by=by,
        version=scenario.version,
        locations={},
        end={"winner_by": "players"},
        winner=winner,
    )
    return scenario


def finish_phase(campaign, reph, *, by, winner="german", **outcome):
    """``walker.finish``, the scenario's end recorded first when ``reph`` is a scenario phase."""
    from refit.walker import services as walker

    if reph.kind == "scenario":
        record_end(campaign, reph, by, winner)
    return walker.finish(campaign, reph, by=by, **outcome)
