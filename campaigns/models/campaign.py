import secrets
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaigns.games.registry import CampaignGame, GameModule, Period, Side, get_module


class Role(models.TextChoices):
    PLAYER = "player", _("Player")
    REFEREE = "referee", _("Referee")
    OBSERVER = "observer", _("Observer")


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=100)
    module = models.CharField(_("game"), max_length=40)
    campaign_game = models.CharField(_("campaign game"), max_length=40)
    data_version = models.CharField(
        _("game data version"),
        max_length=20,
        help_text=_("The version of the game's data file the campaign was created with."),
    )
    period_index = models.PositiveSmallIntegerField(
        _("current CG day / turn"), default=0, help_text=_("Position in the calendar, from 0.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The campaign's end (campaigns.reveal): once revealed, every member sees both sides as they
    # were and the campaign is read-only except for notes (campaigns.access).
    revealed_at = models.DateTimeField(_("revealed at"), null=True, blank=True)
    revealed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Without a referee: the player of each side who agreed to the reveal ({side: user id}).
    reveal_consents = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def game(self) -> GameModule:
        return get_module(self.module)

    @property
    def cg(self) -> CampaignGame:
        return self.game.campaign_game(self.campaign_game)

    @property
    def sides(self) -> tuple[Side, ...]:
        return self.game.sides

    @property
    def current_period(self) -> Period:
        periods = self.cg.periods
        return periods[min(self.period_index, len(periods) - 1)]

    def side(self, key: str) -> Side:
        return self.game.side(key)


class Membership(models.Model):
    """A user's place in a campaign. Several users may share a side (team play)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    side = models.CharField(_("side"), max_length=20, blank=True)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    # Since when the member holds the role above (what they have seen of a side since then).
    seated_at = models.DateTimeField(_("in this role since"), null=True, blank=True)
    # A seat that would see a side's secrets, waiting for that side's consent
    # (campaigns.members.consent): the role asked for, when, and who agreed for which side
    # ({side key: user id}). Until then the member keeps ``role``.
    requested_role = models.CharField(_("role asked for"), max_length=10, blank=True)
    requested_side = models.CharField(_("side asked for"), max_length=20, blank=True)
    requested_at = models.DateTimeField(_("asked at"), null=True, blank=True)
    consents = models.JSONField(_("consents"), default=dict, blank=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.CheckConstraint(
                condition=(Q(role=Role.PLAYER) & ~Q(side="")) | (~Q(role=Role.PLAYER) & Q(side="")),
                name="players_and_only_players_have_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}: {self.role} {self.side}".strip()

    @property
    def since(self):
        """Since when the member holds their role."""
        return self.seated_at or self.joined_at

    @property
    def is_pending(self) -> bool:
        return bool(self.requested_role)


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """A link that lets anyone holding it join a campaign in one role (reusable, revocable)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    side = models.CharField(_("side"), max_length=20, blank=True)
    token = models.CharField(max_length=64, unique=True, default=_new_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(role=Role.PLAYER) & ~Q(side="")) | (~Q(role=Role.PLAYER) & Q(side="")),
                name="player_invitations_and_only_those_have_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign}: {self.role} {self.side}".strip()

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class CampaignEvent(models.Model):
    """One recorded change to campaign state: who, when, what — and who may read about it.

    ``visibility`` is a scope understood by campaigns.access: "public", "referee" or a
    side key. ``data`` holds what changed (before/after values) so history can be shown and,
    later, undone.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=60)
    visibility = models.CharField(max_length=20, default="public")
    target_type = models.CharField(max_length=60, blank=True)
    target_id = models.BigIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # data.refit_step's RePh and roll (campaigns.history.services.refit_step) in columns of their
    # own, so that a step's changes and a roll's booking are found by an index, not by reading
    # the JSON of every event of the campaign. Filled by ``tag_step``.
    step_reph = models.BigIntegerField(null=True, blank=True)
    step_roll = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["campaign", "visibility", "-created_at"]),
            models.Index(fields=["campaign", "step_reph"]),
            models.Index(fields=["campaign", "step_roll"]),
            # A roll's events (who rolled an imported roll, on the dice log's page; issue 18).
            models.Index(fields=["campaign", "target_type", "target_id"], name="event_target"),
            # The history's pages, newest first, whichever scopes the viewer sees (issue 18).
            models.Index(fields=["campaign", "-created_at", "-id"], name="event_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.action} in {self.campaign_id} by {self.actor_id}"

    def tag_step(self) -> None:
        """Copy data.refit_step's RePh and roll into their indexed columns."""
        step = (self.data or {}).get("refit_step") or {}
        self.step_reph = step.get("reph")
        self.step_roll = step.get("roll")
