"""Fortifications a side bought with FPP (RF 11.621, SaP 11.619), secret to it and the referee."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign


class FortificationPurchase(models.Model):
    """One line of the Fortification Purchase Record: ``quantity`` × an item of the purchase
    table bought on CG day ``index`` for ``fpp`` FPP (the FPP debit is its own LedgerEntry).

    ``detail`` says which variant (foxhole size, minefield factors, pillbox factors, HIP unit
    type, Set DC detonating unit …) in the words of ``details``; ``location`` is written at
    set-up (11.6242/11.6244, SaP 11.6213), ``hexes`` when bought Under Construction (SaP 11.6191).
    """

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="fortification_purchases"
    )
    side = models.CharField(max_length=20)
    index = models.PositiveSmallIntegerField(_("CG day"))
    item = models.CharField(_("fortification"), max_length=30)
    detail = models.CharField(_("which"), max_length=100, blank=True)
    details = models.JSONField(default=dict, blank=True)
    quantity = models.PositiveSmallIntegerField(_("quantity"), default=1)
    fpp = models.PositiveSmallIntegerField(_("FPP"))
    under_construction = models.BooleanField(_("under construction"), default=False)
    hexes = models.CharField(_("hexes"), max_length=200, blank=True)
    location = models.CharField(_("set-up Location"), max_length=200, blank=True)
    ledger_entry = models.OneToOneField(
        "campaigns.LedgerEntry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="fortification",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "side", "index", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(quantity__gte=1), name="fortification_quantity_positive"
            )
        ]
        indexes = [
            # The record's pages (newest first) and a day's own purchases (issue 18).
            models.Index(fields=["campaign", "side", "index", "id"], name="fortification_record"),
            # The booby-trap purchases (the level) and what is still to be set up (Total #).
            models.Index(fields=["campaign", "side", "item"], name="fortification_item"),
            models.Index(
                fields=["campaign", "side", "item"],
                condition=Q(location=""),
                name="fortification_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.side} day {self.index}: {self.quantity} × {self.item} ({self.fpp} FPP)"
