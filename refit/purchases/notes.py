"""What the RG Purchase Record's "Other" column keeps (RF 11.6197, SaP 11.6177): the
pre-registered hexes bought with an RG, where its offboard observer sets up, the Stukas' E7.21
number and a note — secret to the side, written any time after the purchase.
"""

from __future__ import annotations

import hashlib
import json
import re

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.history import services as history
from campaigns.models import Campaign, ReinforcementGroup
from refit.purchases.services import PurchaseError
from refit.rules.purchase_costs import RF


def notes_seen(rg: ReinforcementGroup) -> str:
    """A fingerprint of the RG's written notes, posted back so a page left open cannot
    overwrite what another device saved since (RGs carry no version)."""
    details = rg.details
    values = [details.get(key, "") for key in ("hexes", "observer_location", "note", "e721")]
    return hashlib.sha256(json.dumps(values).encode()).hexdigest()[:16]


def is_stuka(campaign: Campaign, rg: ReinforcementGroup) -> bool:
    """RF S1: how many Stukas come is E7.21's number + 1 (RF9); E7.21 is in the ASL rulebook,
    not in the CG's rules, so the player enters its number."""
    return campaign.module == RF and rg.rg_id == "S1"


def has_observer(campaign: Campaign, rg: ReinforcementGroup) -> bool:
    """OBA modules and observers (O- RGs): where the offboard observer sets up is recorded."""
    return rg.rg_id.startswith("O")


HEX_SPLIT = re.compile(r"[\s,、;]+")


@transaction.atomic
def record_notes(
    campaign: Campaign,
    rg: ReinforcementGroup,
    *,
    seen: str,
    hexes: str,
    observer_location: str,
    note: str,
    by: AbstractBaseUser,
    e721: int | None = None,
) -> ReinforcementGroup:
    """Write the pre-registered hexes, the offboard observer's Location and a note (the MOL
    day …) on an RG: secret to its side, written any time after the purchase."""
    rg = ReinforcementGroup.objects.select_for_update(of=("self",)).get(pk=rg.pk, campaign=campaign)
    if seen != notes_seen(rg):
        raise PurchaseError(
            _("Someone saved this RG's notes since the page was opened; reload and try again.")
        )
    hexes = " ".join(part for part in HEX_SPLIT.split(hexes.strip()) if part)
    allowed = int(rg.details.get("pre_registered_hexes") or 0)
    if hexes and len(hexes.split()) > allowed:
        raise PurchaseError(
            _("%(rg)s was bought with %(n)s pre-registered hex(es); %(given)s are written.")
            % {"rg": rg.label, "n": allowed, "given": len(hexes.split())}
        )
    if observer_location.strip() and not has_observer(campaign, rg):
        raise PurchaseError(_("Only OBA RGs have an offboard observer."))
    if e721 is not None and not is_stuka(campaign, rg):
        raise PurchaseError(_("Only a Stuka RG (S1) has an E7.21 number."))
    before = history.snapshot(rg)
    details = dict(rg.details)
    if e721 is None:
        details.pop("e721", None)
        details.pop("stukas", None)
    else:
        details["e721"] = e721
        details["stukas"] = e721 + 1  # RF9
    for key, value in (
        ("hexes", hexes),
        ("observer_location", observer_location.strip()[:60]),
        ("note", note.strip()[:200]),
    ):
        if value:
            details[key] = value
        else:
            details.pop(key, None)
    rg.details = details
    rg.save(update_fields=["details"])
    history.record_change(
        campaign,
        by,
        "rg.noted",
        visibility=rg.side,
        changes=[(rg, before, history.snapshot(rg))],
        side=rg.side,
        index=rg.index,
        rg=rg.label,
    )
    return rg
