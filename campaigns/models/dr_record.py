"""Defiant Russia's turn record: each combat the dice helper rolled, in the order it was rolled,
with the phase it belongs to and what was chosen for it (campaigns.shortgames.segment_record_dr)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign


class DrCombatRecord(models.Model):
    """One side's roll of one combat (7.11): the attacker's phase it belongs to (a step id of
    the turn sequence: ``axis_combat``, ``axis_breakthrough_combat``, …), its place in the turn's
    order, and as data what was chosen (units as typed, nationality, terrain, leaders, air points)
    and what came of it (dice, hit numbers, hits)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="dr_combats")
    index = models.PositiveSmallIntegerField(_("turn"))
    order = models.PositiveSmallIntegerField(_("order"))
    side = models.CharField(max_length=20)  # the side that rolled
    step = models.CharField(max_length=60)  # the phase: the attacker's (breakthrough) combat
    role = models.CharField(max_length=10)  # attacker or defender
    detail = models.JSONField(default=dict)
    note = models.CharField(_("which combat"), max_length=100, blank=True)
    form_token = models.CharField(max_length=20, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "index", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "index", "order"], name="one_dr_combat_per_place_in_order"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} turn {self.index} #{self.order} {self.side} {self.step}"
