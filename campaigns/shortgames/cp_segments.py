"""Cherkassy Pocket's record of each activation segment: the order of movement and combat each
side declared (5.4, kept on its air power step's mark), for the turn page and the status
sheet."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.models import Campaign, TurnMark
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy.turn_sequence import ORDERS
from campaigns.shortgames.turn_steps import current_day, marks_of, turn_steps, weather_now


@dataclass(frozen=True)
class SegmentOrder:
    segment: int
    side: str
    order: str  # "move_first" | "combat_first"

    def words(self) -> str:
        return ORDERS[self.order].in_language(get_language())


def segment_orders(campaign: Campaign, index: int, marks: Iterable[TurnMark] | None = None):
    """The orders declared on turn ``index``, by segment then side (``marks``: the turn's
    marks when the caller has them already, so the page asks nothing more)."""
    if marks is None:
        marks = TurnMark.objects.filter(campaign=campaign, index=index).exclude(order="")
    found = [
        SegmentOrder(int(mark.step[1]), mark.side, mark.order)
        for mark in marks
        if mark.index == index and mark.order in ORDERS and mark.step[1:2].isdigit()
    ]
    return sorted(found, key=lambda o: (o.segment, o.side))


def orders_text(orders: Iterable[SegmentOrder], side_names: dict[str, str]) -> str:
    """ "Segment 1: German movement first, then combat; …" in the reader's language."""
    parts = [
        _("Segment %(n)s: %(side)s %(order)s")
        % {"n": o.segment, "side": side_names.get(o.side, o.side), "order": o.words()}
        for o in orders
    ]
    return "; ".join(parts)


def segment_now(campaign: Campaign, marks: Iterable[TurnMark] | None = None) -> int | None:
    """The activation segment the turn is at (that of its first step not yet marked), or None
    when the turn is at no activation segment (before segment 1, after segment 2)."""
    marks = marks_of(campaign) if marks is None else list(marks)
    # Asked several times a request (the air points left, the declared order): the answer is
    # kept on the campaign object for the same turn and marks (a new mark is a new answer).
    key = (campaign.period_index, tuple(sorted((m.step, m.side, m.status) for m in marks)))
    kept = getattr(campaign, "_segment_now", None)
    if kept is not None and kept[0] == key:
        return kept[1]
    game = short_games.setup_of(campaign)
    if game is None:
        return None
    steps = turn_steps(campaign, game, weather_now(campaign, current_day(campaign), game), marks)
    current = next((step for step in steps if step.status == "current"), None)
    segment = None if current is None else current.segment
    campaign._segment_now = (key, segment)
    return segment


def current_declaration(campaign: Campaign, side: str) -> tuple[int | None, str | None]:
    """The activation segment the turn is at (its first step not yet marked) and the order
    ``side`` declared for it (5.4; "" when none): (None, None) when the turn is at no
    activation segment."""
    if short_games.setup_of(campaign) is None:
        return None, None
    marks = marks_of(campaign)
    segment = segment_now(campaign, marks)
    if segment is None:
        return None, None
    declared = next(
        (
            o.order
            for o in segment_orders(campaign, campaign.period_index, marks)
            if o.segment == segment and o.side == side
        ),
        "",
    )
    return segment, declared
