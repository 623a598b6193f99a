"""What the players enter for victory that the rules we have do not give (issue 15): the Stone
Locations of each area a CG VC counts (campaigns.records.cg_victory) and the CVP a unit type is
worth (ASL A26.2, campaigns.records.cvp_table). Public: every member reads them."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign


class StoneLocationTotal(models.Model):
    """The number of Stone Locations in an area of a CG VC ("RB", "RO" a whole map, "region"
    a part of it); ``total`` None: unknown. Rubble changes a map's total (L496)."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="stone_location_totals"
    )
    area = models.CharField(_("area"), max_length=20)
    total = models.PositiveSmallIntegerField(_("Stone Locations"), null=True, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "area"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "area"], name="one_total_per_area")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} {self.area}: {self.total}"


class CvpValue(models.Model):
    """The CVP one unit of a type is worth (A26.2), as the players entered it: the scenario's
    end pre-fills it for an OB line of that type."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="cvp_values")
    unit_type = models.CharField(_("unit type"), max_length=60)
    cvp = models.PositiveSmallIntegerField(_("CVP"))
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "unit_type"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "unit_type"], name="one_cvp_per_type")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} {self.unit_type}: {self.cvp}"
