from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign


class RefitPhase(models.Model):
    """One Refit Phase of a campaign (or a scenario being played, ``kind == "scenario"``).

    The open one (``finished_at`` empty) is where the campaign stands; campaigns.games.step_engine
    says which steps it runs and what comes after it.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rephs")
    kind = models.CharField(max_length=20)
    index = models.PositiveSmallIntegerField(_("CG day"))
    sequence = models.PositiveSmallIntegerField(default=1)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(
        default=dict, blank=True, help_text="What decides the next position: scenario, CG won."
    )

    class Meta:
        ordering = ["campaign", "started_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=models.Q(finished_at__isnull=True),
                name="one_open_reph_per_campaign",
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} {self.kind} day {self.index}#{self.sequence}"


class StepProgress(models.Model):
    """A side's progress on one step of a Refit Phase: done or skipped (with the reason)."""

    class Status(models.TextChoices):
        DONE = "done", _("Done")
        SKIPPED = "skipped", _("Skipped")

    reph = models.ForeignKey(RefitPhase, on_delete=models.CASCADE, related_name="progress")
    side = models.CharField(max_length=20)
    rule = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=Status.choices)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    note = models.TextField(_("what happened"), blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["reph", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["reph", "side", "rule"], name="one_mark_per_step")
        ]

    def __str__(self) -> str:
        return f"{self.side} {self.rule}: {self.status}"
