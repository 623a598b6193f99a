"""What the campaign state says about one side in one RePh, as the plain facts
``refit.rules.drms`` works DRMs out from. A fact the campaign does not have is left out."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import models

from campaigns.compiled import CompiledQuery
from campaigns.games import map_groups
from campaigns.games.weather import conditions, ec_types_of, types_of
from campaigns.models import Campaign, CampaignDay, RefitPhase, ReinforcementGroup, SideDay
from campaigns.periods import period_month
from campaigns.records.balance import scenario_balance_drm
from campaigns.records.cvp_counts import cvp_lines, lost, rules_for
from refit.queries import per_side
from refit.rules.elr import bought_for_elr
from refit.walker.by_reph import value


def completed_index(campaign: Campaign, reph: RefitPhase) -> int:
    """The CG day (time frame) whose scenario the RePh follows: RF's after-scenario RePh is
    dated the scenario's day; every other RePh the day after."""
    if campaign.module == "red_factories" and reph.kind in ("after_scenario", "scenario"):
        return reph.index
    return reph.index - 1


def month_of(campaign: Campaign, index: int) -> int | None:
    return period_month(campaign, index)


def _first_day_chits(campaign: Campaign) -> dict[str, str]:
    chits = cg_definition(campaign).get("first_day_chits") or {}
    return {side: chits.get(side, "") for side in campaign.game.side_keys}


def _streaks(campaign: Campaign, before: RefitPhase) -> tuple[int, int]:
    """(Idle Days since the last completed scenario, scenarios completed since the CG start or
    the last Idle Day) from the RePhs finished before ``before``."""
    idle_days = scenarios = 0
    finished = campaign.rephs.filter(finished_at__isnull=False, pk__lt=before.pk)
    for kind, outcome in finished.order_by("pk").values_list("kind", "outcome"):
        if kind == "scenario":
            idle_days = 0
            scenarios += 1
        elif kind == "new_day" and (outcome or {}).get("scenario_generated") is False:
            idle_days += 1
            scenarios = 0
    return idle_days, scenarios


def cg_definition(campaign: Campaign) -> dict[str, Any]:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return definitions.get(campaign.campaign_game) or {}


def hist_drm_facts(
    cg_def: dict[str, Any], today: SideDay | None, map_group: str = ""
) -> dict[str, Any]:
    """The Historical DRM a roll takes (``hist_drm``, absent while unknown). In a campaign game
    on two map groups (RF CG I, 11.58) a roll for a map group takes that group's value; a roll
    made once for the side (11.617) gets ``hist_drm_by_group``, the values to choose from."""
    if today is None:
        return {}
    by_group = today.hist_drms or {}
    value = map_groups.hist_drm(
        cg_def, single=today.hist_drm, by_group=by_group, map_group=map_group
    )
    facts: dict[str, Any] = {} if value is None else {"hist_drm": value}
    if map_groups.is_split(cg_def) and not map_group:
        choices = map_groups.hist_drm_choices(cg_def, by_group)
        if choices is not None:
            facts["hist_drm_by_group"] = {
                group: int(by_group[group]) for group in map_groups.map_groups(cg_def)
            }
    return facts


# The facts each a query of its own, by the DRMs (``refit.rules.drms.RESOLVERS``) that read them.
QUERIED_FACTS = {
    "scenarios": {"balance", "won", "losing-record"},
    "cvp": {"cvp", "cvp-suffered"},
    "day_before": {"prev-overcast", "prev-snow", "prev-mist", "prev-dry"},
    "streaks": {"idle-days", "scenarios"},
    "bought": {"elite-coy", "first-line"},
}


def _side_days(side: str) -> CompiledQuery:
    """``SideDay.objects.filter(campaign=…, side=side, index__in=[day before, day])`` compiled
    once per side, the days given as values (refit.walker.by_reph)."""
    return per_side(
        "side_days",
        side,
        lambda campaign_id, before, day: SideDay.objects.filter(
            campaign_id=campaign_id,
            side=side,
            index__in=[
                value(before, models.PositiveSmallIntegerField()),
                value(day, models.PositiveSmallIntegerField()),
            ],
        ),
        3,
    )


def for_side(
    campaign: Campaign,
    reph: RefitPhase,
    side: str,
    *,
    map_group: str = "",
    modifiers: Collection[str] | None = None,
) -> dict[str, Any]:
    """``map_group``: the map group a roll is for (RF CG I's 11.616, one DR per map group).
    ``modifiers``: the ids of the DRMs the facts are for (the step page's tables'); the facts
    of ``QUERIED_FACTS`` none of them reads are left out, and their queries not made. The side's
    own day (Historical DRM, SAN, ELR, chit) is always read."""
    index = reph.index

    def wanted(group: str) -> bool:
        return modifiers is None or bool(QUERIED_FACTS[group] & set(modifiers))

    done = completed_index(campaign, reph)
    facts: dict[str, Any] = {
        "module": campaign.module,
        "side": side,
        "campaign_game": campaign.campaign_game,
        "month": month_of(campaign, index),
    }
    side_days = {d.index: d for d in _side_days(side)(campaign.pk, index - 1, index)}
    today = side_days.get(index)
    cg_def = cg_definition(campaign)
    facts.update(hist_drm_facts(cg_def, today, map_group))
    if map_group:
        facts["map_group"] = map_group
    if today is not None:
        if today.san is not None:
            facts["san"] = today.san
        if today.elr is not None:
            facts["elr"] = today.elr
    if reph.sequence > 1:
        # RO CG I SSR I.6: the RePh before the day's second scenario takes the first scenario's
        # day as the previous CG day, so its chit is that scenario's (on 23 Oct the deemed ones).
        chit = today.initiative_chit if today is not None else ""
        if index == 0 and not chit:
            chit = _first_day_chits(campaign)[side]
    else:
        # The day before's last chits: those before its second scenario when it had two.
        previous = side_days.get(index - 1)
        chit = (previous.second_chit or previous.initiative_chit) if previous is not None else ""
        if index == 1 and not chit:
            chit = _first_day_chits(campaign)[side]
    facts["attack_chit_previous_day"] = chit == "attack"

    if wanted("scenarios"):
        facts.update(_scenario_facts(campaign, side, done))
    # The CVP the side suffered on the completed day as 11.616 counts them (every phase of the
    # day, uncontrolled exits (CG13) and CG18 "no CVP" losses excepted): the CPP Replenishment
    # table reads this fact. The MMC Battle Hardening DRM (11.6112) reads the CVP up to victory
    # determination only (11.6031: a loss after it counts for 11.616, not for 11.6112).
    if wanted("cvp"):
        rules = rules_for(campaign.module)
        lines = cvp_lines(campaign, side=side, index=done)
        facts["cvp_completed"] = lost(lines, rules.for_cpp_drm, side=side, index=done)
        facts["cvp_scenario"] = lost(lines, rules.for_victory, side=side, index=done)
    if index >= 1 and wanted("day_before"):
        day_before = CampaignDay.objects.filter(campaign=campaign, index=index - 1).first()
        was = conditions(types_of(campaign.game.files), day_before and day_before.weather)
        if was is not None:  # a weather the rules know; else the roll waits for it
            facts["previous_weather"] = sorted(was)
        ec = conditions(ec_types_of(campaign.game.files), day_before and day_before.ec)
        if ec is not None:  # an EC of the game's (its key); else the roll waits for it
            facts["previous_ec"] = sorted(ec)
    if wanted("streaks"):
        facts["idle_days"], facts["scenarios_since"] = _streaks(campaign, reph)
    if wanted("bought"):
        facts.update(_bought_previous_day(campaign, reph, side))
    return facts


def _scenario_facts(campaign: Campaign, side: str, done: int) -> dict[str, Any]:
    """The scenarios' winners: 11.32's balance DRM (RF), the losing record, the completed
    day's win."""
    facts: dict[str, Any] = {}
    scenarios = list(campaign.scenarios.order_by("index", "sequence").values("index", "winner"))
    winners = [s["winner"] for s in scenarios if s["winner"]]
    if campaign.module == "red_factories":
        facts["balance_drm"] = scenario_balance_drm(winners, side)
    wins = sum(1 for winner in winners if winner == side)
    facts["losing_record"] = len(winners) >= 2 and 2 * wins <= len(winners) - wins
    played = [s for s in scenarios if s["index"] == done]
    if not played:
        facts["won_completed"] = False
    elif all(s["winner"] for s in played):
        facts["won_completed"] = any(s["winner"] == side for s in played)
    return facts


def purchase_day(reph: RefitPhase) -> int:
    """The CG day whose purchases 11.617 counts as "the previous CG day's": the day before the
    RePh's — or, in the RePh between two scenarios of one day (RO CG I SSR I.6, "as if the
    second scenario were the next CG day"), that same day, whose purchases so far were made
    before the first scenario."""
    return reph.index if reph.sequence > 1 else reph.index - 1


def _bought_previous_day(campaign: Campaign, reph: RefitPhase, side: str) -> dict[str, int]:
    """11.617: the side's Elite infantry companies and 1st Line companies / AFV platoons bought
    the previous CG day, counted from its RG purchases (RGs of the initial OB are not bought)."""
    index = purchase_day(reph)
    chart = campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side)
    if index < 0 or chart is None:
        return {}
    bought = ReinforcementGroup.objects.filter(
        campaign=campaign, side=side, index=index, source=ReinforcementGroup.Source.PURCHASED
    ).values_list("rg_id", flat=True)
    counts = bought_for_elr(chart.get("groups", []), bought)
    return {
        "elite_companies_previous_day": counts.elite_companies,
        "first_line_previous_day": counts.first_line,
    }
