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


@register.inclusion_tag("campaigns/live/refresh.html", takes_context=True)
def live_refresh(context: template.Context, *blocks: str) -> dict[str, Any]:
    """``{% live_refresh "cpp" "this-reph" %}``: when the poll moves (``campaign-changed``), the
    page's address is fetched again and these blocks (by id) are swapped in place — blocks that
    hold no half-typed form, and none while the member is typing inside it."""
    inside = ", ".join(f"#{block}" for block in blocks)
    return {
        "url": context["request"].get_full_path(),
        "first": blocks[0],
        "others": ",".join(f"#{block}" for block in blocks[1:]),
        "inside": inside,
    }
