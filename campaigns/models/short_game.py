"""What a short game (Defiant Russia, Cherkassy Pocket) remembers beyond the shared campaign rows.

The turn is ``Campaign.period_index``; its weather is the turn's ``CampaignDay.weather``; rolls are
``DiceRoll`` rows and changes ``CampaignEvent`` rows like in the campaign games. The map is open in
both games, so nothing here is secret: every row is public, and only a side's player or the referee
may change that side's rows (campaigns.access).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign


class ShortGame(models.Model):
    """The game as it was started: the optional rules in use (Defiant Russia 8.2, 12.0) and the
    game-wide facts that are not a unit's state (Cherkassy Pocket: when the ring closed, which
    victory conditions have scored)."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="short_game")
    options = models.JSONField(_("optional rules"), default=list, blank=True)
    pocket_formed_index = models.PositiveSmallIntegerField(
        _("pocket closed on turn"), null=True, blank=True
    )
    victory = models.JSONField(
        _("victory conditions met"),
        default=dict,
        blank=True,
        help_text=_("Condition id → the turn index it was met on."),
    )
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.campaign_id} options {self.options}"


class UnitState(models.TextChoices):
    FULL = "full", _("Full strength")
    REDUCED = "reduced", _("Reduced")
    AWAITING = "awaiting", _("Awaiting reinforcement")
    ELIMINATED = "eliminated", _("Eliminated")
    ELIMINATED_OOS = "eliminated_oos", _("Eliminated out of supply (never returns)")
    RECONSTITUTION = "reconstitution", _("Eligible for Reconstitution")
    RECOVERY_1 = "recovery_1", _("Recovery box, 1 step")
    RECOVERY_2 = "recovery_2", _("Recovery box, 2 steps")
    REMOVED = "removed", _("Removed from play")


# Which states each game knows (DR 5.1/10.13; CP 11.10 boxes, 12.1, 12.2).
GAME_STATES = {
    "defiant_russia": (
        UnitState.FULL,
        UnitState.REDUCED,
        UnitState.AWAITING,
        UnitState.ELIMINATED,
        UnitState.ELIMINATED_OOS,
        UnitState.REMOVED,
    ),
    "cherkassy_pocket": (
        UnitState.FULL,
        UnitState.REDUCED,
        UnitState.AWAITING,
        UnitState.ELIMINATED,
        UnitState.RECONSTITUTION,
        UnitState.RECOVERY_1,
        UnitState.RECOVERY_2,
        UnitState.REMOVED,
    ),
}
ON_MAP = (UnitState.FULL, UnitState.REDUCED)


class GameUnit(models.Model):
    """One counter of a short game's roster, with its printed values and its state now.

    ``full`` and ``reduced`` are the strength line as printed ("6-6" strength-movement in
    Defiant Russia; "6-8-12" attack-defense-movement or "12-8" in Cherkassy Pocket).
    ``arrival_turn`` is the game turn printed on a reinforcement counter (not a calendar index).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="units")
    side = models.CharField(max_length=20)
    name = models.CharField(_("name"), max_length=60)
    unit_type = models.CharField(_("type"), max_length=30)
    nationality = models.CharField(_("nationality"), max_length=20, blank=True)
    formation = models.CharField(_("formation"), max_length=40, blank=True)
    size = models.CharField(_("size"), max_length=20, blank=True)
    full = models.CharField(_("full strength"), max_length=20, blank=True)
    reduced = models.CharField(_("reduced strength"), max_length=20, blank=True)
    steps = models.PositiveSmallIntegerField(_("steps"), default=2)
    setup = models.CharField(_("set-up code or hex"), max_length=20, blank=True)
    arrival_turn = models.PositiveSmallIntegerField(_("arrival turn"), null=True, blank=True)
    arrival_edge = models.CharField(_("entry edge"), max_length=10, blank=True)
    state = models.CharField(
        _("state"), max_length=20, choices=UnitState.choices, default=UnitState.FULL
    )
    hex = models.CharField(_("hex"), max_length=20, blank=True)
    out_of_supply = models.BooleanField(_("out of supply"), default=False)
    msl = models.BooleanField(_("MSL (maintenance step loss)"), default=False)
    artillery_used = models.BooleanField(_("artillery used (ACT)"), default=False)
    in_pocket = models.BooleanField(_("Stemmermann Group"), default=False)
    marked_n = models.BooleanField(_("marked N"), default=False)
    # Cherkassy Pocket 11.18's exception: a 5 MC tank brigade that starts the game with 5 GTC
    # attacks with 5 GTC all game. The set-up that says which is not in our rules: entered.
    with_5gtc = models.BooleanField(_("starts with 5 GTC"), default=False)
    # Cherkassy Pocket 11.22: an artillery unit's range in hexes, printed left of its branch
    # symbol. Not in our rules: entered from the counter; None shows "unknown".
    artillery_range = models.PositiveSmallIntegerField(
        _("artillery range (hexes)"), null=True, blank=True
    )
    reconstituted = models.BooleanField(_("returned by reconstitution"), default=False)
    notes = models.CharField(_("notes"), max_length=200, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "side", "id"]
        indexes = [models.Index(fields=["campaign", "side"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(steps__gte=1) & Q(steps__lte=2), name="unit_has_one_or_two_steps"
            )
        ]

    def __str__(self) -> str:
        return f"{self.side} {self.name} ({self.state})"

    @property
    def on_map(self) -> bool:
        return self.state in ON_MAP


class TurnMark(models.Model):
    """A side's mark on one step of a turn's sequence: done, or skipped with the reason."""

    class Status(models.TextChoices):
        DONE = "done", _("Done")
        SKIPPED = "skipped", _("Skipped")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turn_marks")
    index = models.PositiveSmallIntegerField(_("turn"))
    side = models.CharField(max_length=20)
    step = models.CharField(max_length=60)
    status = models.CharField(max_length=10, choices=Status.choices)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    note = models.TextField(_("what happened"), blank=True)
    # Cherkassy Pocket 5.4: the order of movement and combat the side declared for the
    # activation segment as it marked the segment's air power step ("move_first",
    # "combat_first"; blank elsewhere).
    order = models.CharField(_("declared order"), max_length=20, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "index", "at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "index", "side", "step"], name="one_mark_per_turn_step"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} turn {self.index} {self.side} {self.step}: {self.status}"


class PointKind(models.TextChoices):
    REPLACEMENT = "replacement", _("Replacement points")
    AIR = "air", _("Air points")


class PointEntry(models.Model):
    """One movement of a side's replacement or air points in a turn (append-only, signed):
    the turn's allotment (with its deductions), a restore (−1) or rebuild (−2) of ``unit``,
    air points used, a referee adjustment. Points are not saved from turn to turn (DR 10.12)."""

    class Action(models.TextChoices):
        RECEIVED = "received", _("Received")
        RESTORE = "restore", _("Restored to full strength")
        REBUILD = "rebuild", _("Rebuilt at reduced strength")
        USED = "used", _("Used")
        ADJUSTMENT = "adjustment", _("Adjustment")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="points")
    side = models.CharField(max_length=20)
    index = models.PositiveSmallIntegerField(_("turn"))
    kind = models.CharField(max_length=20, choices=PointKind.choices)
    action = models.CharField(max_length=20, choices=Action.choices)
    amount = models.SmallIntegerField(_("points"))
    unit = models.ForeignKey(
        GameUnit, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    # Cherkassy Pocket 11.16: the Soviet Front whose share of the air points this is ("1uf",
    # "2uf"), or blank (points no Front owns: turn 0's, after the pocket, the German's).
    front = models.CharField(_("front"), max_length=10, blank=True)
    # Cherkassy Pocket 11.16: the activation segment whose air points these are (1, 2): they
    # are spent in that segment only and lapse at its end. None elsewhere (and for points
    # booked while the turn is at no activation segment).
    segment = models.PositiveSmallIntegerField(_("activation segment"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "index", "side", "kind", "id"]
        indexes = [models.Index(fields=["campaign", "index", "side"])]

    def __str__(self) -> str:
        return f"{self.side} turn {self.index} {self.kind} {self.action} {self.amount:+d}"


class ControlPoint(models.Model):
    """Who holds a named place now (DR victory and replacement cities, CP victory hexes), and
    whether it is cut off from its side's map edge by rail (DR 10.14, 10.15)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="control")
    key = models.CharField(max_length=40)
    controller = models.CharField(_("held by"), max_length=20, blank=True)
    cut_off = models.BooleanField(_("cut off by rail"), default=False)
    index = models.PositiveSmallIntegerField(_("since turn"), default=0)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="one_control_per_place")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} {self.key}: {self.controller or '-'}"


class RefereeTable(models.Model):
    """A table the rules we have leave out (Cherkassy Pocket's weather table, CRT, …), filled in
    by the referee for this game in the shape the module's referee slot describes."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="referee_tables")
    slot = models.CharField(max_length=40)
    data = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["campaign", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "slot"], name="one_table_per_slot")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} {self.slot}"


class UnitLoss(models.Model):
    """Steps a unit lost in a turn, booked with the change of its state (by hand, a combat's
    result entered on the unit, a CP tank breakdown, a DR airborne drop) in the same event, so
    that taking the change back takes the loss back (campaigns.shortgames.per_turn). The unit's
    name is kept, not the row: a unit removed from the roster later keeps its losses."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="unit_losses")
    index = models.PositiveSmallIntegerField(_("turn"))
    side = models.CharField(max_length=20)
    unit = models.CharField(_("unit"), max_length=60)
    steps = models.PositiveSmallIntegerField(_("steps lost"))
    eliminated = models.BooleanField(_("eliminated"), default=False)
    state_before = models.CharField(max_length=20, choices=UnitState.choices)
    state_after = models.CharField(max_length=20, choices=UnitState.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "index", "id"]
        indexes = [models.Index(fields=["campaign", "index"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(steps__gte=1) & Q(steps__lte=2), name="unit_loss_one_or_two_steps"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} turn {self.index} {self.side} {self.unit} -{self.steps}"


class TurnVictoryPoints(models.Model):
    """A side's victory points as they stood when its turn ended (the turn marker advanced),
    computed by the victory page's own function and kept as a number; taken back with the
    advance (campaigns.shortgames.per_turn). Defiant Russia: both sides (13.0); Cherkassy
    Pocket: the Soviet's."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turn_vp")
    index = models.PositiveSmallIntegerField(_("turn"))
    side = models.CharField(max_length=20)
    vp = models.IntegerField(_("victory points"))

    class Meta:
        ordering = ["campaign", "index", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "index", "side"], name="one_vp_per_turn_and_side"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} turn {self.index} {self.side}: {self.vp} VP"
