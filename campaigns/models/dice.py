from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign


class DiceCommitment(models.Model):
    """The server's commitment to the dice of one Refit Phase (or scenario, or short-game turn)
    and one scope: a secret seed, whose SHA-256 ``seed_hash`` every member who may see the scope
    reads before the rolls; the seed is shown once the phase is over (``revealed_at``). Each
    roll made under it is HMAC-SHA256(seed, "counter:client:block") (campaigns.dice.verify;
    docs/verifiable-dice.md). One commitment per phase and scope, so that a revealed seed never
    tells one side the other side's secret rolls."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="commitments")
    # The Refit Phase (or scenario) the rolls belong to; empty for a short game's turn and in an
    # imported campaign.
    reph = models.ForeignKey(
        "campaigns.RefitPhase", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    index = models.PositiveSmallIntegerField(_("CG day"))
    visibility = models.CharField(max_length=20)
    # 32 random bytes as 64 hex digits; empty when an imported file did not hold it.
    seed = models.CharField(max_length=64, blank=True)
    seed_hash = models.CharField(max_length=64)
    # The counter the next roll takes (0, 1, 2 …).
    next_counter = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["campaign", "visibility"])]

    def __str__(self) -> str:
        return f"{self.campaign_id} day {self.index} {self.visibility} {self.seed_hash[:12]}"


class DiceRoll(models.Model):
    """Every roll the app makes, as it was made. Never re-rolled; a referee may void one with a
    reason, which stays in the log. ``visibility`` is a scope (campaigns.access)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    index = models.PositiveSmallIntegerField(_("CG day"))
    side = models.CharField(_("rolled for"), max_length=20, blank=True)
    step = models.CharField(_("step / rule"), max_length=20)
    table_id = models.CharField(_("table"), max_length=60, blank=True)
    kind = models.CharField(_("roll"), max_length=4)
    faces = models.JSONField(_("dice"))
    modifiers = models.JSONField(_("modifiers"), default=list, blank=True)
    original = models.SmallIntegerField(_("original"))
    final = models.SmallIntegerField(_("final"))
    result = models.JSONField(_("result"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    # The note in every language of the app ({"en": …, "ja": …}) when the app wrote part of it
    # (what a roll booked, campaigns.said): each reader reads their own. Empty for a note a
    # person typed alone and for rolls from before it, which show ``note`` as it was written.
    note_words = models.JSONField(_("note in every language"), default=dict, blank=True)
    # The id of the turn_sequence.json step a short game's step table was rolled in (the turn
    # page lists a step's rolls by it); empty for any other roll. ``step`` holds the rule.
    sequence_step = models.CharField(_("turn step"), max_length=60, blank=True)
    # The token of the page that asked for the roll, so that the same form sent twice finds the
    # rolls it made instead of rolling again. Not unique: a combat rolls one die per point,
    # every die under the same token.
    form_token = models.CharField(max_length=40, blank=True)
    visibility = models.CharField(max_length=20)
    # Verifiable dice: the commitment the faces come from, the roll's counter under it and the
    # random value the roller's browser sent (hex, "" without one). No commitment: a roll made
    # before commitments (or by a roller injected in tests), not verifiable.
    commitment = models.ForeignKey(
        DiceCommitment, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    counter = models.PositiveIntegerField(null=True, blank=True)
    client_value = models.CharField(max_length=64, blank=True)
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    rolled_at = models.DateTimeField(auto_now_add=True, db_index=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    void_reason = models.CharField(_("why it was voided"), max_length=200, blank=True)

    class Meta:
        ordering = ["-rolled_at", "-id"]
        indexes = [
            models.Index(fields=["campaign", "visibility", "-rolled_at"]),
            # The log's pages, newest first, whichever scopes the viewer sees (issue 18).
            models.Index(fields=["campaign", "-rolled_at", "-id"], name="dice_log_newest"),
            # The statistics and the step filter read only this index (issue 18).
            models.Index(
                fields=["campaign", "visibility", "side", "kind", "original", "voided_at", "step"],
                name="dice_stats",
            ),
            # The step filter's choices: walked from one step to the next (issue 18).
            models.Index(fields=["campaign", "visibility", "step"], name="dice_steps"),
            # A side's rolls of a table (the booby-trap drops the level reads).
            models.Index(fields=["campaign", "side", "table_id"], name="dice_table"),
            models.Index(fields=["campaign", "index", "sequence_step"]),
            models.Index(fields=["campaign", "form_token"]),
            # A Refit Phase step's rolls of one side since the RePh began (the step page), a
            # range of this index however many rolls the campaign has (issue 18).
            models.Index(
                fields=["campaign", "step", "index", "side", "rolled_at"], name="dice_step_rolls"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.faces} → {self.final} ({self.step})"


class RollTotal(models.Model):
    """The rolls not voided counted per scope, side, table, kind and unmodified total — what the
    dice log's statistics and the after-action report's dice luck read. Derived data, never
    written by the app: triggers on ``DiceRoll`` (migration 0045_rolls_roll_totals, SQLite and
    PostgreSQL, ``campaigns.kept_counts``) count each roll inserted and take off each roll
    deleted, changed in its key, or voided, whatever writes the rolls. A key without rolls has no
    row, so the table equals the rolls' ``GROUP BY`` (tests/campaigns/dice/test_roll_totals.py):
    one row per kind of roll, not one per roll (issue 18, docs/decisions.md). Not exported and
    not in a history snapshot: an import's rolls count themselves into it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    visibility = models.CharField(max_length=20)
    side = models.CharField(max_length=20, blank=True)
    table_id = models.CharField(max_length=60, blank=True)
    kind = models.CharField(max_length=4)
    original = models.SmallIntegerField()
    rolls = models.PositiveIntegerField()  # how many (never 0: the row goes)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "visibility", "side", "table_id", "kind", "original"],
                name="roll_total_key",
            )
        ]

    def __str__(self) -> str:
        key = f"{self.visibility} {self.side} {self.table_id} {self.kind} {self.original}"
        return f"{key}: ×{self.rolls}"
