"""History sentences of fortification purchases (``refit.fortifications.services``)."""

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.history.labels import event_day, event_side
from campaigns.history.sentences import INT, TEXT, sentence
from campaigns.models import Campaign, CampaignEvent
from refit.fortifications.records import describe_order, item_words


@sentence(
    "fortification.purchased",
    data={
        "side": TEXT,
        "index": INT,
        "item": TEXT,
        "detail": TEXT,
        "quantity": INT,
        "fpp": INT,
        "override": TEXT,
    },
)
def _purchased(event: CampaignEvent) -> str:
    data = event.data
    text = _("%(side)s bought %(what)s for %(fpp)s FPP (%(day)s).")
    if data.get("override"):
        text = _("%(side)s bought %(what)s for %(fpp)s FPP (%(day)s), past a limit: %(reason)s")
    if data.get("under_construction"):
        text = _("%(side)s bought %(what)s Under Construction for %(fpp)s FPP (%(day)s).")
    return text % {
        "side": event_side(event),
        "what": _fortification_label(event.campaign, data),
        "fpp": data.get("fpp", 0),
        "day": event_day(event),
        "reason": data.get("override", ""),
    }


@sentence(
    "fortification.removed",
    data={"side": TEXT, "index": INT, "item": TEXT, "quantity": INT},
)
def _removed(event: CampaignEvent) -> str:
    return _("%(side)s took back %(what)s (%(day)s).") % {
        "side": event_side(event),
        "what": _fortification_label(event.campaign, event.data),
        "day": event_day(event),
    }


@sentence("fortification.located", data={"side": TEXT, "item": TEXT, "location": TEXT})
def _located(event: CampaignEvent) -> str:
    what = _fortification_label(event.campaign, event.data)
    if event.data.get("lost"):
        return _("%(side)s lost %(what)s: a hex no longer qualified at placement.") % {
            "side": event_side(event),
            "what": what,
        }
    return _("%(side)s recorded where %(what)s is set up.") % {
        "side": event_side(event),
        "what": what,
    }


def _fortification_label(campaign: Campaign, data: dict[str, Any]) -> str:
    """ "2 × Foxhole (3S)" in the reader's language, from the item id the event stored."""
    if data.get("what"):
        return str(data["what"])
    charts = campaign.game.files.get("tables", {}).get("charts", [])
    table = next(
        (c for c in charts if c.get("kind") in ("purchase_costs", "fortification_costs")), {}
    )
    item = next((i for i in table.get("items", []) if i["id"] == data.get("item")), {})
    names = item.get("name") or {}
    name = names.get("ja" if (get_language() or "").startswith("ja") else "en") or names.get(
        "en", item_words(str(data.get("item", "")))
    )
    order = data.get("order")
    words = describe_order(order) if isinstance(order, dict) else ""
    detail = words or data.get("detail") or ""
    return f"{data.get('quantity', 1)} × {name}" + (f" ({detail})" if detail else "")
