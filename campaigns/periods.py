"""A campaign's calendar and sides as the reader names them: the period word (CG day, time
frame, turn), each period's label, the current one, the sides' names. Every feature's pages and
sheets use them; they read the campaign game's data only."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign

# What one step of the calendar is called in each kind of game.
PERIOD_WORDS = {"cg_day": _("CG day"), "time_frame": _("Time frame"), "turn": _("Turn")}


def period_word(campaign: Campaign) -> str:
    return str(PERIOD_WORDS.get(campaign.game.period_kind, _("CG day")))


def current_index(campaign: Campaign) -> int:
    """The calendar row of the campaign's current day (the last one once the campaign is over)."""
    return min(campaign.period_index, len(campaign.cg.periods) - 1)


def day_label(campaign: Campaign, index: int) -> str:
    periods = campaign.cg.periods
    if 0 <= index < len(periods):
        return periods[index].label.in_language(get_language())
    return str(index)


def period_month(campaign: Campaign, index: int | None) -> int | None:
    """The month of a CG day (RF's calendar is dated); None for a time frame, a turn or an
    index outside the calendar."""
    periods = campaign.cg.periods
    if index is None or not 0 <= index < len(periods):
        return None
    try:
        return dt.date.fromisoformat(periods[index].key).month
    except ValueError:
        return None


def day_choices(campaign: Campaign) -> list[tuple[int, str]]:
    language = get_language()
    return [(i, period.label.in_language(language)) for i, period in enumerate(campaign.cg.periods)]


def side_choices(campaign: Campaign) -> list[tuple[str, str]]:
    language = get_language()
    return [(side.key, side.name.in_language(language)) for side in campaign.sides]
