"""A correction the players of a campaign without a referee ask of each other
(campaigns.corrections)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign
from campaigns.models.dice import DiceRoll


class Correction(models.Model):
    """One side's player asks for what only a referee does (void a roll, adjust its own ledger,
    undo a change only the referee could undo: the change is named by the ``correction.asked``
    event's ``change``, so that the export links it as the history links its events);
    a player of the other side agrees (it is carried out) or declines, or the asker withdraws.

    ``visibility`` is the scope of the details (campaigns.access): the roll's scope, or the
    asking side's for a ledger adjustment. The kind and the reason are public.
    """

    VOID, ADJUST, UNDO = "void", "adjust", "undo"
    KINDS = [
        (VOID, _("void a roll")),
        (ADJUST, _("ledger adjustment")),
        (UNDO, _("undo a change")),
    ]
    OPEN, AGREED, DECLINED, WITHDRAWN = "open", "agreed", "declined", "withdrawn"
    STATES = [
        (OPEN, _("open")),
        (AGREED, _("agreed")),
        (DECLINED, _("declined")),
        (WITHDRAWN, _("withdrawn by the asker")),
    ]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="corrections")
    kind = models.CharField(max_length=10, choices=KINDS)
    side = models.CharField(_("asked for"), max_length=20)
    visibility = models.CharField(max_length=20)
    reason = models.CharField(_("reason"), max_length=200)
    roll = models.ForeignKey(
        DiceRoll, on_delete=models.CASCADE, null=True, blank=True, related_name="corrections"
    )
    ledger = models.CharField(max_length=3, blank=True)
    index = models.PositiveSmallIntegerField(null=True, blank=True)
    amount = models.IntegerField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=STATES, default=OPEN)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Names as they were (an imported request has no users here).
    asked_by_name = models.CharField(max_length=150, blank=True)
    asked_at = models.DateTimeField(auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    answered_by_name = models.CharField(max_length=150, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "-asked_at", "-id"]
        indexes = [models.Index(fields=["campaign", "state"])]

    def __str__(self) -> str:
        return f"{self.side} asks {self.kind} ({self.state})"
