"""What the Refit Phase remembers beyond the campaign models: the perimeter maps (11.605–11.6066).

Hexes are stored by their printed names ("H41", "RBH41"), so the rows read like the rules and
survive a change of the map's configured dimensions.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, RefitPhase


class MapTerrain(models.Model):
    """The water-obstacle hexes of a campaign's map, marked once and kept (shore hexes follow
    from them). No terrain is copied from other software."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="map_terrain")
    water = models.JSONField(_("water-obstacle hexes"), default=list, blank=True)
    version = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"{self.campaign_id} terrain"


class PerimeterState(models.Model):
    """One Refit Phase's perimeter step: control, fires, markers, non-ground pockets, escapes,
    and — once recorded — the public result. Public, like the perimeters themselves."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="perimeters")
    reph = models.ForeignKey(
        RefitPhase, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    index = models.PositiveSmallIntegerField(_("CG day"))
    control = models.JSONField(default=dict, blank=True)  # {hex: side} — control markers
    fires = models.JSONField(default=list, blank=True)
    markers = models.JSONField(default=list, blank=True)  # [{side, hex, via, target, kind}]
    non_ground = models.JSONField(default=list, blank=True)  # [{side, hexes, label}]
    escapes = models.JSONField(default=list, blank=True)  # [{side, units, roll, final, …}]
    recorded = models.JSONField(default=dict, blank=True)  # the public result, once recorded
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "reph"], name="one_perimeter_per_reph")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} perimeter day {self.index}"


class PerimeterUnits(models.Model):
    """Where one side's ground units are, for the computation. Secret to the side and the
    referee until the side declares them (units that stay hidden are simply not entered)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    state = models.ForeignKey(PerimeterState, on_delete=models.CASCADE, related_name="unit_rows")
    side = models.CharField(max_length=20)
    units = models.JSONField(default=list, blank=True)  # [{id, kind, hex, level}]
    declared = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["state", "side"]
        constraints = [
            models.UniqueConstraint(fields=["state", "side"], name="one_unit_list_per_side")
        ]

    def __str__(self) -> str:
        return f"{self.state_id} {self.side} units"


class ArmorReserveVehicle(models.Model):
    """One AFV of SaP's German Armor Reserve (CG7.21, issue 16): 48 at the CG start, the 9 July
    AM AFVs left off-map join it (CG-5.2). Secret to the German side and the referee, like its
    OB. The rules are refit.rules.reserve; the changes refit.reserve.services."""

    class State(models.TextChoices):
        RESERVE = "reserve", _("in the reserve")
        IN_PLAY = "in_play", _("entered play")

    class Repair(models.TextChoices):
        READY = "", _("ready")
        MALFUNCTIONED = "malfunctioned", _("weapon malfunctioned")
        IMMOBILIZED = "immobilized", _("immobilized, under repair")
        WRECK_UNDER_REPAIR = "wreck_under_repair", _("wreck under repair")

    class Origin(models.TextChoices):
        INITIAL = "initial", _("the CG start")
        CG5 = "cg5", _("9 July AM, left off-map (CG-5.2)")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="armor_reserve")
    serial = models.PositiveSmallIntegerField(_("number"))
    vehicle_type = models.CharField(_("AFV"), max_length=40)
    origin = models.CharField(_("from"), max_length=10, choices=Origin.choices)
    armor_leader = models.CharField(_("armor leader"), max_length=20, blank=True)
    state = models.CharField(
        _("where"), max_length=10, choices=State.choices, default=State.RESERVE
    )
    repair = models.CharField(
        _("repair"), max_length=20, choices=Repair.choices, default="", blank=True
    )
    entered_index = models.PositiveSmallIntegerField(_("entered in"), null=True, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "serial"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "serial"], name="armor_reserve_serial_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} AR {self.serial} {self.vehicle_type}"


class ScenarioControl(models.Model):
    """The control changes a scenario's end recorded (11.605: the next Refit Phase's perimeter
    starts from the last one's control and these changes). Public, like the perimeters.
    ``changes`` is ``[{"hex": "H41", "from": side or "", "to": side or ""}]`` in the order they
    were entered, one entry per hex ("" is no control marker)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    scenario = models.OneToOneField(
        "campaigns.Scenario", on_delete=models.CASCADE, related_name="control_record"
    )
    changes = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["campaign", "scenario"]

    def __str__(self) -> str:
        return f"{self.campaign_id} scenario {self.scenario_id} control"
