"""Who rolled and who voided a roll, as the rolls' history events tell it.

Rolls imported from a file have no users of this installation: their ``dice.rolled`` and
``dice.voided`` events keep the names (campaigns.history.labels.event_actor_name).
"""

from __future__ import annotations

from collections.abc import Iterable

from campaigns.history.labels import event_actor_name
from campaigns.models import CampaignEvent, DiceRoll

ROLL_TARGET = DiceRoll._meta.label_lower
ROLL_ACTORS = {"dice.rolled": "rolled_by", "dice.voided": "voided_by"}


def roll_actor_names(events: Iterable[CampaignEvent]) -> dict[tuple[int, str], str]:
    """``{(roll id, "rolled_by" | "voided_by"): name}``."""
    names = {}
    for event in events:
        role = ROLL_ACTORS.get(event.action)
        if role and event.target_type == ROLL_TARGET and event.target_id is not None:
            name = event_actor_name(event)
            if name:
                names[(event.target_id, role)] = name
    return names
