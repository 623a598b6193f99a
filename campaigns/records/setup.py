"""What the players follow when they set up a scenario of a campaign game with rule changes of
its own (RF CG I, 11.58: CG6 OBA modules, CG8 sniper counters per map group, CG9 Soviet AFV RGs
bought for RB, CG17 self-rally attempts), from the data (``cg_rule_changes``) into the reader's
words. The counts and limits are the data's (campaign_games.json); the sentences, CG8's 15
hexes among them, are the rule's words."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.games.map_groups import SetupLimit, setup_limits
from campaigns.models import Campaign


def _definition(campaign: Campaign) -> dict:
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    return definitions.get(campaign.campaign_game) or {}


def limit_words(limit: SetupLimit) -> str:
    """One limit as a sentence, naming its rule."""
    params = {"value": limit.value, "per": limit.per_map_group, "rule": limit.rule}
    if limit.kind == "sniper_counters_per_side":
        return (
            _(
                "Each side places %(value)s sniper counters per scenario, %(per)s on each map "
                "group, each at least 15 hexes from the others; the acting sniper is chosen at "
                "random (%(rule)s)."
            )
            % params
        )
    if limit.kind == "oba_modules_max_per_scenario":
        return _("At most %(value)s OBA modules per side per scenario (%(rule)s).") % params
    if limit.kind == "self_rally_attempts_max":
        return _("Up to %(value)s self-rally attempts per side (%(rule)s).") % params
    if limit.kind == "rb_afv_no_south_edge":
        return (
            _(
                "Soviet AFV RGs bought for the RB map group may not enter from a south-edge ground "
                "hex (%(rule)s)."
            )
            % params
        )
    return limit.rule


def setup_lines(campaign: Campaign) -> list[str]:
    """The campaign game's set-up limits, each in the reader's words (none for most games)."""
    return [limit_words(limit) for limit in setup_limits(_definition(campaign))]


def enters_restriction(campaign: Campaign, side: str, rg_id: str, map_group: str) -> str:
    """RF CG I's CG9 for an RG of the RG Purchase Record: a Soviet AFV RG (an A- RG) bought for
    RB may not enter from a south-edge ground hex; "" for every other RG."""
    if side != "soviet" or not rg_id.startswith("A") or map_group != "RB":
        return ""
    cg9 = [
        limit
        for limit in setup_limits(_definition(campaign))
        if limit.kind == "rb_afv_no_south_edge"
    ]
    if not cg9:
        return ""
    return _("not from a south-edge ground hex (%(rule)s)") % {"rule": cg9[0].rule}
