"""``{% live_poll viewer %}``: the element that keeps a page live (campaigns.live)."""

from __future__ import annotations

from typing import Any

from django import template

from campaigns.access import Viewer
from campaigns.live.token import change_token

register = template.Library()


@register.inclusion_tag("campaigns/live/poll.html")
def live_poll(viewer: Viewer) -> dict[str, Any]:
    return {"campaign": viewer.campaign, "token": change_token(viewer)}
